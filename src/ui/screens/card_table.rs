//! The card table (issue 11): the chooser a player fights a melee with. One figure at a time —
//! a row of the side's figures with what each has picked, Next / Previous (Tab, Shift+Tab) —
//! and that figure's hand drawn as cards ([`card_face`]), TAC and MELEE apart, keys 1–9 on
//! the playable ones, the blows it has and has spent. On the map ([`super::chooser_map`]) the
//! figure is ringed, the enemies it can strike are marked, its ways are arrows, and a click
//! there picks. Enter confirms, asking first when a figure has nothing picked; a side may pass
//! for the rest of the melee. After the reveal, dodge guesses are asked here too.
//!
//! It is a tray (issue 34): docked along the bottom of the part of the screen the panels leave
//! to the map, as wide as that part, just above the log (whose newest lines stay in view), and
//! as low as it can be — every card whole, in one row that scrolls sideways, TAC cards then
//! MELEE cards — so the fight stays in view above it. It folds down to one line to show
//! more map.

use super::card_face::card_face;
use super::cards::{
    CardKind, CardOverlay, CardView, CardsAnswer, FigureHand, GuessDir, Picks, blows_picked,
    needs_target, pick_words, ready_picks, shown_cards, toggle, undecided,
};
use crate::rules::names::Names;
use bevy_egui::egui;

/// The keys the chooser reads this frame.
struct Keys {
    tab: bool,
    back: bool,
    digit: Option<usize>,
    enter: bool,
    /// P: the side passes for the rest of this melee.
    pass: bool,
    /// L, R, B or N: the first dodge guess due (Left, Right, Back, no guess).
    guess: Option<Option<GuessDir>>,
}

fn read_keys(ctx: &egui::Context) -> Keys {
    const DIGITS: [egui::Key; 9] = [
        egui::Key::Num1,
        egui::Key::Num2,
        egui::Key::Num3,
        egui::Key::Num4,
        egui::Key::Num5,
        egui::Key::Num6,
        egui::Key::Num7,
        egui::Key::Num8,
        egui::Key::Num9,
    ];
    ctx.input(|i| Keys {
        tab: i.key_pressed(egui::Key::Tab),
        back: i.modifiers.shift,
        digit: DIGITS.iter().position(|&k| i.key_pressed(k)).map(|d| d + 1),
        enter: i.key_pressed(egui::Key::Enter),
        pass: i.key_pressed(egui::Key::P),
        guess: [
            (egui::Key::L, Some(GuessDir::Left)),
            (egui::Key::R, Some(GuessDir::Right)),
            (egui::Key::B, Some(GuessDir::Back)),
            (egui::Key::N, None),
        ]
        .into_iter()
        .find(|(k, _)| i.key_pressed(*k))
        .map(|(_, g)| g),
    })
}

/// The cards of `hand` the table shows now: the playable ones (or all, with the toggle),
/// narrowed to those a map click stood for while `picks.focus` is set.
pub fn table_cards<'a>(hand: &'a FigureHand, picks: &Picks) -> Vec<&'a CardView> {
    shown_cards(hand, picks.show_all)
        .into_iter()
        .filter(|c| {
            picks
                .focus
                .as_ref()
                .is_none_or(|names| names.contains(&c.name))
        })
        .collect()
}

/// The number key of each card in `shown` (1–9 on the first nine playable ones, TAC first).
pub fn card_keys(shown: &[&CardView]) -> Vec<Option<usize>> {
    let mut n = 0;
    let mut keys = vec![None; shown.len()];
    for kind in [CardKind::Tac, CardKind::Melee] {
        for (k, c) in shown.iter().enumerate() {
            if c.kind == kind && c.verdict.is_ok() {
                n += 1;
                keys[k] = (n <= 9).then_some(n);
            }
        }
    }
    keys
}

/// The side's figures in the melee with what each has picked, in the title line.
fn figure_row(ui: &mut egui::Ui, overlay: &CardOverlay, picks: &mut Picks) {
    for (k, h) in overlay.hands.iter().enumerate() {
        let words = format!(
            "{}: {}",
            h.name,
            overlay.names.show(&pick_words(picks, &h.unit))
        );
        if ui.selectable_label(k == picks.current, words).clicked() {
            picks.current = k;
            picks.focus = None;
        }
    }
}

fn figure_header(ui: &mut egui::Ui, overlay: &CardOverlay, picks: &mut Picks) {
    let n = overlay.hands.len();
    let hand = &overlay.hands[picks.current];
    let spent = blows_picked(hand, picks.by_unit.get(&hand.unit));
    ui.horizontal_wrapped(|ui| {
        if ui.button("< Previous").clicked() {
            picks.current = (picks.current + n - 1) % n;
            picks.focus = None;
        }
        ui.strong(format!(
            "Figure {} of {n}: {} — {} blows, {spent} picked, {} left",
            picks.current + 1,
            hand.name,
            hand.blows,
            hand.blows.saturating_sub(spent)
        ));
        if ui.button("Next > (Tab)").clicked() {
            picks.current = (picks.current + 1) % n;
            picks.focus = None;
        }
        ui.checkbox(&mut picks.show_all, "Show the cards it may not play");
        if picks.focus.is_some() {
            ui.label(egui::RichText::new("Showing the cards for the cell you clicked.").weak());
            if ui.button("Show its whole hand").clicked() {
                picks.focus = None;
            }
        } else {
            ui.label(
                egui::RichText::new(
                    "Click an enemy ringed red, or an arrow, on the map to pick its card.",
                )
                .weak(),
            );
        }
    });
}

fn hand_cards(
    ui: &mut egui::Ui,
    hand: &FigureHand,
    picks: &mut Picks,
    digit: Option<usize>,
    dirs: u8,
) {
    let shown = table_cards(hand, picks);
    let keys = card_keys(&shown);
    let mut clicked: Option<CardView> = None;
    ui.horizontal(|ui| {
        for kind in [CardKind::Tac, CardKind::Melee] {
            let deck: Vec<usize> = (0..shown.len())
                .filter(|&k| shown[k].kind == kind)
                .collect();
            if deck.is_empty() {
                continue;
            }
            if kind == CardKind::Melee && deck.len() < shown.len() {
                ui.separator();
            }
            for &k in &deck {
                let card = shown[k];
                let p = picks.by_unit.get(&hand.unit);
                let picked = p.is_some_and(|p| match kind {
                    CardKind::Tac => p.tac.as_ref() == Some(&card.name),
                    CardKind::Melee => p.melee.contains(&card.name),
                });
                let r = card_face(ui, card, picked, keys[k], dirs);
                if card.verdict.is_ok() && (r.clicked() || (digit.is_some() && digit == keys[k])) {
                    clicked = Some(card.clone());
                }
            }
        }
    });
    if let Some(card) = clicked {
        toggle(picks, &hand.unit, &card);
    }
    if shown.is_empty() {
        ui.label(egui::RichText::new("No card to show.").weak());
    }
}

fn tac_target(ui: &mut egui::Ui, hand: &FigureHand, picks: &mut Picks, names: &Names) {
    let Some(p) = picks.by_unit.get_mut(&hand.unit) else {
        return;
    };
    let Some(tac) = p.tac.clone() else {
        return;
    };
    if hand.targets.is_empty() {
        return;
    }
    ui.horizontal(|ui| {
        let must = if needs_target(&tac) { "must" } else { "may" };
        ui.label(format!("{tac} {must} name an enemy (click it on the map):"));
        egui::ComboBox::from_id_salt(("tac-target", &hand.unit))
            .selected_text(p.tac_target.as_deref().map_or("nobody", |t| names.name(t)))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.tac_target, None, "nobody");
                for t in &hand.targets {
                    ui.selectable_value(&mut p.tac_target, Some(t.clone()), names.name(t));
                }
            });
    });
}

fn guesses(
    ui: &mut egui::Ui,
    overlay: &CardOverlay,
    key: Option<Option<GuessDir>>,
) -> Option<CardsAnswer> {
    let mut answer = overlay
        .guesses
        .first()
        .zip(key)
        .map(|(due, dir)| CardsAnswer::Guess(due.clone(), dir));
    if let Some(due) = overlay.guesses.first() {
        ui.label(format!(
            "{} attacked a figure that dodged: guess which way it went (L, R, B; N: no guess).",
            overlay.names.name(&due.guesser)
        ));
    }
    for due in &overlay.guesses {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "{} guesses which way {} dodged:",
                overlay.names.name(&due.guesser),
                overlay.names.name(&due.dodger)
            ));
            for (label, dir) in [
                ("Left (L)", Some(GuessDir::Left)),
                ("Right (R)", Some(GuessDir::Right)),
                ("Back (B)", Some(GuessDir::Back)),
                ("No guess (N)", None),
            ] {
                if ui.button(label).clicked() {
                    answer = Some(CardsAnswer::Guess(due.clone(), dir));
                }
            }
        });
    }
    answer
}

fn confirm_row(
    ui: &mut egui::Ui,
    overlay: &CardOverlay,
    picks: &mut Picks,
    enter: bool,
    pass: bool,
) -> Option<CardsAnswer> {
    let ready = ready_picks(overlay, picks);
    let open = undecided(overlay, picks);
    let mut answer = None;
    if !super::cards::can_strike(overlay) {
        ui.colored_label(
            egui::Color32::from_rgb(240, 205, 110),
            "None of your figures can strike an enemy this round: pass for the rest of this \
             melee (P) unless you want to move, dodge or parry.",
        );
    }
    if picks.asking && !open.is_empty() {
        ui.colored_label(
            egui::Color32::from_rgb(240, 205, 110),
            format!(
                "No cards picked for {}: they will play PASSIVE SHIELD PARRY. Play them so?",
                open.join(", ")
            ),
        );
        ui.horizontal(|ui| {
            if ui.button("Yes, confirm (Enter)").clicked() || enter {
                picks.asking = false;
                answer = ready.clone().ok().map(CardsAnswer::Play);
            }
            if ui.button("No, go back").clicked() {
                picks.asking = false;
            }
        });
        return answer;
    }
    ui.horizontal(|ui| {
        let label = if open.is_empty() {
            "Confirm (Enter)".to_string()
        } else {
            format!("Confirm… ({} undecided)", open.len())
        };
        let button = ui.add_enabled(ready.is_ok(), egui::Button::new(label));
        if let Err(why) = &ready {
            ui.label(egui::RichText::new(overlay.names.show(why)).weak());
        }
        if button.clicked() || (enter && ready.is_ok()) {
            if open.is_empty() {
                answer = ready.ok().map(CardsAnswer::Play);
            } else {
                picks.asking = true;
            }
        }
        if ui
            .button("Pass for the rest of this melee (P)")
            .on_hover_text(
                "Every figure of your side plays PASSIVE SHIELD PARRY from now to the end of \
                 this melee phase (after six in a row, D7 makes it play the first card it may), \
                 and makes no dodge guesses.",
            )
            .clicked()
            || pass
        {
            answer = Some(CardsAnswer::PassRest);
        }
    });
    answer
}

/// Draws the card table as a tray along the bottom of `free` (the part of the window the
/// panels leave to the map); returns what the player confirmed. Clicking cards edits `picks`.
pub fn show_cards(
    ctx: &egui::Context,
    overlay: &CardOverlay,
    picks: &mut Picks,
    free: egui::Rect,
) -> Option<CardsAnswer> {
    // Keys pressed as the table opened (the Enter that ended the half-move) are not picks;
    // a table just opened starts scrolled to the start.
    let settled = super::surface::settled(ctx, "cards");
    let keys = if settled {
        read_keys(ctx)
    } else {
        Keys {
            tab: false,
            back: false,
            digit: None,
            enter: false,
            pass: false,
            guess: None,
        }
    };
    {
        // Tab is the table's (next figure), not egui's focus traversal: a focused button
        // (or the fold button) would otherwise take the next Enter or Space as its click.
        // The table has no text field, so nothing in it needs the focus.
        ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
    }
    let fold_id = egui::Id::new("warhorse-cards-folded");
    // A card key on a folded table unfolds it, so the pick is seen.
    let mut folded =
        ctx.data(|d| d.get_temp::<bool>(fold_id)).unwrap_or(false) && keys.digit.is_none();
    let mut answer = None;
    super::surface::show_tray(ctx, "warhorse-cards", free, |ui| {
        ui.horizontal_wrapped(|ui| {
            let arrow = if folded { "↑ Show" } else { "↓ Fold" };
            if ui
                .button(arrow)
                .on_hover_text("Fold the card table down to this line to see more map.")
                .clicked()
            {
                folded = !folded;
            }
            ui.strong(format!("{} — choose your cards", overlay.side_name))
                .on_hover_text(
                    "Cards are played face down and revealed together. Tab / Shift+Tab: \
                     next / previous figure; 1-9 pick its cards; Enter confirms.",
                );
            figure_row(ui, overlay, picks);
        });
        let n = overlay.hands.len();
        if n > 0 {
            picks.current = picks.current.min(n - 1);
            if keys.tab {
                picks.current = if keys.back {
                    (picks.current + n - 1) % n
                } else {
                    (picks.current + 1) % n
                };
                picks.focus = None;
            }
            if !folded {
                figure_header(ui, overlay, picks);
                let hand = &overlay.hands[picks.current];
                // One row of whole cards; more scroll sideways, by the bar (always
                // shown, so a player sees there are more) or the wheel.
                let mut scroll = egui::ScrollArea::horizontal()
                    .id_salt(("hand", &hand.unit))
                    .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                    .auto_shrink([false, true]);
                if !settled {
                    scroll = scroll.horizontal_scroll_offset(0.0);
                }
                // A solid bar, not egui's thin floating one that shows only on hover.
                ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
                scroll.show(ui, |ui| {
                    let wheel = ui.input(|i| i.smooth_scroll_delta);
                    if wheel.x == 0.0 && ui.rect_contains_pointer(ui.clip_rect()) {
                        ui.scroll_with_delta(egui::vec2(wheel.y, 0.0));
                    }
                    hand_cards(ui, hand, picks, keys.digit, overlay.dirs);
                });
                tac_target(ui, hand, picks, &overlay.names);
            }
        }
        if let Some(a) = guesses(ui, overlay, keys.guess) {
            answer = Some(a);
        }
        if n == 0 {
            return;
        }
        if let Some(a) = confirm_row(ui, overlay, picks, keys.enter, keys.pass) {
            answer = Some(a);
        }
    });
    ctx.data_mut(|d| d.insert_temp(fold_id, folded));
    answer
}
