//! The one integration-test binary (every extra file in tests/ would link bevy again).

mod level_files;
mod reach_props;
mod saves;
mod script_examples;
mod sim_orders;
