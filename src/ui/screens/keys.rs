//! Every key and mouse action of the window, in one table: the help overlay draws it and the
//! README's "Playing" section is generated from it (a test keeps the two in step), so a new
//! binding is documented by adding one line here.

/// One binding as a player reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies: groups the help overlay's table.
    pub context: &'static str,
    /// The keys or mouse action, as printed (`F1 or ?`).
    pub input: &'static str,
    /// What it does.
    pub action: &'static str,
}

const fn b(context: &'static str, input: &'static str, action: &'static str) -> Binding {
    Binding {
        context,
        input,
        action,
    }
}

/// Every binding, grouped by context in the order the help overlay shows them. The camera
/// rows are `src/ui/camera.rs`; the play rows are `src/ui/play/`; the rest are the screens'.
pub const BINDINGS: &[Binding] = &[
    b("Map", "Drag with any mouse button", "Pan the map"),
    b("Map", "Arrow keys or W A S D", "Pan the map"),
    b("Map", "Mouse wheel", "Zoom about the cursor"),
    b("Map", "+ (=) / -", "Zoom in / out"),
    b("Map", "F or Home", "Fit the whole map in the window"),
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
    b(
        "Play",
        "Q / E",
        "Previous / next end facing at the pointed cell",
    ),
    b(
        "Play",
        "1 2 3 4 5",
        "Gait: walk, trot, canter, gallop, halt",
    ),
    b("Play", "[ / ]", "Pivot left / right in place"),
    b("Play", "B", "Back up one cell"),
    b(
        "Play",
        "M",
        "Mount (then click the steed) or dismount (then click a free cell, or M again)",
    ),
    b(
        "Play",
        "L",
        "Lead a riderless horse, or let a led one go (then click the horse)",
    ),
    b(
        "Play",
        "T R G P K O N Y V",
        "Activities (D15, R2): stand up, ready shield, draw weapon, pick up an item or a comrade, open or unlock a door, read a scroll, pick up and ready",
    ),
    b(
        "Play",
        "Enter",
        "End the side's half-move (asks first while figures have not moved)",
    ),
    b(
        "Play",
        "U or Ctrl+Z",
        "Undo the last order (back to the last die roll)",
    ),
    b(
        "Play",
        "Esc",
        "Cancel mounting or dismounting, or clear the selection",
    ),
    b(
        "Play",
        "X",
        "Why? The selected computer unit's risk factor, d6 roll and action",
    ),
    b("Play", "Space", "Fast-forward the computer's turn"),
    b(
        "Game",
        "Esc (nothing selected)",
        "Open or close the game menu (closes help, rules or a dialog first)",
    ),
    b("Game", "F1 or ?", "Show or hide the keys and mouse help"),
    b("Game", "F2", "Read the rules"),
    b(
        "Game",
        "F3",
        "Settings: pace, UI scale, fullscreen, colours, fractions",
    ),
    b("Game", "Ctrl+S", "Quick save (saves/quicksave.ron)"),
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
            k.input.replace('|', "\\|"),
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
            assert!(!k.input.is_empty() && !k.action.is_empty());
        }
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
