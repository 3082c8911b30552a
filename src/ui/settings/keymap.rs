//! The keys a player can change (issue 34, "key bindings that a player can change and that
//! are saved with the settings"): every command of the map, the board and the game menu
//! that a key gives, the standard keys for each, and the player's own, saved in the settings
//! file as `keys: { undo: ["U", "Ctrl+Z"], … }` by the names a player reads.
//!
//! Why not `bevy_enhanced_input`: it decides whether an action fires from whether its key is
//! *held* (`ButtonInput::pressed`), so a key pressed and released within one frame — a quick
//! tap while a frame takes 100 ms under software rendering, which issue 34 saw losing Tabs
//! and digits — never fires. The commands here are read with `just_pressed`, which keeps
//! such a tap. What is left to a keymap is a lookup from a command to its keys, which this
//! module is.
//!
//! Kept out of the map: Esc (cancel, close, the game menu — the way back from anything must
//! not be lost to a rebinding), Tab and the modifier keys, and the keys of the card table and
//! the dialogs (digits for cards, L R B N for guesses, P to pass, Enter to confirm), which are
//! read by egui inside those windows.

use bevy::input::ButtonInput;
use bevy::input::keyboard::KeyCode;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Declares [`Command`] and its [`Command::ALL`] from one list, so a new command cannot be
/// left out of the settings screen.
macro_rules! commands {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// Something a key does. The order is the settings screen's and the help overlay's.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
        )]
        #[serde(rename_all = "snake_case")]
        pub enum Command {
            $($(#[$doc])* $name,)*
        }

        impl Command {
            /// Every command, in the settings screen's order.
            pub const ALL: [Command; [$(stringify!($name)),*].len()] = [$(Command::$name),*];
        }
    };
}

commands! {
    /// Pan the map up (with bevy_pancam's keys).
    PanUp,
    /// Pan the map down.
    PanDown,
    /// Pan the map left.
    PanLeft,
    /// Pan the map right.
    PanRight,
    /// Zoom in about the middle of the window, while held.
    ZoomIn,
    /// Zoom out, while held.
    ZoomOut,
    /// Fit the whole map in the free part of the window.
    FitMap,
    /// Gait: walk (D5).
    Walk,
    /// Gait: trot.
    Trot,
    /// Gait: canter.
    Canter,
    /// Gait: gallop.
    Gallop,
    /// Gait: halt.
    Halt,
    /// Previous end facing at the pointed cell.
    FacingPrevious,
    /// Next end facing at the pointed cell.
    FacingNext,
    /// Pivot left in place (D14, H3).
    PivotLeft,
    /// Pivot right in place.
    PivotRight,
    /// Back up one cell (H5).
    BackUp,
    /// Mount or dismount.
    MountOrDismount,
    /// Lead a riderless horse or let a led one go (A18).
    Lead,
    /// Activity: stand up (D15).
    StandUp,
    /// Activity: ready a shield.
    ReadyShield,
    /// Activity: draw a weapon.
    DrawWeapon,
    /// Activity: pick up an item.
    PickUpItem,
    /// Activity: pick up a comrade.
    PickUpComrade,
    /// Activity: open a door.
    OpenDoor,
    /// Activity: unlock a door.
    UnlockDoor,
    /// Activity: read a scroll.
    ReadScroll,
    /// Activity: pick up and ready.
    PickUpAndReady,
    /// End the side's half-move (D4).
    EndSide,
    /// Take back the last order.
    Undo,
    /// Why did a computer unit do that (its risk factor and roll).
    Explain,
    /// Fast-forward the computer's turn and skip the effects on the map.
    FastForward,
    /// Show or hide the keys and mouse help.
    Help,
    /// Read the rules.
    Rules,
    /// Open or close the settings.
    Settings,
    /// Quick save.
    QuickSave,
}

impl Command {
    /// What the command does, as the settings screen lists it.
    pub fn label(self) -> &'static str {
        use Command::*;
        match self {
            PanUp => "Pan up",
            PanDown => "Pan down",
            PanLeft => "Pan left",
            PanRight => "Pan right",
            ZoomIn => "Zoom in",
            ZoomOut => "Zoom out",
            FitMap => "Fit the map",
            Walk => "Walk",
            Trot => "Trot",
            Canter => "Canter",
            Gallop => "Gallop",
            Halt => "Halt",
            FacingPrevious => "Previous end facing",
            FacingNext => "Next end facing",
            PivotLeft => "Pivot left",
            PivotRight => "Pivot right",
            BackUp => "Back up",
            MountOrDismount => "Mount / dismount",
            Lead => "Lead a horse",
            StandUp => "Stand up",
            ReadyShield => "Ready shield",
            DrawWeapon => "Draw weapon",
            PickUpItem => "Pick up item",
            PickUpComrade => "Pick up comrade",
            OpenDoor => "Open door",
            UnlockDoor => "Unlock door",
            ReadScroll => "Read scroll",
            PickUpAndReady => "Pick up and ready",
            EndSide => "End the half-move",
            Undo => "Undo",
            Explain => "Why? (computer unit)",
            FastForward => "Fast-forward",
            Help => "Keys help",
            Rules => "Rules",
            Settings => "Settings",
            QuickSave => "Quick save",
        }
    }

    /// The group the settings screen and the help overlay put it in.
    pub fn context(self) -> &'static str {
        use Command::*;
        match self {
            PanUp | PanDown | PanLeft | PanRight | ZoomIn | ZoomOut | FitMap => "Map",
            Help | Rules | Settings | QuickSave => "Game",
            _ => "Play",
        }
    }

    /// The keys it has until the player changes them: those of the fixed table the game had
    /// before keys could change, so a player's habits and the README stay right.
    fn standard(self) -> Vec<Chord> {
        use Command::*;
        const fn k(key: KeyCode) -> Chord {
            Chord { key, ctrl: false }
        }
        const fn ctrl(key: KeyCode) -> Chord {
            Chord { key, ctrl: true }
        }
        match self {
            PanUp => vec![k(KeyCode::ArrowUp), k(KeyCode::KeyW)],
            PanDown => vec![k(KeyCode::ArrowDown), k(KeyCode::KeyS)],
            PanLeft => vec![k(KeyCode::ArrowLeft), k(KeyCode::KeyA)],
            PanRight => vec![k(KeyCode::ArrowRight), k(KeyCode::KeyD)],
            ZoomIn => vec![k(KeyCode::Equal), k(KeyCode::NumpadAdd)],
            ZoomOut => vec![k(KeyCode::Minus), k(KeyCode::NumpadSubtract)],
            FitMap => vec![k(KeyCode::KeyF), k(KeyCode::Home)],
            Walk => vec![k(KeyCode::Digit1)],
            Trot => vec![k(KeyCode::Digit2)],
            Canter => vec![k(KeyCode::Digit3)],
            Gallop => vec![k(KeyCode::Digit4)],
            Halt => vec![k(KeyCode::Digit5)],
            FacingPrevious => vec![k(KeyCode::KeyQ)],
            FacingNext => vec![k(KeyCode::KeyE)],
            PivotLeft => vec![k(KeyCode::BracketLeft)],
            PivotRight => vec![k(KeyCode::BracketRight)],
            BackUp => vec![k(KeyCode::KeyB)],
            MountOrDismount => vec![k(KeyCode::KeyM)],
            Lead => vec![k(KeyCode::KeyL)],
            StandUp => vec![k(KeyCode::KeyT)],
            ReadyShield => vec![k(KeyCode::KeyR)],
            DrawWeapon => vec![k(KeyCode::KeyG)],
            PickUpItem => vec![k(KeyCode::KeyP)],
            PickUpComrade => vec![k(KeyCode::KeyK)],
            OpenDoor => vec![k(KeyCode::KeyO)],
            UnlockDoor => vec![k(KeyCode::KeyN)],
            ReadScroll => vec![k(KeyCode::KeyY)],
            PickUpAndReady => vec![k(KeyCode::KeyV)],
            EndSide => vec![k(KeyCode::Enter), k(KeyCode::NumpadEnter)],
            Undo => vec![k(KeyCode::KeyU), ctrl(KeyCode::KeyZ)],
            Explain => vec![k(KeyCode::KeyX)],
            FastForward => vec![k(KeyCode::Space)],
            Help => vec![k(KeyCode::F1)],
            Rules => vec![k(KeyCode::F2)],
            Settings => vec![k(KeyCode::F3)],
            QuickSave => vec![ctrl(KeyCode::KeyS)],
        }
    }
}

/// A key, with or without Ctrl held: `Ctrl+Z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Chord {
    /// The key.
    pub key: KeyCode,
    /// Whether Ctrl is held with it.
    pub ctrl: bool,
}

/// The keys a command may have, with the names a player reads and the settings file holds.
/// Esc, Tab and the modifiers are not among them (see the module docs).
const KEY_NAMES: &[(KeyCode, &str)] = {
    use KeyCode::*;
    &[
        (KeyA, "A"),
        (KeyB, "B"),
        (KeyC, "C"),
        (KeyD, "D"),
        (KeyE, "E"),
        (KeyF, "F"),
        (KeyG, "G"),
        (KeyH, "H"),
        (KeyI, "I"),
        (KeyJ, "J"),
        (KeyK, "K"),
        (KeyL, "L"),
        (KeyM, "M"),
        (KeyN, "N"),
        (KeyO, "O"),
        (KeyP, "P"),
        (KeyQ, "Q"),
        (KeyR, "R"),
        (KeyS, "S"),
        (KeyT, "T"),
        (KeyU, "U"),
        (KeyV, "V"),
        (KeyW, "W"),
        (KeyX, "X"),
        (KeyY, "Y"),
        (KeyZ, "Z"),
        (Digit0, "0"),
        (Digit1, "1"),
        (Digit2, "2"),
        (Digit3, "3"),
        (Digit4, "4"),
        (Digit5, "5"),
        (Digit6, "6"),
        (Digit7, "7"),
        (Digit8, "8"),
        (Digit9, "9"),
        (F1, "F1"),
        (F2, "F2"),
        (F3, "F3"),
        (F4, "F4"),
        (F5, "F5"),
        (F6, "F6"),
        (F7, "F7"),
        (F8, "F8"),
        (F9, "F9"),
        (F10, "F10"),
        (F11, "F11"),
        (F12, "F12"),
        (Enter, "Enter"),
        (Space, "Space"),
        (Backspace, "Backspace"),
        (Delete, "Delete"),
        (Insert, "Insert"),
        (Home, "Home"),
        (End, "End"),
        (PageUp, "Page Up"),
        (PageDown, "Page Down"),
        (ArrowUp, "Up"),
        (ArrowDown, "Down"),
        (ArrowLeft, "Left"),
        (ArrowRight, "Right"),
        (BracketLeft, "["),
        (BracketRight, "]"),
        (Minus, "-"),
        (Equal, "="),
        (Semicolon, ";"),
        (Quote, "'"),
        (Comma, ","),
        (Period, "."),
        (Slash, "/"),
        (Backslash, "\\"),
        (Backquote, "`"),
        (NumpadEnter, "Numpad Enter"),
        (NumpadAdd, "Numpad +"),
        (NumpadSubtract, "Numpad -"),
        (NumpadMultiply, "Numpad *"),
        (NumpadDivide, "Numpad /"),
        (NumpadDecimal, "Numpad ."),
        (Numpad0, "Numpad 0"),
        (Numpad1, "Numpad 1"),
        (Numpad2, "Numpad 2"),
        (Numpad3, "Numpad 3"),
        (Numpad4, "Numpad 4"),
        (Numpad5, "Numpad 5"),
        (Numpad6, "Numpad 6"),
        (Numpad7, "Numpad 7"),
        (Numpad8, "Numpad 8"),
        (Numpad9, "Numpad 9"),
    ]
};

/// The name of `key`, if a command may have it.
pub fn key_name(key: KeyCode) -> Option<&'static str> {
    KEY_NAMES.iter().find(|(k, _)| *k == key).map(|(_, n)| *n)
}

impl Chord {
    /// The chord of `key` pressed now, or why it cannot be a command's (Esc, Tab, a
    /// modifier, a key with no name here).
    pub fn bindable(key: KeyCode, ctrl: bool) -> Result<Chord, String> {
        match key {
            KeyCode::Escape => Err("Esc is kept: it cancels, closes and opens the menu".into()),
            KeyCode::Tab => Err("Tab is kept for the card table and the panels".into()),
            _ if key_name(key).is_none() => {
                Err("that key cannot be given a command (a modifier or a special key)".into())
            }
            _ => Ok(Chord { key, ctrl }),
        }
    }
}

impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = key_name(self.key).unwrap_or("?");
        if self.ctrl {
            write!(f, "Ctrl+{name}")
        } else {
            f.write_str(name)
        }
    }
}

impl From<Chord> for String {
    fn from(c: Chord) -> String {
        c.to_string()
    }
}

impl TryFrom<String> for Chord {
    type Error = String;

    fn try_from(s: String) -> Result<Chord, String> {
        let (ctrl, name) = match s.strip_prefix("Ctrl+") {
            Some(rest) if !rest.is_empty() => (true, rest),
            _ => (false, s.as_str()),
        };
        KEY_NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|&(key, _)| Chord { key, ctrl })
            .ok_or_else(|| {
                format!("no key is called \"{name}\" (names as the settings screen shows them: \"U\", \"Ctrl+Z\", \"Page Up\", \"Numpad +\")")
            })
    }
}

/// Every command's keys. In the settings file a command left out has its standard keys and
/// one given `[]` has none; a key given to two commands stays with the first in
/// [`Command::ALL`]'s order, so one key never does two things.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    from = "BTreeMap<Command, Vec<Chord>>",
    into = "BTreeMap<Command, Vec<Chord>>"
)]
pub struct Keymap {
    keys: BTreeMap<Command, Vec<Chord>>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            keys: Command::ALL.iter().map(|&c| (c, c.standard())).collect(),
        }
    }
}

impl From<BTreeMap<Command, Vec<Chord>>> for Keymap {
    fn from(mut given: BTreeMap<Command, Vec<Chord>>) -> Keymap {
        let mut seen = Vec::new();
        let mut keys = BTreeMap::new();
        for c in Command::ALL {
            let mut chords = given.remove(&c).unwrap_or_else(|| c.standard());
            chords.retain(|ch| {
                let new = !seen.contains(ch);
                seen.push(*ch);
                new
            });
            keys.insert(c, chords);
        }
        Keymap { keys }
    }
}

impl From<Keymap> for BTreeMap<Command, Vec<Chord>> {
    fn from(k: Keymap) -> Self {
        k.keys
    }
}

/// Whether Ctrl is down (or was let go this frame: a quick chord can press and release Ctrl
/// within one frame).
pub fn ctrl_down(keys: &ButtonInput<KeyCode>) -> bool {
    let ctrls = [KeyCode::ControlLeft, KeyCode::ControlRight];
    keys.any_pressed(ctrls) || keys.any_just_released(ctrls)
}

impl Keymap {
    /// The standard keys, shared: what a window without settings (the tests) reads.
    pub fn standard() -> &'static Keymap {
        static STANDARD: std::sync::LazyLock<Keymap> = std::sync::LazyLock::new(Keymap::default);
        &STANDARD
    }

    /// The keymap in force: the player's, or the standard one in an app without settings
    /// (the tests).
    pub fn in_force(settings: Option<&super::Settings>) -> &Keymap {
        settings.map_or(Keymap::standard(), |s| &s.keys)
    }

    /// The keys of `command`, in the order the player gave them.
    pub fn chords(&self, command: Command) -> &[Chord] {
        self.keys.get(&command).map_or(&[], Vec::as_slice)
    }

    /// Whether one of `command`'s keys went down this frame. A key without Ctrl does not
    /// count while Ctrl is held, so `Ctrl+S` never also does what `S` does.
    pub fn just_pressed(&self, command: Command, keys: &ButtonInput<KeyCode>) -> bool {
        let ctrl = ctrl_down(keys);
        self.chords(command)
            .iter()
            .any(|c| c.ctrl == ctrl && keys.just_pressed(c.key))
    }

    /// Whether one of `command`'s keys is held (zooming).
    pub fn held(&self, command: Command, keys: &ButtonInput<KeyCode>) -> bool {
        let ctrl = ctrl_down(keys);
        self.chords(command)
            .iter()
            .any(|c| c.ctrl == ctrl && keys.pressed(c.key))
    }

    /// The plain keys of `command` (pancam's pan keys know no Ctrl).
    pub fn plain_keys(&self, command: Command) -> Vec<KeyCode> {
        self.chords(command)
            .iter()
            .filter(|c| !c.ctrl)
            .map(|c| c.key)
            .collect()
    }

    /// The keys of `command` as a player reads them: "U or Ctrl+Z"; "" for none.
    pub fn text(&self, command: Command) -> String {
        self.chords(command)
            .iter()
            .map(Chord::to_string)
            .collect::<Vec<_>>()
            .join(" or ")
    }

    /// The first key of `command`, for a button's label ("2 trot"); "" for none.
    pub fn first(&self, command: Command) -> String {
        self.chords(command)
            .first()
            .map(Chord::to_string)
            .unwrap_or_default()
    }

    /// The command that has `chord`, if any.
    pub fn holder(&self, chord: Chord) -> Option<Command> {
        Command::ALL
            .into_iter()
            .find(|&c| self.chords(c).contains(&chord))
    }

    /// Gives `chord` to `command`, in place of its keys (`replace`) or beside them, and takes
    /// it from the command that had it, which is returned (with what it has left) so the
    /// player can be told.
    pub fn bind(&mut self, command: Command, chord: Chord, replace: bool) -> Option<Command> {
        let from = self.holder(chord).filter(|&c| c != command);
        if let Some(from) = from {
            self.keys.entry(from).or_default().retain(|c| *c != chord);
        }
        let mine = self.keys.entry(command).or_default();
        if replace {
            mine.clear();
        }
        if !mine.contains(&chord) {
            mine.push(chord);
        }
        from
    }

    /// Takes every key from `command`.
    pub fn clear(&mut self, command: Command) {
        self.keys.insert(command, Vec::new());
    }

    /// Whether every command has its standard keys.
    pub fn is_standard(&self) -> bool {
        self == Keymap::standard()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(keys: &[KeyCode]) -> ButtonInput<KeyCode> {
        let mut input = ButtonInput::default();
        for &k in keys {
            input.press(k);
        }
        input
    }

    #[test]
    fn the_standard_keys_give_each_key_one_command_and_every_command_a_key() {
        let map = Keymap::standard();
        let mut seen = Vec::new();
        for c in Command::ALL {
            assert!(!map.chords(c).is_empty(), "{c:?} has no key");
            for ch in map.chords(c) {
                assert!(!seen.contains(ch), "{ch} is given twice");
                seen.push(*ch);
                assert!(key_name(ch.key).is_some(), "{ch:?} has no name");
            }
        }
    }

    #[test]
    fn a_chord_reads_back_from_its_name() {
        for &(key, _) in KEY_NAMES {
            for ctrl in [false, true] {
                let c = Chord { key, ctrl };
                assert_eq!(Chord::try_from(c.to_string()), Ok(c));
            }
        }
        assert!(Chord::try_from("Ctrl+".to_string()).is_err());
        assert!(
            Chord::try_from("Hyper".to_string())
                .unwrap_err()
                .contains("Hyper")
        );
    }

    #[test]
    fn a_plain_key_does_not_fire_while_ctrl_is_held_and_a_ctrl_chord_needs_ctrl() {
        let map = Keymap::standard();
        assert!(map.just_pressed(Command::Undo, &press(&[KeyCode::KeyU])));
        assert!(map.just_pressed(
            Command::Undo,
            &press(&[KeyCode::ControlLeft, KeyCode::KeyZ])
        ));
        assert!(!map.just_pressed(Command::Undo, &press(&[KeyCode::KeyZ])));
        assert!(map.just_pressed(
            Command::QuickSave,
            &press(&[KeyCode::ControlRight, KeyCode::KeyS])
        ));
        assert!(!map.just_pressed(
            Command::PanDown,
            &press(&[KeyCode::ControlRight, KeyCode::KeyS])
        ));
        // A tap within one frame still counts: pressed and released before the frame ran.
        let mut tap = ButtonInput::default();
        tap.press(KeyCode::Digit2);
        tap.release(KeyCode::Digit2);
        assert!(map.just_pressed(Command::Trot, &tap));
    }

    #[test]
    fn binding_a_key_takes_it_from_its_holder() {
        let mut map = Keymap::default();
        let z = Chord {
            key: KeyCode::KeyZ,
            ctrl: false,
        };
        assert_eq!(map.bind(Command::Undo, z, true), None);
        assert_eq!(map.text(Command::Undo), "Z");
        let q = Chord {
            key: KeyCode::KeyQ,
            ctrl: false,
        };
        assert_eq!(
            map.bind(Command::Undo, q, false),
            Some(Command::FacingPrevious)
        );
        assert_eq!(map.text(Command::Undo), "Z or Q");
        assert_eq!(map.text(Command::FacingPrevious), "");
        assert!(!map.is_standard());
        map.clear(Command::Undo);
        assert_eq!(map.holder(z), None);
    }

    #[test]
    fn a_file_keeps_the_commands_it_names_and_the_standard_keys_of_the_rest() {
        let text = r#"{ undo: ["Ctrl+U"], walk: [], trot: ["Q", "2"] }"#;
        let map: Keymap = ron::from_str(text).expect("parses");
        assert_eq!(map.text(Command::Undo), "Ctrl+U");
        assert_eq!(map.text(Command::Walk), "");
        assert_eq!(map.text(Command::Trot), "Q or 2");
        // Q went to Trot, which comes first: Previous end facing loses it.
        assert_eq!(map.text(Command::FacingPrevious), "");
        assert_eq!(map.text(Command::EndSide), "Enter or Numpad Enter");
        let back: Keymap =
            ron::from_str(&ron::to_string(&map).expect("writes")).expect("reads back");
        assert_eq!(back, map);
        let bad = ron::from_str::<Keymap>(r#"{ undo: ["Hyper"] }"#).unwrap_err();
        assert!(bad.to_string().contains("Hyper"), "{bad}");
    }

    #[test]
    fn esc_and_tab_cannot_be_given_a_command() {
        assert!(Chord::bindable(KeyCode::Escape, false).is_err());
        assert!(Chord::bindable(KeyCode::Tab, false).is_err());
        assert!(Chord::bindable(KeyCode::ShiftLeft, false).is_err());
        assert!(Chord::bindable(KeyCode::KeyJ, true).is_ok());
    }
}
