//! The `victory` block of a level (issue 12): the turn limit and each side's objectives,
//! checked with line and column, and resolved for the judge in `rules::victory`.

use super::*;
use crate::rules::victory::{Goal, Objective, Victory, VictorySpec, describe};

/// Most turns a battle may last: beyond this no level is a battle.
pub const MAX_TURNS: u32 = 1000;
/// Most objectives a level may set.
pub const MAX_OBJECTIVES: usize = 256;

/// Checks the victory block and resolves it; a level without one gets [`Victory::default`].
pub(super) fn check_victory(lf: &LevelFile, sides: &HashMap<&str, u8>, cx: &mut Ctx) -> Victory {
    if let Some(s) = &lf.suggested_side
        && !sides.contains_key(s.as_str())
    {
        cx.err(
            &[P::F("suggested_side")],
            format!(
                "unknown side {s:?} suggested: expected one of {}",
                list(lf.sides.iter().map(|s| s.name.clone()))
            ),
        );
    }
    let Some(spec) = &lf.victory else {
        return Victory::default();
    };
    let at = |rest: &[P<'static>]| {
        let mut p = vec![P::F("victory")];
        p.extend_from_slice(rest);
        p
    };
    if spec.turns == 0 {
        cx.err(
            &at(&[P::F("turns")]),
            "the turn limit is 0: expected at least 1",
        );
    } else if spec.turns > MAX_TURNS {
        cx.err(
            &at(&[P::F("turns")]),
            format!(
                "{LIMIT_TAG}a turn limit of {}; at most {MAX_TURNS} turns",
                spec.turns
            ),
        );
    }
    if spec.objectives.len() > MAX_OBJECTIVES {
        cx.err(
            &at(&[P::F("objectives"), P::I(MAX_OBJECTIVES)]),
            format!("{LIMIT_TAG}more than {MAX_OBJECTIVES} objectives"),
        );
        return Victory::default();
    }
    let mut objectives = Vec::new();
    for (i, o) in spec.objectives.iter().enumerate() {
        let side = match sides.get(o.side.as_str()) {
            Some(&s) => Some(s),
            None => {
                cx.err(
                    &at(&[P::F("objectives"), P::I(i), P::F("side")]),
                    format!(
                        "unknown side {:?} for an objective: expected one of {}",
                        o.side,
                        list(lf.sides.iter().map(|s| s.name.clone()))
                    ),
                );
                None
            }
        };
        let goal_at = |rest: &[P<'static>]| {
            let mut p = vec![P::F("victory"), P::F("objectives"), P::I(i), P::F("goal")];
            p.extend_from_slice(rest);
            p
        };
        check_goal(lf, spec, &o.goal, &o.side, &goal_at, cx);
        if let Some(side) = side {
            objectives.push(Objective {
                side,
                goal: o.goal.clone(),
                points: o.points,
                wins: o.wins,
                name: if o.name.trim().is_empty() {
                    describe(&o.goal)
                } else {
                    o.name.clone()
                },
            });
        }
    }
    Victory {
        turns: spec.turns,
        objectives,
        figure_points: spec.figure_points,
    }
}

/// Whose figures a goal may name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Whose {
    Own,
    Enemy,
}

fn check_goal(
    lf: &LevelFile,
    spec: &VictorySpec,
    goal: &Goal,
    side: &str,
    at: &dyn Fn(&[P<'static>]) -> Vec<P<'static>>,
    cx: &mut Ctx,
) {
    match goal {
        Goal::Hold {
            area,
            turns,
            from_turn,
        } => {
            check_area(lf, area, &at(&[P::F("area")]), cx);
            if *turns == 0 {
                cx.err(
                    &at(&[P::F("turns")]),
                    "a hold of 0 turns: expected at least 1",
                );
            }
            if *from_turn == 0 {
                cx.err(&at(&[P::F("from_turn")]), "turns count from 1");
            }
            let last = from_turn.saturating_add(turns.saturating_sub(1));
            if spec.turns > 0 && last > spec.turns {
                cx.err(
                    &at(&[P::F("turns")]),
                    format!(
                        "held from turn {from_turn} for {turns} turn(s), this hold ends at turn \
                         {last}, after the battle's last turn {}: it could never be achieved",
                        spec.turns
                    ),
                );
            }
        }
        Goal::Exit { figures, .. } | Goal::Protect { figures } => {
            check_figures_named(lf, figures, side, Whose::Own, &at(&[P::F("figures")]), cx);
        }
        Goal::Reach { figures, area } => {
            check_figures_named(lf, figures, side, Whose::Own, &at(&[P::F("figures")]), cx);
            check_area(lf, area, &at(&[P::F("area")]), cx);
        }
        Goal::Kill { figures } => {
            check_figures_named(lf, figures, side, Whose::Enemy, &at(&[P::F("figures")]), cx);
        }
    }
}

/// An area: at least one cell, every one on the map.
fn check_area(lf: &LevelFile, area: &[(i32, i32)], at: &[P<'static>], cx: &mut Ctx) {
    if area.is_empty() {
        cx.err(at, "an empty area: expected at least one cell (x, y)");
    }
    let (w, h) = (lf.width as i64, lf.height as i64);
    for (k, &(x, y)) in area.iter().enumerate() {
        if x < 0 || y < 0 || i64::from(x) >= w || i64::from(y) >= h {
            let mut p = at.to_vec();
            p.push(P::I(k));
            cx.err(
                &p,
                format!(
                    "cell ({x}, {y}) is off the {w} x {h} map: expected 0 <= x < {w} and \
                     0 <= y < {h}"
                ),
            );
        }
    }
}

/// Named figures: at least one, each a figure of the level, of the objective's side (or of
/// an enemy side, for a kill).
fn check_figures_named(
    lf: &LevelFile,
    figures: &[String],
    side: &str,
    whose: Whose,
    at: &[P<'static>],
    cx: &mut Ctx,
) {
    if figures.is_empty() {
        cx.err(at, "no figures named: expected figure ids");
    }
    for (k, id) in figures.iter().enumerate() {
        let mut p = at.to_vec();
        p.push(P::I(k));
        let Some(f) = lf.figures.iter().find(|f| &f.id == id) else {
            cx.err(
                &p,
                format!("unknown figure {id:?} in an objective: expected the id of a figure"),
            );
            continue;
        };
        match whose {
            Whose::Own if f.side != side => cx.err(
                &p,
                format!(
                    "{id:?} is of side {:?}: an objective of {side:?} names its own figures",
                    f.side
                ),
            ),
            Whose::Enemy if f.side == side => cx.err(
                &p,
                format!("{id:?} is of side {side:?} itself: expected an enemy figure"),
            ),
            _ => {}
        }
    }
}
