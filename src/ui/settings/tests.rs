use super::*;

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "warhorse-settings-app-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join(file::FILE_NAME)
}

fn app_at(path: &std::path::Path) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(SettingsPlugin {
        path: Some(path.to_path_buf()),
    });
    app
}

#[test]
fn the_window_starts_with_the_saved_settings_and_saves_a_change_at_once() {
    let path = temp_file("start");
    let mine = Settings {
        fractions: Fractions::Decimal,
        palette: Palette::ColourBlindSafe,
        ..Settings::default()
    };
    file::save(&path, &mine).unwrap();
    let mut app = app_at(&path);
    app.update();
    assert_eq!(*app.world().resource::<Settings>(), mine);
    // Start-up alone writes nothing back.
    let written = std::fs::metadata(&path).unwrap().modified().unwrap();
    app.update();
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        written
    );

    app.world_mut().resource_mut::<Settings>().pace = Pace::Off;
    app.update();
    let (read, problem) = file::load(&path);
    assert_eq!(problem, None);
    assert_eq!(read.pace, Pace::Off);
    assert_eq!(read.fractions, Fractions::Decimal);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_folder_that_cannot_be_written_is_reported_and_the_setting_still_applies() {
    let path = temp_file("blocked");
    // A plain file where the folder should be: creating the folder fails.
    let dir = path.parent().unwrap();
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    std::fs::write(dir, "not a folder").unwrap();
    let mut app = app_at(&path);
    app.update();
    app.world_mut().resource_mut::<Settings>().ui_scale = 1.5;
    app.update();
    assert_eq!(app.world().resource::<Settings>().ui_scale, 1.5);
    let problem = app.world().resource::<SettingsFile>().problem.clone();
    assert!(problem.is_some_and(|p| p.contains(&dir.display().to_string())));
    let _ = std::fs::remove_file(dir);
}

#[test]
fn the_screens_side_colours_follow_the_palette_set_in_their_context() {
    let ctx = egui::Context::default();
    let standard = side_colour32(&ctx, 0);
    set_palette(&ctx, Palette::ColourBlindSafe);
    let safe = side_colour32(&ctx, 0);
    assert_ne!(standard, safe);
    set_palette(&ctx, Palette::Standard);
    assert_eq!(side_colour32(&ctx, 0), standard);
    // Lightened for dark panels, but still warm for side 1 and cool for side 2.
    let blue = side_colour32(&ctx, 1);
    assert!(standard.r() > standard.b() && blue.b() > blue.r());
}

#[test]
fn the_settings_window_shows_every_setting_and_where_it_is_saved() {
    let mut settings = Settings::default();
    let store = SettingsFile {
        path: Some(PathBuf::from("/somewhere/settings.ron")),
        problem: Some("settings.ron:3:13: Expected float; using the defaults".into()),
    };
    let mut open = true;
    let mut capture = game_keys::KeyCapture::default();
    let text = crate::ui::tests::window_texts(|ctx| {
        let keys = screen::Keys {
            capture: &mut capture,
            pressed: None,
        };
        screen::settings_window(ctx, &mut open, &mut settings, &store, keys);
    });
    for wanted in [
        "Pace of the computer and effects",
        "Normal",
        "UI scale",
        "100 %",
        "Fullscreen",
        "Colour-blind safe",
        "Mixed numbers (8¾)",
        "Saved in /somewhere/settings.ron",
        "settings.ron:3:13",
        "35/4 cells shows as 8¾",
        "Keys",
    ] {
        assert!(text.contains(wanted), "{wanted:?} missing from:\n{text}");
    }
    assert!(open);
}

#[test]
fn esc_closes_the_settings_window_even_when_one_of_its_buttons_has_the_focus() {
    let ctx = egui::Context::default();
    let mut settings = Settings::default();
    let store = SettingsFile::default();
    let mut open = true;
    let input = |esc: bool| egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        events: if esc {
            vec![egui::Event::Key {
                key: egui::Key::Escape,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::NONE,
            }]
        } else {
            Vec::new()
        },
        ..Default::default()
    };
    let mut frame = |open: &mut bool, esc: bool, capture: &mut game_keys::KeyCapture| {
        let out = ctx.run_ui(input(esc), |ui| {
            // A focused widget is what makes egui take the keyboard from the game's hotkeys.
            ui.memory_mut(|m| m.request_focus(egui::Id::new("some button")));
            let keys = screen::Keys {
                capture,
                pressed: None,
            };
            screen::settings_window(ui.ctx(), open, &mut settings, &store, keys);
        });
        out.drop_without_applying_deltas();
    };
    let mut capture = game_keys::KeyCapture::default();
    for esc in [false, false, true] {
        frame(&mut open, esc, &mut capture);
        assert_eq!(open, !esc);
    }
    // While a key is awaited for a command, Esc cancels the wait (the Keys section reads it
    // from the keyboard), never the window.
    open = true;
    capture.0 = Some(game_keys::Capture {
        command: keymap::Command::Undo,
        replace: true,
    });
    frame(&mut open, true, &mut capture);
    assert!(open);
}

/// Issue 34: "a missing '→' glyph drawn as a box". Every arrow and mark the screens print is
/// in the text font once Hack lends what Ubuntu Light lacks.
#[test]
fn the_text_font_has_every_arrow_the_screens_print() {
    let printed = "→←↑↓—½·×";
    let has = |fonts: Option<egui::FontDefinitions>| {
        let ctx = egui::Context::default();
        if let Some(f) = fonts {
            ctx.set_fonts(f);
        }
        let mut out = ctx.run_ui(egui::RawInput::default(), |_| {});
        out.textures_delta.clear();
        ctx.fonts_mut(|f| f.has_glyphs(&egui::FontId::proportional(14.0), printed))
    };
    assert!(!has(None), "egui's own text font lacks the arrows");
    assert!(has(Some(fonts_with_arrows())));
}
