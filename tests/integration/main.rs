//! The one integration-test binary (every extra file in tests/ would link bevy again).

mod ai;
mod cavalry;
mod chance_steps;
mod clear_words;
mod e2e;
mod east_west;
mod fidelity;
mod fire;
mod happenings;
mod inputs;
mod layers;
mod level_files;
mod limits;
mod melee;
mod melee_ends;
mod net;
mod net_guesses;
mod order_integrity;
mod pbem;
mod reach_props;
mod refusals;
mod rout;
mod saves;
mod script_examples;
mod side_views;
mod sim_orders;
mod ui_play;
mod ui_screens;
mod victory;

/// Runs the real `warhorse` binary in the package root: its exit code, stdout and stderr.
pub fn warhorse(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warhorse"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the warhorse binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
