//! The TAC phase and the melee card rounds in the ECS (D6–D9): who is engaged, the face-down
//! choices held back until every engaged figure of both sides has chosen (D9), the dodge
//! guesses, and each round resolved by `rules::melee` with the game's seeded dice and
//! written back to the figures and the log. With nobody in contact both phases pass at once.

use super::components::*;
use super::dice::Dice;
use super::log::Happening;
use super::order::Refusal;
use super::phase::{Phase, TurnState, log_events, log_what};
use super::world::sync_occupancy;
use crate::level::Level;
use crate::rules::gait::Gait;
use crate::rules::grid::StandShape;
use crate::rules::melee::cards::{Choice, DodgeDir, MeleeCard, TacCard, check_play};
use crate::rules::melee::fight::{CombatState, Fallen, Fight, FirstHalf, Held, Posture};
use crate::rules::melee::hand::HandCard;
use crate::rules::melee::resolve::Guess;
use crate::rules::melee::tables::{Tables, tables};
use crate::rules::melee::{Event, attack, flow, resolve};
use bevy::prelude::*;

mod faced;
mod kept;
mod player;
mod rounds;

pub(crate) use faced::{faced_but_dodges, faced_play, unmask};
pub use kept::{KeptFight, build_fight, kept_fight, read_fight};

pub use player::{calm_berserk, check_berserk_carry, check_can_act, stand_up};
pub(crate) use player::{end_choices, guess_dodge, not_now, pass, pass_side, play_cards};
pub use rounds::melee_phase;
use rounds::*;

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
    /// D6: the turn, first initiative and engagements recorded when the first half-move
    /// ended ([`note_first_half`]).
    pub first_half: Option<(u32, FirstHalf)>,
}

impl MeleeState {
    /// The (guesser, dodger) pairs the round asks to guess when `plays` are chosen (§6, D7):
    /// every enemy that could strike a dodger (`flow::guessers`), but for figures that pass
    /// for the rest of the phase.
    fn guesses_needed(&self, plays: &[Option<Choice>]) -> Vec<(usize, usize)> {
        let Some(fight) = self.fight.as_ref() else {
            return Vec::new();
        };
        if self.pass_all {
            return Vec::new();
        }
        flow::guessers(fight, tables(), plays)
            .into_iter()
            .filter(|&(g, _)| !self.passing.get(g).copied().unwrap_or(false))
            .collect()
    }

    /// The face-down DODGEs still to be guessed, as (guesser, dodger) ids (§6, D7). Public:
    /// the log asks each guesser by name before the dodges are faced.
    pub fn dodges_to_guess(&self) -> Vec<(String, String)> {
        let Some(f) = &self.fight else {
            return Vec::new();
        };
        if self.stage != Stage::Guessing {
            return Vec::new();
        }
        self.to_guess
            .iter()
            .map(|&(g, d)| (f.fighters[g].id.clone(), f.fighters[d].id.clone()))
            .collect()
    }

    /// The plays chosen face down and not yet faced, by figure id (D9). Secret: only the
    /// chooser's side may see its own ([`crate::sim::side_view`]).
    pub fn face_down(&self) -> impl Iterator<Item = (&str, &Choice)> {
        let fighters = self.fight.as_ref().map_or(&[][..], |f| &f.fighters[..]);
        self.choices
            .iter()
            .zip(fighters)
            .filter_map(|(c, f)| Some((f.id.as_str(), c.as_ref()?)))
    }

    /// The dodge guesses made and not yet faced, as (guesser, dodger, way) (D7). Secret like
    /// the plays.
    pub fn guesses_made(&self) -> impl Iterator<Item = (&str, &str, DodgeDir)> {
        let fighters = self.fight.as_ref().map_or(&[][..], |f| &f.fighters[..]);
        self.guesses.iter().filter_map(move |g| {
            Some((
                fighters.get(g.guesser)?.id.as_str(),
                fighters.get(g.dodger)?.id.as_str(),
                g.dir,
            ))
        })
    }

    /// The first figure of `side` (its index in the fight) whose cards or guesses the game
    /// waits for: the first of [`MeleeState::waiting_ids`] on that side, found without
    /// copying every waiting figure's id (asked for every card order, issue 33).
    pub fn first_waiting(&self, side: u8) -> Option<usize> {
        let f = self.fight.as_ref()?;
        let mine = |&i: &usize| f.fighters[i].side == side;
        match self.stage {
            Stage::Choosing => self.waiting.iter().copied().find(mine),
            Stage::Guessing => self.to_guess.iter().map(|&(g, _)| g).find(mine),
            Stage::Idle | Stage::NextRound => None,
        }
    }

    /// True when [`MeleeState::waiting_ids`] would name somebody.
    pub fn waits(&self) -> bool {
        self.fight.is_some()
            && match self.stage {
                Stage::Choosing => !self.waiting.is_empty(),
                Stage::Guessing => !self.to_guess.is_empty(),
                Stage::Idle | Stage::NextRound => false,
            }
    }

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

/// True in the TAC phase or the melee rounds while a melee is on: the card orders are the
/// melee's (D6, D7), whoever is still to choose.
pub fn in_melee(world: &World, phase: Phase) -> bool {
    matches!(phase, Phase::Tac | Phase::MeleeRounds)
        && world.resource::<MeleeState>().stage != Stage::Idle
}

/// True when the melee waits for a player's cards or guesses.
pub fn waiting(world: &World) -> bool {
    world
        .get_resource::<MeleeState>()
        .is_some_and(|s| s.stage != Stage::Idle && s.waits())
}

/// §6 FEROCITY: a figure's Lady (or Man), named by `beloved` in its level entry: when it is
/// berserk and this figure tries to calm it, the chance of being turned on is 20% lower.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Beloved(pub String);

/// Gives every figure of a level its fighting profile (from `data/combat.ron`) and its Lady
/// (or Man) when the level names one (§6 FEROCITY).
pub fn attach_profiles(world: &mut World, level: &Level) {
    let t = tables();
    for spec in &level.file.figures {
        if let Some(l) = &spec.beloved
            && let Some(e) = super::world::find_figure(world, &spec.id)
        {
            world.entity_mut(e).insert(Beloved(l.clone()));
        }
    }
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
            let status = CombatStatus(crate::rules::melee::fight::CombatState {
                shield_down: profile.shield_slung,
                ..Default::default()
            });
            world.entity_mut(e).insert((Combatant(profile), status));
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

/// D6, run as the second initiative begins (the first half-move over, the first initiative
/// still in [`TurnState`]): records which pairs of enemies are engaged — touching, or within
/// one's weapon reach through its front (D11) — so that their melee keeps the first
/// initiative's attacker.
pub fn note_first_half(world: &mut World) {
    let t = tables();
    let turn = world.resource::<TurnState>().clone();
    let Some(attacker) = turn.initiative else {
        return;
    };
    let (fight, _) = kept_fight(world);
    let n = fight.fighters.len();
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let (fa, fb) = (&fight.fighters[a], &fight.fighters[b]);
            if fight.hostile(a, b) && fa.is_up() && fb.is_up() && fight.within_reach(a, b, t) {
                pairs.push((fa.id.clone(), fb.id.clone()));
            }
        }
    }
    world.resource_mut::<MeleeState>().first_half =
        Some((turn.turn, FirstHalf::new(attacker, pairs)));
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

/// The fight as it stands now (the melee's own while one is in progress). Its blows are melee
/// card blows, so K2 counts on them either way.
fn current_fight(world: &mut World) -> (Fight, bool) {
    if let Some(f) = &world.resource::<MeleeState>().fight {
        return (f.clone(), f.round == 0);
    }
    let phase = *world.resource::<State<Phase>>().get();
    let mut fight = build_fight(world).0;
    fight.melee_k2 = true;
    (fight, phase != Phase::MeleeRounds)
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
    if !s.turned_on.is_empty() {
        v.push(format!("turned on {}", s.turned_on.join(", ")));
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
        v.push(if s.preparations > 1 {
            format!("spell prepared ×{}", s.preparations)
        } else {
            "spell prepared".into()
        });
    }
    if s.prepare_barred {
        v.push("preparation disturbed".into());
    }
    if s.hamstrung {
        v.push("hamstrung".into());
    }
    v
}
