//! The settings window's Keys section: each command with its keys, and Set / Add / Clear to
//! change them. Set or Add waits for the next key ([`KeyCapture`]); a key another command had
//! is taken from it and the section says so, so one key never does two things unseen.

use super::game_keys::{Capture, KeyCapture};
use super::keymap::{Chord, Command, Keymap, ctrl_down};
use bevy::prelude::*;
use bevy_egui::egui;

/// Keys that only make a chord: pressed alone they wait for the key that follows.
const MODIFIERS: [KeyCode; 8] = [
    KeyCode::ControlLeft,
    KeyCode::ControlRight,
    KeyCode::ShiftLeft,
    KeyCode::ShiftRight,
    KeyCode::AltLeft,
    KeyCode::AltRight,
    KeyCode::SuperLeft,
    KeyCode::SuperRight,
];

/// What the awaited key did: the words the section shows under its title.
pub fn take_key(
    keymap: &mut Keymap,
    capture: &mut KeyCapture,
    keys: &ButtonInput<KeyCode>,
) -> Option<String> {
    let cap = capture.0?;
    if keys.just_pressed(KeyCode::Escape) {
        capture.0 = None;
        return Some(format!("{}: unchanged.", cap.command.label()));
    }
    let key = keys
        .get_just_pressed()
        .copied()
        .find(|k| !MODIFIERS.contains(k))?;
    match Chord::bindable(key, ctrl_down(keys)) {
        Err(why) => Some(format!("{why}; press another key, or Esc.")),
        Ok(chord) => {
            capture.0 = None;
            let from = keymap.bind(cap.command, chord, cap.replace);
            let mut said = format!("{chord} now: {}.", cap.command.label());
            if let Some(from) = from {
                let left = keymap.text(from);
                let left = if left.is_empty() {
                    "no key".to_string()
                } else {
                    left
                };
                said.push_str(&format!(" {} had it and now has {left}.", from.label()));
            }
            Some(said)
        }
    }
}

fn note_id() -> egui::Id {
    egui::Id::new("warhorse-keys-note")
}

/// The Keys section. `keys` is the keyboard this frame, for the key Set or Add waits for.
pub fn keys_ui(
    ui: &mut egui::Ui,
    keymap: &mut Keymap,
    capture: &mut KeyCapture,
    keys: Option<&ButtonInput<KeyCode>>,
) {
    if let Some(said) = keys.and_then(|k| take_key(keymap, capture, k)) {
        ui.ctx().data_mut(|d| d.insert_temp(note_id(), said));
    }
    let heading = match capture.0 {
        Some(c) => format!(
            "Keys — press the key for {} (Esc: cancel)",
            c.command.label()
        ),
        None => "Keys".to_string(),
    };
    egui::CollapsingHeader::new(heading)
        .id_salt("warhorse-keys")
        .default_open(capture.0.is_some())
        .show(ui, |ui| {
            let note = ui.ctx().data(|d| d.get_temp::<String>(note_id()));
            if let Some(note) = note {
                ui.label(egui::RichText::new(note).strong());
            }
            ui.label(
                egui::RichText::new(
                    "Esc, Tab, and the keys of the card table and the dialogs (digits, Enter, P, L R B N) stay as they are.",
                )
                .weak()
                .small(),
            );
            // The whole width, so the scroll bar never covers the buttons.
            egui::ScrollArea::vertical()
                .auto_shrink([false, true])
                .max_height(260.0)
                .show(ui, |ui| rows(ui, keymap, capture));
            if !keymap.is_standard() && ui.button("Restore the standard keys").clicked() {
                *keymap = Keymap::default();
                capture.0 = None;
                ui.ctx()
                    .data_mut(|d| d.insert_temp(note_id(), "The standard keys are back.".to_string()));
            }
        });
}

fn rows(ui: &mut egui::Ui, keymap: &mut Keymap, capture: &mut KeyCapture) {
    egui::Grid::new("warhorse-keys-grid")
        .num_columns(3)
        .striped(true)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            let mut context = "";
            for command in Command::ALL {
                if command.context() != context {
                    context = command.context();
                    ui.label(egui::RichText::new(context).strong());
                    ui.end_row();
                }
                ui.label(command.label());
                let text = keymap.text(command);
                let waiting = capture.0.is_some_and(|c| c.command == command);
                if waiting {
                    ui.label(egui::RichText::new("press a key…").italics());
                } else if text.is_empty() {
                    ui.label(egui::RichText::new("no key").weak());
                } else {
                    ui.label(egui::RichText::new(text).monospace());
                }
                ui.horizontal(|ui| {
                    for (label, replace, hover) in [
                        ("Set…", true, "The next key you press becomes its only key"),
                        ("Add…", false, "The next key you press does it too"),
                    ] {
                        if ui
                            .add_enabled(!waiting, egui::Button::new(label))
                            .on_hover_text(hover)
                            .clicked()
                        {
                            capture.0 = Some(Capture { command, replace });
                        }
                    }
                    if ui
                        .add_enabled(
                            !keymap.chords(command).is_empty(),
                            egui::Button::new("Clear"),
                        )
                        .clicked()
                    {
                        keymap.clear(command);
                    }
                });
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_awaited_key_goes_to_the_command_and_is_taken_from_its_holder() {
        let mut map = Keymap::default();
        let mut cap = KeyCapture(Some(Capture {
            command: Command::Undo,
            replace: true,
        }));
        let mut keys = ButtonInput::default();
        keys.press(KeyCode::ControlLeft);
        assert_eq!(
            take_key(&mut map, &mut cap, &keys),
            None,
            "Ctrl alone waits"
        );
        keys.clear();
        keys.press(KeyCode::KeyQ);
        let said = take_key(&mut map, &mut cap, &keys).expect("bound");
        assert_eq!(cap.0, None);
        assert_eq!(map.text(Command::Undo), "Ctrl+Q");
        assert!(said.contains("Ctrl+Q now: Undo"), "{said}");
        // Ctrl+Q was nobody's; plain Q stays Previous end facing.
        assert_eq!(map.text(Command::FacingPrevious), "Q");

        let mut keys = ButtonInput::default();
        keys.press(KeyCode::KeyE);
        cap.0 = Some(Capture {
            command: Command::FacingPrevious,
            replace: false,
        });
        let said = take_key(&mut map, &mut cap, &keys).expect("bound");
        assert_eq!(map.text(Command::FacingPrevious), "Q or E");
        assert!(
            said.contains("Next end facing had it and now has no key"),
            "{said}"
        );
    }

    #[test]
    fn esc_cancels_and_tab_is_refused_while_waiting() {
        let mut map = Keymap::default();
        let mut cap = KeyCapture(Some(Capture {
            command: Command::Walk,
            replace: true,
        }));
        let mut keys = ButtonInput::default();
        keys.press(KeyCode::Tab);
        let said = take_key(&mut map, &mut cap, &keys).expect("refused");
        assert!(said.contains("Tab is kept"), "{said}");
        assert!(cap.0.is_some(), "still waiting");
        let mut keys = ButtonInput::default();
        keys.press(KeyCode::Escape);
        take_key(&mut map, &mut cap, &keys);
        assert_eq!(cap.0, None);
        assert!(map.is_standard());
    }
}
