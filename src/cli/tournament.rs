//! `warhorse tournament [LEVEL…]`: one strength against another on every level, in both
//! seatings on the same seeds, as a Markdown table of win shares with 95% intervals (issue 13,
//! item 5). The results are the same for the same arguments on any machine; the AI's time per
//! turn, in the last columns, is the one thing that differs from run to run.

use crate::ai::AiLevel;
use crate::ai::plain::Plan;
use crate::ai::tournament::{Matchup, Tally, play_level, turn_times};
use crate::level::Level;
use serde::Serialize;
use std::path::PathBuf;

/// The options of one `warhorse tournament` run.
#[derive(Clone, Debug)]
pub struct TournamentArgs {
    /// The levels; all of `levels/*.ron` when empty.
    pub levels: Vec<PathBuf>,
    /// First seed; pair `i` uses `seed + i`.
    pub seed: u64,
    /// Seeds per level, each played in both seatings.
    pub pairs: u32,
    /// Turn limit per game (a level's own limit ends it sooner).
    pub turns: u32,
    /// The opponent.
    pub a: AiLevel,
    /// The strength under test.
    pub b: AiLevel,
    /// The opponent plays the exploitation test's fixed counter-strategy.
    pub a_fixed: bool,
    /// The opponent is a scripted plain plan instead of the computer at `a`.
    pub a_plan: Option<Plan>,
    /// The gauntlet: `b` against every plain plan and the fixed counter in turn, a table
    /// each, then one line per opponent pooled over the levels.
    pub gauntlet: bool,
    /// Threads.
    pub jobs: usize,
    /// JSON output.
    pub json: bool,
}

#[derive(Serialize)]
struct Row {
    level: String,
    file: String,
    tally: Tally,
    /// `b`'s share of the decided games and its 95% interval.
    share: Option<(f64, f64, f64)>,
}

#[derive(Serialize)]
struct Out {
    a: AiLevel,
    b: AiLevel,
    a_fixed: bool,
    /// The scripted plan that played `a`'s side, if any.
    a_plan: Option<Plan>,
    seed: u64,
    pairs: u32,
    rows: Vec<Row>,
    pooled: Row,
}

/// The level files a tournament plays when none is named: `levels/*.ron`, sorted.
fn default_levels() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("levels")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Runs `warhorse tournament`; returns the exit code (2 when a level does not load or there
/// is none).
pub fn run(args: &TournamentArgs) -> i32 {
    let files = if args.levels.is_empty() {
        default_levels()
    } else {
        args.levels.clone()
    };
    if files.is_empty() {
        eprintln!("no levels: name level files, or run from the folder that holds levels/");
        return 2;
    }
    let mut loaded = Vec::new();
    for f in &files {
        match super::load_or_report(f) {
            Ok(l) => loaded.push((f.clone(), l)),
            Err(code) => return code,
        }
    }
    let matchups: Vec<TournamentArgs> = if args.gauntlet {
        Plan::ALL
            .into_iter()
            .map(|p| TournamentArgs {
                a_plan: Some(p),
                a_fixed: false,
                ..args.clone()
            })
            .chain([TournamentArgs {
                a_plan: None,
                a_fixed: true,
                ..args.clone()
            }])
            .collect()
    } else {
        vec![args.clone()]
    };
    let mut outs = Vec::new();
    for m in &matchups {
        outs.push(one_matchup(m, &loaded));
    }
    if args.json {
        let r = if args.gauntlet {
            super::emit_json(&outs)
        } else {
            super::emit_json(&outs[0])
        };
        return match r {
            Ok(()) => 0,
            Err(code) => code,
        };
    }
    if args.gauntlet {
        super::emit(&gauntlet_summary(args, &outs));
    }
    0
}

/// Who `a` is, in words.
fn opponent(args: &TournamentArgs) -> String {
    match args.a_plan {
        Some(p) => format!("{p} (scripted)"),
        None => args.a.to_string(),
    }
}

/// Plays one matchup on every level, printing its table as it goes unless `json`.
fn one_matchup(args: &TournamentArgs, loaded: &[(PathBuf, Level)]) -> Out {
    if !args.json {
        super::emit(&header(args));
    }
    let mut rows = Vec::new();
    let mut pooled = Tally::default();
    for (file, level) in loaded {
        let m = Matchup {
            a: args.a,
            b: args.b,
            a_fixed: args.a_fixed,
            a_plan: args.a_plan,
        };
        let tally = play_level(level, m, args.seed, args.pairs, args.turns, args.jobs);
        pooled.merge(&tally);
        let row = Row {
            level: level.file.name.clone(),
            file: file.display().to_string(),
            share: tally.b_share(),
            tally,
        };
        if !args.json {
            super::emit(&line(&row.level, &row.tally));
        }
        rows.push(row);
    }
    let pooled = Row {
        level: "all levels".into(),
        file: String::new(),
        share: pooled.b_share(),
        tally: pooled,
    };
    if !args.json {
        super::emit(&line(&format!("**{}**", pooled.level), &pooled.tally));
        super::emit("\n");
    }
    Out {
        a: args.a,
        b: args.b,
        a_fixed: args.a_fixed,
        a_plan: args.a_plan,
        seed: args.seed,
        pairs: args.pairs,
        rows,
        pooled,
    }
}

/// The gauntlet's last table: each opponent pooled over the levels.
fn gauntlet_summary(args: &TournamentArgs, outs: &[Out]) -> String {
    let mut s = format!(
        "The gauntlet, pooled over the levels: {b}'s share of the decided games [95% Wilson].\n\n\
         | opponent | games | {b} wins | opponent wins | draws | {b}'s share [95%] | AI refused | script refused |\n\
         |---|---|---|---|---|---|---|---|\n",
        b = args.b
    );
    for o in outs {
        let t = &o.pooled.tally;
        let who = match o.a_plan {
            Some(p) => format!("{p} (scripted)"),
            None => format!("{} fixed", o.a),
        };
        s.push_str(&format!(
            "| {who} | {} | {} | {} | {} | {} | {} | {} |\n",
            t.games,
            t.b_wins,
            t.a_wins,
            t.draws,
            share_text(t),
            t.refused,
            t.script_refused
        ));
    }
    s
}

fn share_text(t: &Tally) -> String {
    match t.b_share() {
        Some((p, lo, hi)) => format!("{:.1}% [{:.1}–{:.1}]", p * 100.0, lo * 100.0, hi * 100.0),
        None => "—".into(),
    }
}

fn header(args: &TournamentArgs) -> String {
    format!(
        "{b} against {a}{fixed}: seeds {s}–{e}, each played with {b} on either side; at most {t} turns.\n\
         Share: {b}'s wins of the decided games, with the 95% Wilson interval. \
         AI ms: a turn of both sides (mean / 99th percentile / worst; differs from run to run).\n\n\
         Refused: the AI's refused orders / the script's (a scripted opponent only).\n\n\
         | level | games | {b} wins | {a} wins | draws | {b}'s share [95%] | refused | flank or rear | AI ms a turn |\n\
         |---|---|---|---|---|---|---|---|---|\n",
        a = opponent(args),
        b = args.b,
        fixed = if args.a_fixed {
            " (fixed: every dodge guessed Back, every charge met with a weapon parry)"
        } else {
            ""
        },
        s = args.seed,
        e = args.seed + u64::from(args.pairs.max(1)) - 1,
        t = args.turns,
    )
}

fn line(name: &str, t: &Tally) -> String {
    let share = share_text(t);
    let flank = if t.rolls.rolls == 0 {
        "—".into()
    } else {
        format!(
            "{}/{} ({:.0}%)",
            t.rolls.flank_or_rear,
            t.rolls.rolls,
            100.0 * t.rolls.flank_or_rear as f64 / t.rolls.rolls as f64
        )
    };
    let time = match turn_times(&t.turn_us) {
        Some((mean, p99, max)) => format!(
            "{:.1} / {:.1} / {:.1}",
            mean / 1000.0,
            p99 as f64 / 1000.0,
            max as f64 / 1000.0
        ),
        None => "—".into(),
    };
    format!(
        "| {name} | {} | {} | {} | {} | {share} | {} / {} | {flank} | {time} |\n",
        t.games, t.b_wins, t.a_wins, t.draws, t.refused, t.script_refused
    )
}
