//! Plain plans (issue 31, item 4): scripted opponents that play as a person with one simple
//! idea might, to measure the computer against something other than itself.
//!
//! A plain player is seated as the window seats a human: its side is not given a computer
//! strength ([`crate::sim::seat::Seats`] has no entry for it), it never gives
//! `Order::ActionRoll` — the simulation asks no roll of anybody, the roll is an order a
//! player gives (see `sim::action_roll`), exactly as for a person at the window — and its
//! orders go through [`Game::order`] like everyone's. Each plan reads only public
//! information: the public board ([`View`]), the level's objectives (printed in its
//! briefing), and what the rules let its own figures do (their reach, the charges the rules
//! let them declare) — never the other side's face-down cards or charge orders, the dice or
//! the seed.
//!
//! The plans differ only in where each figure goes, at what gait, and whom it charges:
//! [`rush`] (at the nearest enemy, fastest gait, every charge it may declare), [`hold`] (on
//! or around its side's objective area, or its ground), [`flank`] (round the nearest enemy to
//! its flank or rear). Everything else is shared here:
//!
//! - **Moves** are the baseline AI's path-finding ([`plan::baseline_move`]) towards the
//!   plan's goal cells, ending facing the nearest enemy: legal by construction.
//! - **Charge answers**: STAND GROUND and WEAPON PARRY, the fixed counter's answer
//!   ([`super::bout::Fixed::back_and_parry`]), or DELIVER BLOW where the rules refuse it.
//! - **Cards** in the melee: the baseline AI's choice ([`super::cards::baseline_play`], through
//!   [`super::cards::next_card_order`] at the baseline level, which reads no roll for a side
//!   that made none). Its dodge guesses are drawn from public facts only (turn, round, the
//!   two figures' ids), not from the dice seed as the computer's are.
//! - **Fire**: the baseline's (I3: each shooter at its nearest enemy, [`super::fire`]).
//!
//! A refused order changes nothing (issue 15): the figure is marked dealt with, and the
//! player goes on to the next one and finally ends its half-move. The tournament counts the
//! refusals ([`super::bout::BoutResult::script_refused`]).

pub mod flank;
pub mod hold;
pub mod rush;

use super::AiLevel;
use super::field::FieldCache;
use super::plan::{self, gait_change, mount_of, must_turn_first, needs_turn};
use crate::rules::actions::{Conduct, Intent};
use crate::rules::charge::ride::Reply;
use crate::rules::gait::Gait;
use crate::rules::grid::Cell;
use crate::rules::melee::cards::TacCard;
use crate::rules::victory::Objective;
use crate::sim::Game;
use crate::sim::charge::{Stage, awaiting_ids, charge_targets};
use crate::sim::order::Order;
use crate::sim::phase::{Phase, TurnState};
use crate::sim::view::{FigView, View};
use serde::Serialize;
use std::collections::BTreeSet;

/// Which plain plan a scripted side follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Plan {
    /// Every figure at the nearest enemy, fastest gait, always charging.
    Rush,
    /// Stand on or around the side's objective area; with none, hold its ground.
    Hold,
    /// Go round the nearest enemy to strike its flank or rear.
    Flank,
}

impl Plan {
    /// Every plan, in the order the gauntlet plays them.
    pub const ALL: [Plan; 3] = [Plan::Rush, Plan::Hold, Plan::Flank];

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Plan::Rush => "rush",
            Plan::Hold => "hold",
            Plan::Flank => "flank",
        }
    }

    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<Plan> {
        Plan::ALL
            .into_iter()
            .find(|p| p.name() == s.trim().to_ascii_lowercase())
    }

    /// Where figure `f` goes this half-move and how.
    fn aim(self, view: &View, objectives: &[Objective], f: &FigView) -> Aim {
        match self {
            Plan::Rush => rush::aim(view, f),
            Plan::Hold => hold::aim(view, objectives, f),
            Plan::Flank => flank::aim(view, f),
        }
    }

    /// The enemy figure `me` charges, of those the rules let it (`ok`), or `None` for no
    /// charge.
    fn charge(
        self,
        view: &View,
        objectives: &[Objective],
        me: &FigView,
        ok: &[&FigView],
    ) -> Option<String> {
        match self {
            Plan::Rush => rush::charge(view, me, ok),
            Plan::Hold => hold::charge(view, objectives, me, ok),
            Plan::Flank => flank::charge(view, me, ok),
        }
    }
}

impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a plan wants of one figure this half-move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aim {
    /// Cells to go towards (the nearest of them by the terrain); empty: stay.
    pub goal: Vec<Cell>,
    /// The gait a mount asks for on the way (the nearest one the rules allow is taken).
    pub gait: Gait,
    /// Stay where it is, turning only to face the nearest enemy.
    pub stand: bool,
}

impl Aim {
    /// Stay, facing the nearest enemy.
    pub fn stand() -> Aim {
        Aim {
            goal: Vec::new(),
            gait: Gait::Halt,
            stand: true,
        }
    }

    /// The conduct this aim asks of the path-finding: stand facing the nearest enemy, or
    /// advance on the goal at the aim's gait, facing the enemy and charging when it may.
    pub fn intent(&self) -> Intent {
        if self.stand || self.goal.is_empty() {
            Intent {
                conduct: Conduct::Stand,
                face_enemy: true,
                charge: false,
            }
        } else {
            Intent {
                conduct: Conduct::Advance {
                    gait: self.gait,
                    visible: false,
                },
                face_enemy: true,
                charge: true,
            }
        }
    }
}

/// The plain player's bookkeeping for one phase (a new turn, phase or melee round starts
/// afresh).
#[derive(Debug, Default)]
struct Memo {
    stamp: Option<(u32, Phase, u32)>,
    stood: BTreeSet<String>,
    gaited: BTreeSet<String>,
    done: BTreeSet<String>,
    tried: BTreeSet<String>,
    fields: FieldCache,
}

/// A scripted side following a [`Plan`].
#[derive(Debug)]
pub struct Plain {
    /// Its plan.
    pub plan: Plan,
    /// The side it plays.
    pub side: u8,
    memo: Memo,
}

impl Plain {
    /// A player for `side` following `plan`.
    pub fn new(plan: Plan, side: u8) -> Plain {
        Plain {
            plan,
            side,
            memo: Memo::default(),
        }
    }

    /// The next order of this side, or `None` when the game does not wait for it. Each call
    /// gives the order after the last one (a refused one included), finally `EndSide`.
    pub fn next_order(&mut self, game: &mut Game) -> Option<Order> {
        let side = self.side;
        if !super::waits_for(game, side) {
            return None;
        }
        // Like the computer, a plan reads only what its side may know (I4).
        let game = super::side_game(game, side);
        let world = game.app.world_mut();
        if crate::sim::fire::waiting(world) {
            return super::fire::next_order(world, side);
        }
        let turn = world.resource::<TurnState>().turn;
        let phase = game.phase();
        let round = crate::sim::side_asks::melee_round(game.app.world());
        if self.memo.stamp != Some((turn, phase, round)) {
            self.memo = Memo {
                stamp: Some((turn, phase, round)),
                ..Default::default()
            };
        }
        if phase.is_half_move() {
            Some(self.half_move(game))
        } else if phase == Phase::ChargeDeclaration {
            self.charge_order(game)
        } else {
            let o = super::cards::next_card_order(game, side, AiLevel::Table, &mut self.memo.tried);
            Some(match o? {
                Order::GuessDodge { unit, target, .. } => {
                    let public = super::imagine::mix(&[u64::from(turn), u64::from(round)]);
                    Order::GuessDodge {
                        guess: super::cards::guess_dir(public, &unit, &target),
                        unit,
                        target,
                    }
                }
                o => o,
            })
        }
    }

    fn half_move(&mut self, game: &mut Game) -> Order {
        let (plan, side, memo) = (self.plan, self.side, &mut self.memo);
        let objectives = objectives(game);
        crate::sim::view::with_view(game.app.world_mut(), |world, view| {
            let mut mine: Vec<(i32, &FigView)> = view
                .figs
                .iter()
                .filter(|f| f.side == side && !f.down && !memo.done.contains(&f.id))
                .map(|f| (nearest_enemy_dist(view, f), f))
                .collect();
            mine.sort_by(|a, b| (a.0, &a.1.id).cmp(&(b.0, &b.1.id)));
            for (_, f) in mine {
                let id = f.id.clone();
                match plan::fitness(world, f.entity) {
                    plan::Fit::Free => {}
                    plan::Fit::Held => {
                        memo.done.insert(id);
                        continue;
                    }
                    plan::Fit::MustStand => {
                        if memo.stood.insert(id.clone())
                            && let Some(o) = plan::stand_up(world, f)
                        {
                            return o;
                        }
                        memo.done.insert(id);
                        continue;
                    }
                }
                let aim = plan.aim(view, &objectives, f);
                if memo.gaited.insert(id.clone())
                    && let Some(m) = mount_of(world, f.entity)
                {
                    let want = if aim.stand {
                        if needs_turn(view, f) {
                            Gait::Walk
                        } else {
                            Gait::Halt
                        }
                    } else if must_turn_first(view, f, false) {
                        Gait::Walk
                    } else {
                        aim.gait
                    };
                    if let Some(g) = gait_change(world, m, want, view.phase) {
                        return Order::SetGait { unit: id, gait: g };
                    }
                }
                memo.done.insert(id);
                let intent = aim.intent();
                if let Some(o) =
                    plan::baseline_move(world, view, &mut memo.fields, f, &intent, &aim.goal)
                {
                    return o;
                }
            }
            Order::EndSide
        })
    }

    fn charge_order(&mut self, game: &mut Game) -> Option<Order> {
        let objectives = objectives(game);
        let world = game.app.world_mut();
        let view = View::build(world);
        let stage = crate::sim::side_asks::charge_stage(world)?;
        let waiting: Vec<String> = awaiting_ids(world)
            .into_iter()
            .filter(|id| view.figs.iter().any(|f| &f.id == id && f.side == self.side))
            .collect();
        let id = match crate::ai::charges::next_to_order(waiting, &mut self.memo.tried, stage)? {
            crate::ai::charges::Next::Choose(id) => id,
            crate::ai::charges::Next::Plain(order) => return Some(order),
        };
        if stage != Stage::Declaring {
            return Some(Order::AnswerCharge {
                unit: id,
                tac: TacCard::StandGround,
                reply: Reply::WeaponParry,
            });
        }
        let no = Order::NoCharge { unit: id.clone() };
        let Some(me) = view.figs.iter().find(|f| f.id == id) else {
            return Some(no);
        };
        let ok: Vec<String> = charge_targets(world, &id)
            .into_iter()
            .filter(|(_, r)| r.is_ok())
            .map(|(t, _)| t)
            .collect();
        let ok: Vec<&FigView> = view.figs.iter().filter(|f| ok.contains(&f.id)).collect();
        Some(match self.plan.charge(&view, &objectives, me, &ok) {
            Some(t) => Order::DeclareCharge {
                unit: id,
                targets: vec![t],
            },
            None => no,
        })
    }
}

/// The move `plan` gives figure `id` now, its gait already set: what the commander compares
/// an enemy's moves with to tell which plan it follows ([`crate::ai::portfolio`]). `None`
/// when the figure is not in the fight or has no move.
pub fn move_of(plan: Plan, game: &mut Game, id: &str) -> Option<Order> {
    let objectives = objectives(game);
    crate::sim::view::with_view(game.app.world_mut(), |world, view| {
        let f = view.figs.iter().find(|f| f.id == id && !f.down)?;
        let aim = plan.aim(view, &objectives, f);
        let mut fields = FieldCache::default();
        plan::baseline_move(world, view, &mut fields, f, &aim.intent(), &aim.goal)
    })
}

/// The level's objectives (public: the briefing states them).
fn objectives(game: &Game) -> Vec<Objective> {
    game.judge()
        .map(|j| j.victory.objectives.clone())
        .unwrap_or_default()
}

/// Distance from `f` to the nearest enemy figure (a large number when none is left).
pub fn nearest_enemy_dist(view: &View, f: &FigView) -> i32 {
    view.enemies(f.side)
        .map(|e| view.dist(f.cell, e.cell))
        .min()
        .unwrap_or(i32::MAX / 2)
}

/// The enemy nearest to `f` (ties by id).
pub fn nearest_enemy<'v>(view: &'v View, f: &FigView) -> Option<&'v FigView> {
    view.enemies(f.side)
        .min_by(|a, b| (view.dist(f.cell, a.cell), &a.id).cmp(&(view.dist(f.cell, b.cell), &b.id)))
}

/// Of the charge targets `ok`, the nearest to `me` (ties by id).
pub fn nearest_of(view: &View, me: &FigView, ok: &[&FigView]) -> Option<String> {
    ok.iter()
        .min_by(|a, b| {
            (view.dist(me.cell, a.cell), &a.id).cmp(&(view.dist(me.cell, b.cell), &b.id))
        })
        .map(|f| f.id.clone())
}

#[cfg(test)]
mod tests;
