//! Spells (issue 4): a small list in `data/combat.ron`, cast with PREPARE SPELL and CAST
//! SPELL (§6). Each applies one of the ruleset's movement conditions (R1) by name — quick
//! step, bind (shackles), the ghoul's touch — so the seed 002 examples happen in play: the
//! condition changes the figure's movement from its next half-move, percentages first.

use super::fight::Fight;
use super::judge::{Ineligible, Situation};
use super::tables::spell_target_ok;
use super::tables::{Caster, Tables};
use super::{Dice, Event, Roller};

fn no<T>(reason: impl Into<String>) -> Result<T, Ineligible> {
    Err(Ineligible {
        tag: "§6 CAST SPELL",
        reason: reason.into(),
    })
}

/// May figure `i` cast `spell` on `target` (itself when `None`) now?
pub fn castable(
    sit: &Situation,
    i: usize,
    spell: &str,
    target: Option<&str>,
) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let me = &fight.fighters[i];
    if me.profile.caster == Caster::None {
        return no("it casts no spells");
    }
    let Some(s) = sit.tables.spells.get(spell) else {
        return no(format!("there is no spell {spell:?}"));
    };
    if !me.profile.spells.iter().any(|k| k == spell) {
        return no(format!("{} does not know {}", me.id, s.name));
    }
    let preparing = sit
        .with
        .iter()
        .any(|c| matches!(c, super::deck::MeleeCard::PrepareSpell));
    if let Err(why) = super::prepare::cast_ready(fight, i, s.level) {
        return no(if preparing && !me.state.prepared {
            "PREPARE SPELL takes its own card round before CAST SPELL".to_string()
        } else {
            why
        });
    }
    if me.state.spells_cast > 0 && me.state.spell_levels + s.level > me.profile.mkl {
        return no(format!(
            "the turn's casting levels may not pass its MKL of {} ({} used, {} is level {})",
            me.profile.mkl, me.state.spell_levels, s.name, s.level
        ));
    }
    if !fight.conditions.contains(&s.condition) {
        return no(format!(
            "this ruleset has no {:?} condition for {} to apply (R1)",
            s.condition, s.name
        ));
    }
    let j = match target {
        None => i,
        Some(t) => match fight.index_of(t) {
            Some(j) if fight.fighters[j].is_up() => j,
            _ => return no(format!("{t} is not a figure in the fight")),
        },
    };
    let same = fight.fighters[j].side == me.side;
    if !spell_target_ok(s.target, same) {
        return no(format!(
            "{} is cast on {}",
            s.name,
            if same { "an enemy" } else { "a friend" }
        ));
    }
    if same && let Err(why) = super::berserk::aid_ok(fight, i, j) {
        return no(why);
    }
    if j != i {
        let d = fight.distance(i, j);
        let reach = s.range.max(1);
        if d > reach {
            return no(format!(
                "{} is {d} cells away; {} reaches {}",
                fight.fighters[j].id,
                s.name,
                if s.range == 0 {
                    "only a figure in contact".to_string()
                } else {
                    format!("{} cells", s.range)
                }
            ));
        }
        if !fight.in_front_of(i, j) {
            return no("spells are cast only at targets to the caster's front");
        }
    }
    Ok(())
}

/// Casts `spell`: rolls its chance and, on success, gives the target the spell's condition.
pub(crate) fn cast<D: Dice>(
    fight: &mut Fight,
    t: &Tables,
    i: usize,
    spell: &str,
    target: Option<&str>,
    r: &mut Roller<D>,
    out: &mut Vec<Event>,
) {
    let id = fight.fighters[i].id.clone();
    let Some(s) = t.spells.get(spell) else {
        return;
    };
    let j = target.and_then(|x| fight.index_of(x)).unwrap_or(i);
    let tid = fight.fighters[j].id.clone();
    {
        let st = &mut fight.fighters[i].state;
        st.spells_cast += 1;
        st.spell_levels += s.level;
        st.prepared = false;
        st.preparations = 0;
    }
    if !fight.fighters[j].is_up() {
        r.event(
            out,
            format!("{id}'s {} finds {tid} already fallen.", s.name),
        );
        return;
    }
    let v = r.d100(&id);
    if v > s.chance {
        r.event(
            out,
            format!(
                "{id} casts {} on {tid}: takes effect on {} or less, rolls {v}: it fails.",
                s.name, s.chance
            ),
        );
        return;
    }
    let had = fight.fighters[j].conditions.contains(&s.condition);
    if !had {
        fight.fighters[j].conditions.push(s.condition.clone());
    }
    r.event(
        out,
        format!(
            "{id} casts {} on {tid}: takes effect on {} or less, rolls {v}: it works, {tid} is now under \"{}\"{} (R1: its movement changes from its next half-move).",
            s.name,
            s.chance,
            s.condition,
            if had { " (already)" } else { "" }
        ),
    );
}
