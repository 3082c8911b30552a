//! Every key and mouse action of the window, in one table: the help overlay draws it and the
//! README's "Playing" section is generated from it (a test keeps the two in step), so a new
//! binding is documented by adding one line here. A row whose keys are the player's names
//! its [`Command`]s and prints their keys from the keymap in force (the README shows the
//! standard ones).

use crate::ui::settings::keymap::{Command, Keymap};

/// One binding as a player reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies: groups the help overlay's table.
    pub context: &'static str,
    /// The keys or mouse action.
    pub input: Input,
    /// What it does.
    pub action: &'static str,
}

/// The keys of a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Keys or a mouse action the player cannot change, as printed (`Esc`).
    Fixed(&'static str),
    /// The keys of these commands, each's joined by " / ", then `also` (" or ?").
    Keys(&'static [Command], &'static str),
}

impl Binding {
    /// The keys as printed with `keymap`: "U or Ctrl+Z"; "(no key)" for a command without.
    pub fn input_text(&self, keymap: &Keymap) -> String {
        match self.input {
            Input::Fixed(s) => s.to_string(),
            Input::Keys(commands, also) => {
                let keys: Vec<String> = commands
                    .iter()
                    .map(|&c| match keymap.text(c) {
                        t if t.is_empty() => "(no key)".to_string(),
                        t => t,
                    })
                    .collect();
                format!("{}{also}", keys.join(" / "))
            }
        }
    }
}

const fn b(context: &'static str, input: &'static str, action: &'static str) -> Binding {
    Binding {
        context,
        input: Input::Fixed(input),
        action,
    }
}

/// A row whose keys are those of `commands`.
const fn c(context: &'static str, commands: &'static [Command], action: &'static str) -> Binding {
    Binding {
        context,
        input: Input::Keys(commands, ""),
        action,
    }
}

/// Every binding, grouped by context in the order the help overlay shows them. The camera
/// rows are `src/ui/camera.rs`; the play rows are `src/ui/play/`; the rest are the screens'.
pub const BINDINGS: &[Binding] = &[
    b("Map", "Drag with any mouse button", "Pan the map"),
    c(
        "Map",
        &[
            Command::PanUp,
            Command::PanDown,
            Command::PanLeft,
            Command::PanRight,
        ],
        "Pan the map up / down / left / right",
    ),
    b("Map", "Mouse wheel", "Zoom about the cursor"),
    c("Map", &[Command::ZoomIn, Command::ZoomOut], "Zoom in / out"),
    c("Map", &[Command::FitMap], "Fit the whole map in the window"),
    b(
        "Play",
        "Left click on a figure",
        "Select it; where it can go lights up",
    ),
    b(
        "Play",
        "Point at a lit cell",
        "Preview the cheapest path there and its cost",
    ),
    b(
        "Play",
        "Left click on a lit cell",
        "Move there along the previewed path",
    ),
    c(
        "Play",
        &[Command::FacingPrevious, Command::FacingNext],
        "Previous / next end facing at the pointed cell",
    ),
    c(
        "Play",
        &[
            Command::Walk,
            Command::Trot,
            Command::Canter,
            Command::Gallop,
            Command::Halt,
        ],
        "Gait: walk, trot, canter, gallop, halt",
    ),
    c(
        "Play",
        &[Command::PivotLeft, Command::PivotRight],
        "Pivot left / right in place",
    ),
    c("Play", &[Command::BackUp], "Back up one cell"),
    c(
        "Play",
        &[Command::MountOrDismount],
        "Mount (then click the steed) or dismount (then click a free cell, or M again)",
    ),
    c(
        "Play",
        &[Command::Lead],
        "Lead a riderless horse, or let a led one go (then click the horse)",
    ),
    c(
        "Play",
        &[
            Command::StandUp,
            Command::ReadyShield,
            Command::DrawWeapon,
            Command::PickUpItem,
            Command::PickUpComrade,
            Command::OpenDoor,
            Command::UnlockDoor,
            Command::ReadScroll,
            Command::PickUpAndReady,
        ],
        "Activities (D15, R2): stand up, ready shield, draw weapon, pick up an item or a comrade, open or unlock a door, read a scroll, pick up and ready",
    ),
    c(
        "Play",
        &[Command::EndSide],
        "End the side's half-move (asks first while figures have not moved)",
    ),
    c(
        "Play",
        &[Command::Undo],
        "Undo the last order (back to the last die roll)",
    ),
    b(
        "Play",
        "Esc",
        "Cancel mounting or dismounting, or clear the selection",
    ),
    c(
        "Play",
        &[Command::Explain],
        "Why? The selected computer unit's risk factor, d6 roll and action",
    ),
    c(
        "Play",
        &[Command::FastForward],
        "Fast-forward the computer's turn (and skip the effects on the map)",
    ),
    b(
        "Game",
        "Esc (nothing selected)",
        "Open or close the game menu (closes help, rules or a dialog first)",
    ),
    Binding {
        context: "Game",
        input: Input::Keys(&[Command::Help], " or ?"),
        action: "Show or hide the keys and mouse help",
    },
    c("Game", &[Command::Rules], "Read the rules"),
    c(
        "Game",
        &[Command::Settings],
        "Settings: pace, UI scale, fullscreen, colours, fractions, keys",
    ),
    c(
        "Game",
        &[Command::QuickSave],
        "Quick save (saves/quicksave.ron)",
    ),
    b(
        "Cards",
        "Click a card, or 1-9",
        "Pick it (TAC: one; MELEE: as many as the blows pay for)",
    ),
    b(
        "Cards",
        "Click an enemy ringed red",
        "Pick the card aimed at it (several: the table shows just those); a TAC card's target",
    ),
    b(
        "Cards",
        "Click an arrow on the map",
        "Pick the MOVE, DODGE, WHEEL or TURN card that goes (white) or turns (blue) that way",
    ),
    b(
        "Cards",
        "Tab / Shift+Tab",
        "Next / previous figure to choose for (or click it on the map)",
    ),
    b(
        "Cards",
        "Confirm or Enter",
        "Play the picked cards face down (asks first if a figure has none)",
    ),
    b(
        "Cards",
        "P, or Pass for the rest of this melee",
        "Your side parries until the melee phase ends",
    ),
    b(
        "Cards",
        "Enter on the reveal",
        "Close it: the results play on the map (Space or a click skips them)",
    ),
    b(
        "Cards",
        "L / R / B / N",
        "Guess that the dodger went Left / Right / Back, or make no guess",
    ),
    b(
        "Charges",
        "Click an enemy",
        "Add it to the charger's targets, in order (again: take it off); a greyed one says why not",
    ),
    b(
        "Charges",
        "Point at a charger",
        "Its lines of sight on the map: green clear, yellow seen but refused, red dashed blocked",
    ),
    b(
        "Charges",
        "Confirm (face down) or Enter",
        "Write the charge orders (none: no charge) or the answers",
    ),
    b(
        "Fire",
        "Click an enemy (or a spell's target)",
        "Shoot once at it (or cast the spell) now; a greyed one says why not",
    ),
    b(
        "Fire",
        "Point at a shooter",
        "Its lines of sight on the map, coloured as for charges",
    ),
    b(
        "Fire",
        "Done (Enter)",
        "End the side's turn to cast or fire (D3)",
    ),
    b(
        "Hand-over",
        "Click anywhere or Enter",
        "The next player takes the computer",
    ),
];

/// The contexts in the order they first appear in [`BINDINGS`].
pub fn contexts() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for k in BINDINGS {
        if !out.contains(&k.context) {
            out.push(k.context);
        }
    }
    out
}

/// The bindings as a Markdown table, exactly as README.md's "Playing" section carries it.
pub fn markdown_table() -> String {
    let mut s = String::from("| where | keys / mouse | does |\n|---|---|---|\n");
    for k in BINDINGS {
        s.push_str(&format!(
            "| {} | {} | {} |\n",
            k.context,
            k.input_text(Keymap::standard()).replace('|', "\\|"),
            k.action
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_context_is_grouped_and_non_empty() {
        let ctx = contexts();
        assert!(ctx.len() >= 4);
        // Grouped: once a context ends, it does not come back.
        let mut seen = Vec::new();
        let mut last = "";
        for k in BINDINGS {
            if k.context != last {
                assert!(!seen.contains(&k.context), "{} is split", k.context);
                seen.push(k.context);
                last = k.context;
            }
            assert!(!k.input_text(Keymap::standard()).is_empty() && !k.action.is_empty());
        }
    }

    #[test]
    fn every_command_is_in_the_help_and_a_changed_key_shows_there() {
        for command in Command::ALL {
            assert!(
                BINDINGS
                    .iter()
                    .any(|b| matches!(b.input, Input::Keys(cs, _) if cs.contains(&command))),
                "{command:?} is in no row"
            );
        }
        let undo = BINDINGS
            .iter()
            .find(|b| b.input == Input::Keys(&[Command::Undo], ""))
            .expect("an undo row");
        assert_eq!(undo.input_text(Keymap::standard()), "U or Ctrl+Z");
        let mut mine = Keymap::default();
        mine.clear(Command::Undo);
        assert_eq!(undo.input_text(&mine), "(no key)");
    }

    #[test]
    fn the_readme_lists_every_binding() {
        let readme = include_str!("../../../README.md");
        assert!(
            readme.contains(&markdown_table()),
            "README.md's Playing section must carry keys::markdown_table() verbatim:\n{}",
            markdown_table()
        );
    }
}
