//! The reveal (issue 11): when a melee round's cards are faced, the window shows that round —
//! every figure's cards face up and what came of them, blow by blow — in a panel the player
//! closes, instead of leaving it in the log under the card overlay. The panel is public (both
//! players read it; in hot-seat it comes after the hand-over screen, which is drawn first), and
//! the log keeps every line as before.

use super::actions::{Dialog, Overlays};
use super::host::GameHost;
use crate::sim::log::{GameLog, LogEntry};
use bevy::prelude::*;

/// How much of the game's log the reveal has looked at.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct RevealWatch {
    /// Log lines already looked at; `None` until the first look (a game just started or
    /// loaded shows no old round).
    pub seen: Option<usize>,
}

/// The last round faced in `log[from..]`: its title (`Card round 3`, `TAC phase`) and its lines
/// — the cards face up, then every result — without the lines that only say who still
/// chooses. `None` when no round was faced there.
pub fn last_round(log: &[LogEntry], from: usize) -> Option<(String, Vec<String>)> {
    let new = log.get(from..)?;
    let start = new
        .iter()
        .rposition(|l| l.text.contains(" — cards face up: "))?;
    let title = new[start]
        .text
        .split(" — cards face up: ")
        .next()
        .unwrap_or("Cards")
        .to_string();
    let lines = new[start..]
        .iter()
        .filter(|l| {
            !l.text.starts_with("Waiting for ")
                && !l.text.ends_with("face down.")
                && !l.text.ends_with(", face down (D6, D9).")
        })
        .map(|l| {
            // The log panel's spelling: egui's default fonts have no arrows.
            let text = crate::ui::play::panels::printable(&l.text);
            match &l.roll {
                Some(r) => format!("{text}  [{} {}: {}]", r.by, r.die, r.value),
                None => text,
            }
        })
        .collect();
    Some((title, lines))
}

/// After every frame's orders: when a round was faced since the last look, opens the reveal
/// panel (unless another dialog is open: the log has it all the same).
pub fn watch_reveals(world: &mut World) {
    let seen = world.resource::<RevealWatch>().seen;
    let Some(game) = GameHost::get(world) else {
        return;
    };
    let log = &game.app.world().resource::<GameLog>().0;
    let len = log.len();
    let found = match seen {
        Some(s) if s <= len => last_round(log, s),
        _ => None,
    };
    world.resource_mut::<RevealWatch>().seen = Some(len);
    let Some((title, lines)) = found else {
        return;
    };
    let mut overlays = world.resource_mut::<Overlays>();
    if overlays.dialog.is_none() {
        overlays.dialog = Some(Dialog::Message {
            title: format!("{title} — the cards revealed"),
            text: lines.join("\n"),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> LogEntry {
        LogEntry {
            turn: 1,
            phase: "melee rounds".into(),
            text: text.into(),
            roll: None,
        }
    }

    #[test]
    fn the_last_faced_round_is_shown_without_the_waiting_lines() {
        let log = vec![
            line("Card round 1 — cards face up: a: PASSIVE SHIELD PARRY"),
            line("Waiting for MELEE cards for card round 2, face down, from: a, b (D6, D9)."),
            line("a chooses its cards, face down."),
            line("Card round 2 — cards face up: a: DELIVER BLOW → b; b: DODGE BACK"),
            line("a plays DELIVER BLOW at b: needs 55, rolls 12: a hit."),
            line("Waiting for MELEE cards for card round 3, face down, from: a, b (D6, D9)."),
        ];
        let (title, lines) = last_round(&log, 1).expect("a round was faced");
        assert_eq!(title, "Card round 2");
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].contains("a hit"));
        assert!(
            lines[0].contains("DELIVER BLOW -> b"),
            "arrows spelled out: {}",
            lines[0]
        );
        assert_eq!(last_round(&log, 4), None, "nothing faced after line 4");
    }
}
