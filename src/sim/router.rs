//! The one door every order comes in by (issue 29). [`apply_order`] reads where the game
//! stands ([`Stage`]) and matches the order against it once: each kind of order in each stage
//! has exactly one handler, or one refusal naming the rule that forbids it now. No handler
//! calls back in here; an order made of parts (a mount that splits a horse counter, a Charge
//! that declares its Gallop, a Cavalry Wave) checks every part and then applies every part.
//!
//! A handler checks before it writes, so a refused order changes nothing; `Game::order`
//! keeps a rebuild by replay behind that as a debug assertion that never fires (its
//! `restores` count stays 0 in the tests).

use super::order::{Order, Refusal, refuse};
use super::phase::Phase;
use super::{action_roll, cavalry, charge, fire, melee, orders, rout};
use crate::rules::ruleset::Activity;
use bevy::prelude::*;

/// Where the game stands for an order: which orders it takes now, and from whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A fire phase (D3): shots, spells and the end of a side's sub-step.
    Fire(Phase),
    /// The charge declarations (D2, C1, C5): face-down charge orders and answers.
    Declaring,
    /// The TAC phase or a melee round with a melee on (D6, D7): cards, passes and guesses.
    Melee(Phase),
    /// A half-move (D4): moves, gaits, mounts, activities; in `asl` the Charges and waves.
    HalfMove(Phase),
    /// Any other moment: only the actions-table roll is taken.
    Between(Phase),
}

impl Stage {
    /// The stage the game is in now.
    pub fn of(world: &World) -> Stage {
        let phase = *world.resource::<State<Phase>>().get();
        if fire::fire_phase_of(world).is_some() {
            Stage::Fire(phase)
        } else if phase == Phase::ChargeDeclaration {
            Stage::Declaring
        } else if melee::in_melee(world, phase) {
            Stage::Melee(phase)
        } else if phase.is_half_move() {
            Stage::HalfMove(phase)
        } else {
            Stage::Between(phase)
        }
    }

    fn phase(self) -> Phase {
        match self {
            Stage::Fire(p) | Stage::Melee(p) | Stage::HalfMove(p) | Stage::Between(p) => p,
            Stage::Declaring => Phase::ChargeDeclaration,
        }
    }
}

/// Checks and applies one order. On a refusal nothing in the world has changed.
pub fn apply_order(world: &mut World, order: &Order) -> Result<(), Refusal> {
    let stage = Stage::of(world);
    let step_ended = matches!(order, Order::EndSide) && fire::waiting(world);
    let r = route(world, stage, order);
    if r.is_ok() && matches!(stage, Stage::Fire(_)) {
        // What each side could still do in the fire phase may have changed (D3).
        fire::unsettle(world, step_ended);
    }
    r
}

/// The one match: each order kind in each stage goes to exactly one handler.
fn route(world: &mut World, stage: Stage, order: &Order) -> Result<(), Refusal> {
    use Stage::*;
    match (stage, order) {
        // I1, I2: the actions table is rolled by a unit once a turn, in any phase.
        (_, Order::ActionRoll { unit }) => action_roll::apply_action_roll(world, unit),

        // D3: the fire phases take shots, spells and the end of a sub-step, nothing else.
        (Fire(_), Order::Fire { unit, target }) => fire::shoot(world, unit, target),
        (
            Fire(_),
            Order::Cast {
                unit,
                spell,
                target,
            },
        ) => fire::cast(world, unit, spell, target.as_deref()),
        (Fire(_), Order::EndSide) => fire::end_step(world),
        (Fire(p), _) => refuse(format!(
            "D3: it is the {}: give Fire, Cast or EndSide; other orders wait for the half-move",
            p.label()
        )),
        (_, Order::Fire { .. } | Order::Cast { .. }) => refuse(format!(
            "D3: missiles are shot and spells cast in the fire phases; it is the {}",
            stage.phase().label()
        )),

        // D6, D7, D9: the melee's cards, passes and guesses.
        (
            Melee(p),
            Order::PlayCards {
                unit,
                tac,
                tac_target,
                melee: cards,
            },
        ) => melee::play_cards(world, p, unit, *tac, tac_target.clone(), cards.clone()),
        (Melee(p), Order::Pass { unit }) => melee::pass(world, p, unit),
        (
            Melee(p),
            Order::GuessDodge {
                unit,
                target,
                guess,
            },
        ) => melee::guess_dodge(world, p, unit, target, *guess),
        (Melee(p), Order::PassMelee { side }) => melee::pass_side(world, p, side),
        (Melee(p), Order::EndSide) => melee::end_choices(world, p),
        (
            _,
            Order::PlayCards { .. }
            | Order::Pass { .. }
            | Order::GuessDodge { .. }
            | Order::PassMelee { .. },
        ) => melee::not_now(stage.phase()),

        // D2, C1, C5: face-down charge orders and answers.
        (Declaring, Order::DeclareCharge { unit, targets }) => {
            charge::declare(world, unit, targets.clone())
        }
        (Declaring, Order::NoCharge { unit }) => charge::declare(world, unit, Vec::new()),
        (Declaring, Order::AnswerCharge { unit, tac, reply }) => charge::answer(
            world,
            unit,
            crate::rules::charge::ride::Answer {
                tac: *tac,
                reply: *reply,
            },
        ),
        (Declaring, Order::EndSide) if charge::waiting(world) => charge::pass_all(world),
        (_, Order::NoCharge { .. } | Order::AnswerCharge { .. }) => refuse(format!(
            "D2: charges are declared and answered in the charge declarations; it is the {}",
            stage.phase().label()
        )),

        // D4: the half-move's orders.
        (HalfMove(p), order) => half_move(world, p, order),
        (_, order) => not_in_half_move(world, stage.phase(), order),
    }
}

/// The orders of a half-move (D4), with the ASL cavalry's (A16–A18).
fn half_move(world: &mut World, phase: Phase, order: &Order) -> Result<(), Refusal> {
    let asl = world.resource::<super::world::Rules>().0.asl.is_some();
    match order {
        Order::EndSide => {
            orders::end_side(world, phase)?;
            cavalry::end_charges(world);
            Ok(())
        }
        Order::DeclareCharge { unit, targets } if asl => cavalry::asl_declare(world, unit, targets),
        Order::DeclareCharge { .. } => {
            refuse("D2: charges are declared after the initiative, before the half-moves")
        }
        Order::Lead { unit, horse } => cavalry::lead(world, unit, horse),
        Order::Release { unit, horse } => cavalry::release(world, unit, horse),
        Order::EliminateHorse { unit, horse } => cavalry::eliminate(world, unit, horse),
        Order::CavalryWave {
            units,
            charger,
            target,
        } => cavalry::wave(world, units, charger, target, asl),
        Order::Move { unit, steps } => {
            melee::check_can_act(world, unit, false)?;
            if let Some(r) = cavalry::check_move(world, unit, steps) {
                // A18's refusal of a led horse's path, or A16's ride into the Charge's hex.
                return r;
            }
            let e = orders::own_unit(world, unit)?;
            orders::do_move(world, e, unit, steps, phase)?;
            cavalry::follow(world, unit);
            rout::after_move(world, unit);
            Ok(())
        }
        Order::SetGait { unit, gait } => {
            melee::check_can_act(world, unit, false)?;
            let e = orders::own_unit(world, unit)?;
            orders::set_gait(world, e, unit, *gait, phase)
        }
        Order::Mount { unit, horse } => {
            melee::check_can_act(world, unit, false)?;
            if asl && let Some(r) = cavalry::split_for_mount(world, unit, horse) {
                return r;
            }
            let e = orders::own_unit(world, unit)?;
            orders::mount(world, e, unit, horse, phase)?;
            cavalry::unlead_by_id(world, horse);
            Ok(())
        }
        Order::Dismount { unit, to } => {
            melee::check_can_act(world, unit, false)?;
            let e = orders::own_unit(world, unit)?;
            orders::dismount(world, e, unit, *to, phase)
        }
        Order::Activity { unit, activity } => {
            let standing_up = *activity == Activity::StandUp;
            melee::check_can_act(world, unit, standing_up)?;
            melee::check_berserk_carry(world, unit, *activity)?;
            let e = orders::own_unit(world, unit)?;
            orders::activity_order(world, e, unit, *activity, phase)?;
            if standing_up {
                melee::stand_up(world, unit);
            }
            Ok(())
        }
        Order::CalmBerserk { unit, berserk } => {
            orders::own_unit(world, unit)?;
            melee::calm_berserk(world, phase, unit, berserk)
        }
        Order::ActionRoll { .. }
        | Order::Fire { .. }
        | Order::Cast { .. }
        | Order::PlayCards { .. }
        | Order::Pass { .. }
        | Order::GuessDodge { .. }
        | Order::PassMelee { .. }
        | Order::NoCharge { .. }
        | Order::AnswerCharge { .. } => refuse(format!(
            "{order} is not a half-move's order (D4); it is the {}",
            phase.label()
        )),
    }
}

/// A half-move's order given outside the half-moves: refused under D4, after the check that
/// names what stops the figure acting at all (dead, restrained, on the ground).
fn not_in_half_move(world: &mut World, phase: Phase, order: &Order) -> Result<(), Refusal> {
    match order {
        Order::Move { unit, .. }
        | Order::SetGait { unit, .. }
        | Order::Mount { unit, .. }
        | Order::Dismount { unit, .. } => melee::check_can_act(world, unit, false)?,
        Order::Activity { unit, activity } => {
            melee::check_can_act(world, unit, *activity == Activity::StandUp)?;
            melee::check_berserk_carry(world, unit, *activity)?;
        }
        _ => {}
    }
    refuse(format!(
        "D4: orders are given in the half-moves; it is the {}",
        phase.label()
    ))
}
