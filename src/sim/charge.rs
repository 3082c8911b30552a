//! Charge declarations and charge movement in the ECS (D2, D4, C1–C8).
//!
//! After the initiative every mounted figure that could charge writes, face down, either "no
//! charge" or an ordered list of targets (`DeclareCharge` / `NoCharge`); the game waits only
//! when some mounted figure could charge at all. When all have written, the charges are
//! revealed together in the log, and each charged figure chooses, face down, its TAC and MELEE
//! answer (`AnswerCharge`). The charges are ridden first thing in the first half-move (D4),
//! by `rules::charge::ride`, with the game's dice. In `asl` a Charge is declared during the
//! movement phase instead (A16, `sim::cavalry`).
//!
//! Why one long file: declarations, reveal, answers and the ride are one face-down flow over
//! the [`ChargeBook`]; each step reads what the one before wrote there.

use super::components::*;
use super::dice::Dice;
use super::log::Happening;
use super::order::Refusal;
use super::phase::{Phase, TurnState, log_events, log_in, log_what};
use super::world::{Map, Rules, find_figure};
use crate::rules::allowance::half_move_allowance;
use crate::rules::charge::ride::{
    Answer, ChargeRide, Facts, charge_blow_odds, figs_of, reach_of, ride_all,
};
use crate::rules::charge::{
    Charger, Fig, PlanRefusal, PlanRule, arrives_now, charge_gait, enemies_of, plan_charge, sight,
    target_list,
};
use crate::rules::gait::Gait;
use crate::rules::melee::fight::Fight;
use crate::rules::melee::tables::tables;
use crate::rules::movement::{Mover, MoverSpec, Pose};
use crate::rules::ruleset::TroopType;
use crate::sim::queries::with_query;
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where the declarations stand this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// Nothing pending.
    #[default]
    Idle,
    /// Waiting for face-down declarations.
    Declaring,
    /// Revealed; waiting for the targets' face-down answers.
    Answering,
    /// Everything in: the charges ride at the start of the first half-move.
    Ready,
}

/// This turn's charge declarations, face down until revealed (D9).
#[derive(Resource, Clone, Debug, Default)]
pub struct ChargeBook {
    /// The turn it belongs to.
    pub turn: u32,
    /// Where it stands.
    pub stage: Stage,
    /// Mounted figures still to declare.
    pub awaiting: Vec<String>,
    /// Each declaration: the targets in order (empty = no charge).
    pub declared: BTreeMap<String, Vec<String>>,
    /// Charged figures still to answer.
    pub to_answer: Vec<String>,
    /// Their answers.
    pub answers: BTreeMap<String, Answer>,
}

/// The figures whose declaration or answer the game waits for (shown in the snapshot).
pub fn awaiting_ids(world: &World) -> Vec<String> {
    let Some(b) = world.get_resource::<ChargeBook>() else {
        return Vec::new();
    };
    match b.stage {
        Stage::Declaring => b.awaiting.clone(),
        Stage::Answering => b.to_answer.clone(),
        _ => Vec::new(),
    }
}

/// True when the game waits for charge declarations or answers.
pub fn waiting(world: &World) -> bool {
    let in_phase = world
        .get_resource::<State<Phase>>()
        .is_some_and(|p| *p.get() == Phase::ChargeDeclaration);
    in_phase && !awaiting_ids(world).is_empty()
}

/// The charge rules' view of the board: every figure (one per fighter, as in the fight).
fn charge_view(world: &mut World) -> (Arc<Fight>, Arc<[Entity]>, Vec<Fig>) {
    let (fight, entities) = super::melee::kept_fight(world);
    let figs = figs_of(&fight);
    (fight, entities, figs)
}

/// Everything to plan a charge by the rider at fighter index `i`, or why it may not charge.
fn charger_of(
    world: &mut World,
    fight: &Fight,
    entities: &[Entity],
    i: usize,
) -> Result<Charger, String> {
    let rules = world.resource::<Rules>().0.clone();
    let f = &fight.fighters[i];
    let Some(m) = f.mount else {
        return Err("C1: only mounted figures charge".into());
    };
    if rules.asl.is_some() {
        return Err("A16: in ASL a Charge is declared during the movement phase".into());
    }
    let me = entities[i];
    let me_e = entities[m];
    if !f.is_up() {
        return Err(format!("{} is out of the fight", f.id));
    }
    if fight
        .enemies_within(i, 1)
        .into_iter()
        .any(|j| fight.in_contact(i, j) && !fight.fighters[j].is_mount())
    {
        return Err("C1: a figure in contact with an enemy cannot begin a charge".into());
    }
    let gs = world.get::<GaitState>(me_e).cloned();
    let streak = world.get::<GallopStreak>(me_e).copied().unwrap_or_default();
    let class = world
        .get::<HorseClassKey>(me_e)
        .map(|c| c.0.clone())
        .unwrap_or_default();
    let (gait, capable) = gs.map_or((Gait::Walk, vec![]), |g| (g.gait, g.capable));
    let cg = charge_gait(gait, &capable, &class, streak.must_rest)?;
    let rate = world
        .get::<Rate>(me_e)
        .map_or(crate::rules::mp::Mp::ZERO, |r| r.0);
    let conds = world
        .get::<Conditions>(me)
        .map(|c| c.0.clone())
        .unwrap_or_default();
    let allowance = half_move_allowance(
        &rules,
        rate,
        cg,
        super::motion::conditions_of(&rules, &conds),
    )
    .map_or(crate::rules::mp::Mp::ZERO, |t| t.total);
    let board = &world.resource::<Map>().0;
    let mover = Mover::new(
        &rules,
        board,
        MoverSpec {
            side: f.side + 1,
            mounted: true,
            gait: cg,
            basis: allowance,
            crawling: false,
            asl_gallop: false,
            stops: vec![],
        },
    );
    let veers = world.get::<VeersThisTurn>(me_e).map_or(0, |v| v.0);
    let diag = world.get::<Diagonal>(me_e).and_then(|d| d.0);
    let pose = Pose {
        diag,
        veers: if cg == Gait::Gallop { veers } else { 0 },
        ..Pose::new(f.cell, f.facing)
    };
    let reach = reach_of(fight, tables(), i, true).0;
    Ok(Charger {
        mover,
        pose,
        allowance,
        me: i,
        reach,
    })
}

/// The desktop game's list: every enemy figure (never a horse, A18) with whether `unit` may
/// charge it now, alone, and the rule that forbids it. Empty when `unit` is unknown.
pub fn charge_targets(world: &mut World, unit: &str) -> Vec<(String, Result<(), String>)> {
    charge_verdicts(world, unit)
        .into_iter()
        .map(|(t, r)| (t, r.map_err(|e| e.text)))
        .collect()
}

/// Of the enemies `unit` may charge, those its charge reaches within this half-move if they
/// stand where they are ([`arrives_now`]): the others are legal targets (they may ride to meet
/// it), but a charge at them falls short unless they do (C6).
pub fn charge_arrives(world: &mut World, unit: &str) -> Vec<String> {
    let (fight, entities, figs) = charge_view(world);
    let Some(i) = unit_index(&fight, unit) else {
        return Vec::new();
    };
    let board = world.resource::<Map>().0.clone();
    let Ok(c) = charger_of(world, &fight, &entities, i) else {
        return Vec::new();
    };
    enemies_of(&figs, c.me)
        .filter(|&j| arrives_now(&board, &figs, &c, j))
        .map(|j| figs[j].id.clone())
        .collect()
}

/// [`charge_targets`] with each refusal's rule ([`PlanRule`]) beside its words.
fn charge_verdicts(world: &mut World, unit: &str) -> Vec<(String, Result<(), PlanRefusal>)> {
    let (fight, entities, figs) = charge_view(world);
    let Some(i) = unit_index(&fight, unit) else {
        return Vec::new();
    };
    let board = world.resource::<Map>().0.clone();
    let c = charger_of(world, &fight, &entities, i);
    let ok = c.as_ref().map(|_| ()).map_err(|e| e.clone());
    match c {
        Ok(c) => target_list(&board, &figs, &c, &ok)
            .into_iter()
            .map(|(j, r)| (figs[j].id.clone(), r))
            .collect(),
        Err(e) => enemies_of(&figs, i)
            .map(|j| {
                (
                    figs[j].id.clone(),
                    Err(PlanRefusal::new(PlanRule::Charger, e.clone())),
                )
            })
            .collect(),
    }
}

/// The desktop game's list of what `unit` can see: every other figure with a clear line of
/// sight (terrain blocks, figures do not — A16, K3, C1).
pub fn visible(world: &mut World, unit: &str) -> Vec<String> {
    let (fight, _, figs) = charge_view(world);
    let Some(i) = unit_index(&fight, unit) else {
        return Vec::new();
    };
    let board = &world.resource::<Map>().0;
    figs.iter()
        .enumerate()
        .filter(|(j, f)| *j != i && !(f.riderless_horse && fight.fighters[*j].rider.is_some()))
        .filter(|(_, f)| sight(board, figs[i].cell, f.cell).is_ok())
        .map(|(_, f)| f.id.clone())
        .collect()
}

/// A rider's fighter index from its id or its mount's.
fn unit_index(fight: &Fight, id: &str) -> Option<usize> {
    let i = fight.index_of(id)?;
    Some(fight.fighters[i].rider.unwrap_or(i))
}

/// Mounted figures that have at least one target they could charge now.
fn could_charge(world: &mut World) -> Vec<String> {
    let (fight, entities, figs) = charge_view(world);
    let board = world.resource::<Map>().0.clone();
    let mut out = Vec::new();
    for i in 0..fight.fighters.len() {
        if fight.fighters[i].mount.is_none() {
            continue;
        }
        if let Ok(c) = charger_of(world, &fight, &entities, i)
            && target_list(&board, &figs, &c, &Ok(()))
                .iter()
                .any(|(_, r)| r.is_ok())
        {
            out.push(fight.fighters[i].id.clone());
        }
    }
    out.sort();
    out
}

/// The ChargeDeclaration phase (D2): opens the book, waits for declarations and answers,
/// reveals them together, and moves on.
pub fn charge_phase(world: &mut World) {
    let phase = Phase::ChargeDeclaration;
    let turn = world.resource::<TurnState>().turn;
    if world.resource::<ChargeBook>().turn != turn {
        let asl = world.resource::<Rules>().0.asl.is_some();
        *world.resource_mut::<ChargeBook>() = ChargeBook {
            turn,
            ..Default::default()
        };
        // C7: a movement charge counts in the turn it is ridden only.
        with_query::<&mut CombatStatus, (), _>(world, |world, q| {
            for mut s in q.iter_mut(world) {
                // Written only where set: the kept fight model reads a write as a change.
                if s.0.rode_charge {
                    s.0.rode_charge = false;
                }
            }
        });
        if asl {
            log_in(
                world,
                phase,
                "In ASL a Charge is declared during the movement phase (A16).".into(),
            );
            world.resource_mut::<NextState<Phase>>().set(phase.next());
            return;
        }
        let who = could_charge(world);
        if who.is_empty() {
            log_in(
                world,
                phase,
                "No mounted figure can charge this turn: no charges are declared (D2, C1).".into(),
            );
            world.resource_mut::<NextState<Phase>>().set(phase.next());
            return;
        }
        log_in(
            world,
            phase,
            format!(
                "Charge declarations (D2, C1): {} {} their charge orders face down.",
                who.join(", "),
                if who.len() == 1 { "writes" } else { "write" }
            ),
        );
        let mut b = world.resource_mut::<ChargeBook>();
        b.stage = Stage::Declaring;
        b.awaiting = who;
    }
    let b = world.resource::<ChargeBook>().clone();
    match b.stage {
        Stage::Declaring if b.awaiting.is_empty() => reveal(world, phase),
        Stage::Answering if b.to_answer.is_empty() => {
            log_in(
                world,
                phase,
                "Every charged figure has chosen its answer face down (C5).".into(),
            );
            world.resource_mut::<ChargeBook>().stage = Stage::Ready;
            world.resource_mut::<NextState<Phase>>().set(phase.next());
        }
        _ => {}
    }
}

/// C1: every declaration revealed together; then the targets answer.
fn reveal(world: &mut World, phase: Phase) {
    let b = world.resource::<ChargeBook>().clone();
    let lines: Vec<String> = b
        .declared
        .iter()
        .map(|(u, t)| {
            if t.is_empty() {
                format!("{u}: no charge")
            } else {
                format!("{u} charges {}", t.join(", then "))
            }
        })
        .collect();
    log_what(
        world,
        phase,
        format!(
            "The charge orders are revealed together (C1): {}.",
            lines.join("; ")
        ),
        Happening::ChargesRevealed(
            b.declared
                .iter()
                .map(|(u, t)| (u.clone(), t.clone()))
                .collect(),
        ),
    );
    let (fight, _, _) = charge_view(world);
    let mut targets: Vec<String> = Vec::new();
    for (u, ts) in &b.declared {
        for t in ts {
            // Mutual chargers answer with their own charge; a figure in contact with an enemy
            // STANDS GROUND without choosing (C5).
            let mutual = b.declared.get(t).is_some_and(|x| x.first() == Some(u));
            let in_contact = fight.index_of(t).is_some_and(|i| {
                fight
                    .enemies_within(i, 1)
                    .into_iter()
                    .any(|j| fight.in_contact(i, j))
            });
            if !mutual && !in_contact && !targets.contains(t) {
                targets.push(t.clone());
            }
        }
    }
    targets.sort();
    let any = b.declared.values().any(|t| !t.is_empty());
    let mut bm = world.resource_mut::<ChargeBook>();
    if !any {
        bm.stage = Stage::Ready;
        world.resource_mut::<NextState<Phase>>().set(phase.next());
        return;
    }
    if targets.is_empty() {
        bm.stage = Stage::Ready;
        world.resource_mut::<NextState<Phase>>().set(phase.next());
        return;
    }
    bm.stage = Stage::Answering;
    bm.to_answer = targets.clone();
    log_in(
        world,
        phase,
        format!(
            "The charged figures choose, face down, a TAC card and a MELEE card as the horses close (C5): {}.",
            targets.join(", ")
        ),
    );
}

fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}

/// The id a declaration is filed under: a mount's id means its rider.
fn rider_id(world: &mut World, unit: &str) -> Option<String> {
    let e = find_figure(world, unit)?;
    let e = world.get::<CarriedBy>(e).map_or(e, |c| c.0);
    world.get::<FigureId>(e).map(|f| f.0.clone())
}

/// D2, C1: a rider's face-down charge orders (no targets: no charge).
pub(crate) fn declare(world: &mut World, unit: &str, targets: Vec<String>) -> Result<(), Refusal> {
    let b = world.resource::<ChargeBook>().clone();
    if b.stage != Stage::Declaring {
        return refuse("C1: the charge orders are already revealed");
    }
    let Some(id) = rider_id(world, unit) else {
        return refuse(format!("there is no figure {unit:?}"));
    };
    if !b.awaiting.contains(&id) {
        if b.declared.contains_key(&id) {
            return refuse(format!("C1: {id} has already written its charge orders"));
        }
        // Name the rule that keeps it from charging (C7 at a walk, K1, contact, …).
        let (fight, entities, _) = charge_view(world);
        let why = unit_index(&fight, &id)
            .map(|i| charger_of(world, &fight, &entities, i))
            .and_then(|c| c.err());
        // A target it sees but may not ride at for a rule of the ride (C6: the 2" straight
        // run before the contact, …) is refused under that rule, not as out of sight.
        let ride_rule = if why.is_none() {
            charge_verdicts(world, &id).into_iter().find_map(|(t, r)| {
                r.err()
                    .filter(|e| e.rule == PlanRule::StraightRun)
                    .map(|e| (t, e.text))
            })
        } else {
            None
        };
        return refuse(match why {
            Some(e) => format!("{id} cannot charge this turn: {e}"),
            None => match ride_rule {
                Some((t, e)) => format!("{id} cannot charge this turn: at {t}, {e}"),
                None => format!(
                    "C1: {id} cannot charge this turn: no enemy it could ride at is in its sight \
                     along a charge line (turn its horse towards one in a half-move first)"
                ),
            },
        });
    }
    if !targets.is_empty() {
        let (fight, entities, figs) = charge_view(world);
        let board = world.resource::<Map>().0.clone();
        let Some(i) = unit_index(&fight, &id) else {
            return refuse(format!("there is no figure {id:?}"));
        };
        let mut idx = Vec::new();
        for t in &targets {
            match rider_id(world, t).and_then(|t| fight.index_of(&t)) {
                Some(j) => idx.push(j),
                None => return refuse(format!("there is no figure {t:?}")),
            }
        }
        let c = charger_of(world, &fight, &entities, i).map_err(Refusal)?;
        plan_charge(&board, &figs, &c, &idx).map_err(|e| Refusal(e.text))?;
    }
    let targets: Vec<String> = targets
        .iter()
        .map(|t| rider_id(world, t).unwrap_or_else(|| t.clone()))
        .collect();
    let mut bm = world.resource_mut::<ChargeBook>();
    bm.awaiting.retain(|x| *x != id);
    bm.declared.insert(id.clone(), targets);
    log_what(
        world,
        Phase::ChargeDeclaration,
        format!("{id} has written its charge orders (face down)."),
        Happening::ChargeWritten(id.clone()),
    );
    Ok(())
}

/// C5: a charged figure's face-down answer.
pub(crate) fn answer(world: &mut World, unit: &str, a: Answer) -> Result<(), Refusal> {
    let b = world.resource::<ChargeBook>().clone();
    if b.stage != Stage::Answering {
        return refuse("C5: answers are chosen once the charges are revealed");
    }
    let Some(id) = rider_id(world, unit) else {
        return refuse(format!("there is no figure {unit:?}"));
    };
    if !b.to_answer.contains(&id) {
        return refuse(format!(
            "C5: {id} is not a charged figure waiting to answer"
        ));
    }
    let e = find_figure(world, &id);
    let mounted = e.is_some_and(|e| world.get::<RidingOn>(e).is_some());
    if matches!(
        a.reply,
        crate::rules::charge::ride::Reply::PullRider | crate::rules::charge::ride::Reply::Hamstring
    ) && mounted
    {
        return refuse("C5: PULL RIDER and HAMSTRING HORSE are played by figures on foot");
    }
    // C5, §6 TAC cards: the card moves the figure as the horse closes, so it must be one the
    // figure may play (RETREAT not fully encumbered, FLECHE unencumbered, a mount's by speed).
    // STAND GROUND, the answer of a figure that does not choose, is always accepted.
    let (fight, _) = super::melee::kept_fight(world);
    if a.tac != crate::rules::melee::cards::TacCard::StandGround
        && let Some(i) = fight.index_of(&id)
    {
        let sit = crate::rules::melee::cards::Situation {
            fight: &fight,
            tables: tables(),
            tac_phase: true,
            tac: None,
            with: &[],
        };
        let card = crate::rules::melee::cards::Card::Tac(a.tac);
        crate::rules::melee::cards::eligibility(&card, &fight.fighters[i], &sit)
            .map_err(|e| Refusal(format!("C5: {e}")))?;
    }
    let mut bm = world.resource_mut::<ChargeBook>();
    bm.to_answer.retain(|x| *x != id);
    bm.answers.insert(id.clone(), a);
    log_in(
        world,
        Phase::ChargeDeclaration,
        format!("{id} has chosen its answer (face down)."),
    );
    Ok(())
}

/// `EndSide` while declarations or answers are awaited: every figure still to write declares
/// no charge, every target still to answer STANDS GROUND and DELIVERS BLOW.
/// `EndSide` in the charge declarations: everyone still to declare or answer does without.
pub(crate) fn pass_all(world: &mut World) -> Result<(), Refusal> {
    let b = world.resource::<ChargeBook>().clone();
    let mut bm = world.resource_mut::<ChargeBook>();
    match b.stage {
        Stage::Declaring => {
            for u in &b.awaiting {
                bm.declared.insert(u.clone(), Vec::new());
            }
            bm.awaiting.clear();
        }
        Stage::Answering => {
            for u in &b.to_answer {
                bm.answers.insert(u.clone(), Answer::default());
            }
            bm.to_answer.clear();
        }
        _ => {}
    }
    let who = if b.stage == Stage::Declaring {
        format!("{}: no charge", b.awaiting.join(", "))
    } else {
        format!("{}: STAND GROUND and DELIVER BLOW", b.to_answer.join(", "))
    };
    log_in(
        world,
        Phase::ChargeDeclaration,
        format!("The rest pass ({who})."),
    );
    Ok(())
}

/// D4: the revealed charges ride first in the first half-move.
pub fn resolve_charges(world: &mut World) {
    let phase = Phase::FirstHalfMove;
    let b = world.resource::<ChargeBook>().clone();
    let turn = world.resource::<TurnState>().clone();
    if b.stage != Stage::Ready || b.turn != turn.turn {
        return;
    }
    world.resource_mut::<ChargeBook>().stage = Stage::Idle;
    let charges: Vec<(String, Vec<String>)> = b
        .declared
        .iter()
        .filter(|(_, t)| !t.is_empty())
        .map(|(u, t)| (u.clone(), t.clone()))
        .collect();
    if charges.is_empty() {
        return;
    }
    log_in(world, phase, "Charges are resolved first (D4).".into());
    let (fight, entities, figs) = charge_view(world);
    let mut fight = Arc::unwrap_or_clone(fight);
    let board = world.resource::<Map>().0.clone();
    // The initiative winner's charges first, then the others in moving order (C2, D4).
    let order_of = |side: u8| {
        turn.move_order
            .iter()
            .position(|&s| s == side)
            .unwrap_or(99)
    };
    let mut rides: Vec<(usize, ChargeRide)> = Vec::new();
    for (u, ts) in &charges {
        let Some(i) = fight.index_of(u) else { continue };
        let Some(m) = fight.fighters[i].mount else {
            continue;
        };
        let idx: Vec<usize> = ts.iter().filter_map(|t| fight.index_of(t)).collect();
        let c = match charger_of(world, &fight, &entities, i) {
            Ok(c) => c,
            Err(e) => {
                log_in(world, phase, format!("{u} cannot charge after all: {e}."));
                continue;
            }
        };
        let plan = match plan_charge(&board, &figs, &c, &idx) {
            Ok(p) => p,
            Err(e) => {
                log_in(
                    world,
                    phase,
                    format!("{u} is released from its charge: {e}."),
                );
                continue;
            }
        };
        let gait = c.mover.gait;
        rides.push((
            order_of(fight.fighters[i].side),
            ChargeRide {
                rider: i,
                mount: m,
                targets: idx,
                line: plan.line,
                turns: plan.turns,
                gait,
                allowance: c.allowance,
                mover: c.mover,
                pose: c.pose,
            },
        ));
    }
    rides.sort_by(|a, b| {
        (a.0, &fight.fighters[a.1.rider].id).cmp(&(b.0, &fight.fighters[b.1.rider].id))
    });
    let rides: Vec<ChargeRide> = rides.into_iter().map(|r| r.1).collect();
    let mut mutual = Vec::new();
    for (a, ra) in rides.iter().enumerate() {
        for (bi, rb) in rides.iter().enumerate().skip(a + 1) {
            if ra.targets.first() == Some(&rb.rider) && rb.targets.first() == Some(&ra.rider) {
                mutual.push((a, bi));
            }
        }
    }
    let mut facts = Facts {
        answers: vec![None; fight.fighters.len()],
        troops: vec![TroopType::Foot; fight.fighters.len()],
    };
    for (i, e) in entities.iter().enumerate() {
        facts.troops[i] = world.get::<Troop>(*e).map_or(TroopType::Foot, |t| t.0);
        facts.answers[i] = b.answers.get(&fight.fighters[i].id).copied();
    }
    let t = tables();
    let (events, ends) = world.resource_scope(|_, mut dice: Mut<Dice>| {
        ride_all(&mut fight, t, rides, &mutual, &facts, &mut *dice)
    });
    log_events(world, phase, events);
    for f in fight.fighters.iter_mut() {
        f.state.tac = None;
    }
    super::melee::write_back(world, &fight, &entities, false);
    for end in ends {
        let (r, m) = (entities[end.rider], entities[end.mount]);
        if let Some(mut g) = world.get_mut::<GaitState>(m) {
            g.gait = end.gait;
            g.at_half_start = end.gait;
        }
        if let Some(mut a) = world.get_mut::<Allowance>(m) {
            a.left = crate::rules::mp::Mp::ZERO;
            a.used_any = true;
        }
        if let Some(mut a) = world.get_mut::<Allowance>(r) {
            a.used_any = true;
        }
        let carried = world.get::<CarriedBy>(m).is_some();
        for e in [m, r] {
            if let Some(mut d) = world.get_mut::<Diagonal>(e) {
                d.0 = if carried { end.pose.diag } else { None };
            }
        }
        if let Some(mut v) = world.get_mut::<VeersThisTurn>(m) {
            v.0 = v.0.max(end.pose.veers);
        }
        if let Some(mut s) = world.get_mut::<GallopStreak>(m) {
            s.galloped_this_turn |= end.charged_at == Gait::Gallop;
        }
    }
    super::world::sync_occupancy(world);
}

/// The odds of `unit`'s charging blow at `target` (C3, K2), from the same code the ride
/// strikes with, the target assumed to show no defence card: what the window shows beside
/// each enemy a charger may name. `None` when either is not on the field.
pub fn charge_odds(
    world: &mut World,
    unit: &str,
    target: &str,
) -> Option<crate::rules::melee::attack::Odds> {
    let (mut fight, entities) = super::melee::build_fight(world);
    let a = fight.index_of(unit)?;
    let d = fight.index_of(target)?;
    let troop = world
        .get::<Troop>(entities[a])
        .map_or(TroopType::Foot, |t| t.0);
    Some(charge_blow_odds(
        &mut fight,
        tables(),
        a,
        d,
        troop,
        true,
        &Default::default(),
    ))
}
