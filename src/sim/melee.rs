//! The TAC phase and the melee card rounds in the ECS (D6–D9): who is engaged, the face-down
//! choices held back until every engaged figure of both sides has chosen (D9), the dodge
//! guesses, and each round resolved by `rules::melee` with the game's seeded dice and
//! written back to the figures and the log. With nobody in contact both phases pass at once.

use super::components::*;
use super::dice::Dice;
use super::log::{GameLog, Roll};
use super::orders::{Order, Refusal};
use super::phase::{Phase, TurnState, log_line};
use super::world::{Map, Rules, sync_occupancy};
use crate::level::Level;
use crate::rules::gait::Gait;
use crate::rules::grid::StandShape;
use crate::rules::melee::cards::{Choice, DodgeDir, MeleeCard, TacCard, check_play};
use crate::rules::melee::fight::{CombatState, Fallen, Fight, Fighter, Held, Posture};
use crate::rules::melee::hand::HandCard;
use crate::rules::melee::resolve::Guess;
use crate::rules::melee::tables::{Tables, tables};
use crate::rules::melee::{Event, attack, flow, resolve};
use crate::rules::ruleset::Encumbrance;
use bevy::prelude::*;

/// The seeded dice roll the melee's d100s and d6s.
impl crate::rules::melee::Dice for Dice {
    fn d100(&mut self) -> u32 {
        self.roll(100)
    }
    fn d6(&mut self) -> u32 {
        self.roll(6)
    }
}

/// Where a melee phase stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// No melee in progress.
    #[default]
    Idle,
    /// Waiting for face-down cards.
    Choosing,
    /// Cards revealed but for DODGEs: waiting for the opponents' guesses.
    Guessing,
    /// The TAC phase is resolved; the first card round is set up in the melee rounds.
    NextRound,
}

/// The melee in progress: the fight, the face-down choices, the guesses.
#[derive(Resource, Default)]
pub struct MeleeState {
    /// The fight (every figure that can fight), kept through the phase.
    pub fight: Option<Fight>,
    /// The entity of each fighter.
    pub entities: Vec<Entity>,
    /// Choosing or guessing.
    pub stage: Stage,
    /// Face-down plays, by fighter.
    choices: Vec<Option<Choice>>,
    /// Fighters still to choose (or guess).
    waiting: Vec<usize>,
    /// (guesser, dodger) pairs still to guess.
    to_guess: Vec<(usize, usize)>,
    /// Guesses made.
    guesses: Vec<Guess>,
    /// Fighters that pass for the rest of the phase.
    passing: Vec<bool>,
    /// `EndSide` was given: nobody is asked again this melee phase.
    pass_all: bool,
}

impl MeleeState {
    /// Ids of the figures whose cards (or guesses) the game waits for.
    pub fn waiting_ids(&self) -> Vec<String> {
        let Some(f) = &self.fight else {
            return Vec::new();
        };
        let mut v: Vec<String> = match self.stage {
            Stage::Choosing => self
                .waiting
                .iter()
                .map(|&i| f.fighters[i].id.clone())
                .collect(),
            Stage::Guessing => self
                .to_guess
                .iter()
                .map(|&(g, _)| f.fighters[g].id.clone())
                .collect(),
            Stage::Idle | Stage::NextRound => Vec::new(),
        };
        v.dedup();
        v
    }
}

/// True when the melee waits for a player's cards or guesses.
pub fn waiting(world: &World) -> bool {
    world
        .get_resource::<MeleeState>()
        .is_some_and(|s| s.stage != Stage::Idle && !s.waiting_ids().is_empty())
}

/// Gives every figure of a level its fighting profile (from `data/combat.ron`).
pub fn attach_profiles(world: &mut World, level: &Level) {
    let t = tables();
    for f in &level.figures {
        let profile = match (&f.template.horse_class, f.template.troop) {
            (Some(c), crate::rules::ruleset::TroopType::Horse)
                if !t.fighters.contains_key(&f.template_key) =>
            {
                t.mount(c)
            }
            _ => t.fighter(&f.template_key),
        };
        if let Some(e) = super::world::find_figure(world, &f.id) {
            world
                .entity_mut(e)
                .insert((Combatant(profile), CombatStatus::default()));
        }
        if let Some(m) = &f.template.mount
            && let Some(e) = super::world::find_figure(world, &format!("{}.mount", f.id))
        {
            world
                .entity_mut(e)
                .insert((Combatant(t.mount(&m.class)), CombatStatus::default()));
        }
    }
}

/// Builds the pure fight from the world: every figure, with its profile and combat state.
pub fn build_fight(world: &mut World) -> (Fight, Vec<Entity>) {
    let t = tables();
    let rules = world.resource::<Rules>().0.clone();
    let board = world.resource::<Map>().0.clone();
    let attacker = world.resource::<TurnState>().initiative.unwrap_or(0);
    let mut q = world.query::<(
        (
            Entity,
            &FigureId,
            &SideId,
            &Position,
            &Facing,
            &Stand,
            &Weight,
        ),
        (&Blows, &Body, &Allowance),
        (
            Option<&Dexterity>,
            Option<&Armour>,
            Option<&Encumbered>,
            Option<&Weapon>,
            Option<&Shield>,
        ),
        (
            Option<&RidingOn>,
            Option<&CarriedBy>,
            Option<&GaitState>,
            Option<&HorseClassKey>,
        ),
        (
            Option<&Conditions>,
            Option<&Combatant>,
            Option<&CombatStatus>,
        ),
    )>();
    let mut rows: Vec<_> = q
        .iter(world)
        .map(|(a, b, c, d, e)| {
            let (ent, id, side, pos, facing, stand, weight) = a;
            let (blows, body, allow) = b;
            let (dex, armour, enc, weapon, shield) = c;
            let (riding, carried, gait, class) = d;
            let (conds, prof, status) = e;
            let state = status.map(|s| s.0.clone()).unwrap_or_default();
            let is_mount = class.is_some();
            (
                ent,
                riding.map(|r| r.0),
                carried.map(|c| c.0),
                Fighter {
                    id: id.0.clone(),
                    side: side.0,
                    cell: pos.0,
                    facing: facing.0,
                    shape: stand.shape,
                    stand_size: stand.size,
                    weight: weight.0,
                    dex: dex.map_or(10, |d| d.0),
                    armour: armour.map_or(2, |a| a.0),
                    enc: enc.map_or(Encumbrance::None, |e| e.0),
                    weapon: weapon.map_or_else(
                        || {
                            if is_mount {
                                "hooves".into()
                            } else {
                                "none".into()
                            }
                        },
                        |w| w.0.clone(),
                    ),
                    shield: shield.is_some_and(|s| s.0),
                    profile: prof.map(|p| p.0.clone()).unwrap_or_else(|| match class {
                        Some(c) => t.mount(&c.0),
                        None => t.default_fighter.clone(),
                    }),
                    blows: blows.left,
                    blows_max: blows.max,
                    body: body.left as i32 - state.below_zero as i32,
                    body_max: body.max as i32,
                    mount: None,
                    rider: None,
                    horse_class: class.map(|c| c.0.clone()),
                    gait: gait.map_or(Gait::Walk, |g| g.gait),
                    move_basis: allow.basis,
                    conditions: conds.map(|c| c.0.clone()).unwrap_or_default(),
                    state,
                },
            )
        })
        .collect();
    rows.sort_by(|a, b| a.3.id.cmp(&b.3.id));
    let entities: Vec<Entity> = rows.iter().map(|r| r.0).collect();
    let index = |e: Entity| entities.iter().position(|&x| x == e);
    let links: Vec<(Option<usize>, Option<usize>)> = rows
        .iter()
        .map(|r| (r.1.and_then(index), r.2.and_then(index)))
        .collect();
    let mut fighters: Vec<Fighter> = rows.into_iter().map(|r| r.3).collect();
    for (i, (m, r)) in links.iter().enumerate() {
        fighters[i].mount = *m;
        fighters[i].rider = *r;
    }
    for i in 0..fighters.len() {
        if let Some(m) = fighters[i].mount {
            let (shape, size, gait) = (fighters[m].shape, fighters[m].stand_size, fighters[m].gait);
            let f = &mut fighters[i];
            f.shape = shape;
            f.stand_size = size;
            f.gait = gait;
        }
    }
    let fight = Fight {
        board,
        fighters,
        attacker,
        round: 0,
        conditions: rules.conditions.keys().cloned().collect(),
    };
    (fight, entities)
}

/// Writes the fight back to the figures: cells, facings, blows, body, conditions, combat
/// state, and riders parted from their mounts.
pub fn write_back(world: &mut World, fight: &Fight, entities: &[Entity], end_of_phase: bool) {
    for (i, f) in fight.fighters.iter().enumerate() {
        let e = entities[i];
        let mut st = f.state.clone();
        st.below_zero = (-f.body).max(0) as u16;
        let mut em = world.entity_mut(e);
        if let Some(mut p) = em.get_mut::<Position>() {
            p.0 = f.cell;
        }
        if let Some(mut d) = em.get_mut::<Facing>() {
            d.0 = f.facing;
        }
        if let Some(mut d) = em.get_mut::<Diagonal>() {
            d.0 = None;
        }
        if let Some(mut b) = em.get_mut::<Blows>() {
            b.left = f.blows;
        }
        if let Some(mut b) = em.get_mut::<Body>() {
            b.left = f.body.max(0) as u16;
        }
        if !f.conditions.is_empty() || em.contains::<Conditions>() {
            em.insert(Conditions(f.conditions.clone()));
        }
        if f.is_mount()
            && (st.hamstrung || (end_of_phase && st.melee_gait.is_some()))
            && let Some(mut g) = em.get_mut::<GaitState>()
        {
            if st.hamstrung {
                g.gait = Gait::Halt;
                g.capable = vec![Gait::Halt];
            } else if let Some(mg) = st.melee_gait {
                g.gait = mg;
            }
        }
        if end_of_phase {
            st.melee_gait = None;
        }
        em.insert(CombatStatus(st));
        if f.mount.is_none() && em.contains::<RidingOn>() {
            em.remove::<RidingOn>();
            if let Some(mut s) = em.get_mut::<Stand>() {
                s.shape = StandShape::Square;
            }
        }
        if f.rider.is_none() && em.contains::<CarriedBy>() {
            em.remove::<CarriedBy>();
        }
    }
    sync_occupancy(world);
}

fn log_events(world: &mut World, phase: Phase, events: Vec<Event>) {
    let turn = world.resource::<TurnState>().clone();
    let mut log = world.resource_mut::<GameLog>();
    for ev in events {
        let roll = ev.rolls.first().map(|r| Roll {
            die: r.die.to_string(),
            value: r.value,
            by: r.by.clone(),
        });
        log_line(&mut log, &turn, phase, ev.text, roll);
    }
}

fn say(world: &mut World, phase: Phase, text: String) {
    log_events(world, phase, vec![Event::say(text)]);
}

/// The melee system of the TAC phase and the card rounds (D6–D8).
pub fn melee_phase(world: &mut World) {
    let phase = *world.resource::<State<Phase>>().get();
    let t = tables();
    let idle = world.resource::<MeleeState>().stage == Stage::Idle;
    if idle {
        if phase == Phase::MeleeRounds {
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::EndOfTurn);
            return;
        }
        let (mut fight, entities) = build_fight(world);
        if !flow::melee_starts(&fight, t) {
            say(
                world,
                phase,
                "No figures are in contact: there is no melee this turn (D6).".into(),
            );
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::MeleeRounds);
            return;
        }
        flow::begin_turn(&mut fight);
        flow::begin_phase(&mut fight);
        let who = flow::participants(&fight, t, true);
        let names: Vec<String> = who.iter().map(|&i| fight.fighters[i].id.clone()).collect();
        let att = world.resource::<TurnState>().side_name(fight.attacker);
        say(
            world,
            phase,
            format!(
                "Melee: {} take part; {att} won the initiative and is the attacker (D6). Blows are restored.",
                names.join(", ")
            ),
        );
        write_back(world, &fight, &entities, false);
        let n = fight.fighters.len();
        let mut s = world.resource_mut::<MeleeState>();
        s.fight = Some(fight);
        s.entities = entities;
        s.passing = vec![false; n];
        setup_round(world, phase);
    }
    progress(world, phase);
}

/// Prepares the choices of a new round: forced and passing figures play at once, the rest
/// are asked.
fn setup_round(world: &mut World, phase: Phase) {
    let t = tables();
    let mut s = world.resource_mut::<MeleeState>();
    let Some(fight) = s.fight.take() else { return };
    let tac_phase = fight.round == 0;
    let n = fight.fighters.len();
    let mut choices = vec![None; n];
    let mut waiting = Vec::new();
    for i in flow::participants(&fight, t, tac_phase) {
        if s.pass_all || s.passing.get(i).copied().unwrap_or(false) {
            choices[i] = Some(flow::pass_play(&fight, t, i, tac_phase));
        } else if let Some(c) = flow::forced(&fight, t, i, tac_phase) {
            choices[i] = Some(c);
        } else {
            waiting.push(i);
        }
    }
    let names: Vec<String> = waiting
        .iter()
        .map(|&i| fight.fighters[i].id.clone())
        .collect();
    let round = fight.round;
    s.fight = Some(fight);
    s.choices = choices;
    s.waiting = waiting;
    s.to_guess.clear();
    s.guesses.clear();
    s.stage = Stage::Choosing;
    if !names.is_empty() {
        let what = if round == 0 {
            "a TAC card and MELEE cards".to_string()
        } else {
            format!("MELEE cards for card round {round}")
        };
        say(
            world,
            phase,
            format!(
                "Waiting for {what}, face down, from: {} (D6, D9).",
                names.join(", ")
            ),
        );
    }
}

/// Resolves rounds while every choice is in; stops to wait, or ends the phase.
fn progress(world: &mut World, phase: Phase) {
    let t = tables();
    for _ in 0..256 {
        if world.resource::<MeleeState>().stage == Stage::NextRound {
            setup_round(world, phase);
        }
        let s = world.resource::<MeleeState>();
        if s.stage == Stage::Idle || !s.waiting_ids().is_empty() {
            return;
        }
        if s.stage == Stage::Choosing {
            let fight = s.fight.as_ref().expect("a melee in progress");
            let need = flow::guessers(fight, t, &s.choices);
            let need: Vec<(usize, usize)> = need
                .into_iter()
                .filter(|&(g, _)| !s.pass_all && !s.passing.get(g).copied().unwrap_or(false))
                .collect();
            if !need.is_empty() {
                let shown = reveal_but_dodges(fight, &s.choices);
                let asks: Vec<String> = need
                    .iter()
                    .map(|&(g, d)| {
                        format!(
                            "{} guesses which way {} dodges",
                            fight.fighters[g].id, fight.fighters[d].id
                        )
                    })
                    .collect();
                let mut s = world.resource_mut::<MeleeState>();
                s.to_guess = need;
                s.stage = Stage::Guessing;
                say(
                    world,
                    phase,
                    format!(
                        "Cards face up: {shown}. Before the DODGE cards are faced: {} (D7).",
                        asks.join("; ")
                    ),
                );
                return;
            }
        }
        let mut s = world.resource_mut::<MeleeState>();
        let mut fight = s.fight.take().expect("a melee in progress");
        let choices = std::mem::take(&mut s.choices);
        let guesses = std::mem::take(&mut s.guesses);
        let entities = s.entities.clone();
        let was_tac = fight.round == 0;
        let events = world.resource_scope(|_, mut dice: Mut<Dice>| {
            resolve::resolve(&mut fight, t, &choices, &guesses, &mut *dice)
        });
        log_events(world, phase, events);
        let going = flow::melee_on(&fight, t) && fight.round < 200;
        if !going {
            let events = world
                .resource_scope(|_, mut dice: Mut<Dice>| flow::end_phase(&mut fight, &mut *dice));
            log_events(world, phase, events);
            write_back(world, &fight, &entities, true);
            say(world, phase, summary(&fight));
            let mut s = world.resource_mut::<MeleeState>();
            *s = MeleeState::default();
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::EndOfTurn);
            return;
        }
        write_back(world, &fight, &entities, false);
        let mut s = world.resource_mut::<MeleeState>();
        s.fight = Some(fight);
        s.stage = Stage::NextRound;
        if was_tac {
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::MeleeRounds);
            return;
        }
    }
}

fn reveal_but_dodges(fight: &Fight, choices: &[Option<Choice>]) -> String {
    choices
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let c = c.as_ref()?;
            let mut parts: Vec<String> = Vec::new();
            if let Some(t) = c.tac {
                parts.push(t.name().to_string());
            }
            for m in &c.melee {
                parts.push(match m {
                    MeleeCard::Dodge(_) => "a DODGE card (face down)".to_string(),
                    m => m.to_string(),
                });
            }
            if parts.is_empty() {
                parts.push("PASSIVE SHIELD PARRY".into());
            }
            Some(format!("{}: {}", fight.fighters[i].id, parts.join(" + ")))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn summary(fight: &Fight) -> String {
    let fallen: Vec<String> = fight
        .fighters
        .iter()
        .filter(|f| f.state.fallen != Fallen::Up)
        .map(|f| {
            format!(
                "{} {}",
                f.id,
                if f.state.fallen == Fallen::Dead {
                    "dead"
                } else {
                    "out of the fight"
                }
            )
        })
        .collect();
    if fallen.is_empty() {
        "The melee phase ends: blows are spent or contact is broken.".into()
    } else {
        format!(
            "The melee phase ends: blows are spent or contact is broken ({}).",
            fallen.join(", ")
        )
    }
}

fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}

/// Handles the melee orders (cards, passes, dodge guesses, and `EndSide` in the melee
/// phases) and the melee's checks on other orders. `None`: the order is not the melee's.
pub fn pre_order(world: &mut World, order: &Order) -> Option<Result<(), Refusal>> {
    let phase = *world.resource::<State<Phase>>().get();
    let in_melee = matches!(phase, Phase::Tac | Phase::MeleeRounds)
        && world.resource::<MeleeState>().stage != Stage::Idle;
    match order {
        Order::PlayCards {
            unit,
            tac,
            tac_target,
            melee,
        } => {
            if !in_melee {
                return Some(not_now(phase));
            }
            Some(play_cards(
                world,
                phase,
                unit,
                *tac,
                tac_target.clone(),
                melee.clone(),
            ))
        }
        Order::Pass { unit } => {
            if !in_melee {
                return Some(not_now(phase));
            }
            Some(pass(world, phase, unit))
        }
        Order::GuessDodge {
            unit,
            target,
            guess,
        } => {
            if !in_melee {
                return Some(not_now(phase));
            }
            Some(guess_dodge(world, phase, unit, target, *guess))
        }
        Order::EndSide if in_melee => Some(end_choices(world, phase)),
        Order::Move { unit, .. }
        | Order::SetGait { unit, .. }
        | Order::Mount { unit, .. }
        | Order::Dismount { unit, .. } => check_can_act(world, unit, false).err().map(Err),
        Order::Activity { unit, activity } => check_can_act(
            world,
            unit,
            *activity == crate::rules::ruleset::Activity::StandUp,
        )
        .err()
        .map(Err),
        _ => None,
    }
}

/// After an accepted order: standing up (D15) gets a figure off the ground.
pub fn after_order(world: &mut World, order: &Order) {
    if let Order::Activity {
        unit,
        activity: crate::rules::ruleset::Activity::StandUp,
    } = order
        && let Some(e) = super::world::find_figure(world, unit)
        && let Some(mut c) = world.get_mut::<CombatStatus>(e)
    {
        c.0.posture = Posture::Standing;
    }
}

fn check_can_act(world: &mut World, unit: &str, standing_up: bool) -> Result<(), Refusal> {
    let Some(e) = super::world::find_figure(world, unit) else {
        return Ok(());
    };
    let Some(st) = world.get::<CombatStatus>(e).map(|c| c.0.clone()) else {
        return Ok(());
    };
    match st.fallen {
        Fallen::Dead => return refuse(format!("{unit} is dead")),
        Fallen::Incapacitated => return refuse(format!("{unit} is incapacitated")),
        Fallen::Up => {}
    }
    if !st.restrained_by.is_empty() {
        return refuse(format!(
            "§6 RESTRAINT: {unit} is restrained by {}; it must BREAK FREE in a melee first",
            st.restrained_by.join(", ")
        ));
    }
    if st.posture != Posture::Standing && !standing_up {
        return refuse(format!(
            "D15: {unit} is on the ground; it must stand up first (Activity StandUp)"
        ));
    }
    Ok(())
}

fn not_now(phase: Phase) -> Result<(), Refusal> {
    refuse(format!(
        "D6/D7: cards are played in the TAC phase and the melee rounds, when a melee waits for them; it is the {}",
        phase.label()
    ))
}

fn fighter_index(world: &World, unit: &str) -> Result<usize, Refusal> {
    let s = world.resource::<MeleeState>();
    let fight = s.fight.as_ref().expect("a melee in progress");
    fight
        .index_of(unit)
        .ok_or_else(|| Refusal(format!("there is no figure {unit:?}")))
}

fn play_cards(
    world: &mut World,
    phase: Phase,
    unit: &str,
    tac: Option<TacCard>,
    tac_target: Option<String>,
    melee: Vec<MeleeCard>,
) -> Result<(), Refusal> {
    let i = fighter_index(world, unit)?;
    let s = world.resource::<MeleeState>();
    if s.stage != Stage::Choosing {
        return refuse("D7: the cards are face up; opponents are guessing the dodges");
    }
    if !s.waiting.contains(&i) {
        return refuse(format!(
            "{unit} has no cards to choose now (it is not in the melee, has chosen already, or its play is forced)"
        ));
    }
    let fight = s.fight.as_ref().expect("a melee in progress");
    let c = Choice {
        tac,
        tac_target,
        melee,
        forfeit: false,
    };
    check_play(fight, i, &c, tables(), fight.round == 0).map_err(|e| Refusal(e.to_string()))?;
    let mut s = world.resource_mut::<MeleeState>();
    s.choices[i] = Some(c);
    s.waiting.retain(|&x| x != i);
    say(
        world,
        phase,
        format!("{unit} chooses its cards, face down."),
    );
    Ok(())
}

fn pass(world: &mut World, phase: Phase, unit: &str) -> Result<(), Refusal> {
    let i = fighter_index(world, unit)?;
    let t = tables();
    let mut s = world.resource_mut::<MeleeState>();
    match s.stage {
        Stage::Choosing => {
            if !s.waiting.contains(&i) {
                return refuse(format!("{unit} has no cards to choose now"));
            }
            let fight = s.fight.as_ref().expect("a melee in progress");
            let c = flow::pass_play(fight, t, i, fight.round == 0);
            s.choices[i] = Some(c);
            s.waiting.retain(|&x| x != i);
            say(
                world,
                phase,
                format!("{unit} passes this round, face down."),
            );
        }
        Stage::Guessing => {
            if !s.to_guess.iter().any(|&(g, _)| g == i) {
                return refuse(format!("{unit} has no dodge to guess"));
            }
            s.to_guess.retain(|&(g, _)| g != i);
            say(world, phase, format!("{unit} makes no guess."));
        }
        Stage::Idle | Stage::NextRound => return not_now(phase),
    }
    Ok(())
}

fn guess_dodge(
    world: &mut World,
    phase: Phase,
    unit: &str,
    target: &str,
    dir: DodgeDir,
) -> Result<(), Refusal> {
    let g = fighter_index(world, unit)?;
    let d = fighter_index(world, target)?;
    let mut s = world.resource_mut::<MeleeState>();
    if s.stage != Stage::Guessing || !s.to_guess.contains(&(g, d)) {
        return refuse(format!(
            "§6 DODGE: {unit} has no dodge of {target} to guess now"
        ));
    }
    s.to_guess.retain(|&x| x != (g, d));
    s.guesses.push(Guess {
        guesser: g,
        dodger: d,
        dir,
    });
    say(
        world,
        phase,
        format!("{unit} guesses which way {target} dodges."),
    );
    Ok(())
}

/// `EndSide` in a melee: nobody is asked again this melee phase. Every figure still to
/// choose, and every figure in the later card rounds, passes; guesses not made are none.
fn end_choices(world: &mut World, phase: Phase) -> Result<(), Refusal> {
    let t = tables();
    let mut s = world.resource_mut::<MeleeState>();
    let fight = s.fight.take().expect("a melee in progress");
    let names: Vec<String> = s
        .waiting
        .iter()
        .chain(s.to_guess.iter().map(|(g, _)| g))
        .map(|&i| fight.fighters[i].id.clone())
        .collect();
    let waiting = std::mem::take(&mut s.waiting);
    for i in waiting {
        s.passing[i] = true;
        s.choices[i] = Some(flow::pass_play(&fight, t, i, fight.round == 0));
    }
    for &(g, _) in &s.to_guess.clone() {
        s.passing[g] = true;
    }
    s.to_guess.clear();
    s.pass_all = true;
    s.fight = Some(fight);
    say(
        world,
        phase,
        format!(
            "End of choosing: {} and every figure after them pass for the rest of this melee phase (PASSIVE SHIELD PARRY; when D7 forbids a seventh, the first card they may play).",
            if names.is_empty() {
                "nobody".to_string()
            } else {
                names.join(", ")
            }
        ),
    );
    Ok(())
}

/// The fight as it stands now (the melee's own while one is in progress).
fn current_fight(world: &mut World) -> (Fight, bool) {
    if let Some(f) = &world.resource::<MeleeState>().fight {
        return (f.clone(), f.round == 0);
    }
    let phase = *world.resource::<State<Phase>>().get();
    (build_fight(world).0, phase != Phase::MeleeRounds)
}

/// A figure's hand for the desktop game: every card with its cost and verdict.
pub fn hand(world: &mut World, unit: &str) -> Vec<HandCard> {
    let (fight, tac_phase) = current_fight(world);
    match fight.index_of(unit) {
        Some(i) => crate::rules::melee::hand::hand(&fight, tables(), i, tac_phase),
        None => Vec::new(),
    }
}

/// The odds of `card` by `unit` against `target`, if the target shows `assumed` defences:
/// the numbers the resolver rolls against.
pub fn odds(
    world: &mut World,
    unit: &str,
    target: &str,
    card: &MeleeCard,
    assumed: &[MeleeCard],
) -> Option<attack::Odds> {
    let (fight, _) = current_fight(world);
    let a = fight.index_of(unit)?;
    let d = fight.index_of(target)?;
    attack::odds(&fight, tables(), a, d, card, assumed)
}

/// Words for a figure's combat state, for the snapshot and the window.
pub fn status_words(s: &CombatState, t: &Tables, weapon: Option<&Weapon>) -> Vec<String> {
    let _ = t;
    let mut v = Vec::new();
    match s.fallen {
        Fallen::Dead => v.push("dead".to_string()),
        Fallen::Incapacitated => v.push("incapacitated".to_string()),
        Fallen::Up => {}
    }
    match s.posture {
        Posture::Prone if s.fallen == Fallen::Up => v.push("prone".into()),
        Posture::Kneeling => v.push("kneeling".into()),
        _ => {}
    }
    if s.stunned > 0 {
        v.push(format!("stunned ({} rounds)", s.stunned));
    }
    if s.berserk {
        v.push("berserk".into());
    }
    if s.stupor {
        v.push("stupor".into());
    }
    if !s.restrained_by.is_empty() {
        v.push(format!("restrained by {}", s.restrained_by.join(", ")));
    }
    if let Some(x) = &s.restraining {
        v.push(format!("restraining {x}"));
    }
    if s.main_broken {
        v.push(format!(
            "{} broken",
            weapon.map_or("weapon", |w| w.0.as_str())
        ));
    } else if s.main_lost {
        v.push(format!(
            "{} lost",
            weapon.map_or("weapon", |w| w.0.as_str())
        ));
    }
    match s.held {
        Held::Sidearm => v.push("sidearm drawn".into()),
        Held::Nothing => v.push("empty-handed".into()),
        Held::Main => {}
    }
    if s.shield_broken {
        v.push("shield shattered".into());
    } else if s.shield_down {
        v.push("shield slung".into());
    }
    if s.unloaded {
        v.push("unloaded".into());
    }
    if s.prepared {
        v.push("spell prepared".into());
    }
    if s.hamstrung {
        v.push("hamstrung".into());
    }
    v
}
