//! A card drawn as a card (issue 11): a face with the card's name on a band of its deck's
//! colour (TAC cards blue, MELEE cards red), its cost in blows in a corner, whom it is aimed at
//! or the way it moves, the resolver's chance and damage for a blow, and its one-line effect.
//! A card the figure may not play is drawn grey; a picked card is lifted and edged in gold.
//! The full text (every modifier of the odds, or the rule that forbids the card) is the
//! card's tooltip.

use super::cards::{CardKind, CardView};
use bevy_egui::egui;

/// A card's size on screen, in points.
pub const CARD_SIZE: egui::Vec2 = egui::vec2(104.0, 136.0);

/// The colours of a card's face.
struct Palette {
    band: egui::Color32,
    paper: egui::Color32,
    ink: egui::Color32,
}

fn palette(kind: CardKind, playable: bool) -> Palette {
    if !playable {
        return Palette {
            band: egui::Color32::from_gray(92),
            paper: egui::Color32::from_gray(150),
            ink: egui::Color32::from_gray(60),
        };
    }
    match kind {
        CardKind::Tac => Palette {
            band: egui::Color32::from_rgb(36, 66, 120),
            paper: egui::Color32::from_rgb(222, 230, 242),
            ink: egui::Color32::from_rgb(20, 30, 50),
        },
        CardKind::Melee => Palette {
            band: egui::Color32::from_rgb(128, 30, 26),
            paper: egui::Color32::from_rgb(242, 232, 206),
            ink: egui::Color32::from_rgb(48, 28, 18),
        },
    }
}

/// The name on the band and the line under it: `DELIVER BLOW at levy` reads "DELIVER BLOW"
/// and "at levy"; a card that moves or turns its figure reads its name and the way, by the
/// compass: `MOVE 1"` over "north-east", `MOVE 1"` over "turn to face west", `TURN` over
/// "to face south".
pub fn title_and_aim(card: &CardView) -> (String, Option<String>) {
    // The target is named in the card's name by its display name (issue 34), the last " at ".
    if card.target.is_some()
        && let Some((base, whom)) = card.label.rsplit_once(" at ")
    {
        return (base.to_string(), Some(format!("at {whom}")));
    }
    if card.toward.is_some() {
        if let Some((base, rest)) = card.label.split_once(" (") {
            return (
                base.to_string(),
                Some(rest.trim_end_matches(')').to_string()),
            );
        }
        if let Some((base, rest)) = card.label.split_once(" to ") {
            return (base.to_string(), Some(format!("to {rest}")));
        }
        if let Some((base, rest)) = card.label.split_once("\" ") {
            return (format!("{base}\""), Some(rest.to_string()));
        }
    }
    (card.label.clone(), None)
}

/// The tooltip: the effect, then the odds with every modifier, or the rule that forbids it.
pub fn card_tooltip(card: &CardView) -> String {
    let mut t = format!("{}\n{}", card.label, card.effect);
    if let Some(o) = &card.odds {
        t.push_str("\n\n");
        t.push_str(o);
    }
    if let Err(why) = &card.verdict {
        t.push_str("\n\nMay not be played now: ");
        t.push_str(why);
    }
    t
}

/// An arrow in the card's middle for a card that moves or turns its figure, pointing the way on
/// the map (direction 0 is north on squares, north-east on hexes; clockwise).
fn way_arrow(painter: &egui::Painter, centre: egui::Pos2, dir: u8, dirs: u8, ink: egui::Color32) {
    let step = std::f32::consts::TAU / f32::from(dirs.max(1));
    let start = if dirs == 6 { step / 2.0 } else { 0.0 };
    let a = start + step * f32::from(dir);
    let v = egui::vec2(a.sin(), -a.cos()) * 22.0;
    painter.arrow(centre - v, v * 2.0, egui::Stroke::new(3.0, ink));
}

/// Draws one card; `key` is the number key that picks it (1–9), if any; `dirs` the grid's
/// number of directions (8 squares, 6 hexes). Returns the click response (with the tooltip).
pub fn card_face(
    ui: &mut egui::Ui,
    card: &CardView,
    picked: bool,
    key: Option<usize>,
    dirs: u8,
) -> egui::Response {
    let playable = card.verdict.is_ok();
    let sense = if playable {
        egui::Sense::click()
    } else {
        egui::Sense::hover()
    };
    let (slot, response) = ui.allocate_exact_size(CARD_SIZE, sense);
    if !ui.is_rect_visible(slot) {
        return response.on_hover_text(card_tooltip(card));
    }
    let lift = if picked { -6.0 } else { 0.0 };
    let rect = slot.translate(egui::vec2(0.0, lift)).shrink(2.0);
    let p = palette(card.kind, playable);
    let painter = ui.painter_at(slot.expand(8.0));
    let edge = if picked {
        egui::Stroke::new(3.0, egui::Color32::from_rgb(240, 200, 60))
    } else if response.hovered() {
        egui::Stroke::new(2.0, egui::Color32::WHITE)
    } else {
        egui::Stroke::new(1.0, egui::Color32::from_gray(30))
    };
    painter.rect(rect, 7.0, p.paper, edge, egui::StrokeKind::Inside);
    let band = egui::Rect::from_min_size(rect.min, egui::vec2(rect.width(), 36.0)).shrink(3.0);
    painter.rect_filled(band, 5.0, p.band);
    let (title, aim) = title_and_aim(card);
    let small = egui::FontId::proportional(10.5);
    // The name fits the band: two lines at most, in a smaller type for a long one
    // ("PASSIVE SHIELD PARRY"); the coin's room is left only on a card that costs blows.
    let room = band.width() - if card.cost > 0 { 24.0 } else { 8.0 };
    let mut name = painter.layout(
        title.clone(),
        egui::FontId::proportional(12.0),
        egui::Color32::WHITE,
        room,
    );
    for size in [10.5, 9.0] {
        if name.size().y <= band.height() {
            break;
        }
        name = painter.layout(
            title.clone(),
            egui::FontId::proportional(size),
            egui::Color32::WHITE,
            room,
        );
    }
    painter.galley(
        band.left_top() + egui::vec2(4.0, (band.height() - name.size().y) / 2.0),
        name,
        egui::Color32::WHITE,
    );
    // The cost, in blows, in a coin at the band's right (none on a card that costs nothing,
    // or on a faced card, whose cost was paid).
    if card.cost > 0 {
        let coin = egui::pos2(band.right() - 10.0, band.center().y);
        painter.circle_filled(coin, 9.0, egui::Color32::from_rgb(250, 236, 190));
        painter.text(
            coin,
            egui::Align2::CENTER_CENTER,
            card.cost.to_string(),
            egui::FontId::proportional(12.0),
            egui::Color32::BLACK,
        );
    }
    let mut y = band.bottom() + 3.0;
    let deck = match card.kind {
        CardKind::Tac => "TAC",
        CardKind::Melee => "MELEE",
    };
    let corner = match key {
        Some(k) => format!("{deck}  · key {k}"),
        None => deck.to_string(),
    };
    painter.text(
        egui::pos2(rect.left() + 5.0, y),
        egui::Align2::LEFT_TOP,
        corner,
        small.clone(),
        p.ink,
    );
    y += 14.0;
    if let Some(aim) = aim {
        let g = painter.layout(aim, small.clone(), p.ink, rect.width() - 10.0);
        let h = g.size().y;
        painter.galley(egui::pos2(rect.left() + 5.0, y), g, p.ink);
        y += h + 2.0;
    }
    let middle = egui::pos2(rect.center().x, y + 20.0);
    if let Some(n) = card.numbers {
        painter.text(
            middle,
            egui::Align2::CENTER_CENTER,
            format!("{}%", n.chance),
            egui::FontId::proportional(22.0),
            p.ink,
        );
        painter.text(
            middle + egui::vec2(0.0, 20.0),
            egui::Align2::CENTER_CENTER,
            format!("dmg {}-{} · crit {}%", n.damage.0, n.damage.1, n.critical),
            small.clone(),
            p.ink,
        );
        y = middle.y + 30.0;
    } else if let Some(w) = card.toward {
        way_arrow(&painter, middle, w.dir, dirs, p.ink);
        y = middle.y + 26.0;
    } else {
        y += 4.0;
    }
    let effect = painter.layout(card.effect.clone(), small, p.ink, rect.width() - 10.0);
    let room = rect.bottom() - 4.0 - y;
    if effect.size().y <= room + 1.0 {
        painter.galley(egui::pos2(rect.left() + 5.0, y), effect, p.ink);
    }
    response.on_hover_text(card_tooltip(card))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::{Dir, GridKind};
    use crate::rules::melee::cards::{HorseCard, MeleeCard, MoveStep};
    use crate::ui::screens::cards::Toward;

    fn face(m: MeleeCard, grid: GridKind) -> (String, Option<String>) {
        let mut card = CardView::plain(&m.to_string(), CardKind::Melee, 1, Ok(()));
        card.label = m.words(grid);
        card.toward = Some(Toward {
            dir: 0,
            turn: false,
        });
        title_and_aim(&card)
    }

    /// Issue 34: "directions as compass points". A card that moves or turns its figure names
    /// its way by the compass on its face, on squares and on hexes alike, never by a number.
    #[test]
    fn a_card_that_moves_or_turns_names_its_way_by_the_compass() {
        let aim = |s: &str| Some(s.to_string());
        assert_eq!(
            face(MeleeCard::Move(MoveStep::To(Dir(1))), GridKind::Square),
            ("MOVE 1\"".into(), aim("north-east"))
        );
        assert_eq!(
            face(MeleeCard::Move(MoveStep::To(Dir(0))), GridKind::Hex),
            ("MOVE 1\"".into(), aim("north-east"))
        );
        assert_eq!(
            face(MeleeCard::Move(MoveStep::Face(Dir(6))), GridKind::Square),
            ("MOVE 1\"".into(), aim("turn to face west"))
        );
        assert_eq!(
            face(
                MeleeCard::Horse(HorseCard::Turn { facing: Dir(4) }),
                GridKind::Square
            ),
            ("TURN".into(), aim("to face south"))
        );
        assert_eq!(
            face(
                MeleeCard::Horse(HorseCard::Wheel { facing: Dir(3) }),
                GridKind::Hex
            ),
            ("WHEEL".into(), aim("to face south-west"))
        );
    }
}
