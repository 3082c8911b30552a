//! The one integration-test binary (every extra file in tests/ would link bevy again).

mod script_examples;
mod sim_orders;
mod level_files;
mod reach_props;
