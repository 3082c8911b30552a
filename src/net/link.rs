//! The transport of a game across machines (issue 30): replicon's messages over renet's
//! netcode.io (UDP). A [`NetServer`] carries what the [`Host`] answers; a [`NetClient`]
//! carries a player's hello and orders and brings back what the host sends. Each keeps its
//! own small Bevy app for the transport and is pumped by its owner (the window's frame, the
//! `serve` loop, a test), so the game itself never runs inside the network code.

use super::code::JoinCode;
use super::host::{Host, Outbox, Who};
use super::protocol::{FromHost, Hello, NETCODE_PROTOCOL_ID, SendOrder, Wish, version};
use crate::sim::order::Order;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::bytes::Bytes;
use bevy_replicon::prelude::*;
use bevy_replicon::shared::message::ctx::{
    ClientReceiveCtx, ClientSendCtx, ServerReceiveCtx, ServerSendCtx,
};
use bevy_replicon_renet::netcode::{
    ClientAuthentication, NetcodeClientTransport, NetcodeServerTransport, ServerAuthentication,
    ServerConfig,
};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetChannelsExt, RenetClient, RenetServer, RepliconRenetPlugins};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeSet;
use std::net::{SocketAddr, UdpSocket};
use std::time::SystemTime;

/// How many clients one host takes at once: two players and some spectators.
pub const MAX_CLIENTS: usize = 16;

/// Messages travel as JSON: the views carry optional fields that a compact format without
/// field names cannot skip, and JSON is what `warhorse script --json` prints already.
fn to_json<C, M: Serialize>(_: &mut C, m: &M, out: &mut Vec<u8>) -> Result<()> {
    serde_json::to_writer(out, m)?;
    Ok(())
}

fn from_json<C, M: DeserializeOwned>(_: &mut C, bytes: &mut Bytes) -> Result<M> {
    let m = serde_json::from_slice(bytes)?;
    *bytes = Bytes::new();
    Ok(m)
}

/// The transport app both ends build alike: replicon registers messages in order, and both
/// ends must register the same ones in the same order (replicon checks a hash of them).
fn transport_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins,
        RepliconRenetPlugins,
    ))
    .add_client_message_with::<Hello>(
        Channel::Ordered,
        to_json::<ClientSendCtx, Hello>,
        from_json::<ServerReceiveCtx, Hello>,
    )
    .add_client_message_with::<SendOrder>(
        Channel::Ordered,
        to_json::<ClientSendCtx, SendOrder>,
        from_json::<ServerReceiveCtx, SendOrder>,
    )
    .add_server_message_with::<FromHost>(
        Channel::Ordered,
        to_json::<ServerSendCtx, FromHost>,
        from_json::<ClientReceiveCtx, FromHost>,
    )
    // The host's messages hold no entities: they need not wait for a replication tick.
    .make_message_independent::<FromHost>();
    app.finish();
    app.cleanup();
    app
}

fn connection_config(app: &App) -> ConnectionConfig {
    let channels = app.world().resource::<RepliconChannels>();
    ConnectionConfig {
        server_channels_config: channels.server_configs(),
        client_channels_config: channels.client_configs(),
        ..Default::default()
    }
}

fn now() -> std::time::Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
}

/// A host on the network: the [`Host`] and the socket its clients reach it on.
pub struct NetServer {
    net: App,
    host: Host,
    code: JoinCode,
    sent_bytes: usize,
}

impl NetServer {
    /// Listens on `bind` (port 0: any free port) for clients of `host`. `public` is the
    /// address the join code names (the one clients type); `None`: the bound address.
    pub fn listen(
        host: Host,
        bind: SocketAddr,
        public: Option<SocketAddr>,
    ) -> Result<NetServer, String> {
        let mut net = transport_app();
        let socket = UdpSocket::bind(bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
        let bound = socket
            .local_addr()
            .map_err(|e| format!("cannot read the address listened on: {e}"))?;
        let public = public.map_or(bound, |p| SocketAddr::new(p.ip(), bound.port()));
        let mut addresses = vec![public];
        if bound != public && !bound.ip().is_unspecified() {
            addresses.push(bound);
        }
        let transport = NetcodeServerTransport::new(
            ServerConfig {
                current_time: now(),
                max_clients: MAX_CLIENTS,
                protocol_id: NETCODE_PROTOCOL_ID,
                public_addresses: addresses,
                // The session secret is checked in the hello, so that a wrong code is told
                // in words (issue 30 item 6) rather than met with silence.
                authentication: ServerAuthentication::Unsecure,
            },
            socket,
        )
        .map_err(|e| format!("cannot start the host's transport: {e}"))?;
        let server = RenetServer::new(connection_config(&net));
        net.insert_resource(server).insert_resource(transport);
        let code = JoinCode {
            secret: host.secret().to_string(),
            addr: public,
        };
        Ok(NetServer {
            net,
            host,
            code,
            sent_bytes: 0,
        })
    }

    /// The code a client joins with.
    pub fn code(&self) -> &JoinCode {
        &self.code
    }

    /// The game hosted.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The game hosted, to give the host's own orders; follow with [`NetServer::tell`] of
    /// [`Host::updates`].
    pub fn host_mut(&mut self) -> &mut Host {
        &mut self.host
    }

    /// How many bytes of messages this host has handed to the transport (JSON, before
    /// renet's framing): the figure docs/performance.md reports per turn.
    pub fn sent_bytes(&self) -> usize {
        self.sent_bytes
    }

    /// How many clients are connected now, seated or not.
    pub fn connected(&mut self) -> usize {
        let world = self.net.world_mut();
        world
            .query_filtered::<Entity, With<ConnectedClient>>()
            .iter(world)
            .count()
    }

    /// One round of the transport: receives what arrived, lets the host answer it, and
    /// sends the answers on the next round (or at once, with a second pump).
    pub fn pump(&mut self) {
        self.net.update();
        let world = self.net.world_mut();
        let present: BTreeSet<Who> = world
            .query_filtered::<Entity, With<ConnectedClient>>()
            .iter(world)
            .map(Entity::to_bits)
            .collect();
        let gone: Vec<Who> = self
            .host
            .guests()
            .filter(|w| !present.contains(w))
            .collect();
        for who in gone {
            self.host.left(who);
        }
        let hellos: Vec<FromClient<Hello>> = world
            .resource_mut::<Messages<FromClient<Hello>>>()
            .drain()
            .collect();
        let orders: Vec<FromClient<SendOrder>> = world
            .resource_mut::<Messages<FromClient<SendOrder>>>()
            .drain()
            .collect();
        let mut out = Outbox::new();
        let mut turned = Vec::new();
        for h in hellos {
            let ClientId::Client(e) = h.client_id else {
                continue;
            };
            let answer = self.host.hello(e.to_bits(), &h.message);
            if answer.iter().any(|(_, m)| matches!(m, FromHost::Turned(_))) {
                turned.push(e);
            }
            out.extend(answer);
        }
        for o in orders {
            let ClientId::Client(e) = o.client_id else {
                continue;
            };
            out.extend(self.host.order(e.to_bits(), o.message.0));
        }
        self.tell(out);
        for client in turned {
            self.net
                .world_mut()
                .write_message(DisconnectRequest { client });
        }
    }

    /// Sends each message of `out` to its client.
    pub fn tell(&mut self, out: Outbox) {
        for (who, message) in out {
            self.sent_bytes += serde_json::to_vec(&message).map_or(0, |b| b.len());
            self.net.world_mut().write_message(ToClients {
                targets: SendTargets::Single(ClientId::Client(Entity::from_bits(who))),
                message,
            });
        }
    }

    /// Tells every client the host is going and closes the socket.
    pub fn close(&mut self) {
        if let Some(mut s) = self.net.world_mut().get_resource_mut::<RenetServer>() {
            s.disconnect_all();
        }
        self.net.update();
        self.net.world_mut().remove_resource::<RenetServer>();
        self.net.update();
    }

    /// Gives the host back, closing the socket (a host that goes on alone, or a test).
    pub fn into_host(mut self) -> Host {
        self.close();
        self.host
    }
}

/// Where a client stands with its host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Still reaching the host, or waiting for its answer to the hello.
    Connecting,
    /// Connected and said hello.
    Connected,
    /// The connection is gone; why, in words a player can act on.
    Lost(String),
}

/// A player's end of a game across machines.
pub struct NetClient {
    net: App,
    hello: Hello,
    said_hello: bool,
    addr: SocketAddr,
    closed: bool,
}

impl NetClient {
    /// Starts joining the game of `code`, asking for `wish`, under `name`.
    pub fn join(code: &JoinCode, wish: Wish, name: &str) -> Result<NetClient, String> {
        let mut net = transport_app();
        let bind: SocketAddr = if code.addr.is_ipv4() {
            "0.0.0.0:0".parse().expect("an address")
        } else {
            "[::]:0".parse().expect("an address")
        };
        let socket = UdpSocket::bind(bind).map_err(|e| format!("cannot open a socket: {e}"))?;
        let client_id = now().as_nanos() as u64 ^ u64::from(std::process::id()).rotate_left(32);
        let transport = NetcodeClientTransport::new(
            now(),
            ClientAuthentication::Unsecure {
                client_id,
                protocol_id: NETCODE_PROTOCOL_ID,
                server_addr: code.addr,
                user_data: None,
            },
            socket,
        )
        .map_err(|e| format!("cannot reach {}: {e}", code.addr))?;
        let client = RenetClient::new(connection_config(&net));
        net.insert_resource(client).insert_resource(transport);
        Ok(NetClient {
            net,
            hello: Hello {
                version: version(),
                secret: code.secret.clone(),
                wish,
                name: name.to_string(),
            },
            said_hello: false,
            addr: code.addr,
            closed: false,
        })
    }

    /// Changes what the hello says (a test of a client of another build).
    pub fn hello_mut(&mut self) -> &mut Hello {
        &mut self.hello
    }

    /// One round of the transport: sends what was queued, and returns what the host sent.
    pub fn pump(&mut self) -> Vec<FromHost> {
        if self.closed {
            return Vec::new();
        }
        self.net.update();
        let world = self.net.world_mut();
        if !self.said_hello && *world.resource::<State<ClientState>>() == ClientState::Connected {
            world.write_message(self.hello.clone());
            self.said_hello = true;
        }
        world.resource_mut::<Messages<FromHost>>().drain().collect()
    }

    /// Queues an order for the host; it is sent on the next [`NetClient::pump`].
    pub fn send(&mut self, order: Order) {
        self.net.world_mut().write_message(SendOrder(order));
    }

    /// Where the connection stands.
    pub fn standing(&self) -> Standing {
        let world = self.net.world();
        if self.closed {
            return Standing::Lost("you left the game".into());
        }
        if let Some(t) = world.get_resource::<NetcodeClientTransport>()
            && let Some(why) = t.disconnect_reason()
        {
            return Standing::Lost(format!(
                "the connection to {} is lost ({why}): is the host still running, and \
                 is the join code right? Join again when it is.",
                self.addr
            ));
        }
        match world.get_resource::<RenetClient>() {
            Some(c) if c.is_connected() && self.said_hello => Standing::Connected,
            Some(c) if c.is_disconnected() => Standing::Lost(format!(
                "the host at {} closed the connection. Join again when it is back.",
                self.addr
            )),
            _ => Standing::Connecting,
        }
    }

    /// Leaves the game: tells the host and closes the socket.
    pub fn leave(&mut self) {
        if self.closed {
            return;
        }
        if let Some(mut t) = self
            .net
            .world_mut()
            .get_resource_mut::<NetcodeClientTransport>()
        {
            t.disconnect();
        }
        self.net.update();
        self.closed = true;
    }
}
