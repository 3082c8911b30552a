//! Play across machines (issue 30). The host — a `warhorse serve` or a player's window —
//! holds the [`crate::sim::Game`] and rolls every die; a client sends its side's orders and
//! receives its side's view (I4, [`crate::sim::side_view`]): face-down cards and charge orders
//! never leave the host until they are revealed, and the seed never does.
//!
//! - [`protocol`]: the messages, and why a client is turned away, in words.
//! - [`code`]: the join code, `SECRET@ADDRESS:PORT`.
//! - [`host`]: seats, secrets and views, without sockets.
//! - [`mirror`]: what a client knows of the game, built from what the host sent.
//! - [`replica`]: a client's whole game, played again from the orders and dice it was sent.
//! - [`link`]: the transport, replicon's messages over renet's netcode.io.
//!
//! This layer sits above the simulation and below the window: it knows nothing of `ui`.

pub mod code;
pub mod host;
pub mod link;
pub mod mirror;
pub mod pbem;
pub mod protocol;
pub mod replica;
