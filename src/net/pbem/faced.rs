//! A sealed card play with a DODGE is opened in two steps (D7: "the DODGE cards stay face
//! down until the guesses are in"). Once the other player is bound to its cards, the play is
//! shown with each DODGE's way masked ([`FacedPlay`]), so the other player's game reaches the
//! dodge guesses; once each enemy that must guess has sealed its guess, the play is opened
//! whole, and the reader checks it is the masked one with the ways filled in. A play that
//! nobody will guess is opened whole at once.

use super::file::FacedPlay;
use super::{Book, Order, PbemError};
use serde::{Deserialize, Serialize};

/// One of this player's sealed plays that is to be shown masked before it is opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Mask {
    /// The play, its DODGEs masked ([`crate::sim::Game::faced_play`]).
    pub order: Order,
    /// The other player's figures that must guess its DODGE.
    pub guessers: Vec<String>,
    /// Once shown: the record's length when it was, from which the guessers' orders count.
    pub shown_from: Option<usize>,
}

/// Whether `whole` is `masked` with its DODGEs' ways filled in, and nothing else changed.
pub(super) fn same_but_dodges(masked: &Order, whole: &Order) -> bool {
    use crate::rules::melee::cards::MeleeCard::Dodge;
    match (masked, whole) {
        (
            Order::PlayCards {
                unit,
                tac,
                tac_target,
                melee,
            },
            Order::PlayCards {
                unit: u,
                tac: t,
                tac_target: tt,
                melee: m,
            },
        ) => {
            unit == u
                && tac == t
                && tac_target == tt
                && melee.len() == m.len()
                && melee
                    .iter()
                    .zip(m)
                    .all(|(a, b)| a == b || matches!((a, b), (Dodge(_), Dodge(_))))
        }
        _ => masked == whole,
    }
}

impl Book {
    /// True when every figure that must guess the DODGE of this player's play at `slot`
    /// has sealed its guess (or made none) since the play was shown masked, or the other
    /// player passed for the rest of the melee after the play.
    pub(super) fn guessed(&self, slot: usize, mask: &Mask) -> bool {
        let Some(from) = mask.shown_from else {
            return false;
        };
        let them = 1 - self.me;
        let theirs = || self.record.iter().enumerate().filter(|(_, s)| s.by == them);
        if theirs().any(|(i, s)| i > slot && matches!(s.order, Some(Order::PassMelee { .. }))) {
            return true;
        }
        let named: Vec<&str> = theirs()
            .filter(|(i, _)| *i >= from)
            .filter_map(|(_, s)| match (&s.sealed, &s.order) {
                (Some((unit, _)), _) => Some(unit.as_str()),
                (None, Some(o)) => o.face_down_unit(),
                (None, None) => None,
            })
            .collect();
        mask.guessers.iter().all(|g| named.contains(&g.as_str()))
    }

    /// Takes in the other player's masked plays: each must be a sealed card play of theirs
    /// not yet shown or opened, for the figure it was sealed for.
    pub(super) fn take_faced(&mut self, faced: &[FacedPlay]) -> Result<(), PbemError> {
        let them = 1 - self.me;
        for fp in faced {
            let order_no = fp.slot + 1;
            let slot = self
                .record
                .get_mut(fp.slot)
                .filter(|s| s.by == them && !s.public && !s.faced)
                .ok_or(PbemError::NothingSealed { order_no })?;
            let Some((unit, _)) = &slot.sealed else {
                return Err(PbemError::NothingSealed { order_no });
            };
            if fp.order.face_down_unit() != Some(unit.as_str()) {
                return Err(PbemError::ChangedCommitment { order_no });
            }
            slot.order = Some(fp.order.clone());
            slot.faced = true;
        }
        Ok(())
    }
}
