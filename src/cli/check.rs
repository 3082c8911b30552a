//! `warhorse check FILE...`: every error of every file, exit 1 if any.

use std::path::PathBuf;

/// Checks each file; prints `ok` lines and every error; returns the exit code.
pub fn run(files: &[PathBuf]) -> i32 {
    let mut bad = 0;
    for f in files {
        match crate::level::load::check_file(f) {
            Ok(kind) => super::emit(&format!(
                "{}: ok ({kind})\n",
                crate::level::error::shown_path(f)
            )),
            Err(errs) => {
                bad += 1;
                eprintln!("{errs}");
            }
        }
    }
    if bad > 0 {
        eprintln!("{bad} of {} files have errors", files.len());
        1
    } else {
        0
    }
}
