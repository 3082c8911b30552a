//! The questions the window and the command line ask of a [`Game`] (issue 29, one door): who
//! stands where, whose turn it is, what a figure may reach, charge, shoot or play, and the
//! odds. Each is answered from the game by the simulation; nothing outside `sim/` reaches
//! into the game's world. Every answer is public (I4) or names the asker's own figures: the
//! other side's face-down cards and charge orders, the dice to come and the seed are in none
//! of them. Charge declarations are answered only once revealed ([`Game::charges_revealed`]).

use super::Game;
use super::charge::{self, ChargeBook, Stage as ChargeStage};
use super::components::{Allowance, CarriedBy, FigureId, GaitState, LedBy, Rate, RidingOn, SideId};
use super::fire::{self, FireStep};
use super::melee::{self, MeleeState, Stage as MeleeStage};
use super::motion::{MoveSetup, reach_of};
use super::order::Refusal;
use super::phase::TurnState;
use super::victory::Tally;
use super::world::{Map, Rules, find_figure};
use crate::rules::board::Board;
use crate::rules::fire::ShotOdds;
use crate::rules::gait::Gait;
use crate::rules::melee::attack::Odds;
use crate::rules::melee::cards::MeleeCard;
use crate::rules::melee::fight::Fight;
use crate::rules::melee::hand::HandCard;
use crate::rules::mp::Mp;
use crate::rules::reach::Reach;
use crate::rules::ruleset::Ruleset;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A figure's reach as the window previews it: the figure orders name (a mount's id asked
/// for means its rider), its side, where its move starts and every end it may reach.
pub struct FigureReach {
    /// The figure orders name.
    pub unit: String,
    /// Its side.
    pub side: Option<u8>,
    /// Where the move starts, what moves and the allowance left.
    pub setup: MoveSetup,
    /// Every cell and facing it may end on, with the cheapest path to each.
    pub reach: Reach,
}

impl Game {
    /// The turn, the phase's sides, the initiative and the side to move: all public.
    pub fn turn_state(&self) -> &TurnState {
        self.app.world().resource::<TurnState>()
    }

    /// The names players read for the figures (issue 34): the window and the terminal show
    /// [`Names::show`](crate::rules::names::Names::show) of every line the game writes.
    pub fn names(&self) -> Arc<crate::rules::names::Names> {
        self.app
            .world()
            .get_resource::<super::world::FigureNames>()
            .map(|n| n.0.clone())
            .unwrap_or_default()
    }

    /// The ruleset the game plays (shared, not copied).
    pub fn rules(&self) -> Arc<Ruleset> {
        self.app.world().resource::<Rules>().0.clone()
    }

    /// The map.
    pub fn board(&self) -> &Board {
        &self.app.world().resource::<Map>().0
    }

    /// The side of figure `id`, if there is such a figure.
    pub fn side_of(&mut self, id: &str) -> Option<u8> {
        let w = self.app.world_mut();
        let e = find_figure(w, id)?;
        w.get::<SideId>(e).map(|s| s.0)
    }

    /// Every figure's side, by id.
    pub fn sides_of_figures(&mut self) -> BTreeMap<String, u8> {
        let w = self.app.world_mut();
        let mut q = w.query::<(&FigureId, &SideId)>();
        q.iter(w).map(|(f, s)| (f.0.clone(), s.0)).collect()
    }

    /// Whether figure `unit` leads the horse `horse` now (A18).
    pub fn leads(&mut self, unit: &str, horse: &str) -> bool {
        let w = self.app.world_mut();
        match (find_figure(w, unit), find_figure(w, horse)) {
            (Some(u), Some(h)) => w.get::<LedBy>(h).is_some_and(|l| l.0 == u),
            _ => false,
        }
    }

    /// Whether figure `unit` rides a mount.
    pub fn is_mounted(&mut self, unit: &str) -> bool {
        let w = self.app.world_mut();
        find_figure(w, unit).is_some_and(|e| w.get::<RidingOn>(e).is_some())
    }

    /// Each side's score and losses so far, as the judge counts them (issue 12).
    pub fn tallies(&mut self) -> Vec<Tally> {
        super::victory::tallies(self.app.world_mut())
    }

    /// Every figure's public state, typed, in id order: what the window draws.
    pub fn figure_rows(&mut self) -> Vec<super::figure_rows::FigureRow> {
        super::figure_rows::read_figures(self.app.world_mut())
    }

    /// Where `unit` (a mount's id means its rider) may move now.
    pub fn reach(&mut self, unit: &str) -> Option<FigureReach> {
        let w = self.app.world_mut();
        let mut e = find_figure(w, unit)?;
        if let Some(c) = w.get::<CarriedBy>(e) {
            e = c.0;
        }
        let side = w.get::<SideId>(e).map(|s| s.0);
        let (setup, reach) = reach_of(w, e);
        let unit = w
            .get::<FigureId>(e)
            .map_or_else(|| unit.to_string(), |f| f.0.clone());
        Some(FigureReach {
            unit,
            side,
            setup,
            reach,
        })
    }

    /// `unit`'s reach with its gait set to `gait` (the allowance of a fresh half-move at that
    /// gait) and its allowance left set to `allowance`, as `warhorse reach --gait
    /// --allowance` asks. A what-if: it takes the game, so no game in play is changed.
    /// `Ok(None)` when there is no such figure.
    pub fn reach_if(
        mut self,
        unit: &str,
        gait: Option<Gait>,
        allowance: Option<Mp>,
    ) -> Result<Option<FigureReach>, String> {
        let w = self.app.world_mut();
        let Some(e) = find_figure(w, unit) else {
            return Ok(None);
        };
        let e = w.get::<CarriedBy>(e).map_or(e, |c| c.0);
        let mover = w.get::<RidingOn>(e).map_or(e, |r| r.0);
        if let Some(g) = gait {
            let rules = w.resource::<Rules>().0.clone();
            let rate = w.get::<Rate>(mover).map_or(Mp::ZERO, |r| r.0);
            let Some(mut gs) = w.get_mut::<GaitState>(mover) else {
                return Err(format!("{unit} is on foot and has no gaits"));
            };
            gs.gait = g;
            let Some(t) = crate::rules::allowance::half_move_allowance(&rules, rate, g, []) else {
                return Err(format!("the {} ruleset has no {g} gait", rules.name));
            };
            if let Some(mut a) = w.get_mut::<Allowance>(mover) {
                *a = Allowance {
                    basis: t.total,
                    left: t.total,
                    used_any: false,
                };
            }
        }
        if let Some(v) = allowance
            && let Some(mut a) = w.get_mut::<Allowance>(mover)
        {
            a.left = v;
        }
        Ok(self.reach(unit))
    }

    /// The fire phase's sub-step the game waits in, if it waits in one (D3).
    pub fn fire_step(&self) -> Option<FireStep> {
        fire::current_step(self.app.world())
    }

    /// The fight as the rules model it: every figure that can fight, its weapons, wounds and
    /// combat state, all on the board for everyone to see.
    pub fn fight(&mut self) -> Arc<Fight> {
        melee::kept_fight(self.app.world_mut()).0
    }

    /// The figures whose face-down play the melee waits for in `stage`, with their sides
    /// (who is awaited is public, D9; what they chose is not).
    pub fn melee_waiting(&self, stage: MeleeStage) -> Vec<(String, u8)> {
        let Some(s) = self.app.world().get_resource::<MeleeState>() else {
            return Vec::new();
        };
        let Some(fight) = s.fight.as_ref().filter(|_| s.stage == stage) else {
            return Vec::new();
        };
        s.waiting_ids()
            .into_iter()
            .filter_map(|id| {
                let side = fight.fighters.get(fight.index_of(&id)?)?.side;
                Some((id, side))
            })
            .collect()
    }

    /// The melee's fight while a melee phase is on (the cards' directions are read from it).
    pub fn melee_fight(&self) -> Option<&Fight> {
        self.app
            .world()
            .get_resource::<MeleeState>()?
            .fight
            .as_ref()
    }

    /// `unit`'s hand in the melee now: every card with its cost and the rules' verdict (D6).
    pub fn hand(&mut self, unit: &str) -> Vec<HandCard> {
        melee::hand(self.app.world_mut(), unit)
    }

    /// The odds of `unit`'s blow `card` at `target`, as the resolver will roll them.
    pub fn blow_odds(&mut self, unit: &str, target: &str, card: &MeleeCard) -> Option<Odds> {
        melee::odds(self.app.world_mut(), unit, target, card, &[])
    }

    /// The chance of `shooter`'s missile hitting `target` now, or the rule refusing the shot.
    pub fn fire_odds(&mut self, shooter: &str, target: &str) -> Result<ShotOdds, Refusal> {
        fire::fire_odds(self.app.world_mut(), shooter, target)
    }

    /// The chance of `caster`'s `spell` taking effect on `target` (itself when `None`).
    pub fn cast_odds(
        &mut self,
        caster: &str,
        spell: &str,
        target: Option<&str>,
    ) -> Result<i32, Refusal> {
        fire::cast_odds(self.app.world_mut(), caster, spell, target)
    }

    /// Shots `unit` has left of its missile weapon, if it has one.
    pub fn shots_left(&mut self, unit: &str) -> Option<u8> {
        fire::shots_left(self.app.world_mut(), unit)
    }

    /// The figures `unit` can see now.
    pub fn in_sight_of(&mut self, unit: &str) -> Vec<String> {
        charge::visible(self.app.world_mut(), unit)
    }

    /// The figures whose charge orders or answers the charge phase waits for, when it waits
    /// (D2, C1, C5); whom they will charge stays face down.
    pub fn charge_awaited(&self) -> Vec<String> {
        if !charge::waiting(self.app.world()) {
            return Vec::new();
        }
        charge::awaiting_ids(self.app.world())
    }

    /// Where the charge declarations stand, while the charge phase waits.
    pub fn charge_stage(&self) -> Option<ChargeStage> {
        charge::waiting(self.app.world())
            .then(|| self.app.world().get_resource::<ChargeBook>())
            .flatten()
            .map(|b| b.stage)
    }

    /// Every enemy `unit` might name in its charge orders, with the charge rules' verdict.
    pub fn charge_targets(&mut self, unit: &str) -> Vec<(String, Result<(), String>)> {
        charge::charge_targets(self.app.world_mut(), unit)
    }

    /// The odds of `unit`'s charge blow at `target`.
    pub fn charge_odds(&mut self, unit: &str, target: &str) -> Option<Odds> {
        charge::charge_odds(self.app.world_mut(), unit, target)
    }

    /// Who charges whom this turn, once the declarations are revealed (C1): `None` while they
    /// are still face down.
    pub fn charges_revealed(&self) -> Option<BTreeMap<String, Vec<String>>> {
        let b = self.app.world().get_resource::<ChargeBook>()?;
        (b.stage != ChargeStage::Declaring).then(|| b.declared.clone())
    }
}
