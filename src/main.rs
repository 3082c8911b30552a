//! The `warhorse` binary: the game window, or a command-line tool (see `warhorse --help`).

fn main() {
    std::process::exit(warhorse::cli::main());
}
