//! Reading the player's keys: systems ask [`GameKeys`] whether a [`Command`] was given this
//! frame, and egui code asks [`key_text`] / [`key_first`] what to print on a button, so a
//! changed key changes what it does and what every label says at once.

use super::Settings;
use super::keymap::{Command, Keymap};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::input::EguiWantsInput;
use std::sync::Arc;

/// The settings screen is waiting for the key to give a command: until it comes, no key
/// does anything else (the key pressed to bind "Undo" must not also undo).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyCapture(pub Option<Capture>);

/// What the awaited key is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    /// The command it goes to.
    pub command: Command,
    /// In place of the command's keys (`Set`), or beside them (`Add`).
    pub replace: bool,
}

/// The keyboard as commands: the player's keymap (the standard one in apps without
/// settings), silent while egui types into a text field or the settings screen waits for a
/// key to bind.
#[derive(SystemParam)]
pub struct GameKeys<'w> {
    keys: Option<Res<'w, ButtonInput<KeyCode>>>,
    settings: Option<Res<'w, Settings>>,
    capture: Option<Res<'w, KeyCapture>>,
    egui: Option<Res<'w, EguiWantsInput>>,
}

impl GameKeys<'_> {
    /// The keymap in force.
    pub fn map(&self) -> &Keymap {
        Keymap::in_force(self.settings.as_deref())
    }

    /// The keyboard, when its keys are the game's to read now.
    pub fn live(&self) -> Option<&ButtonInput<KeyCode>> {
        let busy = self.capture.as_deref().is_some_and(|c| c.0.is_some())
            || self
                .egui
                .as_deref()
                .is_some_and(|e| e.wants_any_keyboard_input());
        self.keys.as_deref().filter(|_| !busy)
    }

    /// Whether `command` was given this frame.
    pub fn just(&self, command: Command) -> bool {
        self.live()
            .is_some_and(|k| self.map().just_pressed(command, k))
    }

    /// Whether a key of `command` is held.
    pub fn held(&self, command: Command) -> bool {
        self.live().is_some_and(|k| self.map().held(command, k))
    }
}

/// A run condition: `command` was given this frame.
pub fn command_given(command: Command) -> impl FnMut(GameKeys) -> bool + Clone {
    move |keys: GameKeys| keys.just(command)
}

fn keymap_id() -> egui::Id {
    egui::Id::new("warhorse-keymap")
}

/// Makes `keymap` the one [`key_text`] and [`key_first`] read in this egui context.
pub fn set_keymap(ctx: &egui::Context, keymap: &Keymap) {
    let current = ctx.data(|d| d.get_temp::<Arc<Keymap>>(keymap_id()));
    if current.as_deref() != Some(keymap) {
        ctx.data_mut(|d| d.insert_temp(keymap_id(), Arc::new(keymap.clone())));
    }
}

/// The keymap set in `ctx` ([`set_keymap`]; the standard one before any).
pub fn keymap_of(ctx: &egui::Context) -> Arc<Keymap> {
    ctx.data(|d| d.get_temp::<Arc<Keymap>>(keymap_id()))
        .unwrap_or_else(|| Arc::new(Keymap::standard().clone()))
}

/// `command`'s keys as a player reads them ("U or Ctrl+Z"), in the keymap of `ctx`.
pub fn key_text(ctx: &egui::Context, command: Command) -> String {
    keymap_of(ctx).text(command)
}

/// `command`'s first key ("2"), for a button's label; "" when it has none.
pub fn key_first(ctx: &egui::Context, command: Command) -> String {
    keymap_of(ctx).first(command)
}

/// `label` with `command`'s first key before it ("2 Trot"), or alone when it has none.
pub fn keyed(ctx: &egui::Context, command: Command, label: &str) -> String {
    match key_first(ctx, command) {
        k if k.is_empty() => label.to_string(),
        k => format!("{k} {label}"),
    }
}

/// `label` with `command`'s first key after it in brackets ("Undo (U)"), or alone.
pub fn with_key(ctx: &egui::Context, command: Command, label: &str) -> String {
    match key_first(ctx, command) {
        k if k.is_empty() => label.to_string(),
        k => format!("{label} ({k})"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::keymap::Chord;
    use super::*;

    #[derive(Resource, Default)]
    struct Seen(Vec<Command>);

    fn record(keys: GameKeys, mut seen: ResMut<Seen>) {
        for c in Command::ALL {
            if keys.just(c) {
                seen.0.push(c);
            }
        }
    }

    fn app(settings: Option<Settings>) -> App {
        let mut app = App::new();
        app.init_resource::<ButtonInput<KeyCode>>()
            .init_resource::<KeyCapture>()
            .init_resource::<Seen>()
            .add_systems(Update, record);
        if let Some(s) = settings {
            app.insert_resource(s);
        }
        app
    }

    fn tap(app: &mut App, key: KeyCode) -> Vec<Command> {
        app.world_mut().resource_mut::<Seen>().0.clear();
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(key);
        app.update();
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .release_all();
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .clear();
        std::mem::take(&mut app.world_mut().resource_mut::<Seen>().0)
    }

    #[test]
    fn the_settings_keys_give_the_commands_and_nothing_is_given_while_a_key_is_awaited() {
        let mut app = app(None);
        assert_eq!(tap(&mut app, KeyCode::KeyU), vec![Command::Undo]);

        let mut settings = Settings::default();
        let j = Chord {
            key: KeyCode::KeyJ,
            ctrl: false,
        };
        settings.keys.bind(Command::Undo, j, true);
        let mut app = self::tests::app(Some(settings));
        assert_eq!(tap(&mut app, KeyCode::KeyJ), vec![Command::Undo]);
        assert_eq!(tap(&mut app, KeyCode::KeyU), vec![]);
        assert_eq!(tap(&mut app, KeyCode::Digit2), vec![Command::Trot]);

        app.world_mut().resource_mut::<KeyCapture>().0 = Some(Capture {
            command: Command::Walk,
            replace: true,
        });
        assert_eq!(
            tap(&mut app, KeyCode::KeyJ),
            vec![],
            "the key awaited undoes nothing"
        );
    }
}
