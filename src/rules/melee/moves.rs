//! Movement in a melee: the TAC cards' moves (RETREAT and RUN AWAY priorities, CLOSE, FLECHE,
//! CHARGE lines, KEEP DISTANCE), MOVE 1" (no disengaging), DODGE room, and horse MOVE and
//! WHEEL (C8). One cell is one inch; fractions of an inch round down to whole cells.
//!
//! Why one long file: every card that moves a figure in a melee steps through the same
//! one-cell-an-inch helpers (room, contact, no disengaging), kept here once.

use super::deck::{DodgeDir, HorseCard, MeleeCard, MoveStep, TacCard};
use super::fight::{Fight, Posture, at_speed, full_charge, speed_of};
use super::judge::{Ineligible, Situation};
use super::tables::{Kind, Tables, move_bonus_half_inches, seed};
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir};
use crate::rules::mp::Mp;
use crate::rules::ruleset::Encumbrance;
use std::collections::{BTreeMap, HashMap};

fn no<T>(tag: &'static str, reason: impl Into<String>) -> Result<T, Ineligible> {
    Err(Ineligible {
        tag,
        reason: reason.into(),
    })
}

/// May figure `i` leave contact with enemy `j`'s front at will? Significantly heavier (50%)
/// or more Dexterous figures may (§6 MOVE, D16).
pub fn may_disengage(fight: &Fight, t: &Tables, i: usize, j: usize) -> bool {
    let (a, b) = (&fight.fighters[i], &fight.fighters[j]);
    fight.bash_weight(i) as u64 * 2 >= fight.bash_weight(j) as u64 * 3
        || a.dex >= b.dex.saturating_add(t.dex_disengage)
}

/// MOVE 1" eligibility: a step that does not disengage, a turn, or standing up.
pub fn move_ok(sit: &Situation, i: usize, step: MoveStep) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let me = &fight.fighters[i];
    match step {
        MoveStep::StandUp => {
            if me.state.posture == Posture::Standing {
                return no("§6 MOVE", "it is already on its feet");
            }
            if me.state.hamstrung {
                return no("§6 HAMSTRING HORSE", "a hamstrung horse cannot rise");
            }
            Ok(())
        }
        MoveStep::Face(d) => {
            if me.is_mount() || me.mounted() {
                return no("§6 WHEEL", "a mounted figure turns with its horse's WHEEL");
            }
            if d.0 >= fight.grid().dirs() || d == me.facing {
                return no("§6 MOVE", "turn to a different direction of this grid");
            }
            Ok(())
        }
        MoveStep::To(d) => {
            if me.is_mount() || me.mounted() {
                return no("§6 HORSE MELEE CARDS", "a horse moves with its MOVE card");
            }
            if me.state.posture != Posture::Standing {
                return no("§6 MOVE", "it must stand up first");
            }
            if me.state.restraining.is_some() {
                return no(
                    "§6 RESTRAINT",
                    "it holds a restrained enemy and cannot move",
                );
            }
            if d.0 >= fight.grid().dirs() {
                return no("§6 MOVE", "no such direction on this grid");
            }
            let to = fight.grid().neighbour(me.cell, d);
            if !fight.free(to, false) {
                return no("§6 MOVE", format!("{to} is not free"));
            }
            for j in fight.enemies_within(i, 1) {
                if fight.touches_front(i, j)
                    && fight.grid().distance(to, fight.fighters[j].cell) > 1
                    && !may_disengage(fight, sit.tables, i, j)
                {
                    return no(
                        "§6 MOVE",
                        format!(
                            "MOVE 1\" may not disengage from {}: break contact by DODGE or a bash",
                            fight.fighters[j].id
                        ),
                    );
                }
            }
            if me.state.berserk
                && let Some(n) = nearest(fight, i)
            {
                let e = fight.fighters[n].cell;
                if fight.far(to, e) >= fight.far(me.cell, e) {
                    return no("§6 FEROCITY", "a berserk moves only towards the enemy");
                }
            }
            Ok(())
        }
    }
}

/// DODGE eligibility: on foot (or a horse not otherwise occupied), with ½" of room (§6).
pub fn dodge_ok(sit: &Situation, i: usize, d: DodgeDir) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let me = &fight.fighters[i];
    if me.mounted() {
        return no("§6 DODGE", "men on horseback cannot dodge (the horse can)");
    }
    if me.state.berserk {
        return no("§6 FEROCITY", "a berserk foreswears defence: no DODGE");
    }
    if me.state.posture != Posture::Standing {
        return no("§6 DODGE", "it must be on its feet to dodge");
    }
    if me.state.restraining.is_some() {
        return no("§6 RESTRAINT", "it holds a restrained enemy");
    }
    let to = fight.grid().neighbour(me.cell, fight.dodge_dir(i, d));
    if !fight.free(to, me.is_mount()) {
        return no(
            "§6 DODGE",
            format!("no ½\" of free space to the {} ({to})", d.word()),
        );
    }
    Ok(())
}

/// §6 DODGE: "Dogs, wolves, and cats automatically dodge when not charging, without
/// expending blows." Figure `i` is such a beast (`AgileBeast`), up, on its feet, neither
/// stunned nor held nor holding, and not charging — *our reading:* its TAC card of this melee
/// phase is not CHARGE — with ½" of free space to one of its three dodge sides (the room any
/// dodge needs).
pub fn auto_dodges(fight: &Fight, i: usize) -> bool {
    let me = &fight.fighters[i];
    me.profile.kind == Kind::AgileBeast
        && me.is_up()
        && !me.state.berserk
        && me.state.posture == Posture::Standing
        && me.state.stunned == 0
        && me.state.restraining.is_none()
        && me.state.restrained_by.is_empty()
        && fight.tac_of(i) != Some(TacCard::Charge)
        && [DodgeDir::Left, DodgeDir::Right, DodgeDir::Back]
            .into_iter()
            .any(|d| {
                fight.free(
                    fight.grid().neighbour(me.cell, fight.dodge_dir(i, d)),
                    false,
                )
            })
}

/// Horse cards' eligibility.
pub fn horse_ok(sit: &Situation, i: usize, h: &HorseCard) -> Result<(), Ineligible> {
    let fight = sit.fight;
    let me = &fight.fighters[i];
    if !matches!(h, HorseCard::Hamstring { .. }) {
        if !me.is_mount() {
            return no("§6 HORSE MELEE CARDS", "only a horse plays this card");
        }
        if me.state.hamstrung || me.state.posture != Posture::Standing {
            return no("§6 HORSE MELEE CARDS", "the horse is down");
        }
    }
    match h {
        HorseCard::Move => {
            let ahead = fight.grid().neighbour(me.cell, me.facing);
            if !fight.free(ahead, true) {
                return no("§6 MOVE", format!("the way ahead ({ahead}) is blocked"));
            }
        }
        HorseCard::Wheel { facing } => {
            let g = fight.grid();
            if facing.0 >= g.dirs() || !g.is_orthogonal(*facing) || *facing == me.facing {
                return no(
                    "§6 WHEEL",
                    "wheel to a different heading along the grid (H6)",
                );
            }
        }
        HorseCard::Turn { facing } => {
            let g = fight.grid();
            if !at_speed(me) {
                return no(
                    "C8",
                    "only a steed at canter or faster turns as it runs; a slower horse WHEELs",
                );
            }
            if facing.0 >= g.dirs() || !g.is_orthogonal(*facing) || *facing == me.facing {
                return no(
                    "C8",
                    "turn to a different heading along the grid (N, E, S, W on squares)",
                );
            }
            let with_move = sit
                .with
                .iter()
                .any(|c| matches!(c, MeleeCard::Horse(HorseCard::Move)));
            let run = u32::from(me.state.melee_moved)
                + if with_move {
                    horse_move_cells(fight, sit.tables, i).max(0) as u32
                } else {
                    0
                };
            if let Err(why) = speed_turn_ok(fight, i, *facing, run) {
                return no("C8", why);
            }
        }
        HorseCard::Trample { target } => {
            let Some(j) = fight.index_of(target) else {
                return no("§6 TRAMPLE", format!("there is no figure {target:?}"));
            };
            let f = &fight.fighters[j];
            if !fight.hostile(i, j) || !f.is_up() {
                return no("§6 TRAMPLE", format!("{target} is no enemy in the fight"));
            }
            if f.state.posture != Posture::Prone {
                return no("§6 TRAMPLE", format!("{target} is not prone"));
            }
            if !fight.in_contact(i, j) {
                return no("§6 TRAMPLE", format!("{target} is more than 1\" away"));
            }
        }
        HorseCard::Hamstring { target } => {
            if me.is_mount() || me.mounted() {
                return no("§6 HAMSTRING HORSE", "a figure on foot hamstrings a horse");
            }
            if !matches!(me.profile.kind, Kind::Humanoid | Kind::Monster) {
                return no(
                    "§6 HAMSTRING HORSE",
                    "only men and monsters hamstring horses",
                );
            }
            if me.state.hamstring_tried {
                return no("§6 HAMSTRING HORSE", "only one attempt per turn");
            }
            if me.state.posture != Posture::Standing {
                return no("§6 HAMSTRING HORSE", "it must be on its feet");
            }
            let Some(j) = fight.index_of(target) else {
                return no(
                    "§6 HAMSTRING HORSE",
                    format!("there is no figure {target:?}"),
                );
            };
            let f = &fight.fighters[j];
            if !f.is_mount() || !fight.hostile(i, j) || !f.is_up() || f.state.hamstrung {
                return no(
                    "§6 HAMSTRING HORSE",
                    format!("{target} is no enemy horse standing"),
                );
            }
            if !fight.in_contact(i, j) {
                return no(
                    "§6 HAMSTRING HORSE",
                    "it must start in contact with the horse",
                );
            }
        }
    }
    Ok(())
}

/// The nearest enemy of `i` (by centre distance, then id).
///
/// Read from the enemies within twice the nearest one's grid distance `d`: that one's centre
/// lies at most `√2·d` away on squares (`d` on hexes), and a centre that near is at most as
/// many cells off on squares (`2/√3` of it on hexes), so no nearer centre lies outside.
pub fn nearest(fight: &Fight, i: usize) -> Option<usize> {
    let c = fight.fighters[i].cell;
    let d = fight.nearest_enemy_distance(i)?;
    fight
        .enemies_within(i, 2 * d.max(1))
        .into_iter()
        .min_by_key(|&j| {
            (
                fight.far(c, fight.fighters[j].cell),
                fight.fighters[j].id.as_str(),
            )
        })
}

/// C8 with seed 004's rate: may steed `h` at speed turn to `facing` having run `run` cells
/// with its MOVE cards this melee phase? "During the course of the card segment, a horse under
/// these constraints may not turn a total of more than allowed by the chart … when the degree
/// of all turns taken during the MELEE phase is totalled together"; the chart is seed 004's
/// "Cavalry may turn 45° per ¼ of their movement, or per ½ move at Gallop".
pub fn speed_turn_ok(fight: &Fight, h: usize, facing: Dir, run: u32) -> Result<u16, String> {
    let f = &fight.fighters[h];
    let g = fight.grid();
    let degrees = (g.turn_between(f.facing, facing).unsigned_abs() * 360 / g.dirs() as u32) as u16;
    let gait = f.state.melee_gait.unwrap_or(f.gait);
    let limit = crate::rules::cavalry::melee_turn_limit(
        gait,
        crate::rules::mp::Mp::cells(i64::from(run)),
        f.move_basis,
    );
    let total = i32::from(f.state.melee_turned) + i32::from(degrees);
    if total > limit {
        return Err(format!(
            "a {gait} steed may turn 45° per {} of its move (seed 004): after {run} cells it \
             may have turned {limit}° in this melee phase, and this turn would make {total}°; \
             run further with MOVE first",
            if gait == Gait::Gallop {
                "half"
            } else {
                "quarter"
            }
        ));
    }
    Ok(degrees)
}

/// A horse's MELEE MOVE in cells: its class's card plus the C8 speed bonus, rounded down.
pub fn horse_move_cells(fight: &Fight, t: &Tables, h: usize) -> i32 {
    let f = &fight.fighters[h];
    let base = t.horse_move(f.horse_class.as_deref().unwrap_or(""));
    let g = f.state.melee_gait.unwrap_or(f.gait);
    // C8: "CHARGING adds 2"" — a steed that rode a movement charge; a gallop adds 1 1/2".
    let charging = full_charge(fight, h);
    (base * 2 + move_bonus_half_inches(g, charging)) / 2
}

/// How far a TAC card carries a figure, in cells (§6 TAC cards, D8).
pub fn tac_distance(fight: &Fight, t: &Tables, i: usize, card: TacCard, tac_phase: bool) -> i32 {
    let me = &fight.fighters[i];
    let mover = me.mount.unwrap_or(i);
    let basis = fight.fighters[mover].move_basis;
    let full = basis.floor_cells() as i32;
    let half = basis.scale(crate::rules::mp::Frac::new(1, 2)).floor_cells() as i32;
    let horse = me.mount.map_or(0, |m| horse_move_cells(fight, t, m));
    let charge_bonus = if me.mounted() {
        horse + seed::HORSE_CHARGE_BONUS
    } else {
        full
    };
    let foot = match (card, tac_phase) {
        (TacCard::Retreat, true) => half,
        (TacCard::Retreat, false) => seed::MELEE_CHARGE,
        (TacCard::RunAway, true) => full,
        (TacCard::RunAway, false) => charge_bonus + seed::RUN_AWAY_EXTRA,
        (TacCard::Close, _) => 1,
        (TacCard::Fleche, _) => 2,
        (TacCard::Charge, true) => return charge_bonus,
        (TacCard::Charge, false) => {
            return if me.mounted() {
                charge_bonus
            } else {
                seed::MELEE_CHARGE
            };
        }
        _ => 0,
    };
    foot + horse
}

/// Moves figure `i` by its TAC card. Returns a description and whether it moved.
pub fn tac_move(
    fight: &mut Fight,
    t: &Tables,
    i: usize,
    card: TacCard,
    target: Option<usize>,
    tac_phase: bool,
) -> (String, bool) {
    let id = fight.fighters[i].id.clone();
    let n = tac_distance(fight, t, i, card, tac_phase);
    let start = fight.fighters[i].cell;
    match card {
        TacCard::StandGround | TacCard::KeepDistance => (
            format!("{id} plays {} and holds its place.", card.name()),
            false,
        ),
        TacCard::Retreat | TacCard::RunAway => {
            let run = card == TacCard::RunAway;
            match retreat_path(fight, i, n) {
                Some((end, dir)) if end != start => {
                    let facing = if run || fight.fighters[i].mounted() {
                        dir
                    } else {
                        nearest(fight, i)
                            .and_then(|e| fight.grid().dir_towards(end, fight.fighters[e].cell))
                            .unwrap_or(dir)
                    };
                    fight.place(i, end, facing);
                    (
                        format!(
                            "{id} {} from {start} to {end} ({n}\" at most), {}.",
                            if run {
                                "RUNS AWAY"
                            } else {
                                "RETREATS in good order"
                            },
                            if run {
                                "its back to the enemy".to_string()
                            } else {
                                format!("facing {}", fight.grid().dir_name(facing))
                            }
                        ),
                        true,
                    )
                }
                _ => (
                    format!(
                        "{id} plays {} but finds no way that leaves it farther from the enemy.",
                        card.name()
                    ),
                    false,
                ),
            }
        }
        TacCard::Close | TacCard::Fleche | TacCard::Charge => {
            if fight
                .enemies_within(i, 1)
                .into_iter()
                .any(|j| fight.in_contact(i, j))
            {
                return (
                    format!(
                        "{id} plays {} but is already in contact: no movement (D6).",
                        card.name()
                    ),
                    false,
                );
            }
            let tgt = target.or_else(|| close_target(fight, i));
            let Some(tg) = tgt else {
                return (
                    format!("{id} plays {} but has no enemy before it.", card.name()),
                    false,
                );
            };
            let moved = advance(fight, t, i, tg, n, card);
            let end = fight.fighters[i].cell;
            let tid = fight.fighters[tg].id.clone();
            let contact = fight.in_contact(i, tg);
            if moved {
                (
                    format!(
                        "{id} plays {} at {tid}: {start} → {end}{}.",
                        card.name(),
                        if contact {
                            ", into contact"
                        } else {
                            ", short of contact"
                        }
                    ),
                    true,
                )
            } else {
                (
                    format!("{id} plays {} at {tid} but cannot advance.", card.name()),
                    false,
                )
            }
        }
    }
}

/// CLOSE without a named target: the nearest enemy to the front or side.
fn close_target(fight: &Fight, i: usize) -> Option<usize> {
    let c = fight.fighters[i].cell;
    fight
        .enemies(i)
        .filter(|&j| fight.in_front_of(i, j))
        .min_by_key(|&j| {
            (
                fight.far(c, fight.fighters[j].cell),
                fight.fighters[j].id.clone(),
            )
        })
}

/// Straight towards `tg` up to `n` cells, stopping in contact with it or on meeting another
/// enemy's front (D16; charging steeds excepted). CLOSE and FLECHE may step round an
/// obstacle; CHARGE never leaves its line. A mount advances along its heading.
fn advance(fight: &mut Fight, t: &Tables, i: usize, tg: usize, n: i32, card: TacCard) -> bool {
    let g = fight.grid();
    let mounted = fight.fighters[i].mounted();
    let start = fight.fighters[i].cell;
    let target = fight.fighters[tg].cell;
    let line = if mounted {
        let h = fight.fighters[i].facing;
        let mut v = vec![start];
        for _ in 0..n {
            let next = g.neighbour(*v.last().unwrap_or(&start), h);
            v.push(next);
        }
        v
    } else {
        g.line(start, target)
    };
    let mut at = start;
    let mut dir = fight.fighters[i].facing;
    for k in 1..=n as usize {
        if g.distance(at, target) <= 1 {
            break;
        }
        let mut next = line.get(k).copied();
        if next.is_some_and(|c| !fight.free(c, mounted)) || next.is_none() {
            next = if card == TacCard::Charge || mounted {
                None
            } else {
                g.neighbours(at)
                    .map(|(_, c)| c)
                    .filter(|&c| {
                        fight.free(c, false) && g.distance(c, target) < g.distance(at, target)
                    })
                    .min_by_key(|&c| (fight.far(c, target), c.y, c.x))
            };
        }
        let Some(c) = next else { break };
        if !fight.free(c, mounted) {
            break;
        }
        dir = g.dir_to_adjacent(at, c).unwrap_or(dir);
        at = c;
        // D16: meeting another enemy's front stops the figure (charging steeds excepted).
        let charging_steed = mounted && card == TacCard::Charge;
        let blocked = fight.fighters_within(at, 1).into_iter().any(|j| {
            j != tg && fight.is_enemy(i, j) && {
                let e = &fight.fighters[j];
                g.distance(at, e.cell) == 1
                    && g.side_facing(e.shape, e.cell, e.facing, at).is_frontal()
            }
        });
        if blocked && !charging_steed {
            break;
        }
    }
    if at == start {
        return false;
    }
    let facing = if mounted {
        fight.fighters[i].facing
    } else if card == TacCard::Charge {
        dir
    } else {
        // Free reorientation after contact (D16): FLECHE realigns freely, CLOSE turns up to
        // 45° free; the rest costs a blow when it has one.
        let want = g.dir_towards(at, target).unwrap_or(dir);
        let k = g.turn_between(dir, want);
        if card == TacCard::Fleche || k.abs() <= 1 {
            want
        } else if fight.fighters[i].blows > 0 {
            fight.fighters[i].blows -= 1;
            want
        } else {
            g.rotate(dir, k.signum())
        }
    };
    let _ = t;
    fight.place(i, at, facing);
    true
}

/// RETREAT / RUN AWAY: the end cell within `n` cells (paying terrain) that is farthest from
/// the enemy nearest at the start, then from all enemies, then reached with the fewest turns
/// (a retreat turns only when terrain forces it or it gains distance). Mounts retreat along
/// one of their headings. Returns the end and the last direction moved.
pub fn retreat_path(fight: &Fight, i: usize, n: i32) -> Option<(Cell, Dir)> {
    let g = fight.grid();
    let me = &fight.fighters[i];
    let mounted = me.mounted() || me.is_mount();
    let start = me.cell;
    let near = nearest(fight, i)?;
    let nc = fight.fighters[near].cell;
    let from_all = fight.far_from_enemies(i);
    // Each end cell scored once: the sum reads every enemy on a hex map.
    let mut scores: HashMap<Cell, (i64, i64)> = HashMap::new();
    let mut score = |c: Cell| -> (i64, i64) {
        *scores
            .entry(c)
            .or_insert_with(|| (fight.far(c, nc), from_all.at(fight, c)))
    };
    let budget = Mp::cells(n as i64);
    // Search states (cell, last direction) by cost; keep the fewest turns per state.
    let mut best: BTreeMap<(Cell, Dir), (Mp, u32)> = BTreeMap::new();
    let mut frontier: Vec<(Cell, Dir, Mp, u32)> = Vec::new();
    let dirs: Vec<Dir> = if mounted {
        g.headings().collect()
    } else {
        g.all_dirs().collect()
    };
    for &d in &dirs {
        frontier.push((start, d, Mp::ZERO, 0));
    }
    let mut ends: Vec<(Cell, Dir, u32, Mp)> = Vec::new();
    while let Some((c, d, cost, turns)) = frontier.pop() {
        for &nd in &dirs {
            if mounted && nd != d {
                continue;
            }
            let next = g.neighbour(c, nd);
            if !fight.free(next, mounted) {
                continue;
            }
            let mult = fight
                .board
                .terrain_at(next)
                .multiplier(mounted)
                .unwrap_or(Mp::ONE);
            let nc2 = cost + mult;
            if nc2 > budget {
                continue;
            }
            let nt = turns + u32::from(nd != d && c != start);
            let key = (next, nd);
            if best
                .get(&key)
                .is_some_and(|&(bc, bt)| bc <= nc2 && bt <= nt)
            {
                continue;
            }
            best.insert(key, (nc2, nt));
            ends.push((next, nd, nt, nc2));
            frontier.push((next, nd, nc2, nt));
        }
    }
    let here = score(start);
    let ends: Vec<_> = ends
        .into_iter()
        .map(|e| (score(e.0), e))
        .filter(|(s, _)| *s > here)
        .collect();
    ends.into_iter()
        .max_by(|(sa, a), (sb, b)| {
            sa.cmp(sb)
                .then(b.2.cmp(&a.2))
                .then(b.3.cmp(&a.3))
                .then((b.0.y, b.0.x, b.1).cmp(&(a.0.y, a.0.x, a.1)))
        })
        .map(|(_, (c, d, ..))| (c, d))
}

/// MOVE 1": a step, a turn or standing up. Returns what happened.
pub fn do_step(fight: &mut Fight, i: usize, step: MoveStep, stand_roll: Option<u32>) -> String {
    let id = fight.fighters[i].id.clone();
    let g = fight.grid();
    match step {
        MoveStep::To(d) => {
            let to = g.neighbour(fight.fighters[i].cell, d);
            if !fight.free(to, false) {
                return format!("{id}'s MOVE 1\" finds {to} taken: it stays.");
            }
            let facing = fight.fighters[i].facing;
            let before: Vec<usize> = fight
                .enemies_within(i, 1)
                .into_iter()
                .filter(|&j| fight.in_contact(i, j))
                .collect();
            fight.place(i, to, facing);
            let fresh: Vec<usize> = fight
                .enemies_within(i, 1)
                .into_iter()
                .filter(|&j| fight.in_contact(i, j) && !before.contains(&j))
                .collect();
            for &j in &fresh {
                fight.fighters[j].state.fresh_contact = true;
                fight.fighters[j].state.moved_against = true;
                fight.fighters[i].state.fresh_contact = true;
            }
            format!("{id} moves 1\" to {to} (MOVE 1\").")
        }
        MoveStep::Face(d) => {
            let cell = fight.fighters[i].cell;
            fight.place(i, cell, d);
            format!("{id} turns to face {} (MOVE 1\").", g.dir_name(d))
        }
        MoveStep::StandUp => match fight.fighters[i].state.posture {
            Posture::Kneeling => {
                fight.fighters[i].state.posture = Posture::Standing;
                format!("{id} regains his feet.")
            }
            Posture::Prone => {
                let v = stand_roll.unwrap_or(6);
                if v <= seed::STAND_UP_D6 {
                    fight.fighters[i].state.posture = Posture::Standing;
                    format!(
                        "{id} tries to stand up (1–{} on a d6): rolls {v}, and is up.",
                        seed::STAND_UP_D6
                    )
                } else {
                    format!(
                        "{id} tries to stand up (1–{} on a d6): rolls {v}, and stays down.",
                        seed::STAND_UP_D6
                    )
                }
            }
            Posture::Standing => format!("{id} is already standing."),
        },
    }
}

/// A horse's MOVE card: straight ahead by its MOVE allowance; a steed at canter or faster
/// slows one speed category for every enemy it comes into contact with (C8).
pub fn horse_move(fight: &mut Fight, t: &Tables, h: usize) -> String {
    let id = fight.fighters[h].id.clone();
    let n = horse_move_cells(fight, t, h);
    let g = fight.grid();
    let unit = fight.unit_of(h);
    let facing = fight.fighters[h].facing;
    let start = fight.fighters[h].cell;
    let mut at = start;
    let mut contacts = Vec::new();
    let before: Vec<usize> = fight
        .enemies_within(h, 1)
        .into_iter()
        .filter(|&j| fight.in_contact(h, j))
        .collect();
    for _ in 0..n {
        let next = g.neighbour(at, facing);
        if !fight.free(next, true) {
            break;
        }
        fight.place(unit, next, facing);
        at = next;
        for j in fight.enemies_within(h, 1) {
            if fight.in_contact(h, j) && !before.contains(&j) && !contacts.contains(&j) {
                contacts.push(j);
            }
        }
    }
    let ran = fight.grid().distance(start, at).max(0) as u8;
    let st = &mut fight.fighters[h].state;
    st.melee_moved = st.melee_moved.saturating_add(ran);
    let mut s = if at == start {
        format!("{id}'s MOVE is blocked at once.")
    } else {
        format!("{id} MOVES {start} → {at} ({n}\" straight ahead).")
    };
    for &j in &contacts {
        fight.fighters[j].state.fresh_contact = true;
        fight.fighters[j].state.moved_against = true;
        fight.fighters[unit].state.fresh_contact = true;
        let g0 = speed_of(fight, h);
        if at_speed(&fight.fighters[h]) {
            let slower = match g0 {
                Gait::Gallop => Gait::Canter,
                Gait::Canter => Gait::Trot,
                x => x,
            };
            fight.fighters[h].state.melee_gait = Some(slower);
            s.push_str(&format!(
                " Contact with {} slows it from the {g0} to the {slower} (C8).",
                fight.fighters[j].id
            ));
        }
    }
    s
}

/// Executes a DODGE after the blows: ½" (one cell) in its direction if still free.
pub fn dodge_move(fight: &mut Fight, i: usize, d: DodgeDir) -> Option<(Cell, Cell)> {
    let unit = fight.unit_of(i);
    let from = fight.fighters[i].cell;
    let to = fight.grid().neighbour(from, fight.dodge_dir(i, d));
    if !fight.free(to, fight.fighters[i].is_mount()) {
        return None;
    }
    let facing = fight.fighters[unit].facing;
    fight.place(unit, to, facing);
    Some((from, to))
}

/// Only unencumbered and partly encumbered figures retreat (KEEP DISTANCE falls back on
/// standing otherwise).
pub fn can_retreat(fight: &Fight, i: usize) -> bool {
    let f = &fight.fighters[i];
    f.mounted() || (f.enc != Encumbrance::Full && f.profile.kind != Kind::DullMonster)
}
