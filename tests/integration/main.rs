//! The one integration-test binary (every extra file in tests/ would link bevy again).

mod script_examples;
mod level_files;
