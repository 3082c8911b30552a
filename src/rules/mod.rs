//! The rules of Warhorse as plain data and functions: no ECS, no rendering. A rule lives here
//! once; the simulation, the command line, the window and the AI all call it.

pub mod actions;
pub mod allowance;
pub mod asl;
pub mod asl_cavalry;
pub mod board;
pub mod cavalry;
pub mod chance;
pub mod charge;
pub mod fire;
pub mod gait;
pub mod grid;
pub mod melee;
pub mod movement;
pub mod mp;
pub mod names;
pub mod reach;
pub mod risk;
pub mod rout;
pub mod ruleset;
pub mod sight;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fidelity;
pub mod victory;
#[cfg(test)]
mod victory_tests;
pub mod words;
