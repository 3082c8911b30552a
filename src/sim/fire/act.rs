//! The orders of a fire phase (D3): `Fire` (one shot), `Cast` (one spell) and `EndSide` (the
//! end of the side's sub-step); any other order waits for the half-move.

use super::*;
use crate::rules::asl_cavalry::{FireResult, HorseResult};
use crate::rules::melee::{Event, Roller};
use crate::sim::dice::Dice;
use crate::sim::melee::write_back;
use crate::sim::phase::log_events;

fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}

/// After an accepted order in a fire phase: it may have changed what each side could do, so
/// the phase looks again. (Only accepted orders: a refused one changes nothing.) A side's
/// `EndSide` in the fire phase (`step_ended`) changes only whose sub-step it is, so what the
/// phase noted each side could do still holds; any other order forgets it.
pub fn unsettle(world: &mut World, step_ended: bool) {
    if fire_phase_of(world).is_some()
        && let Some(mut b) = world.get_resource_mut::<FireBook>()
    {
        b.settled = false;
        if !step_ended {
            b.could.clear();
        }
    }
}

/// Is it fighter `i`'s side's sub-step, and a sub-step of `kind`?
pub(super) fn check_turn(
    world: &World,
    fight: &Fight,
    i: usize,
    kind: SubStep,
) -> Result<FireStep, Refusal> {
    let Some(step) = current_step(world) else {
        return refuse("D3: no fire phase waits for orders now");
    };
    let turn = world.resource::<TurnState>();
    let side = fight.fighters[i].side;
    if step.kind != kind {
        let name = turn.side_name(step.side);
        return refuse(format!(
            "D3: it is the sub-step in which {name} {}: spells come first, then missiles, winner before loser",
            step.kind.label_for(&name)
        ));
    }
    if step.side != side {
        return refuse(format!(
            "D3: it is {} turn to act; {} belongs to {}",
            crate::rules::words::SideWords(&turn.side_name(step.side)).possessive(),
            fight.fighters[i].id,
            turn.side_name(side)
        ));
    }
    Ok(step)
}

/// `EndSide`: the acting side ends its sub-step; the phase goes on (or passes sub-steps).
pub(crate) fn end_step(world: &mut World) -> Result<(), Refusal> {
    let Some(step) = current_step(world) else {
        return refuse("D3: no fire phase waits for orders now");
    };
    let (name, next) = {
        let turn = world.resource::<TurnState>();
        (
            turn.side_name(step.side),
            step_at(&turn.move_order, step.index + 1),
        )
    };
    log_now(world, {
        let w = crate::rules::words::SideWords(&name);
        format!(
            "{name} {} done: {} {} no more (D3).",
            w.verb("is", "are"),
            w.it(),
            step.kind.label_for(&name)
        )
    });
    world.resource_mut::<FireBook>().acted_in_step = false;
    world.resource_mut::<TurnState>().fire = next.or(Some(FireStep {
        index: step.index + 1,
        ..step
    }));
    Ok(())
}

fn entity_of(entities: &[Entity], i: usize) -> Entity {
    entities[i]
}

/// `Fire`: one shot, checked by `rules::fire`, resolved on the seeded dice.
pub(crate) fn fire(world: &mut World, unit: &str, target: &str) -> Result<(), Refusal> {
    let (fight, entities) = kept_fight(world);
    let i = lookup(&fight, unit)?;
    check_turn(world, &fight, i, SubStep::Fire)?;
    let j = lookup(&fight, target)?;
    let facts = facts_of(world, &fight, &entities, i);
    let t = tables();
    let plan = rf::check_shot(&fight, t, i, j, &facts).map_err(Refusal)?;
    let shooter = entity_of(&entities, plan.shooter);
    // D4 (seed 003: "If crossbows are used, no movement is possible while reloading"): a
    // weapon that needs reloading after each shot. ASL's rifles and pistols fire on the house
    // fire table and are no crossbows: a unit that fired moves as D4 lets any shooter.
    let reload = facts.asl_fp.is_none()
        && fight.fighters[plan.shooter]
            .in_hand(t)
            .is_some_and(|w| w.reload);
    let phase = *world.resource::<State<Phase>>().get();
    if facts.asl_fp.is_some() {
        fire_asl(world, &fight, &entities, &plan, &facts, phase);
    } else {
        let mut fight = std::sync::Arc::unwrap_or_clone(fight);
        let events = world.resource_scope(|_, mut dice: Mut<Dice>| {
            let mut out = Vec::new();
            let mut r = Roller::new(&mut *dice);
            rf::resolve_shot(&mut fight, t, &plan, &mut r, &mut out);
            out
        });
        write_back(world, &fight, &entities, false);
        log_events(world, phase, events);
    }
    {
        let mut book = world.resource_mut::<FireBook>();
        *book.shots.entry(shooter).or_insert(0) += 1;
        book.acted.insert(shooter);
        book.acted_in_step = true;
        if reload {
            book.reloading.insert(shooter);
        }
    }
    let left = facts.shots_left.saturating_sub(1);
    log_now(
        world,
        format!(
            "{} has {left} shot{} left in this half (D3).",
            fight_id(world, shooter),
            if left == 1 { "" } else { "s" }
        ),
    );
    Ok(())
}

fn fight_id(world: &World, e: Entity) -> String {
    world
        .get::<FigureId>(e)
        .map_or_else(String::new, |f| f.0.clone())
}

fn fire_words(r: FireResult) -> &'static str {
    match r {
        FireResult::None => "no lasting effect",
        FireResult::Broken => "it breaks",
        FireResult::Reduced => "Casualty Reduction",
        FireResult::Eliminated => "eliminated",
    }
}

/// `asl`: one attack on the house fire table, then the horses' roll against cavalry (A14);
/// results applied as in a Charge (A13: broken cavalry bails out and its horse bolts).
fn fire_asl(
    world: &mut World,
    fight: &Fight,
    entities: &[Entity],
    plan: &rf::ShotPlan,
    facts: &ShooterFacts,
    phase: Phase,
) {
    let odds = rf::shot_odds(fight, tables(), plan, facts);
    let o = world
        .resource_scope(|_, mut dice: Mut<Dice>| rf::resolve_asl(fight, plan, facts, &mut *dice));
    let (sid, tid) = (
        fight.fighters[plan.shooter].id.clone(),
        fight.fighters[plan.target].id.clone(),
    );
    let words = odds
        .parts
        .iter()
        .map(|(n, v)| format!("{n} {v:+}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = vec![note(
        format!(
            "{sid} fires at {tid} ({} hexes): {words} = {}% for an effect; d100 rolls {}: {}.",
            plan.distance,
            o.fire.0,
            o.fire.1,
            fire_words(o.fire.2)
        ),
        o.fire.1,
        &sid,
    )];
    if let Some((hc, hv, hr)) = o.horses {
        out.push(note(
            format!(
                "The same fire against {tid}'s horses (A14): {hc}%, no cavalry bonus; d100 rolls {hv}: {}.",
                match hr {
                    HorseResult::None => "the horses are unharmed",
                    HorseResult::Reduced => "a horse is lost",
                    HorseResult::Killed => "the horses are killed",
                }
            ),
            hv,
            &sid,
        ));
    }
    let target = entities[plan.target];
    let horse = fight.fighters[plan.target].mount.map(|m| entities[m]);
    crate::sim::cavalry::asl_charge::apply_to(world, target, o.fire.2, &mut out);
    if let (Some(m), Some((_, _, hr))) = (horse, o.horses)
        && world.get_entity(m).is_ok()
    {
        crate::sim::cavalry::asl_charge::apply_to_horses(world, target, m, hr, &mut out);
    }
    crate::sim::world::sync_occupancy(world);
    log_events(world, phase, out);
}

fn note(text: String, v: u32, by: &str) -> Event {
    Event::on_d100(text, v, by)
}

/// `Cast`: one spell, checked by `rules::fire` (D5 included), cast by the melee's resolver.
pub(crate) fn cast(
    world: &mut World,
    unit: &str,
    spell: &str,
    target: Option<&str>,
) -> Result<(), Refusal> {
    let (fight, entities) = kept_fight(world);
    let i = lookup(&fight, unit)?;
    let e = entities[i];
    let cast_before = world
        .get_resource::<FireBook>()
        .is_some_and(|b| b.cast_turn.contains(&e));
    let t = tables();
    // D5 first: the most telling reason when a mage who cast asks again.
    rf::check_cast(&fight, t, i, spell, target, cast_before).map_err(Refusal)?;
    check_turn(world, &fight, i, SubStep::Cast)?;
    let phase = *world.resource::<State<Phase>>().get();
    let mut fight = std::sync::Arc::unwrap_or_clone(fight);
    let events = world.resource_scope(|_, mut dice: Mut<Dice>| {
        let mut out = Vec::new();
        let mut r = Roller::new(&mut *dice);
        rf::resolve_cast(&mut fight, t, i, spell, target, &mut r, &mut out);
        out
    });
    write_back(world, &fight, &entities, false);
    log_events(world, phase, events);
    let mut book = world.resource_mut::<FireBook>();
    book.cast_turn.insert(e);
    book.acted.insert(e);
    book.acted_in_step = true;
    Ok(())
}
