//! One blow: the chance to hit with every modifier named (house table, TMM, D11–D12, C7, the
//! cards' bonuses and defences), then the hit, the critical, the damage, the weapon bash, and
//! what the defender's card does (parry counter-blows, weapon break, disarm, shield bash,
//! shield break). [`odds`] gives the desktop game the same numbers the resolver rolls against.

use super::cards::{DodgeDir, MeleeCard, speed_of};
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

/// The defensive cards a figure shows this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Guard {
    /// WEAPON PARRY.
    pub parry: bool,
    /// DESPERATE DEFENSE.
    pub desperate: bool,
    /// ACTIVE SHIELD PARRY.
    pub asp: bool,
    /// PASSIVE SHIELD PARRY (or nothing at all played).
    pub psp: bool,
    /// DODGE.
    pub dodge: Option<DodgeDir>,
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

/// The TAC card a figure plays for the TMM: a mount's is its rider's.
pub fn tac_of(fight: &Fight, i: usize) -> Option<super::cards::TacCard> {
    let f = &fight.fighters[i];
    f.state
        .tac
        .or_else(|| f.rider.and_then(|r| fight.fighters[r].state.tac))
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
        fight.fighters[a].side == fight.attacker
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
    let tmm = t.tmm(
        tac_of(fight, if tmm_attacker(fight, a, d) { a } else { d }),
        tac_of(fight, if tmm_attacker(fight, a, d) { d } else { a }),
    );
    let tm = if tmm_attacker(fight, a, d) {
        tmm.0
    } else {
        tmm.1
    };
    if tm != 0 && s.blow != Blow::Missile {
        parts.push(("TMM".into(), tm));
    }
    if side == StandSide::Rear {
        parts.push(("through the rear (D12)".into(), seed::REAR_ATTACK));
    }
    if let Some(m) = att.mount {
        let head = fight.side_towards(m, def.cell) == StandSide::Front;
        if head && s.blow == Blow::Weapon && !matches!(kind, WeaponKind::Lance | WeaponKind::Spear)
        {
            parts.push(("over the horse's head (D11)".into(), seed::HEAD_END));
        }
        let exempt = att.melee_weapon(t).is_some_and(|w| w.speed_exempt());
        let charging = tac_of(fight, a) == Some(super::cards::TacCard::Charge);
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
    if g.dodge.is_some() {
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
    };
    Some(breakdown(fight, t, a, d, &s, &g, &Context::default()))
}

/// Per-round facts every blow needs: the guards shown, who was struck, rear attacks.
#[derive(Clone, Debug, Default)]
pub struct RoundFacts {
    /// Each figure's guard this round.
    pub guards: Vec<Guard>,
    /// Struck (hit) this round.
    pub struck: Vec<bool>,
    /// (attacker, victim) pairs of rear attacks this round.
    pub rear: Vec<(usize, usize)>,
    /// (attacker, dodger) pairs where the attacker guessed right and plays an attack card.
    pub guessed: Vec<(usize, usize)>,
}

impl RoundFacts {
    /// Facts for `n` figures.
    pub fn new(n: usize) -> RoundFacts {
        RoundFacts {
            guards: vec![Guard::default(); n],
            struck: vec![false; n],
            rear: Vec::new(),
            guessed: Vec::new(),
        }
    }
}

/// Writes what the attacker does ("plays DELIVER BLOW at", "kicks at", …) into `text`.
fn push_verb(text: &mut String, s: &Strike, card: &str) {
    if s.counter {
        text.push_str("counter-strikes at");
        return;
    }
    match s.blow {
        Blow::Punch => text.push_str("punches"),
        Blow::Kick | Blow::HorseKick => text.push_str("kicks at"),
        Blow::Trample => text.push_str("tramples"),
        Blow::Missile => text.push_str("shoots at"),
        Blow::Weapon => {
            text.push_str("plays ");
            text.push_str(card);
            text.push_str(" at");
        }
    }
}

/// Rolls a damage amount: `dice` d6 (halved to d3 if asked) plus `plus`.
fn roll_damage<D: Dice>(r: &mut Roller<D>, by: &str, dice: u32, plus: i32, halve: bool) -> i32 {
    let mut sum = plus;
    for _ in 0..dice {
        let v = r.d6(by) as i32;
        sum += if halve { (v + 1) / 2 } else { v };
    }
    sum.max(0)
}

/// Resolves one blow by `a` on `d`. Returns true when it hit.
#[allow(clippy::too_many_arguments)]
pub(crate) fn strike<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    a: usize,
    d: usize,
    s: Strike,
    card: &str,
    facts: &mut RoundFacts,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) -> bool {
    let g = facts.guards[d];
    let ctx = Context {
        guessed: facts.guessed.contains(&(a, d)),
        reply_rear: facts.rear.contains(&(d, a)),
        half_defence: false,
    };
    let o = breakdown(fight, t, a, d, &s, &g, &ctx);
    if o.side == StandSide::Rear {
        facts.rear.push((a, d));
    }
    // The ids are borrowed where they are written, not cloned: a blow is the hot path.
    let roll = r.d100(&fight.fighters[a].id);
    let hit = roll as i32 <= o.chance;
    let mut text = String::with_capacity(200);
    text.push_str(&fight.fighters[a].id);
    text.push(' ');
    push_verb(&mut text, &s, card);
    let _ = write!(
        text,
        " {} with its {} ({}) through the {} side: needs {} or less (",
        fight.fighters[d].id,
        o.weapon,
        o.class.short(),
        side_word(o.side),
        o.chance,
    );
    for (k, (n, v)) in o.parts.iter().enumerate() {
        let _ = write!(text, "{}{n} {v:+}", if k == 0 { "" } else { ", " });
    }
    let _ = write!(
        text,
        "); rolls {roll}: {}.",
        if hit { "a hit" } else { "a miss" }
    );
    r.event(out, text);
    if !hit {
        missed(fight, t, a, d, &s, &g, o.side, facts, r, out);
        return false;
    }
    facts.struck[d] = true;
    // A blow past a WEAPON PARRY: weapon break (H against L) and disarm (§6).
    if g.parry && o.side.is_frontal() && s.blow != Blow::Missile {
        let pw = fight.fighters[d].melee_weapon(t).map(|w| w.class);
        if o.class == WeaponClass::Heavy && pw == Some(WeaponClass::Light) {
            let v = r.d100(&fight.fighters[d].id);
            if v <= seed::PARRY_WEAPON_BREAK {
                let st = &mut fight.fighters[d].state;
                match st.held {
                    super::fight::Held::Main => st.main_broken = true,
                    _ => st.sidearm_lost = true,
                }
                st.held = super::fight::Held::Nothing;
                r.event(
                    out,
                    format!(
                        "The heavy blow breaks {}'s light parrying weapon (1–{}: rolls {v}).",
                        fight.fighters[d].id,
                        seed::PARRY_WEAPON_BREAK
                    ),
                );
            } else {
                r.event(
                    out,
                    format!(
                        "{}'s light weapon holds against the heavy blow (breaks on 1–{}; rolls {v}).",
                        fight.fighters[d].id,
                        seed::PARRY_WEAPON_BREAK
                    ),
                );
            }
        }
        let v = r.d100(&fight.fighters[d].id);
        if v <= seed::PARRY_DISARM {
            let st = &mut fight.fighters[d].state;
            match st.held {
                super::fight::Held::Main => st.main_lost = true,
                super::fight::Held::Sidearm => st.sidearm_lost = true,
                super::fight::Held::Nothing => {}
            }
            st.held = super::fight::Held::Nothing;
            r.event(
                out,
                format!(
                    "The blow past the parry disarms {} instead of wounding him (1–{}: rolls {v}).",
                    fight.fighters[d].id,
                    seed::PARRY_DISARM
                ),
            );
            return true;
        }
        r.event(
            out,
            format!(
                "The blow gets past {}'s WEAPON PARRY; he keeps his weapon (disarmed instead of wounded on 1–{}: rolls {v}).",
                fight.fighters[d].id,
                seed::PARRY_DISARM
            ),
        );
    }
    // A blow past an ACTIVE SHIELD PARRY with an H or LH weapon may shatter the shield (§6).
    if g.asp
        && o.side.is_frontal()
        && fight.fighters[d].shield_ready()
        && o.class != WeaponClass::Light
    {
        let small = fight.fighters[d].profile.shield == ShieldSize::Small;
        let need = if small {
            seed::SHIELD_BREAK_SMALL
        } else {
            seed::SHIELD_BREAK_LARGE
        };
        let v = r.d100(&fight.fighters[d].id);
        if v <= need {
            fight.fighters[d].state.shield_broken = true;
        }
        r.event(
            out,
            format!(
                "{}: {} shield shatters on 1–{need}; rolls {v}{}",
                fight.fighters[d].id,
                if small { "a small" } else { "a large" },
                if v <= need {
                    ": it shatters."
                } else {
                    ": it holds."
                }
            ),
        );
    }
    let mut times = 1;
    let mut effect = CritEffect::None;
    if roll as i32 <= o.critical {
        let v = r.d6(&fight.fighters[a].id);
        let line = t.critical[(v as usize).clamp(1, 6) - 1];
        times = line.times;
        effect = line.effect;
        r.event(
            out,
            format!(
                "A critical hit (rolled {roll}, {} or less): 1d6 on the critical table rolls {v}: ×{times} damage{}.",
                o.critical,
                match effect {
                    CritEffect::None => "",
                    CritEffect::Stunned => ", stunned",
                    CritEffect::KnockedDown => ", knocked down",
                }
            ),
        );
    }
    let (dice, plus, halve) = damage_dice(fight, t, a, &s);
    let base = roll_damage(r, &fight.fighters[a].id, dice, plus, halve);
    let dmg = base * times;
    let berserk = fight.fighters[d].state.berserk;
    let mut text = String::with_capacity(120);
    let _ = write!(text, "Damage {dice}d{}", if halve { 3 } else { 6 });
    if plus != 0 {
        let _ = write!(text, "{plus:+}");
    }
    let _ = write!(text, ": {base}");
    if times > 1 {
        let _ = write!(text, " ×{times} = {dmg}");
    }
    text.push_str(" — ");
    effects::wound_into(fight, d, dmg, t, &mut text);
    if fight.fighters[d].is_up() {
        match effect {
            CritEffect::Stunned if !berserk => {
                fight.fighters[d].state.stunned = t.stunned_rounds;
                let _ = write!(text, "; stunned for {} card rounds", t.stunned_rounds);
            }
            CritEffect::KnockedDown if !berserk => {
                text.push_str("; ");
                text.push_str(&effects::knock_down(fight, d));
            }
            CritEffect::None => {}
            _ => text.push_str("; berserk, he shrugs off the critical"),
        }
    }
    text.push('.');
    r.event(out, text);
    if o.bash > 0 && fight.fighters[d].is_up() {
        let v = r.d100(&fight.fighters[a].id);
        if v as i32 <= o.bash {
            let k = r.d6(&fight.fighters[a].id);
            let res = t.bash_results[(k as usize).clamp(1, 6) - 1];
            let from = fight.fighters[a].cell;
            let what = effects::bash(fight, d, res, from, t);
            r.event(
                out,
                format!(
                    "A weapon bash (needs {} or less, rolls {v}); 1d6 on the bash table rolls {k}: {what}.",
                    o.bash
                ),
            );
        } else {
            r.event(
                out,
                format!("No weapon bash (needs {} or less, rolls {v}).", o.bash),
            );
        }
    }
    true
}

fn damage_dice(fight: &Fight, t: &Tables, a: usize, s: &Strike) -> (u32, i32, bool) {
    if let Some(h) = hand(t, s.blow) {
        return (h.dice, h.plus, h.halve);
    }
    let att = &fight.fighters[a];
    let w = if s.blow == Blow::Missile {
        att.in_hand(t)
    } else {
        att.melee_weapon(t)
    };
    match w {
        Some(w) => {
            let dd = t
                .damage
                .get(&w.class)
                .copied()
                .unwrap_or(DamageDice { dice: 1, plus: 0 });
            (
                dd.dice + if s.great { great_dice(w.class) } else { 0 },
                dd.plus,
                false,
            )
        }
        None => (t.punch.dice, t.punch.plus, t.punch.halve),
    }
}

/// A missed blow: WEAPON PARRY's counter-blow flurry, ACTIVE SHIELD PARRY's shield bash.
#[allow(clippy::too_many_arguments)]
fn missed<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    a: usize,
    d: usize,
    s: &Strike,
    g: &Guard,
    side: StandSide,
    facts: &mut RoundFacts,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    if g.parry && side.is_frontal() && s.blow != Blow::Missile && !s.counter {
        counter(
            fight,
            t,
            d,
            a,
            seed::PARRY_COUNTER,
            "the parry",
            facts,
            r,
            out,
        );
    }
    if g.asp
        && side.is_frontal()
        && fight.fighters[d].profile.shield == ShieldSize::Large
        && fight.fighters[d].shield_ready()
        && fight.fighters[d].is_up()
        && fight.in_contact(a, d)
    {
        let v = r.d100(&fight.fighters[d].id);
        if v as i32 <= t.shield_bash {
            let k = r.d6(&fight.fighters[d].id);
            let res = t.bash_results[(k as usize).clamp(1, 6) - 1];
            let from = fight.fighters[d].cell;
            let what = effects::bash(fight, a, res, from, t);
            r.event(
                out,
                format!(
                    "{}'s shield turns the blow and he SHIELD BASHES (free): needs {} or less, rolls {v}; 1d6 rolls {k}: {what}.",
                    fight.fighters[d].id,
                    t.shield_bash
                ),
            );
        } else {
            r.event(
                out,
                format!(
                    "{}'s shield turns the blow; his SHIELD BASH fails (needs {} or less, rolls {v}).",
                    fight.fighters[d].id,
                    t.shield_bash
                ),
            );
            super::grapple::opening(fight, a, d, r, out);
        }
    }
}

/// The free counter-blow "flurry" of a successful parry or dodge (§6): on `chance` the
/// defender strikes back; the parried figure defends with its best DEFENSIVE card of one blow
/// or less (DESPERATE DEFENSE, else WEAPON PARRY, else ACTIVE SHIELD PARRY, else PASSIVE).
/// Counter-blows go only through the defender's frontal sides (D12) and start no flurry.
#[allow(clippy::too_many_arguments)]
pub(crate) fn counter<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    by: usize,
    on: usize,
    chance: u32,
    why: &str,
    facts: &mut RoundFacts,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let bid = fight.fighters[by].id.clone();
    let f = &fight.fighters[by];
    if !f.is_up()
        || f.state.stunned > 0
        || f.state.posture == super::fight::Posture::Prone
        || f.melee_weapon(t).is_none()
        || f.is_mount()
    {
        return;
    }
    if !fight.can_strike(by, on, f.reach(t)) {
        r.event(
            out,
            format!(
                "{bid} cannot counter-strike through {why}: {} is not before its frontal sides (D12).",
                fight.fighters[on].id
            ),
        );
        return;
    }
    let v = r.d100(&bid);
    if v > chance {
        r.event(
            out,
            format!("{bid} looks for a counter-blow after {why} (1–{chance}): rolls {v}, none."),
        );
        return;
    }
    let o = &fight.fighters[on];
    let guard = if !o.state.berserk && !o.is_mount() {
        Guard {
            desperate: true,
            ..Guard::default()
        }
    } else {
        Guard {
            psp: true,
            ..Guard::default()
        }
    };
    r.event(
        out,
        format!(
            "{bid} wins a counter-blow after {why} (1–{chance}): rolls {v}; {} answers with {}.",
            o.id,
            if guard.desperate {
                "DESPERATE DEFENSE"
            } else {
                "PASSIVE SHIELD PARRY"
            }
        ),
    );
    let saved = facts.guards[on];
    facts.guards[on] = guard;
    strike(
        fight,
        t,
        by,
        on,
        Strike {
            blow: Blow::Weapon,
            great: false,
            counter: true,
        },
        "DELIVER BLOW",
        facts,
        r,
        out,
    );
    facts.guards[on] = saved;
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
