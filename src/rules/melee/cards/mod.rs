//! Every TAC and MELEE card of Destrier (§6): what it is, what it costs in blows and who may
//! play it now. The desktop game greys a card with exactly the [`Ineligible`] reason given
//! here, and orders are refused with it.

use super::fight::{Fallen, Fight, Fighter, Held, Posture};
use super::tables::{Caster, Hooves, Kind, Tables, Tradition, WeaponKind, seed};
use crate::rules::gait::Gait;
use crate::rules::ruleset::Encumbrance;

mod cost;
mod eligible;
mod play;
mod text;

pub use cost::{c8_allows, cost, play_cost, tac_cost};
pub use eligible::eligibility;
use eligible::{common, enemy, melee_eligibility, reach_ok, weapon_attack};
pub use play::check_play;
use play::melee_ok;

pub use super::deck::*;
pub use super::fight::{at_speed, full_charge, speed_of};
pub use super::judge::{Ineligible, Situation};
pub use super::tables::spell_target_ok;

fn no<T>(tag: &'static str, reason: impl Into<String>) -> Result<T, Ineligible> {
    Err(Ineligible {
        tag,
        reason: reason.into(),
    })
}
