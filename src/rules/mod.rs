//! The rules of Warhorse as plain data and functions: no ECS, no rendering. A rule lives here
//! once; the simulation, the command line, the window and the AI all call it.

pub mod grid;
pub mod mp;
pub mod board;
pub mod gait;
pub mod movement;
pub mod reach;
pub mod ruleset;
pub mod allowance;
pub mod asl;
#[cfg(test)]
mod tests;
