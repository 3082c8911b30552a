//! Fire, spells and other activities (seed 003 §2, D3–D5) as pure rules, with the cavalry
//! supplement's shooting rules (seed 004, K2–K4) and, in `asl`, the house fire table (seed
//! 001, A11–A14).
//!
//! Who may shoot or cast at whom, the odds of a shot (computed by the same code that resolves
//! it, so a window can show them), and the resolution of one shot. A shot in `destrier` and
//! `realms` is the melee's FIRE / THROW MISSILE blow ([`attack::strike`]) with the K3 range
//! band and the K4 horse-or-rider roll around it; in `asl` it is an attack on the house fire
//! table (`rules::asl_cavalry`). The simulation (`sim::fire`) runs the sub-steps and writes
//! the results back.

use super::asl_cavalry::{
    FireResult, HorseResult, Shot, fire_chance, fire_result, horse_chance, horse_result,
};
use super::cavalry::{self, band_modifier, in_fire_arc, may_shoot};
use super::gait::Half;
use super::melee::attack::{self, Blow, Context, Guard, RoundFacts, Strike};
use super::melee::cards::{MeleeCard, Situation};
use super::melee::fight::Fight;
use super::melee::tables::{Caster, Tables};
use super::melee::{Dice, Event, Roller, spells};
use super::ruleset::TroopType;
use super::sight::{Blocked, sight_blocker};
use serde::Serialize;

#[cfg(test)]
mod tests;

/// The sub-steps of a fire phase, in the seed's order (D3, seed 003 §2 A–F); each is played
/// by the initiative winner, then the loser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum SubStep {
    /// Spells (§2 A, B).
    #[default]
    Cast,
    /// Missiles (§2 C, D).
    Fire,
    /// Miscellaneous activities (§2 E, F).
    Misc,
}

impl SubStep {
    /// The three kinds in the order D3 plays them.
    pub const ORDER: [SubStep; 3] = [SubStep::Cast, SubStep::Fire, SubStep::Misc];

    /// What a side whose name reads as a plural does in it ("fire missiles").
    pub fn label_plural(self) -> &'static str {
        match self {
            SubStep::Cast => "cast spells",
            SubStep::Fire => "fire missiles",
            SubStep::Misc => "perform other activities",
        }
    }

    /// What `side` does in it, in a sentence that begins with its name.
    pub fn label_for(self, side: &str) -> &'static str {
        if crate::rules::words::SideWords(side).plural() {
            self.label_plural()
        } else {
            self.label()
        }
    }

    /// What the side does in it, for the log and the window.
    pub fn label(self) -> &'static str {
        match self {
            SubStep::Cast => "casts spells",
            SubStep::Fire => "fires missiles",
            SubStep::Misc => "performs other activities",
        }
    }
}

/// D3/D5: the shots a missile weapon with `per_turn` shots may loose in one half: half of
/// them, rounded up in the first half and down in the second, so the two halves add up to
/// the turn's shots.
pub fn shots_in_half(per_turn: u8, half: Half) -> u8 {
    match half {
        Half::First => per_turn.div_ceil(2),
        Half::Second => per_turn / 2,
    }
}

/// `asl`: the range of the game's multi-man counters in hexes — the middle number of a 4-4-7
/// squad. *Our reading:* fire reaches that far and no further (no long-range fire here).
pub const ASL_NORMAL_RANGE: i32 = 4;

/// What the simulation knows about a shooter beyond the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShooterFacts {
    /// Its troop type (K2).
    pub troop: TroopType,
    /// Shots it may still loose in this half (D3, D5).
    pub shots_left: u8,
    /// `asl`: its printed firepower; `None` in the percentile rulesets.
    pub asl_fp: Option<i32>,
    /// `asl`: it charged and may not fire in the advancing fire (A16).
    pub charged: bool,
    /// `asl`: it is broken (A13).
    pub broken: bool,
    /// `asl`: its horse is exhausted (CX).
    pub cx: bool,
}

/// A shot found legal: who shoots whom, how far, in which band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShotPlan {
    /// The shooter's fighter index (a rider, never its mount).
    pub shooter: usize,
    /// The target unit's index (a mounted target's rider; K4 decides later).
    pub target: usize,
    /// Distance in cells.
    pub distance: i32,
    /// K3 band (0 short, 1 medium, 2 long); `None` in `asl`.
    pub band: Option<usize>,
}

/// The numbers of one shot, for the window and the log: the same the resolution rolls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShotOdds {
    /// Percentile chance: to hit (`destrier`, `realms`; against the rider of a mounted
    /// target) or of an effect on the house fire table (`asl`).
    pub chance: i32,
    /// Every modifier, named, with its size.
    pub parts: Vec<(String, i32)>,
    /// Least and most damage of a hit before criticals (`destrier`, `realms`).
    pub damage: (i32, i32),
    /// A hit rolled at or under this is critical (`destrier`, `realms`).
    pub critical: i32,
    /// K3 range band: 0 short, 1 medium, 2 long.
    pub band: Option<u8>,
    /// A mounted target: the chance against its horse — where K4's d6 puts a hit on 1–4
    /// (`destrier`, `realms`), or the separate A14 roll against the horses (`asl`).
    pub horse_chance: Option<i32>,
    /// The `asl` house fire table was used.
    pub asl: bool,
}

/// Band names for the log.
pub fn band_word(band: usize) -> &'static str {
    match band {
        0 => "short",
        1 => "medium",
        _ => "long",
    }
}

/// The target of a shot or a spell named by index: a mount with a rider stands for its rider
/// (K4 then chooses); a riderless horse is no target (A18).
fn unit_target(fight: &Fight, j: usize) -> Result<usize, String> {
    let f = &fight.fighters[j];
    if f.is_mount() {
        return match f.rider {
            Some(r) if fight.fighters[r].mount == Some(j) => Ok(r),
            _ => Err(format!(
                "A18: {} is a riderless horse: horses are never enemies",
                f.id
            )),
        };
    }
    Ok(j)
}

/// Line of sight between two fighters: terrain and any standing figure in between block it
/// (our reading: a figure down or dead does not).
pub fn sight_between(fight: &Fight, i: usize, j: usize) -> Result<(), String> {
    let (from, to) = (fight.fighters[i].cell, fight.fighters[j].cell);
    let occupied = |c| fight.fighters.iter().any(|f| f.cell == c && f.is_up());
    match sight_blocker(&fight.board, from, to, occupied) {
        None => Ok(()),
        Some(Blocked::Terrain(c, name)) => Err(format!(
            "no line of sight to {}: {name} at {c} blocks it",
            fight.fighters[j].id
        )),
        Some(Blocked::Figure(c)) => Err(format!(
            "no line of sight to {}: a figure at {c} stands in the way",
            fight.fighters[j].id
        )),
    }
}

/// The farthest distance, in cells, at which fighter `i` could shoot anything now: the end of
/// K3's last band it may use (one band less when mounted), or ASL's normal range. `None` when
/// [`check_shot`] refuses it every target whatever the distance (a riderless horse, no
/// missile in hand). Asking "could anyone shoot?" over every pair of fighters at the limits
/// (issue 15) spent most of its time writing [`check_shot`]'s refusals for targets out of
/// range; with this, only targets this close are checked.
pub fn farthest_shot(fight: &Fight, t: &Tables, i: usize, facts: &ShooterFacts) -> Option<i32> {
    let i = unit_target(fight, i).ok()?;
    if facts.asl_fp.is_some() {
        return Some(ASL_NORMAL_RANGE);
    }
    let me = &fight.fighters[i];
    let w = me.in_hand(t).filter(|w| w.is_missile())?;
    cavalry::farthest_in_band(w.range, me.mount.is_some())
}

/// May fighter `i` loose one shot at fighter `j` now? Checks the shooter (up, a missile
/// weapon in hand and loaded, shots left, K2), the target (an enemy, up, not a riderless
/// horse), the range (K3 bands, one further when mounted), the arc (K3 for moving cavalry,
/// the front otherwise) and the line of sight. `asl` checks firepower, A13, A16 and range.
pub fn check_shot(
    fight: &Fight,
    t: &Tables,
    i: usize,
    j: usize,
    facts: &ShooterFacts,
) -> Result<ShotPlan, String> {
    let i = unit_target(fight, i).map_err(|_| {
        format!(
            "{} is a riderless horse and shoots nothing",
            fight.fighters[i].id
        )
    })?;
    let me = &fight.fighters[i];
    if !me.is_up() {
        return Err(format!("{} is out of the fight", me.id));
    }
    let j = unit_target(fight, j)?;
    let tg = &fight.fighters[j];
    if tg.side == me.side {
        return Err(format!("{} is not an enemy", tg.id));
    }
    if !tg.is_up() {
        return Err(format!("{} is already out of the fight", tg.id));
    }
    let mounted = me.mount.is_some();
    may_shoot(facts.troop, mounted)?;
    let distance = fight.distance(i, j);
    if let Some(fp) = facts.asl_fp {
        if facts.broken {
            return Err(format!("A13: {} is broken and does not fire", me.id));
        }
        if facts.charged {
            return Err(format!(
                "A16: {} charged and may not fire in the advancing fire phase",
                me.id
            ));
        }
        if fp <= 0 {
            return Err(format!("{} has no firepower of its own", me.id));
        }
        if facts.shots_left == 0 {
            return Err(format!(
                "D3: {} has already fired in this fire phase",
                me.id
            ));
        }
        if distance > ASL_NORMAL_RANGE {
            return Err(format!(
                "{} is {distance} hexes away; fire reaches {ASL_NORMAL_RANGE} hexes",
                tg.id
            ));
        }
        sight_between(fight, i, j)?;
        return Ok(ShotPlan {
            shooter: i,
            target: j,
            distance,
            band: None,
        });
    }
    let Some(w) = me.in_hand(t).filter(|w| w.is_missile()) else {
        return Err(format!(
            "D3: {} has no missile weapon in hand ({})",
            me.id,
            me.in_hand_name()
        ));
    };
    if me.state.unloaded {
        return Err(format!(
            "§6: its {} is not loaded (it reloads in the half-move after a shot, D4)",
            me.in_hand_name()
        ));
    }
    if facts.shots_left == 0 {
        return Err(format!(
            "D3/D5: {} has loosed its shots of this half (its {} shoots {} a turn: half in each half, rounded up in the first, down in the second)",
            me.id,
            me.in_hand_name(),
            w.shots
        ));
    }
    let Some(band) = cavalry::range_band(distance, w.range, mounted) else {
        return Err(format!(
            "{} is {distance} cells away: out of range of its {} ({} cells{})",
            tg.id,
            me.in_hand_name(),
            w.range,
            if mounted {
                "; K3: mounted, it shoots one range band further"
            } else {
                ""
            }
        ));
    };
    let moving = mounted && cavalry::moving(me.gait);
    if moving {
        if !in_fire_arc(fight.grid(), me.cell, me.facing, tg.cell, true) {
            return Err(format!(
                "K3: moving cavalry shoots only into its front and left 45° arc; {} is outside it",
                tg.id
            ));
        }
    } else if !fight.in_front_of(i, j) {
        return Err(format!(
            "D3: missiles are shot only at targets to the front; {} is not (turn in the half-move first)",
            tg.id
        ));
    }
    sight_between(fight, i, j)?;
    Ok(ShotPlan {
        shooter: i,
        target: j,
        distance,
        band: Some(band),
    })
}

/// Our reading: a target's shield guards against missiles as a PASSIVE SHIELD PARRY (its
/// shield side and front); no other defence card is played outside a melee.
fn missile_guard() -> Guard {
    Guard {
        psp: true,
        ..Guard::default()
    }
}

/// The melee odds of the shot on `d` with the band folded into the shooter's skill, parts
/// split again so the window names the band.
fn percentile_odds(fight: &Fight, t: &Tables, a: usize, d: usize, band: usize) -> attack::Odds {
    let m = band_modifier(band);
    let mut f = fight.clone();
    f.fighters[a].profile.hit += m;
    let mut o = attack::breakdown(
        &f,
        t,
        a,
        d,
        &Strike::plain(Blow::Missile),
        &missile_guard(),
        &Context::default(),
    );
    if m != 0 {
        let skill = fight.fighters[a].profile.hit;
        o.parts.retain(|p| p.0 != "skill");
        if skill != 0 {
            o.parts
                .insert(1.min(o.parts.len()), ("skill".into(), skill));
        }
        o.parts
            .push((format!("{} range (K3)", band_word(band)).into(), m));
    }
    o
}

/// `asl`: the house-table attack of a shot (A11: mounted fire halved outside close combat
/// and a Charge; A12: against cavalry).
pub fn asl_shot(fight: &Fight, plan: &ShotPlan, facts: &ShooterFacts) -> Shot {
    let fp = facts.asl_fp.unwrap_or(0);
    Shot {
        fp,
        range: plan.distance,
        mounted: fight.fighters[plan.shooter].mount.is_some(),
        charge_or_cc: false,
        cx: facts.cx,
        at_cavalry: fight.fighters[plan.target].mount.is_some(),
        ffmo: false,
    }
}

/// The odds of a legal shot, by the code that resolves it.
pub fn shot_odds(fight: &Fight, t: &Tables, plan: &ShotPlan, facts: &ShooterFacts) -> ShotOdds {
    let (a, v) = (plan.shooter, plan.target);
    let horse = fight.fighters[v].mount;
    match plan.band {
        None => {
            let tf = cavalry::tables().asl_fire;
            let shot = asl_shot(fight, plan, facts);
            let (chance, mut parts) = fire_chance(&tf, &shot);
            if shot.mounted {
                parts.push(("mounted fire: firepower halved (A11)".into(), 0));
            }
            ShotOdds {
                chance,
                parts,
                damage: (0, 0),
                critical: 0,
                band: None,
                horse_chance: horse.map(|_| horse_chance(&tf, &shot)),
                asl: true,
            }
        }
        Some(band) => {
            let o = percentile_odds(fight, t, a, v, band);
            ShotOdds {
                chance: o.chance,
                parts: o
                    .parts
                    .into_iter()
                    .map(|(n, v)| (n.into_owned(), v))
                    .collect(),
                damage: o.damage,
                critical: o.critical,
                band: Some(band as u8),
                horse_chance: horse.map(|m| percentile_odds(fight, t, a, m, band).chance),
                asl: false,
            }
        }
    }
}

/// Resolves one legal shot in `destrier`/`realms` on the fight: K4's d6 for a mounted target,
/// then the melee's FIRE blow with the K3 band. A reloading weapon is left unloaded. Returns
/// true on a hit.
pub(crate) fn resolve_shot<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    plan: &ShotPlan,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) -> bool {
    let (a, v) = (plan.shooter, plan.target);
    let band = plan.band.unwrap_or(0);
    let what = format!(
        "{}'s shot at {}",
        fight.fighters[a].id, fight.fighters[v].id
    );
    let d = super::charge::ride::k4_target(fight, a, v, &what, r, out);
    let m = band_modifier(band);
    let mounted = fight.fighters[a].mount.is_some();
    r.event(
        out,
        format!(
            "K3: {} cells is {} range for {}'s {}{}: {m:+}% (counted in its skill below).",
            plan.distance,
            band_word(band),
            fight.fighters[a].id,
            fight.fighters[a].in_hand_name(),
            if mounted {
                ", one band further as it shoots mounted"
            } else {
                ""
            }
        ),
    );
    let reload = fight.fighters[a].in_hand(t).is_some_and(|w| w.reload);
    let mut facts = RoundFacts::new(fight.fighters.len());
    facts.guards[d] = missile_guard();
    fight.fighters[a].profile.hit += m;
    let hit = attack::strike(
        fight,
        t,
        a,
        d,
        Strike::plain(Blow::Missile),
        "FIRE",
        &mut facts,
        r,
        out,
    );
    fight.fighters[a].profile.hit -= m;
    if reload {
        fight.fighters[a].state.unloaded = true;
    }
    hit
}

/// `asl`: what one shot does: the unit's result and, against cavalry, the horses' (A14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AslOutcome {
    /// The effect chance and its d100.
    pub fire: (i32, u32, FireResult),
    /// A14: the horses' chance, d100 and result, against a mounted target.
    pub horses: Option<(i32, u32, HorseResult)>,
}

/// `asl`: resolves a shot on the house fire table with two d100s (the second only against
/// cavalry, A14: a separate roll against the horses).
pub fn resolve_asl<D: Dice>(
    fight: &Fight,
    plan: &ShotPlan,
    facts: &ShooterFacts,
    dice: &mut D,
) -> AslOutcome {
    let tf = cavalry::tables().asl_fire;
    let shot = asl_shot(fight, plan, facts);
    let (chance, _) = fire_chance(&tf, &shot);
    let v = dice.d100().clamp(1, 100);
    let fire = (chance, v, fire_result(&tf, chance, v));
    let horses = fight.fighters[plan.target].mount.map(|_| {
        let hc = horse_chance(&tf, &shot);
        let hv = dice.d100().clamp(1, 100);
        (hc, hv, horse_result(&tf, hc, hv))
    });
    AslOutcome { fire, horses }
}

/// May fighter `i` cast `spell` on `target` (itself when `None`) in a fire phase? The melee's
/// own check (`spells::castable`: caster, spell known, target side, range, front) with our
/// reading that no PREPARE SPELL card is needed outside a melee; D5: a figure that cast in the
/// first fire phase may not cast again this turn; one spell a fire phase; line of sight.
pub fn check_cast(
    fight: &Fight,
    t: &Tables,
    i: usize,
    spell: &str,
    target: Option<&str>,
    cast_this_turn: bool,
) -> Result<(), String> {
    let me = &fight.fighters[i];
    if me.profile.caster == Caster::None {
        return Err(format!("{} casts no spells", me.id));
    }
    if !me.is_up() {
        return Err(format!("{} is out of the fight", me.id));
    }
    if cast_this_turn {
        return Err(format!(
            "D5: {} has cast a spell this turn; a mage who cast may not cast again",
            me.id
        ));
    }
    let mut f = fight.clone();
    f.fighters[i].state.prepared = true;
    let sit = Situation {
        fight: &f,
        tables: t,
        tac_phase: false,
        tac: None,
        with: &[MeleeCard::CastSpell {
            spell: spell.to_string(),
            target: target.map(str::to_string),
        }],
    };
    spells::castable(&sit, i, spell, target).map_err(|e| e.to_string())?;
    if let Some(j) = target.and_then(|x| fight.index_of(x))
        && j != i
    {
        sight_between(fight, i, j)?;
    }
    Ok(())
}

/// The chance of a spell taking effect (d100 at or under), as the resolution rolls it.
pub fn cast_chance(t: &Tables, spell: &str) -> Option<i32> {
    t.spells.get(spell).map(|s| s.chance as i32)
}

/// Casts a checked spell with the melee's resolver, keeping the caster's PREPARE SPELL state
/// as it was (no card was played).
pub(crate) fn resolve_cast<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    i: usize,
    spell: &str,
    target: Option<&str>,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let prepared = fight.fighters[i].state.prepared;
    spells::cast(fight, t, i, spell, target, r, out);
    fight.fighters[i].state.prepared = prepared;
}

/// I3: the nearest enemy of fighter `i`, measured figure to figure (a mounted enemy by its
/// rider's cell, riderless horses excluded), ties broken by id so the choice is stable.
pub fn nearest_enemy(fight: &Fight, i: usize) -> Option<usize> {
    let me = &fight.fighters[i];
    fight
        .fighters
        .iter()
        .enumerate()
        .filter(|(_, f)| f.side != me.side && f.is_up() && !f.is_mount())
        .min_by(|a, b| {
            let da = fight.distance(i, a.0);
            let db = fight.distance(i, b.0);
            da.cmp(&db).then_with(|| a.1.id.cmp(&b.1.id))
        })
        .map(|(j, _)| j)
}
