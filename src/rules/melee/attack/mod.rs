//! One blow: the chance to hit with every modifier named (house table, TMM, D11–D12, C7, the
//! cards' bonuses and defences), then the hit, the critical, the damage, the weapon bash, and
//! what the defender's card does (parry counter-blows, weapon break, disarm, shield bash,
//! shield break). [`odds`] gives the desktop game the same numbers the resolver rolls against.

use super::cards::{MeleeCard, speed_of};
use super::effects;
use super::fight::Fight;
use super::tables::{
    CritEffect, DamageDice, HandAttack, ShieldSize, Tables, WeaponClass, WeaponKind, dodge_penalty,
    rider_speed_penalty, seed,
};
use super::{Dice, Event, Roller};
use crate::rules::grid::StandSide;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Write as _;

mod blow;

pub use blow::RoundFacts;
pub(crate) use blow::{counter, strike};

/// What kind of blow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Blow {
    /// A weapon blow (DELIVER BLOW, GREAT BLOW, FEROCITY, counter-blows).
    Weapon,
    /// PUNCH.
    Punch,
    /// KICK by a man.
    Kick,
    /// KICK by a hooved animal.
    HorseKick,
    /// TRAMPLE PRONE FIGURE.
    Trample,
    /// FIRE / THROW MISSILE.
    Missile,
}

/// A blow and its card bonuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strike {
    /// Its kind.
    pub blow: Blow,
    /// GREAT BLOW.
    pub great: bool,
    /// A counter-blow of a parry or dodge flurry (no flurry of its own).
    pub counter: bool,
}

impl Strike {
    /// A plain blow of `blow`.
    pub fn plain(blow: Blow) -> Strike {
        Strike {
            blow,
            great: false,
            counter: false,
        }
    }
}

pub use super::deck::Guard;

impl Guard {
    /// This guard with the automatic dodge of figure `i` added when it has one (§6 DODGE:
    /// "dogs, wolves, and cats automatically dodge when not charging").
    pub fn with_auto_dodge(mut self, fight: &Fight, i: usize) -> Guard {
        self.auto_dodge = self.dodge.is_none() && super::moves::auto_dodges(fight, i);
        self
    }
}

impl Guard {
    /// The guard a play puts up; an empty play is PASSIVE SHIELD PARRY.
    pub fn from_cards(cards: &[MeleeCard]) -> Guard {
        let mut g = Guard {
            psp: cards.is_empty(),
            ..Guard::default()
        };
        for c in cards {
            match c {
                MeleeCard::WeaponParry => g.parry = true,
                MeleeCard::DesperateDefense => g.desperate = true,
                MeleeCard::ActiveShieldParry => g.asp = true,
                MeleeCard::PassiveShieldParry => g.psp = true,
                MeleeCard::Dodge(d) => g.dodge = Some(*d),
                _ => {}
            }
        }
        g
    }
}

/// Circumstances of a blow beyond the two figures' cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Context {
    /// The attacker guessed the target's dodge and plays an attack card (§6 DODGE).
    pub guessed: bool,
    /// The target struck the attacker's rear this round: the reply is −25% (D12).
    pub reply_rear: bool,
    /// Defences count half (a rider against PULL RIDER, §6).
    pub half_defence: bool,
}

/// The numbers of one blow, with every modifier named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Odds {
    /// Chance to hit in percent, after the limits.
    pub chance: i32,
    /// A hit rolled at or under this is critical.
    pub critical: i32,
    /// Chance of a weapon bash after a hit.
    pub bash: i32,
    /// Every modifier, in order, with its size.
    pub parts: Vec<(Cow<'static, str>, i32)>,
    /// Least and most damage of a hit before criticals.
    pub damage: (i32, i32),
    /// The side of the target's stand it goes through.
    pub side: StandSide,
    /// The weapon (or hand) it strikes with.
    pub weapon: String,
    /// Its class.
    pub class: WeaponClass,
}

/// True when `a` is the TMM's attacker against `d`: the later to join a melee attacks; else
/// the initiative winner's figure (D6, D8).
pub fn tmm_attacker(fight: &Fight, a: usize, d: usize) -> bool {
    let (ja, jd) = (
        fight.fighters[a].state.joined,
        fight.fighters[d].state.joined,
    );
    if ja != jd {
        ja > jd
    } else {
        fight.fighters[a].side == initiative_attacker(fight, a, d)
    }
}

/// D6: the side whose figure is the TMM attacker between `a` and `d` when neither joined
/// later: the first initiative's winner where the two were engaged at the end of the first
/// half-move ("step #1 initiative applying in those cases where contact was made in the first
/// phase of movement"), else the winner of the turn's last initiative.
pub fn initiative_attacker(fight: &Fight, a: usize, d: usize) -> u8 {
    match &fight.first_half {
        Some(f) if f.engaged(&fight.fighters[a].id, &fight.fighters[d].id) => f.attacker,
        _ => fight.attacker,
    }
}

fn hand(t: &Tables, b: Blow) -> Option<HandAttack> {
    match b {
        Blow::Punch => Some(t.punch),
        Blow::Kick => Some(t.kick),
        Blow::HorseKick => Some(t.horse_kick),
        Blow::Trample => Some(t.trample),
        _ => None,
    }
}

/// The chance to hit and its parts (the one function the resolver and the odds share).
pub fn breakdown(
    fight: &Fight,
    t: &Tables,
    a: usize,
    d: usize,
    s: &Strike,
    g: &Guard,
    ctx: &Context,
) -> Odds {
    let att = &fight.fighters[a];
    let def = &fight.fighters[d];
    let side = fight.side_towards(d, att.cell);
    let frontal = side.is_frontal();
    let mut parts: Vec<(Cow<'static, str>, i32)> = Vec::with_capacity(8);
    let (weapon, class, dmg, kind) = match hand(t, s.blow) {
        Some(h) => (
            match s.blow {
                Blow::Punch => "fist",
                Blow::Kick => "foot",
                Blow::HorseKick => "hooves",
                _ => "hooves (trample)",
            }
            .to_string(),
            h.class,
            h,
            WeaponKind::Natural,
        ),
        None => {
            let w = if s.blow == Blow::Missile {
                att.in_hand(t)
            } else {
                att.melee_weapon(t)
            };
            let (name, class, kind) = match w {
                Some(w) => (att.in_hand_name().to_string(), w.class, w.kind),
                None => ("fist".to_string(), t.punch.class, WeaponKind::Natural),
            };
            let dd = if w.is_some() {
                t.damage
                    .get(&class)
                    .copied()
                    .unwrap_or(DamageDice { dice: 1, plus: 0 })
            } else {
                DamageDice {
                    dice: t.punch.dice,
                    plus: t.punch.plus,
                }
            };
            let ha = HandAttack {
                class,
                dice: dd.dice + if s.great { great_dice(class) } else { 0 },
                plus: dd.plus,
                halve: w.is_none() && t.punch.halve,
            };
            (name, class, ha, kind)
        }
    };
    if s.blow == Blow::Trample {
        parts.push(("trampling a prone figure".into(), t.trample_hit));
    } else {
        parts.push((
            armour_part(class, def.armour),
            t.base_hit(class, def.armour),
        ));
    }
    if att.profile.hit != 0 {
        parts.push(("skill".into(), att.profile.hit));
    }
    let k2 = k2_modifier(fight, a);
    if k2 != 0 && s.blow != Blow::Missile {
        parts.push((
            if k2 > 0 {
                "charging shock cavalry (K2)"
            } else {
                "mounted infantry (K2)"
            }
            .into(),
            k2,
        ));
    }
    let tmm = t.tmm(
        fight.tac_of(if tmm_attacker(fight, a, d) { a } else { d }),
        fight.tac_of(if tmm_attacker(fight, a, d) { d } else { a }),
    );
    let tm = if tmm_attacker(fight, a, d) {
        tmm.0
    } else {
        tmm.1
    };
    if tm != 0 && s.blow != Blow::Missile {
        parts.push(("TMM".into(), tm));
    }
    // Seed 003: "a defender caught in such an unfortunate position receives no +25% bonus to
    // hit if the rider exposes his back to him as he passes by in front": a reply to a rear
    // attack never counts the rear bonus itself.
    if side == StandSide::Rear && !ctx.reply_rear {
        parts.push(("through the rear (D12)".into(), seed::REAR_ATTACK));
    }
    if let Some(m) = att.mount {
        let head = fight.side_towards(m, def.cell) == StandSide::Front;
        if head && s.blow == Blow::Weapon && !matches!(kind, WeaponKind::Lance | WeaponKind::Spear)
        {
            parts.push(("over the horse's head (D11)".into(), seed::HEAD_END));
        }
        let exempt = att.melee_weapon(t).is_some_and(|w| w.speed_exempt());
        // C7: the "Full Charge" row is a movement charge's, not the CHARGE card's.
        let charging = super::cards::full_charge(fight, a);
        let p = rider_speed_penalty(speed_of(fight, a), charging);
        if p != 0 && !exempt && s.blow != Blow::Missile {
            parts.push((
                format!("from a horse at the {} (C7)", speed_of(fight, a)).into(),
                p,
            ));
        }
    }
    if s.great {
        parts.push(("GREAT BLOW".into(), seed::GREAT_BLOW));
    }
    if att.state.berserk {
        parts.push(("berserk".into(), seed::BERSERK_HIT));
    }
    use super::fight::Posture;
    match def.state.posture {
        Posture::Prone if s.blow != Blow::Trample => {
            parts.push(("target prone".into(), t.target_prone))
        }
        Posture::Kneeling => parts.push(("target on its knees".into(), t.target_kneeling)),
        _ => {}
    }
    if def.state.stunned > 0 {
        parts.push(("target stunned".into(), t.target_stunned));
    }
    if def.state.berserk {
        parts.push(("target berserk, no defence".into(), seed::BERSERK_EXPOSED));
    }
    if att.state.posture == Posture::Kneeling {
        parts.push(("on its knees".into(), t.attacker_kneeling));
    }
    if att.state.staggered {
        parts.push(("staggered".into(), t.attacker_staggered));
    }
    if ctx.reply_rear {
        parts.push(("reply to a rear attack (D12)".into(), seed::REAR_REPLY));
    }
    let half = |v: i32| if ctx.half_defence { v / 2 } else { v };
    // A figure on the ground, stunned or held has no defence but its armour (our reading).
    let helpless = def.state.posture == Posture::Prone
        || def.state.stunned > 0
        || !def.state.restrained_by.is_empty();
    let g = if helpless { &Guard::default() } else { g };
    let mut counted_shield_or_parry = false;
    if g.parry && frontal && s.blow != Blow::Missile {
        let p = def.melee_weapon(t).map_or(0, |w| w.parry) + def.profile.parry;
        parts.push(("WEAPON PARRY".into(), -half(p)));
        counted_shield_or_parry = true;
    }
    let asp_bonus = t.asp.get(&def.profile.shield).copied().unwrap_or(0);
    if g.asp && frontal && def.shield_ready() {
        parts.push(("ACTIVE SHIELD PARRY".into(), -half(asp_bonus)));
        counted_shield_or_parry = true;
    }
    if g.desperate && frontal {
        let mut v = seed::DESPERATE;
        if !counted_shield_or_parry {
            v += if def.profile.trained && def.shield_ready() {
                asp_bonus
            } else {
                def.melee_weapon(t).map_or(0, |w| w.parry) + def.profile.parry
            };
        }
        parts.push(("DESPERATE DEFENSE".into(), -half(v)));
    }
    if g.psp && def.shield_ready() && matches!(side, StandSide::Shield | StandSide::Front) {
        parts.push((
            "PASSIVE SHIELD PARRY (shield side)".into(),
            -half(seed::PASSIVE_SHIELD),
        ));
    }
    if g.dodge.is_some() || g.auto_dodge {
        let mut v = (def.profile.dodge - dodge_penalty(def.armour, def.enc)).max(0);
        if side == StandSide::Rear {
            v /= 2;
        }
        if ctx.guessed {
            v /= 2;
        }
        if v != 0 {
            parts.push((
                if ctx.guessed {
                    "DODGE (guessed: half)".into()
                } else if g.dodge.is_none() {
                    "automatic DODGE (§6)".into()
                } else {
                    "DODGE".into()
                },
                -v,
            ));
        }
    }
    let mut chance: i32 = parts.iter().map(|p| p.1).sum();
    if att.state.stupor {
        chance = chance * seed::STUPOR_SHARE.0 as i32 / seed::STUPOR_SHARE.1 as i32;
        parts.push(("stupor: a quarter".into(), 0));
    }
    let chance = chance.clamp(t.hit_limits.min, t.hit_limits.max);
    let mut critical = t.critical_base;
    let mut bash = t.weapon_bash.get(&class).copied().unwrap_or(0);
    if s.great {
        critical += seed::GREAT_BLOW;
        bash += seed::GREAT_BLOW;
    }
    if att.state.berserk {
        critical += seed::BERSERK_CRIT;
        bash += seed::BERSERK_BASH;
    }
    if ctx.guessed {
        bash += seed::DODGE_GUESSED_BASH;
    }
    if matches!(s.blow, Blow::Missile | Blow::Trample) {
        bash = 0;
    }
    let per = if dmg.halve { (1, 3) } else { (1, 6) };
    let damage = (
        dmg.dice as i32 * per.0 + dmg.plus,
        dmg.dice as i32 * per.1 + dmg.plus,
    );
    Odds {
        chance,
        critical: critical.min(chance),
        bash,
        parts,
        damage,
        side,
        weapon,
        class,
    }
}

/// "LH vs armour 3": the first part of every blow's odds, from a static table (no allocation
/// per blow) for armour classes 0–10.
fn armour_part(class: WeaponClass, ac: u8) -> Cow<'static, str> {
    macro_rules! row {
        ($c:literal) => {
            [
                concat!($c, " vs armour 0"),
                concat!($c, " vs armour 1"),
                concat!($c, " vs armour 2"),
                concat!($c, " vs armour 3"),
                concat!($c, " vs armour 4"),
                concat!($c, " vs armour 5"),
                concat!($c, " vs armour 6"),
                concat!($c, " vs armour 7"),
                concat!($c, " vs armour 8"),
                concat!($c, " vs armour 9"),
                concat!($c, " vs armour 10"),
            ]
        };
    }
    const L: [&str; 11] = row!("L");
    const LH: [&str; 11] = row!("LH");
    const H: [&str; 11] = row!("H");
    let row = match class {
        WeaponClass::Light => &L,
        WeaponClass::LightHeavy => &LH,
        WeaponClass::Heavy => &H,
    };
    match row.get(ac as usize) {
        Some(s) => Cow::Borrowed(s),
        None => format!("{} vs armour {ac}", class.short()).into(),
    }
}

/// §6 GREAT BLOW: +1d6 with Light weapons, +2d6 Light-Heavy, +3d6 Heavy.
pub fn great_dice(c: WeaponClass) -> u32 {
    match c {
        WeaponClass::Light => 1,
        WeaponClass::LightHeavy => 2,
        WeaponClass::Heavy => 3,
    }
}

/// The odds of `card` by `a` against `d`, if `d` shows `assumed` defensive cards: computed by
/// the same code the resolver uses. `None` for a card that strikes no blow.
pub fn odds(
    fight: &Fight,
    t: &Tables,
    a: usize,
    d: usize,
    card: &MeleeCard,
    assumed: &[MeleeCard],
) -> Option<Odds> {
    let s = match card {
        MeleeCard::DeliverBlow { .. } | MeleeCard::Ferocity { .. } => Strike::plain(Blow::Weapon),
        MeleeCard::GreatBlow { .. } => Strike {
            great: true,
            ..Strike::plain(Blow::Weapon)
        },
        MeleeCard::Punch { .. } => Strike::plain(Blow::Punch),
        MeleeCard::Kick { .. } if fight.fighters[a].is_mount() => Strike::plain(Blow::HorseKick),
        MeleeCard::Kick { .. } => Strike::plain(Blow::Kick),
        MeleeCard::Fire { .. } => Strike::plain(Blow::Missile),
        MeleeCard::Horse(super::cards::HorseCard::Trample { .. }) => Strike::plain(Blow::Trample),
        _ => return None,
    };
    let g = if assumed.is_empty() {
        Guard::default()
    } else {
        Guard::from_cards(assumed)
    }
    .with_auto_dodge(fight, d);
    Some(breakdown(fight, t, a, d, &s, &g, &Context::default()))
}

/// The side's name in the log.
pub fn side_word(s: StandSide) -> &'static str {
    match s {
        StandSide::Front => "front",
        StandSide::Shield => "shield",
        StandSide::Sword => "sword",
        StandSide::Rear => "rear",
    }
}

/// K2 on a blow struck with the melee's cards: mounted infantry −1 while mounted; shock
/// cavalry +1 when charging. *Our reading:* in the TAC phase and the card rounds a rider is
/// charging when its TAC card of this melee phase is CHARGE (the same test as C7's "in a
/// charge"). Nothing outside a melee phase ([`Fight::melee_k2`]): a movement charge's ride
/// adds K2 itself.
pub fn k2_modifier(fight: &Fight, a: usize) -> i32 {
    if !fight.melee_k2 {
        return 0;
    }
    let f = &fight.fighters[a];
    let charging = fight.tac_of(a) == Some(super::cards::TacCard::Charge);
    crate::rules::cavalry::melee_modifier(f.troop, f.mounted(), charging)
}
