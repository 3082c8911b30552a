//! Turning [`PlayAction`]s into selection changes and game requests, and the rules' answers
//! into what the player reads. Nothing here judges an order: a click on a reachable cell
//! sends the previewed path, a key sends its order, and the bridge's [`OrderOutcome`] —
//! accepted, or refused with the rule's reason — is shown as it comes.

use super::reach_view::{CurrentPreview, CurrentReach, PathPreview, preview_at, why_not};
use super::{AskFirst, Feedback, Hover, Mode, OrderLock, PlayAction, Selection, TOAST_SECS};
use crate::rules::grid::Cell;
use crate::rules::movement::{Hand, Step};
use crate::rules::ruleset::TroopType;
use crate::sim::components::{
    Allowance, CarriedBy, Conditions, FigureId, GaitState, Position, RidingOn, SideId, Troop,
};
use crate::sim::order::Order;
use crate::ui::Selected;
use crate::ui::bridge::{GameRequest, GameView, Mirror, Mirrors, OrderOutcome};
use crate::ui::settings::Fractions;
use bevy::prelude::*;

/// What an action needs to know about a mirror.
pub type MirrorFacts = (
    Entity,
    &'static FigureId,
    &'static Position,
    Option<&'static SideId>,
    Option<&'static Troop>,
    Option<&'static RidingOn>,
    Option<&'static CarriedBy>,
    Option<&'static GaitState>,
);

/// The figure a click on `cell` picks: the side to move's figures first, riders before
/// their mounts (a pair is selected by its rider); clicking again cycles through a stack.
pub fn figure_at(
    mirrors: &Query<MirrorFacts, With<Mirror>>,
    cell: Cell,
    side_to_move: Option<u8>,
    current: Option<&str>,
) -> Option<String> {
    let mut here: Vec<(bool, bool, String)> = mirrors
        .iter()
        .filter(|m| m.2.0 == cell)
        .map(|m| {
            let own = m.3.map(|s| s.0) == side_to_move && side_to_move.is_some();
            let rider = match m.6 {
                Some(c) => mirrors.get(c.0).map_or(m.1.0.clone(), |r| r.1.0.clone()),
                None => m.1.0.clone(),
            };
            (!own, m.6.is_some(), rider)
        })
        .collect();
    here.sort();
    here.dedup_by(|a, b| a.2 == b.2);
    let at = current.and_then(|c| here.iter().position(|h| h.2 == c));
    let next = at.map_or(0, |i| (i + 1) % here.len().max(1));
    here.get(next).map(|h| h.2.clone())
}

/// Why figure `id` may not be selected: it is dead or out of the fight (its mirrored
/// conditions say so). A fallen figure has no reach and takes no orders, so the window does
/// not pretend otherwise.
fn fallen(conds: &Query<&Conditions, With<Mirror>>, index: &Mirrors, id: &str) -> Option<String> {
    let c = index.0.get(id).and_then(|&e| conds.get(e).ok())?;
    fallen_word(c).map(|w| format!("{id} is {w}: it can no longer be selected or given orders."))
}

/// The condition that puts a figure out of the game's orders ("dead", "incapacitated"), if any.
fn fallen_word(c: &Conditions) -> Option<&str> {
    c.0.iter()
        .map(String::as_str)
        .find(|w| *w == "dead" || *w == "incapacitated")
}

/// The steed a click on `cell` names for mounting: a riderless horse first.
fn steed_at(mirrors: &Query<MirrorFacts, With<Mirror>>, cell: Cell) -> Option<String> {
    let mut here: Vec<(bool, String)> = mirrors
        .iter()
        .filter(|m| m.2.0 == cell)
        .map(|m| {
            let steed = m.4.is_some_and(|t| t.0 == TroopType::Horse) && m.6.is_none();
            (!steed, m.1.0.clone())
        })
        .collect();
    here.sort();
    here.into_iter().next().map(|h| h.1)
}

/// The move a click on `cell` orders: the preview on screen if it is for that cell, else the
/// same computation the preview would make. `None` when the cell is not a move (out of
/// reach, or the figure's own cell with nothing to do).
pub fn click_move(
    reach: &CurrentReach,
    preview: &CurrentPreview,
    hover: &Hover,
    cell: Cell,
) -> Option<PathPreview> {
    let r = reach.0.as_ref()?;
    let p = match &preview.0 {
        Some(p) if p.cell == cell && p.unit == r.unit && p.revision == r.revision => p.clone(),
        _ => {
            let pick = if hover.cell == Some(cell) {
                hover.pick
            } else {
                0
            };
            // Only the path is used here; the words are the panel's, from `refresh_preview`.
            preview_at(r, cell, pick, Fractions::default())?
        }
    };
    (!p.steps.is_empty()).then_some(p)
}

/// What the question before ending a half-move needs to know about a mirror.
pub type MoverFacts = (
    &'static FigureId,
    Option<&'static SideId>,
    Option<&'static Allowance>,
    Option<&'static RidingOn>,
    Option<&'static CarriedBy>,
    Option<&'static Troop>,
    Option<&'static Conditions>,
);

/// The figures of `side` that could still move this half-move and have not (issue 34: ending
/// a half-move with them asks first), by id. A rider and its mount are one mover, named by the
/// rider, which has moved when either has; a riderless horse is nobody's to move, and a
/// fallen figure or one with no movement left cannot move.
pub fn unmoved(movers: &Query<MoverFacts, With<Mirror>>, side: u8) -> Vec<String> {
    let used = |a: Option<&Allowance>| a.is_some_and(|a| a.used_any);
    let mut out: Vec<String> = movers
        .iter()
        .filter(|m| m.1.is_some_and(|s| s.0 == side) && m.4.is_none())
        .filter(|m| m.5.is_none_or(|t| t.0 != TroopType::Horse || m.3.is_some()))
        .filter(|m| m.6.is_none_or(|c| fallen_word(c).is_none()))
        .filter(|m| {
            let mount = m.3.and_then(|r| movers.get(r.0).ok());
            let left =
                |a: Option<&Allowance>| a.is_some_and(|a| a.left > crate::rules::mp::Mp::ZERO);
            !used(m.2)
                && !mount.is_some_and(|h| used(h.2))
                && (left(m.2) || mount.is_some_and(|h| left(h.2)))
        })
        .map(|m| m.0.0.clone())
        .collect();
    out.sort();
    out
}

/// The question asked before a half-move ends with `waiting` figures of `side` unmoved.
fn end_half_move_question(view: &GameView, side: u8, waiting: &[String]) -> AskFirst {
    let names: Vec<&str> = waiting.iter().map(|id| view.names.name(id)).collect();
    let (count, have) = if names.len() == 1 {
        ("One figure".to_string(), "has")
    } else {
        (format!("{} figures", names.len()), "have")
    };
    AskFirst {
        title: format!("End {}'s half-move?", view.side_name(side)),
        text: format!(
            "{count} of {} {have} not moved this half-move: {}.\nThey stay where they stand, \
             facing as they face, until their next half-move.",
            view.side_name(side),
            names.join(", ")
        ),
        yes: "End the half-move".to_string(),
        then: PlayAction::EndSideAnyway,
    }
}

fn send(requests: &mut MessageWriter<GameRequest>, o: Order) {
    requests.write(GameRequest::Order(o));
}

fn say(feedback: &mut Feedback, text: impl Into<String>) {
    feedback.status = text.into();
    feedback.refused = false;
    feedback.toast_until = None;
}

/// Applies the player's actions.
pub fn perform_actions(
    mut actions: MessageReader<PlayAction>,
    mut selection: ResMut<Selection>,
    mut hover: ResMut<Hover>,
    reach: Res<CurrentReach>,
    preview: Res<CurrentPreview>,
    view: Res<GameView>,
    mirrors: Query<MirrorFacts, With<Mirror>>,
    conds: Query<&Conditions, With<Mirror>>,
    index: Res<Mirrors>,
    mut requests: MessageWriter<GameRequest>,
    mut feedback: ResMut<Feedback>,
    lock: Res<OrderLock>,
    claim: Res<super::MapClaim>,
    movers: Query<MoverFacts, With<Mirror>>,
    mut ask: MessageWriter<AskFirst>,
    settings: Option<Res<crate::ui::settings::Settings>>,
) {
    // A click out of reach says why in the player's way of writing movement, as the hover does.
    let fractions = settings.map_or_else(Fractions::default, |s| s.fractions);
    for action in actions.read() {
        // The card table has the map and the letter keys (L R B N guess a dodge): only
        // looking at figures goes on.
        if claim.0
            && !matches!(
                action,
                PlayAction::Select(_)
                    | PlayAction::Cancel
                    | PlayAction::Explain
                    | PlayAction::FastForward
                    | PlayAction::CycleFacing(_)
            )
        {
            continue;
        }
        // Nobody moves (an overlay takes the choices): the digit keys pick cards there, so
        // they change no gait here.
        if view.side_to_move.is_none() && matches!(action, PlayAction::Gait(_)) {
            continue;
        }
        if let Some(why) = &lock.0
            && gives_order(action, selection.mode, &reach, &preview, &hover)
        {
            say(&mut feedback, why.clone());
            continue;
        }
        let unit = selection.unit.clone();
        let facts = unit
            .as_ref()
            .and_then(|u| index.0.get(u))
            .and_then(|&e| mirrors.get(e).ok());
        let mounted = facts.is_some_and(|f| f.5.is_some() || f.7.is_some());
        let needs_unit = matches!(
            action,
            PlayAction::Gait(_)
                | PlayAction::Pivot(_)
                | PlayAction::BackUp
                | PlayAction::MountOrDismount
                | PlayAction::Lead
                | PlayAction::Activity(_)
        );
        if needs_unit && unit.is_none() {
            say(&mut feedback, "Select a figure first.");
            continue;
        }
        let u = unit.clone().unwrap_or_default();
        match action {
            PlayAction::Click(cell) => match selection.mode {
                Mode::Move => {
                    if let Some(p) = click_move(&reach, &preview, &hover, *cell) {
                        send(
                            &mut requests,
                            Order::Move {
                                unit: p.unit,
                                steps: p.steps,
                            },
                        );
                    } else {
                        let mut picked =
                            figure_at(&mirrors, *cell, view.side_to_move, unit.as_deref());
                        if let Some(why) = picked.as_deref().and_then(|p| fallen(&conds, &index, p))
                        {
                            say(&mut feedback, why);
                            picked = None;
                        } else if picked.is_none() && unit.is_some() {
                            // A click where the figure cannot go keeps it selected and says
                            // why (issue 34); Esc clears the selection.
                            let why = reach.0.as_ref().and_then(|r| why_not(r, *cell, fractions));
                            say(
                                &mut feedback,
                                why.map_or_else(
                                    || "Nothing to do there (Esc clears the selection).".into(),
                                    |w| view.names.show(&w),
                                ),
                            );
                            continue;
                        }
                        selection.unit = picked;
                    }
                }
                Mode::Mount => {
                    selection.mode = Mode::Move;
                    match steed_at(&mirrors, *cell) {
                        Some(horse) => {
                            send(&mut requests, Order::Mount { unit: u, horse });
                        }
                        None => say(&mut feedback, "No steed there: mounting cancelled."),
                    }
                }
                Mode::Lead => {
                    selection.mode = Mode::Move;
                    match steed_at(&mirrors, *cell) {
                        Some(horse) if horse != u => {
                            requests.write(GameRequest::ToggleLead { unit: u, horse });
                        }
                        _ => say(&mut feedback, "No horse there: leading cancelled."),
                    }
                }
                Mode::Dismount => {
                    selection.mode = Mode::Move;
                    send(
                        &mut requests,
                        Order::Dismount {
                            unit: u,
                            to: Some((cell.x, cell.y)),
                        },
                    );
                }
            },
            PlayAction::Select(id) => {
                if let Some(why) = id.as_deref().and_then(|p| fallen(&conds, &index, p)) {
                    say(&mut feedback, why);
                    continue;
                }
                selection.unit = id.clone();
                selection.mode = Mode::Move;
            }
            PlayAction::Gait(g) => {
                send(&mut requests, Order::SetGait { unit: u, gait: *g });
            }
            PlayAction::Pivot(hand) => {
                let k = if mounted {
                    view.grid.right_angle_steps() as i8
                } else {
                    1
                };
                let k = if *hand == Hand::Left { -k } else { k };
                send(
                    &mut requests,
                    Order::Move {
                        unit: u,
                        steps: vec![Step::Pivot(k)],
                    },
                );
            }
            PlayAction::Activity(activity) => {
                send(
                    &mut requests,
                    Order::Activity {
                        unit: u,
                        activity: *activity,
                    },
                );
            }
            PlayAction::BackUp => {
                send(
                    &mut requests,
                    Order::Move {
                        unit: u,
                        steps: vec![Step::Back],
                    },
                );
            }
            PlayAction::MountOrDismount => {
                let riding = facts.is_some_and(|f| f.5.is_some());
                match (riding, selection.mode) {
                    (true, Mode::Dismount) => {
                        selection.mode = Mode::Move;
                        send(&mut requests, Order::Dismount { unit: u, to: None });
                    }
                    (true, _) if view.asl => {
                        send(&mut requests, Order::Dismount { unit: u, to: None });
                    }
                    (true, _) => {
                        selection.mode = Mode::Dismount;
                        say(
                            &mut feedback,
                            "Dismount: click a free cell next to the mount (M again: the first free one; Esc cancels).",
                        );
                    }
                    (false, Mode::Mount) => {
                        selection.mode = Mode::Move;
                        say(&mut feedback, "Mounting cancelled.");
                    }
                    (false, _) => {
                        selection.mode = Mode::Mount;
                        say(&mut feedback, "Mount: click the steed (Esc cancels).");
                    }
                }
            }
            PlayAction::EndSide
                if view.phase.is_half_move()
                    && let Some(side) = view.side_to_move
                    && let waiting = unmoved(&movers, side)
                    && !waiting.is_empty() =>
            {
                ask.write(end_half_move_question(&view, side, &waiting));
            }
            PlayAction::EndSide | PlayAction::EndSideAnyway if view.side_to_move.is_some() => {
                send(&mut requests, Order::EndSide);
                selection.unit = None;
                selection.mode = Mode::Move;
            }
            PlayAction::Undo => {
                requests.write(GameRequest::Undo);
            }
            PlayAction::CycleFacing(d) => {
                hover.pick = if *d < 0 {
                    hover.pick.checked_sub(1).unwrap_or_else(|| {
                        preview
                            .0
                            .as_ref()
                            .map_or(0, |p| p.choices.saturating_sub(1))
                    })
                } else {
                    hover.pick + 1
                };
            }
            PlayAction::Lead if selection.mode == Mode::Lead => {
                selection.mode = Mode::Move;
                say(&mut feedback, "Leading cancelled.");
            }
            PlayAction::Lead => {
                selection.mode = Mode::Lead;
                say(
                    &mut feedback,
                    "Lead: click a riderless horse to take it on the lead, or a led one to let it go (Esc cancels).",
                );
            }
            PlayAction::Explain | PlayAction::FastForward => {}
            PlayAction::EndSide | PlayAction::EndSideAnyway => {
                say(
                    &mut feedback,
                    "Nobody moves now: make the choices in the overlay (charges, cards; Enter confirms cards).",
                );
            }
            PlayAction::Cancel => {
                if selection.mode != Mode::Move {
                    selection.mode = Mode::Move;
                    say(&mut feedback, "Cancelled.");
                } else {
                    selection.unit = None;
                }
            }
        }
    }
}

/// True when `action` would give the game an order (and so waits while the orders are
/// locked); selecting and looking never do.
pub fn gives_order(
    action: &PlayAction,
    mode: Mode,
    reach: &CurrentReach,
    preview: &CurrentPreview,
    hover: &Hover,
) -> bool {
    match action {
        PlayAction::Click(cell) => {
            mode != Mode::Move || click_move(reach, preview, hover, *cell).is_some()
        }
        PlayAction::Gait(_)
        | PlayAction::Pivot(_)
        | PlayAction::BackUp
        | PlayAction::MountOrDismount
        | PlayAction::EndSide
        | PlayAction::EndSideAnyway
        | PlayAction::Undo
        | PlayAction::Activity(_) => true,
        PlayAction::Select(_)
        | PlayAction::Lead
        | PlayAction::CycleFacing(_)
        | PlayAction::Cancel
        | PlayAction::Explain
        | PlayAction::FastForward => false,
    }
}

/// Shows the rules' answers: an accepted order's log line in the status, a refusal's reason
/// in the status and in a banner for [`TOAST_SECS`].
pub fn take_outcomes(
    mut outcomes: MessageReader<OrderOutcome>,
    mut feedback: ResMut<Feedback>,
    time: Res<Time>,
) {
    for o in outcomes.read() {
        match &o.result {
            Ok(text) => say(&mut feedback, text.clone()),
            Err(why) => {
                feedback.status = format!("Refused: {why}");
                feedback.refused = true;
                feedback.toast_until = Some(time.elapsed_secs_f64() + TOAST_SECS);
            }
        }
    }
}

/// Keeps the selection valid: a new game clears it, a figure that is gone is deselected, and
/// a mount's id becomes its rider's (a pair is ordered through its rider).
pub fn follow_game(
    view: Res<GameView>,
    mut seen: Local<u64>,
    mut selection: ResMut<Selection>,
    index: Res<Mirrors>,
    mirrors: Query<(&FigureId, Option<&CarriedBy>), With<Mirror>>,
    mut hover: ResMut<Hover>,
) {
    if view.serial != *seen {
        *seen = view.serial;
        *selection = Selection::default();
        *hover = Hover::default();
        return;
    }
    let Some(u) = selection.unit.clone() else {
        return;
    };
    let Some(&e) = index.0.get(&u) else {
        selection.unit = None;
        return;
    };
    if let Ok((_, Some(c))) = mirrors.get(e)
        && let Ok((rider, _)) = mirrors.get(c.0)
    {
        selection.unit = Some(rider.0.clone());
    }
}

/// A game's moment: its serial, turn, phase and side to move.
type Moment = (u64, u32, crate::sim::phase::Phase, Option<u8>);

/// Clears the status line when its moment is gone: a new turn, phase or side to move (a
/// refusal's banner still runs its time), so "Nobody moves now" never outlives the melee.
pub fn forget_stale_status(
    view: Res<GameView>,
    mut moment: Local<Option<Moment>>,
    mut feedback: ResMut<Feedback>,
) {
    let now = (view.serial, view.turn, view.phase, view.side_to_move);
    if moment.is_some_and(|m| m != now) && !feedback.status.is_empty() {
        feedback.status.clear();
        feedback.refused = false;
    }
    *moment = Some(now);
}

/// Puts the UI's [`Selected`] marker on the selected mirror only (the counter draws a ring).
pub fn mark_selected(
    mut commands: Commands,
    selection: Res<Selection>,
    index: Res<Mirrors>,
    marked: Query<Entity, With<Selected>>,
) {
    let want = selection
        .unit
        .as_ref()
        .and_then(|u| index.0.get(u))
        .copied();
    for e in &marked {
        if Some(e) != want {
            commands.entity(e).remove::<Selected>();
        }
    }
    if let Some(e) = want
        && !marked.contains(e)
    {
        commands.entity(e).insert(Selected);
    }
}
