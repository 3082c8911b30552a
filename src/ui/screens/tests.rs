//! The screens' egui code drawn into a bare egui context (no window, no GPU): every screen,
//! dialog and overlay draws without panicking, and buttons' state is what the form says.
//! The behaviour behind the buttons is tested in `tests/integration/ui_screens.rs`.

use super::actions::{Dialog, Overlays, ScreenAction, ScreenView};
use super::cards::{
    CardKind, CardOverlay, CardPick, CardView, FigureHand, GuessDue, Picks, check_pick,
};
use super::catalogue::{LevelEntry, catalogue};
use super::handover::Handover;
use super::menu::{common_ui, playing_ui};
use super::rules_reader::RulesReader;
use super::saves::SaveInfo;
use super::start::{StartForm, start_ui};
use bevy_egui::egui;

fn frame(ctx: &egui::Context, mut draw: impl FnMut(&egui::Context)) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    ctx.run_ui(input, |ui| draw(ui.ctx()))
        .drop_without_applying_deltas();
}

fn hand() -> FigureHand {
    let c = |name: &str, kind, cost, verdict: Result<(), &str>| {
        CardView::plain(name, kind, cost, verdict.map_err(str::to_string))
    };
    FigureHand {
        unit: "knight".into(),
        name: "Knight".into(),
        blows: 2,
        targets: vec!["levy".into()],
        cards: vec![
            c("CLOSE", CardKind::Tac, 1, Ok(())),
            c("FLECHE", CardKind::Tac, 1, Ok(())),
            c("CHARGE", CardKind::Tac, 1, Err("C8: gallop only")),
            c("DELIVER BLOW", CardKind::Melee, 1, Ok(())),
            c("GREAT BLOW", CardKind::Melee, 2, Ok(())),
        ],
    }
}

#[test]
fn the_start_screen_draws_every_level_and_a_broken_one() {
    let mut levels = catalogue(&[std::path::PathBuf::from("levels")]);
    levels.push(LevelEntry {
        name: "broken.ron".into(),
        description: String::new(),
        source: "levels/broken.ron".into(),
        level: Err("levels/broken.ron:1:1: expected a level".into()),
    });
    let mut form = StartForm::new(levels, 42);
    let mut overlays = Overlays::default();
    let ctx = egui::Context::default();
    for _ in 0..2 {
        frame(&ctx, |ctx| {
            assert!(start_ui(ctx, &mut form, &mut overlays).is_none());
        });
    }
    assert!(form.check().is_ok());
    form.select(form.levels.len() - 1);
    assert_ne!(
        form.selected,
        form.levels.len() - 1,
        "a broken level cannot be chosen"
    );
    form.seed = "x".into();
    assert!(form.check().is_err() && form.start_action().is_err());
    form.seed = " 7 ".into();
    match form.start_action() {
        Ok(ScreenAction::Start(level, 7, controls)) => {
            assert_eq!(controls.len(), level.file.sides.len());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_dialog_and_overlay_draws() {
    let mut rules = RulesReader::default();
    let ctx = egui::Context::default();
    let saves = vec![
        SaveInfo {
            path: "saves/a.ron".into(),
            name: "a".into(),
            summary: Ok("Test field — 3 orders".into()),
            modified: 1,
        },
        SaveInfo {
            path: "saves/b.ron".into(),
            name: "b".into(),
            summary: Err("damaged".into()),
            modified: 0,
        },
    ];
    let dialogs = [
        None,
        Some(Dialog::Save {
            name: "turn 1".into(),
            error: Some("give the save a name".into()),
        }),
        Some(Dialog::Load(saves)),
        Some(Dialog::Load(Vec::new())),
        Some(Dialog::Message {
            title: "Could not load".into(),
            text: "this is not a Warhorse save".into(),
            armed: false,
        }),
    ];
    for dialog in dialogs {
        let mut o = Overlays {
            help: true,
            rules: true,
            settings: true,
            menu: true,
            dialog,
            notice: Some(("Saved".into(), 10.0)),
        };
        frame(&ctx, |ctx| {
            assert!(common_ui(ctx, &mut o, 1.0, &mut rules, &[]).is_none());
        });
        frame(&ctx, |ctx| {
            let _ = common_ui(ctx, &mut o, 11.0, &mut rules, &[]);
        });
        assert!(o.notice.is_none(), "the notice expires");
    }
}

#[test]
fn the_game_screens_draw_cards_menu_and_handover() {
    let ctx = egui::Context::default();
    let view = ScreenView {
        playing: true,
        level_name: "Test field".into(),
        turn: 2,
        phase: "TAC phase".into(),
        side_names: vec!["Red".into(), "Blue".into()],
        cards: Some(CardOverlay {
            side: 0,
            side_name: "Red".into(),
            hands: vec![hand()],
            guesses: vec![GuessDue {
                guesser: "knight".into(),
                dodger: "levy".into(),
            }],
            dirs: 8,
            names: Default::default(),
        }),
        ..Default::default()
    };
    let mut picks = Picks::default();
    for (menu, waiting) in [
        (false, None),
        (true, None),
        (true, Some(1)),
        (false, Some(9)),
    ] {
        let mut o = Overlays {
            menu,
            ..Default::default()
        };
        let h = Handover {
            last: Some(0),
            waiting_for: waiting,
        };
        frame(&ctx, |ctx| {
            assert!(playing_ui(ctx, &view, &h, &mut o, &mut picks, false).is_empty());
        });
    }
}

#[test]
fn picks_are_checked_against_the_hand() {
    let h = hand();
    let pick = |tac: Option<&str>, melee: &[&str]| CardPick {
        unit: "knight".into(),
        tac: tac.map(str::to_string),
        tac_target: None,
        melee: melee.iter().map(|m| m.to_string()).collect(),
    };
    assert!(check_pick(&h, &pick(Some("CLOSE"), &["DELIVER BLOW"])).is_ok());
    assert!(
        check_pick(&h, &pick(None, &[])).is_ok(),
        "a pass is PASSIVE SHIELD PARRY"
    );
    let aimed = CardPick {
        tac_target: Some("levy".into()),
        ..pick(Some("FLECHE"), &[])
    };
    assert!(check_pick(&h, &aimed).is_ok());
    let refused = [
        pick(Some("FLECHE"), &[]),
        pick(Some("CHARGE"), &["DELIVER BLOW"]),
        pick(Some("CLOSE"), &["GREAT BLOW"]),
        pick(Some("CLOSE"), &["NO SUCH CARD"]),
        pick(Some("DELIVER BLOW"), &["DELIVER BLOW"]),
    ];
    for p in refused {
        assert!(check_pick(&h, &p).is_err(), "{p:?}");
    }
    let mut picks = Picks::default();
    let cards = hand().cards;
    super::cards::toggle(&mut picks, "knight", &cards[0]);
    super::cards::toggle(&mut picks, "knight", &cards[3]);
    super::cards::toggle(&mut picks, "knight", &cards[4]);
    super::cards::toggle(&mut picks, "knight", &cards[4]);
    assert_eq!(
        picks.by_unit["knight"],
        pick(Some("CLOSE"), &["DELIVER BLOW"])
    );
    let overlay = CardOverlay {
        side: 0,
        side_name: "Red".into(),
        hands: vec![hand()],
        guesses: Vec::new(),
        dirs: 8,
        names: Default::default(),
    };
    assert_eq!(
        super::cards::ready_picks(&overlay, &picks),
        Ok(vec![pick(Some("CLOSE"), &["DELIVER BLOW"])])
    );
    super::cards::toggle(&mut picks, "knight", &cards[4]);
    assert!(
        super::cards::ready_picks(&overlay, &picks).is_err(),
        "3 blows of 2"
    );
}

#[test]
fn enter_in_the_save_dialog_saves() {
    let ctx = egui::Context::default();
    let mut o = Overlays {
        dialog: Some(Dialog::Save {
            name: "x".into(),
            error: None,
        }),
        ..Default::default()
    };
    let mut rules = RulesReader::default();
    frame(&ctx, |ctx| {
        assert!(common_ui(ctx, &mut o, 0.0, &mut rules, &[]).is_none())
    });
    frame(&ctx, |ctx| {
        assert!(common_ui(ctx, &mut o, 0.0, &mut rules, &[]).is_none())
    });
    let enter = egui::Event::Key {
        key: egui::Key::Enter,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    };
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        events: vec![enter],
        ..Default::default()
    };
    let mut got = None;
    ctx.run_ui(input, |ui| {
        got = common_ui(ui.ctx(), &mut o, 0.0, &mut rules, &[])
    })
    .drop_without_applying_deltas();
    assert!(
        matches!(got, Some(ScreenAction::Save(ref n)) if n == "x"),
        "{got:?}"
    );
}

/// A broken art file is a message with its path.
#[test]
fn art_problems_are_listed_with_their_files() {
    let lines = vec!["art/symbols/knight.svg: not a valid SVG".to_string()];
    let text = crate::ui::tests::window_texts(|ctx| {
        super::art_notice::art_problems_ui(ctx, &lines);
    });
    assert!(text.contains("art/symbols/knight.svg"), "{text}");
    assert!(text.contains("Dismiss"), "{text}");
}

/// Issue 16 item 2: "a legend in the help overlay" — how to read a counter, and every troop
/// symbol with what it stands for.
#[test]
fn the_help_explains_the_counters_and_lists_every_symbol() {
    use crate::ui::look::Symbol;
    let legend: Vec<super::menu::Legend> = Symbol::ALL
        .iter()
        .map(|s| super::menu::Legend {
            image: None,
            meaning: s.legend().1,
        })
        .collect();
    // The legend's part of the help (the help scrolls it into view below the keys).
    let text = crate::ui::tests::painted_texts(egui::vec2(1280.0, 2000.0), |ui| {
        egui::CentralPanel::default().show(ui, |ui| super::menu::counter_legend(ui, &legend));
    });
    assert!(text.contains("Reading a counter"), "{text}");
    assert!(text.contains("blows left, armour, movement left"), "{text}");
    for s in Symbol::ALL {
        assert!(text.contains(s.legend().1), "{} missing", s.legend().1);
    }
}
