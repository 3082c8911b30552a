//! The join code a host shows and a client types: where the host listens and the session's
//! secret, as `SECRET@ADDRESS:PORT` (`k7mq2xv9tcah@192.168.1.20:5000`). Whoever lacks the
//! secret cannot take a seat or watch (issue 30 item 2).

use std::fmt;
use std::net::{SocketAddr, ToSocketAddrs};

/// Letters and digits that cannot be misread for one another when read aloud or typed.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// How many characters a fresh secret has: 31¹² ≈ 2⁵⁹ codes.
const SECRET_LEN: usize = 12;

/// Where to join a game, and the secret that lets in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinCode {
    /// The session secret.
    pub secret: String,
    /// The host's address and UDP port.
    pub addr: SocketAddr,
}

impl JoinCode {
    /// Reads a typed code; says what is wrong with it, in words a player can act on.
    pub fn parse(text: &str) -> Result<JoinCode, String> {
        let text = text.trim();
        let Some((secret, addr)) = text.split_once('@') else {
            return Err(format!(
                "{text:?} is not a join code: a code reads SECRET@ADDRESS:PORT, as the host shows it"
            ));
        };
        if secret.is_empty() || !secret.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(format!(
                "the secret {secret:?} of the join code should be letters and digits"
            ));
        }
        let addr = addr
            .to_socket_addrs()
            .map_err(|e| format!("the address {addr:?} of the join code: {e}"))?
            .next()
            .ok_or_else(|| format!("the address {addr:?} of the join code names no host"))?;
        Ok(JoinCode {
            secret: secret.to_string(),
            addr,
        })
    }

    /// A fresh secret, from the operating system's randomness (never the game's dice).
    pub fn fresh_secret() -> String {
        use rand::RngExt;
        let mut rng = rand::rng();
        (0..SECRET_LEN)
            .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
            .collect()
    }
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.secret, self.addr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_back_as_written_and_a_bad_one_says_why() {
        let code = JoinCode {
            secret: JoinCode::fresh_secret(),
            addr: "127.0.0.1:5000".parse().unwrap(),
        };
        assert_eq!(code.secret.len(), SECRET_LEN);
        assert_eq!(JoinCode::parse(&format!(" {code} ")), Ok(code));
        assert!(
            JoinCode::parse("127.0.0.1:5000")
                .unwrap_err()
                .contains("SECRET@")
        );
        assert!(
            JoinCode::parse("a b@127.0.0.1:5000")
                .unwrap_err()
                .contains("letters")
        );
        assert!(JoinCode::parse("abc@nowhere").is_err());
    }
}
