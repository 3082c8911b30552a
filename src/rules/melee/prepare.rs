//! PREPARE SPELL (§6) and the seed's three optional limits on Mages, each a ruleset switch
//! ([`crate::rules::ruleset::PrepareSpellLimits`]): "the PREPARE SPELL card must be played a
//! number of times equal to the level of the spell to be cast"; "if the Mage is injured or
//! disturbed during his preparations, his preparation counts for naught and he must prepare
//! his spell all over again the following turn"; "reduce the number of blows available to a
//! Mage who was caught preparing a spell to 1/2 the number normally possessed".

use super::Event;
use super::fight::{Fight, Posture};
use super::judge::Ineligible;
use super::tables::{Caster, Tables};

fn no<T>(reason: impl Into<String>) -> Result<T, Ineligible> {
    Err(Ineligible {
        tag: "§6 PREPARE SPELL",
        reason: reason.into(),
    })
}

/// The most PREPARE SPELL cards figure `i` can use: 1, or with `per_level` the level of the
/// highest spell it knows.
pub fn most_preparations(fight: &Fight, t: &Tables, i: usize) -> u8 {
    if !fight.prepare.per_level {
        return 1;
    }
    let f = &fight.fighters[i];
    f.profile
        .spells
        .iter()
        .filter_map(|k| t.spells.get(k))
        .map(|s| s.level)
        .max()
        .unwrap_or(1)
        .max(1)
}

/// May figure `i` (a Mage knowing spells) play PREPARE SPELL now?
pub fn prepare_ok(fight: &Fight, t: &Tables, i: usize) -> Result<(), Ineligible> {
    let s = &fight.fighters[i].state;
    if s.prepare_barred {
        return no("its preparation was disturbed this turn: it prepares again next turn");
    }
    if !s.prepared {
        return Ok(());
    }
    let most = most_preparations(fight, t, i);
    if s.preparations >= most {
        return no(if fight.prepare.per_level {
            format!("{most} PREPARE SPELL cards are enough for its highest spell")
        } else {
            "a spell is already prepared".to_string()
        });
    }
    Ok(())
}

/// Is figure `i` prepared enough to cast a spell of `level`? Only Mages prepare.
pub fn cast_ready(fight: &Fight, i: usize, level: u8) -> Result<(), String> {
    let f = &fight.fighters[i];
    if f.profile.caster != Caster::Mage {
        return Ok(());
    }
    if !f.state.prepared {
        return Err("a Mage must play PREPARE SPELL first".into());
    }
    if fight.prepare.per_level && f.state.preparations < level {
        return Err(format!(
            "a level {level} spell needs {level} PREPARE SPELL cards; it has played {}",
            f.state.preparations
        ));
    }
    Ok(())
}

/// The blows a figure keeps when caught preparing (`halved_blows`): half its phase's blows,
/// less those already spent this phase.
fn halve(blows: u8, phase_blows: u8) -> u8 {
    blows.saturating_sub(phase_blows - phase_blows / 2)
}

/// PREPARE SPELL is played by figure `i`: one more preparation, and with `halved_blows` its
/// blows this phase cut to half (once a phase). Returns the log line.
pub fn prepare(fight: &mut Fight, i: usize) -> String {
    let halved = fight.prepare.halved_blows;
    let per_level = fight.prepare.per_level;
    let f = &mut fight.fighters[i];
    f.state.prepared = true;
    f.state.preparations = f.state.preparations.saturating_add(1);
    let mut text = if per_level {
        format!(
            "{} prepares a spell ({} PREPARE SPELL card{} towards a spell of that level).",
            f.id,
            f.state.preparations,
            if f.state.preparations == 1 { "" } else { "s" }
        )
    } else {
        format!("{} prepares a spell.", f.id)
    };
    if halved && !f.state.blows_halved {
        let before = f.blows;
        f.blows = halve(f.blows, f.phase_blows());
        f.state.blows_halved = true;
        text.push_str(&format!(
            " Caught preparing, he has half his blows this phase: {before} left → {}.",
            f.blows
        ));
    }
    text
}

/// At the start of a melee phase (`halved_blows`): a Mage who still holds a preparation is
/// caught preparing — half his blows.
pub fn begin_phase(fight: &mut Fight) {
    if !fight.prepare.halved_blows {
        return;
    }
    for f in &mut fight.fighters {
        if f.state.prepared && f.profile.caster == Caster::Mage {
            f.blows = halve(f.blows, f.phase_blows());
            f.state.blows_halved = true;
        }
    }
}

/// What a preparing Mage looked like when a round began: body, posture, stun, holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Before {
    body: i32,
    posture: Posture,
    stunned: u8,
    held: usize,
}

/// The prepared Mages to watch this round (`lost_when_disturbed`), by fighter.
pub fn watch(fight: &Fight) -> Vec<Option<Before>> {
    fight
        .fighters
        .iter()
        .map(|f| {
            (fight.prepare.lost_when_disturbed && f.state.prepared).then_some(Before {
                body: f.body,
                posture: f.state.posture,
                stunned: f.state.stunned,
                held: f.state.restrained_by.len(),
            })
        })
        .collect()
}

/// End of a round (`lost_when_disturbed`): a prepared Mage that was struck, wounded, knocked
/// off his feet, stunned or grappled this round loses his preparation and may prepare again
/// only the following turn. *Our reading* of "injured or disturbed".
pub fn disturbed(
    fight: &mut Fight,
    before: &[Option<Before>],
    struck: &[bool],
    out: &mut Vec<Event>,
) {
    for (i, b) in before.iter().enumerate() {
        let Some(b) = b else { continue };
        let f = &mut fight.fighters[i];
        if !f.state.prepared {
            continue; // cast this round
        }
        let what = if struck.get(i).copied().unwrap_or(false) || f.body < b.body {
            "struck"
        } else if f.state.posture != b.posture && f.state.posture != Posture::Standing {
            "knocked off his feet"
        } else if f.state.stunned > b.stunned {
            "stunned"
        } else if f.state.restrained_by.len() > b.held {
            "grappled"
        } else {
            continue;
        };
        f.state.prepared = false;
        f.state.preparations = 0;
        f.state.prepare_barred = true;
        out.push(Event::say(format!(
            "{} is {what} while preparing: the preparation counts for naught; he may prepare again next turn (§6 PREPARE SPELL).",
            f.id
        )));
    }
}
