//! The one integration-test binary (every extra file in tests/ would link bevy again).

mod ai;
mod cavalry;
mod e2e;
mod level_files;
mod melee;
mod reach_props;
mod saves;
mod script_examples;
mod sim_orders;
mod ui_play;
mod ui_screens;
