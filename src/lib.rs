//! Warhorse: a turn-based tactical wargame of mounted and foot figures.
//!
//! `rules` holds the game rules as pure data and functions; `level` reads levels and
//! rulesets; `sim` is the headless ECS simulation (turn phases, orders, dice, log); `cli` the
//! command line; `ui` the window, which the headless simulation never loads.

pub mod ai;
pub mod cli;
pub mod level;
pub mod net;
pub mod rules;
pub mod sim;
pub mod ui;
