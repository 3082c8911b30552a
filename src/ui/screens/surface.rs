//! Keys on an overlay count only once it has been on screen: the Enter that ended a half-move
//! raises the hand-over screen, the charge orders or the card table in the same frame, and
//! must not also confirm them.

use bevy_egui::egui;

/// Whether the surface named `name`, drawn this frame, was already drawn on the frames just
/// before (so a key pressed now was meant for it). Call it once a frame while the surface
/// is up; a surface taken down and raised again starts over.
pub fn settled(ctx: &egui::Context, name: &str) -> bool {
    let pass = ctx.cumulative_pass_nr();
    let id = egui::Id::new(("warhorse-surface", name));
    let (since, last) = ctx
        .data(|d| d.get_temp::<(u64, u64)>(id))
        .unwrap_or((pass, pass));
    let since = if last + 1 < pass { pass } else { since };
    ctx.data_mut(|d| d.insert_temp(id, (since, pass)));
    pass >= since + 2
}

/// Enter was pressed on the settled surface `name` (see [`settled`]).
pub fn enter_on(ctx: &egui::Context, name: &str) -> bool {
    settled(ctx, name) && ctx.input(|i| i.key_pressed(egui::Key::Enter))
}

/// An overlay window over the map (the charge orders, the fire phase): it starts at the
/// bottom of `free` — the part of the screen the panels leave to the map — can be moved by
/// its title and folded away, and never leaves `free`, so it never hides the log's newest
/// lines. Narrower than a tray, it leaves the map on either side of it in view: the figures
/// these choices are about stand all over the map.
pub fn map_window(title: String, id: &str, free: egui::Rect, width: f32) -> egui::Window<'static> {
    egui::Window::new(title)
        .id(egui::Id::new(id))
        .collapsible(true)
        .resizable(true)
        .default_width(width.min(free.width() - 16.0).max(280.0))
        .pivot(egui::Align2::CENTER_BOTTOM)
        .default_pos(egui::pos2(free.center().x, free.bottom() - 8.0))
        .constrain_to(free)
}

/// A tray (issue 34): docked along the bottom of `free` (the part of the screen the panels
/// leave to the map), as wide as it and just above the log, so it never hides the log's
/// newest lines nor floats over the fight — the map above it stays in view. The card table
/// and the reveal are trays (the map slides the fight above them); `add` draws the
/// contents, which keep the height they need, at most the whole of `free`.
pub fn show_tray<R>(
    ctx: &egui::Context,
    id: &str,
    free: egui::Rect,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let frame = egui::Frame::window(&ctx.global_style()).corner_radius(0.0);
    let margin = frame.total_margin().sum();
    egui::Area::new(egui::Id::new(id))
        .order(egui::Order::Middle)
        .movable(false)
        .pivot(egui::Align2::LEFT_BOTTOM)
        .fixed_pos(free.left_bottom())
        .constrain_to(free)
        .show(ctx, |ui| {
            frame
                .show(ui, |ui| {
                    ui.set_width((free.width() - margin.x).max(200.0));
                    ui.set_max_height((free.height() - margin.y).max(40.0));
                    add(ui)
                })
                .inner
        })
        .inner
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(ctx: &egui::Context, enter: bool, mut f: impl FnMut(&egui::Context)) {
        let mut input = egui::RawInput::default();
        if enter {
            input.events.push(egui::Event::Key {
                key: egui::Key::Enter,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::NONE,
            });
        }
        ctx.run_ui(input, |ui| f(ui.ctx()))
            .drop_without_applying_deltas();
    }

    #[test]
    fn the_enter_that_raised_a_surface_does_not_confirm_it() {
        let ctx = egui::Context::default();
        let mut got = Vec::new();
        frame(&ctx, true, |c| got.push(enter_on(c, "x")));
        frame(&ctx, false, |c| got.push(enter_on(c, "x")));
        frame(&ctx, true, |c| got.push(enter_on(c, "x")));
        assert_eq!(got, [false, false, true]);
        // Taken down for a frame, raised again by an Enter: not confirmed.
        frame(&ctx, false, |_| {});
        frame(&ctx, true, |c| got.push(enter_on(c, "x")));
        assert_eq!(got, [false, false, true, false]);
    }
}
