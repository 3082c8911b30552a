//! Play by email in the window (issue 30, item 5). *By email…* on the start screen begins a
//! game of the level chosen there (writing the first turn file to send), opens a turn file
//! the other player sent, or takes up a game already under way. Each game by email is kept
//! in a folder of its own under the saves (`email/LEVEL-ID/`): the player's state file
//! `state.json`, which holds its secrets (its salts, its dice values), and every turn file
//! this window wrote, `turn-NNN.json`, to attach to an email.
//!
//! On screen the game is a [`Game::replica`] of the player's own [`Pbem`] game: an order given
//! on the board goes to [`Pbem::order`], which keeps it for the next file (a face-down choice
//! sealed), and comes back onto the board once taken. The other player's orders, read from
//! their file, are shown one at a time at the computer's pace with the board locked (Space
//! shows the rest at once). Once the game no longer waits for this player's orders, the
//! window writes the answer at once and says where it is; the state is saved after every
//! order and every file, so closing the window loses nothing.

mod form;

pub use form::{EmailForm, EmailGame, draw_form, draw_open_button};

use super::actions::{GameOffScreen, install, message};
use super::ai_play::AiPace;
use super::cover::Cover;
use super::host::GameHost;
use super::saves::{Autosave, SaveDir};
use super::{DrawLayer, Screen, ScreenStep};
use crate::level::{Control, Level};
use crate::net::pbem::{Pbem, PbemError, Status, TurnFile, parse_file, read_bounded};
use crate::sim::Game;
use crate::sim::order::Order;
use crate::ui::bridge::ForwardedWords;
use bevy::prelude::*;
pub(super) use form::open_form;
use form::{fail, sides_words};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The player's state file in a game's folder.
const STATE_FILE: &str = "state.json";

/// A game by email is on screen: where it is kept, the last file written, and why the board
/// takes no order now.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ByEmail {
    /// The game's folder.
    pub folder: PathBuf,
    /// The last turn file this window wrote, to send.
    pub written: Option<PathBuf>,
    /// Why the board takes no order now (the other player's orders being shown, or their file
    /// awaited); `None` while the game waits for this player's orders.
    pub lock: Option<String>,
    /// The other player's file comes next: the board offers to open it.
    pub waiting: bool,
}

/// The player's game by email behind the board (non-send: it holds a [`Game`]).
struct Mail {
    pbem: Pbem,
    folder: PathBuf,
    /// How many of the player's game's dice values the board's replica has been given.
    fed: usize,
    /// When the next of the other player's orders is shown.
    next_show: Instant,
    /// The board shows the whole of the player's game, the file due is written and the lock
    /// says why: nothing to do until an order is given or a file opened.
    settled: bool,
}

/// Where the games by email are kept.
fn email_dir(world: &World) -> PathBuf {
    let dir = world.resource::<SaveDir>().0.join("email");
    // Named in full: the player looks for the files there to attach them to an email.
    std::path::absolute(&dir).unwrap_or(dir)
}

/// The start of a game's id that its folder's name ends with.
fn id_tag(id: &str) -> &str {
    id.get(..10).unwrap_or(id)
}

/// Makes the folder of a game just begun or taken up in `dir`, and saves the player's state
/// in it; returns the folder.
fn new_folder(dir: &Path, p: &Pbem) -> Result<PathBuf, String> {
    let folder = dir.join(folder_name(p.level(), p.game_id()));
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("{} could not be made: {e}", folder.display()))?;
    p.save(&folder.join(STATE_FILE))
        .map_err(|e| e.to_string())?;
    Ok(folder)
}

/// A folder name for a new game: the level's name, then the start of the game's id.
fn folder_name(level: &Level, id: &str) -> String {
    let slug: String = level
        .file
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_matches('-');
    format!("{slug}-{}", id_tag(id))
}

/// Begins a game of `level` by email, this player giving the orders of `side`: writes the
/// state and the first turn file in a new folder.
pub(super) fn begin(world: &mut World, level: &Level, side: u8) {
    let (p, first) = match Pbem::begin(level, side) {
        Ok(x) => x,
        Err(e) => return fail(world, format!("Could not begin: {e}")),
    };
    let folder = match new_folder(&email_dir(world), &p) {
        Ok(f) => f,
        Err(e) => return fail(world, e),
    };
    match send(&folder, &first) {
        Ok(path) => {
            open_form(world);
            let mut form = world.resource_mut::<EmailForm>();
            form.error = None;
            form.written = Some(path.clone());
            message(
                world,
                "A game by email",
                format!(
                    "You play {} in {}. Turn file 1 is written to {}: send it to the other \
                     player, who opens it with By email… on their start screen. When their \
                     answer comes, open it here.",
                    sides_words(&p),
                    level.file.name,
                    path.display()
                ),
            );
        }
        Err(e) => fail(world, e.to_string()),
    }
}

/// The folder of the game a file of game `id` belongs to, if this window keeps it.
fn find_game(dir: &Path, id: &str) -> Option<(PathBuf, Result<Pbem, PbemError>)> {
    let tail = id_tag(id);
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(tail))
        })
        .map(|f| {
            let p = Pbem::load(&f.join(STATE_FILE));
            (f, p)
        })
        .find(|(_, p)| p.as_ref().map_or(true, |p| p.game_id() == id))
}

/// Opens the turn file at `path`: the next file of a game under way, or the first file of a
/// game the other player began (taken up as a new game). A refused file changes nothing and
/// says why on the form.
pub(super) fn open_file(world: &mut World, path: &Path) {
    let read = read_bounded(path).and_then(|t| parse_file(&t));
    let f = match read {
        Ok(f) => f,
        Err(e) => return fail(world, format!("{}: {e}", path.display())),
    };
    let dir = email_dir(world);
    match find_game(&dir, &f.game) {
        Some((folder, Ok(mut p))) => {
            let before = orders_of(&p);
            match p.read(&f) {
                Ok(_) => {
                    if let Err(e) = p.save(&folder.join(STATE_FILE)) {
                        return fail(world, e.to_string());
                    }
                    play(world, p, folder, &before);
                }
                Err(e) => fail(world, format!("{}: {e}", path.display())),
            }
        }
        Some((folder, Err(e))) => fail(world, format!("{}: {e}", folder.display())),
        None if f.seq == 1 => take_up(world, &f, &dir),
        None => fail(
            world,
            format!(
                "{} is turn file {} of a game by email this window does not keep: open the \
                 game's first file to take it up, or open this one on the machine that plays it.",
                path.display(),
                f.seq
            ),
        ),
    }
}

/// Takes up a game the other player began, from its first file.
fn take_up(world: &mut World, first: &TurnFile, dir: &Path) {
    let (p, _) = match Pbem::answer(first) {
        Ok(x) => x,
        Err(e) => return fail(world, e.to_string()),
    };
    match new_folder(dir, &p) {
        Ok(folder) => play(world, p, folder, &[]),
        Err(e) => fail(world, e),
    }
}

/// Takes up the game kept in `folder` where it stands.
pub(super) fn resume(world: &mut World, folder: &Path) {
    match Pbem::load(&folder.join(STATE_FILE)) {
        Ok(p) => {
            let all = orders_of(&p);
            play(world, p, folder.to_path_buf(), &all);
        }
        Err(e) => fail(world, e.to_string()),
    }
}

/// The orders of a player's game so far.
fn orders_of(p: &Pbem) -> Vec<Order> {
    p.game()
        .map(|g| g.record().orders.clone())
        .unwrap_or_default()
}

/// Writes `f` into the game's folder; returns where.
fn send(folder: &Path, f: &TurnFile) -> Result<PathBuf, PbemError> {
    let path = folder.join(format!("turn-{:03}.json", f.seq));
    std::fs::write(&path, f.to_text())
        .map_err(|e| PbemError::Io(format!("{} could not be written: {e}", path.display())))?;
    Ok(path)
}

/// Whether the player's next file is to be written now: it is theirs to write and the game
/// does not wait for their orders (once the battle is over, only if it carries orders the
/// other player has not seen).
fn file_due(p: &mut Pbem) -> bool {
    if !p.writes_next() {
        return false;
    }
    match p.status() {
        Status::YourOrders | Status::TheirFile => false,
        Status::Over(_) => p.unsent() > 0,
        Status::WriteNow => true,
    }
}

/// Writes the player's next file and saves its state; returns where the file is.
fn write_file(p: &mut Pbem, folder: &Path) -> Result<PathBuf, PbemError> {
    let f = p.write()?;
    p.save(&folder.join(STATE_FILE))?;
    send(folder, &f)
}

/// What to tell the player about a file just written, in a game on screen (`in_game`: the
/// way back to the start screen is named).
fn written_words(p: &mut Pbem, path: &Path, in_game: bool) -> String {
    let over = match p.status() {
        Status::Over(why) => format!("The battle is over: {why} "),
        _ => String::new(),
    };
    let back = if in_game {
        "Open their turn file… at the top right"
    } else {
        "By email… on the start screen"
    };
    format!(
        "{over}Your turn file is written to {}: send it to the other player. When their answer \
         comes, open it with {back}.",
        path.display()
    )
}

/// Puts the game on screen: the orders of `seen` at once (those the player had seen before
/// this file), the rest one at a time. Writes the player's file first if it is due; with no
/// game yet (the dice of turn 1 are still being agreed) only says where the file is.
fn play(world: &mut World, mut p: Pbem, folder: PathBuf, seen: &[Order]) {
    let written = if file_due(&mut p) {
        match write_file(&mut p, &folder) {
            Ok(path) => Some(path),
            Err(e) => return fail(world, e.to_string()),
        }
    } else {
        None
    };
    if written.is_some() {
        world
            .resource_mut::<EmailForm>()
            .written
            .clone_from(&written);
    }
    // The same game on screen already (the answer to a file it wrote): its board goes on,
    // showing the new orders one at a time, with no briefing again.
    let same = world
        .get_non_send::<Mail>()
        .is_some_and(|m| m.folder == folder && m.pbem.game().is_some());
    if same && p.game().is_some() && GameHost::get(world).is_some_and(|g| g.is_replica()) {
        if let Some(mut m) = world.get_non_send_mut::<Mail>() {
            m.pbem = p;
            m.next_show = Instant::now();
            m.settled = false;
        }
        let mut form = world.resource_mut::<EmailForm>();
        form.open = false;
        form.error = None;
        if let Some(path) = &written {
            let words = world
                .get_non_send_mut::<Mail>()
                .map(|mut m| written_words(&mut m.pbem, path, true))
                .unwrap_or_default();
            message(world, "Turn file written", words);
            world.resource_mut::<ByEmail>().written = Some(path.clone());
        }
        return;
    }
    let Some(g) = p.game() else {
        open_form(world);
        world.resource_mut::<EmailForm>().error = None;
        let words = written.as_ref().map_or_else(
            || "The dice of turn 1 are being agreed: wait for the other player's file.".into(),
            |path| {
                format!(
                    "The dice of turn 1 are agreed by the files: nothing to order yet. {}",
                    written_words(&mut p, path, false)
                )
            },
        );
        message(world, "A game by email", words);
        return;
    };
    let orders = g.record().orders.clone();
    let shown = seen.iter().zip(&orders).take_while(|(a, b)| a == b).count();
    let dice = g.dice_drawn().to_vec();
    let mut board = Game::replica(p.level(), &dice);
    for o in &orders[..shown] {
        if let Err(e) = board.order_from_host(o) {
            return fail(world, format!("The game could not be shown ({o}): {e}"));
        }
    }
    let level = p.level().clone();
    let mine = p.my_sides();
    let controls = (0..level.file.sides.len())
        // The other player's sides are "the computer's" to the screens: locked, never handed
        // over; no computer plays them (the board is a replica).
        .map(|s| {
            if mine.contains(&(s as u8)) {
                Control::Human
            } else {
                Control::Ai
            }
        })
        .collect();
    let mut form = world.resource_mut::<EmailForm>();
    form.open = false;
    form.error = None;
    install(world, board, level, controls, Autosave { paused: true });
    let lock = lock_words(&mut p, written.as_deref(), orders.len() - shown);
    world.insert_resource(ForwardedWords("Kept for your turn file".into()));
    let waiting = p.status() == Status::TheirFile;
    world.insert_resource(ByEmail {
        folder: folder.clone(),
        written: written.clone(),
        lock,
        waiting,
    });
    if let Some(path) = &written {
        let words = written_words(&mut p, path, true);
        message(world, "Turn file written", words);
    }
    world.insert_non_send(Mail {
        pbem: p,
        folder,
        fed: dice.len(),
        next_show: Instant::now(),
        settled: false,
    });
}

/// Why the board takes no order now, if it does not.
fn lock_words(p: &mut Pbem, written: Option<&Path>, to_show: usize) -> Option<String> {
    if to_show > 0 {
        return Some(format!(
            "Showing the other player's orders from their turn file ({to_show} to go; Space \
             shows them all)."
        ));
    }
    match p.status() {
        Status::YourOrders | Status::Over(_) => None,
        Status::TheirFile => Some(match written {
            Some(path) => format!(
                "Waiting for the other player's answer to {}: open it with Open their turn \
                 file… (top right) when it comes.",
                path.display()
            ),
            None => "Waiting for the other player's turn file: open it with Open their turn \
                     file… (top right) when it comes."
                .into(),
        }),
        Status::WriteNow => Some("Your turn file is being written.".into()),
    }
}

/// Each frame while a game by email is on screen: gives the orders given on the board to the
/// player's game, shows the other player's orders one at a time, and writes the file once
/// it is due.
pub fn pump(world: &mut World) {
    let Some(mut mail) = world.remove_non_send::<Mail>() else {
        return;
    };
    if !GameHost::get(world).is_some_and(|g| g.is_replica())
        || !world.contains_resource::<ByEmail>()
    {
        // Another game took the screen: this one is saved already.
        world.remove_resource::<ByEmail>();
        world.remove_resource::<ForwardedWords>();
        return;
    }
    let given = GameHost::get(world)
        .map(Game::take_forwarded)
        .unwrap_or_default();
    if given.is_empty() && mail.settled {
        world.insert_non_send(mail);
        return;
    }
    let mut own = false;
    let mut due = false;
    for o in &given {
        match mail.pbem.order(o) {
            Ok(()) => own = true,
            Err(PbemError::DiceNotAgreed { turn }) => {
                due = true;
                message(
                    world,
                    "Dice not agreed yet",
                    format!(
                        "The dice of turn {turn} are agreed by the next files: your turn file \
                         goes now, and that order is given again after the other player's answer."
                    ),
                );
                break;
            }
            Err(e) => message(world, "Not given", format!("{o}: {e}")),
        }
    }
    if own && let Err(e) = mail.pbem.save(&mail.folder.join(STATE_FILE)) {
        message(world, "Not saved", e.to_string());
    }
    let to_show = catch_up(world, &mut mail, own);
    let mut written = None;
    if to_show == 0 && (due || file_due(&mut mail.pbem)) {
        match write_file(&mut mail.pbem, &mail.folder) {
            Ok(path) => {
                let words = written_words(&mut mail.pbem, &path, true);
                message(world, "Turn file written", words);
                world.resource_mut::<EmailForm>().written = Some(path.clone());
                written = Some(path);
            }
            Err(e) => message(world, "The turn file could not be written", e.to_string()),
        }
    }
    let mut by = world.resource::<ByEmail>().clone();
    if written.is_some() {
        by.written = written;
    }
    by.lock = lock_words(&mut mail.pbem, by.written.as_deref(), to_show);
    by.waiting = mail.pbem.status() == Status::TheirFile;
    world.resource_mut::<ByEmail>().set_if_neq(by);
    mail.settled = to_show == 0;
    world.insert_non_send(mail);
}

/// Brings the board up to the player's game: at once when `all` (the player's own orders) or
/// when the board no longer follows it, else the other player's next order once its time
/// comes. Returns how many orders are still to show.
fn catch_up(world: &mut World, mail: &mut Mail, all: bool) -> usize {
    let Some(g) = mail.pbem.game() else {
        return 0;
    };
    let orders = g.record().orders.clone();
    let dice = g.dice_drawn().to_vec();
    let fast = world.get_resource::<AiPace>().is_some_and(|p| p.fast);
    let delay = world
        .get_resource::<crate::ui::settings::Settings>()
        .map(|s| s.pace.order_delay())
        .or_else(|| world.get_resource::<AiPace>().map(|p| p.delay))
        .unwrap_or(0.0);
    let free = world
        .get_resource::<State<Cover>>()
        .is_some_and(|c| *c.get() == Cover::Board);
    let Some(board) = GameHost::get(world) else {
        return 0;
    };
    let on = board.record().orders.len();
    let follows = on <= orders.len() && board.record().orders[..] == orders[..on];
    if !follows {
        // The player's game was built anew (a card play opened whole): so is the board.
        let mut fresh = Game::replica(mail.pbem.level(), &dice);
        for o in &orders {
            let _ = fresh.order_from_host(o);
        }
        mail.fed = dice.len();
        GameHost::put(world, fresh, mail.pbem.level().clone());
        return 0;
    }
    if on == orders.len() {
        return 0;
    }
    board.feed_dice(dice.get(mail.fed..).unwrap_or_default());
    mail.fed = mail.fed.max(dice.len());
    let now = Instant::now();
    let upto = if all || fast || delay <= 0.0 {
        orders.len()
    } else if free && now >= mail.next_show {
        mail.next_show = now + Duration::from_secs_f64(delay);
        on + 1
    } else {
        on
    };
    for o in &orders[on..upto] {
        if let Err(e) = board.order_from_host(o) {
            warn!("a game by email's order {o} did not replay on the board: {e}");
        }
    }
    if upto > on {
        GameHost::touched(world);
    }
    if upto == orders.len()
        && let Some(mut p) = world.get_resource_mut::<AiPace>()
    {
        p.fast = false;
    }
    orders.len() - upto
}

/// Leaving the game for the start screen: the player's game is saved already.
fn leave(_: On<GameOffScreen>, mut commands: Commands) {
    commands.queue(|world: &mut World| {
        world.remove_non_send::<Mail>();
        world.remove_resource::<ByEmail>();
        world.remove_resource::<ForwardedWords>();
    });
}

/// Adds the form, the game's pumping, and its end when the game is left.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EmailForm>()
        .add_observer(leave)
        .add_systems(Update, pump.in_set(ScreenStep::Drive))
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                draw_form,
                draw_open_button.run_if(in_state(Screen::Playing)),
            )
                .in_set(DrawLayer::Menu),
        );
}
