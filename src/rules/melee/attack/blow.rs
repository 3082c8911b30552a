//! Striking one blow with dice (§6, D11–D12): the roll against [`super::breakdown`]'s chance,
//! the critical, the damage, the weapon bash, and what the defender's card does after — WEAPON
//! PARRY's counter-blow flurry, weapon break and disarm, ACTIVE SHIELD PARRY's bash and shield
//! break.

use super::*;

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

/// D12/C5: a rider and its mount are one defender for "the defender's reply" to a rear
/// attack: K4 may send the rear blow to the horse and the reply to the attacker's horse, and
/// it is still that attack's reply.
fn same_unit(fight: &Fight, i: usize, j: usize) -> bool {
    let f = &fight.fighters[i];
    i == j || f.mount == Some(j) || f.rider == Some(j)
}

/// Writes what the attacker does ("plays DELIVER BLOW at", "kicks at", …) into `text`.
pub(super) fn push_verb(text: &mut String, s: &Strike, card: &str) {
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
pub(super) fn roll_damage<D: Dice>(
    r: &mut Roller<D>,
    by: &str,
    dice: u32,
    plus: i32,
    halve: bool,
) -> i32 {
    let mut sum = plus;
    for _ in 0..dice {
        let v = r.d6(by) as i32;
        sum += if halve { (v + 1) / 2 } else { v };
    }
    sum.max(0)
}

/// Resolves one blow by `a` on `d`. Returns true when it hit.
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
        reply_rear: facts
            .rear
            .iter()
            .any(|&(x, y)| same_unit(fight, x, d) && same_unit(fight, y, a)),
        half_defence: false,
    };
    let o = breakdown(fight, t, a, d, &s, &g, &ctx);
    if o.side == StandSide::Rear {
        facts.rear.push((a, d));
    }
    // The ids are borrowed where they are written, not cloned: a blow is the hot path.
    let roll = r.d100(&fight.fighters[a].id);
    r.aim(o.chance, &fight.fighters[d].id);
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
                    crate::rules::melee::fight::Held::Main => st.main_broken = true,
                    _ => st.sidearm_lost = true,
                }
                st.held = crate::rules::melee::fight::Held::Nothing;
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
                crate::rules::melee::fight::Held::Main => st.main_lost = true,
                crate::rules::melee::fight::Held::Sidearm => st.sidearm_lost = true,
                crate::rules::melee::fight::Held::Nothing => {}
            }
            st.held = crate::rules::melee::fight::Held::Nothing;
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
            let (by, from) = (fight.fighters[a].id.clone(), fight.fighters[a].cell);
            let (k, what) = effects::roll_bash(fight, t, &by, d, from, r);
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

pub(super) fn damage_dice(fight: &Fight, t: &Tables, a: usize, s: &Strike) -> (u32, i32, bool) {
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
pub(super) fn missed<D: Dice>(
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
            let (by, from) = (fight.fighters[d].id.clone(), fight.fighters[d].cell);
            let (k, what) = effects::roll_bash(fight, t, &by, a, from, r);
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
            crate::rules::melee::grapple::opening(fight, a, d, r, out);
        }
    }
}

/// The free counter-blow "flurry" of a successful parry or dodge (§6): on `chance` the
/// defender strikes back; the parried figure defends with its best DEFENSIVE card of one blow
/// or less (DESPERATE DEFENSE, else WEAPON PARRY, else ACTIVE SHIELD PARRY, else PASSIVE).
/// Counter-blows go only through the defender's frontal sides (D12) and start no flurry.
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
        || f.state.posture == crate::rules::melee::fight::Posture::Prone
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
    }
    .with_auto_dodge(fight, on);
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
