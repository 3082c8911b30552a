//! Level checks: map, sides, figures, groups and terrain, each error at its line and column.
//!
//! Why one long file: one check a part of the level file, each a short function placing its
//! errors; a list that grows by one function per new field.

use super::*;

// Level checks.

/// True when a figure is a horse on the grid: a rider's mount or a riderless horse.
pub(super) fn is_mounted(t: &Template) -> bool {
    t.mount.is_some() || t.troop == TroopType::Horse
}

/// Checks everything about a level and, when nothing is wrong, builds it.
pub(super) fn build_level(lf: LevelFile, rules: Option<Ruleset>, cx: &mut Ctx) -> Option<Level> {
    let (w, h) = (lf.width, lf.height);
    // Limits again: the header pass normally caught these, but never build a board on trust.
    if w > MAX_SIDE || h > MAX_SIDE || u64::from(w) * u64::from(h) > MAX_CELLS {
        cx.err(
            &[P::F("width")],
            format!("{LIMIT_TAG}a {w} x {h} map is over the size limits"),
        );
        return None;
    }
    if lf.figures.len() > MAX_FIGURES {
        cx.err(
            &[P::F("figures"), P::I(MAX_FIGURES)],
            format!(
                "{LIMIT_TAG}more than {MAX_FIGURES} figures; a level may hold at most {MAX_FIGURES}"
            ),
        );
        return None;
    }
    if w == 0 {
        cx.err(&[P::F("width")], "width is 0: expected at least 1");
    }
    if h == 0 {
        cx.err(&[P::F("height")], "height is 0: expected at least 1");
    }
    if lf.name.trim().is_empty() {
        cx.err(&[P::F("name")], "the level name is empty: expected a name");
    }
    let map = check_map(&lf, cx)?;
    let sides = check_sides(&lf, cx);
    let (placed, ids) = check_figures(&lf, rules.as_ref(), &map, &sides, cx);
    check_groups(&lf, &ids, cx);
    check_beloved(&lf, &ids, cx);
    let victory = super::check_victory::check_victory(&lf, &sides, cx);

    let rules = rules?;
    if !cx.errors.is_empty() {
        return None;
    }
    let mut board = Board::new(
        rules.grid,
        w as i32,
        h as i32,
        lf.legend.values().cloned().collect(),
    );
    board.terrain = map.terrain;
    Some(Level {
        source: cx.file.to_string(),
        text: String::new(),
        file: lf,
        rules,
        board,
        figures: placed,
        victory,
    })
}

/// The terrain id of every cell (row-major), and whether the file gave a valid one.
pub(super) struct MapIds {
    pub(super) terrain: Vec<u8>,
    pub(super) known: Vec<bool>,
}

/// Checks the legend and rows and reads the terrain ids (legend characters sorted; each
/// one's index is its id). `None` only when the legend is too big to number.
pub(super) fn check_map(lf: &LevelFile, cx: &mut Ctx) -> Option<MapIds> {
    let (w, h) = (lf.width, lf.height);
    if lf.legend.len() > usize::from(u8::MAX) + 1 {
        cx.err(
            &[P::F("legend")],
            format!(
                "{LIMIT_TAG}the legend has {} terrains; at most 256 are allowed",
                lf.legend.len()
            ),
        );
        return None;
    }
    if lf.legend.is_empty() {
        cx.err(
            &[P::F("legend")],
            "the legend is empty: expected at least one terrain",
        );
    }
    let ids: BTreeMap<char, u8> = lf
        .legend
        .keys()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    for (ch, t) in &lf.legend {
        check_terrain(*ch, t, cx);
    }

    let (wu, hu) = (w as usize, h as usize);
    let mut map = MapIds {
        terrain: vec![0u8; wu * hu],
        known: vec![false; wu * hu],
    };
    if lf.rows.len() > hu {
        cx.err(
            &[P::F("rows"), P::I(hu)],
            format!(
                "too many rows: height is {h} but rows has {}; expected {h} rows",
                lf.rows.len()
            ),
        );
    } else if lf.rows.len() < hu {
        cx.err(
            &[P::F("rows")],
            format!(
                "too few rows: height is {h} but rows has {}; expected {h} rows",
                lf.rows.len()
            ),
        );
    }
    let legend_list = || list(lf.legend.keys().map(|c| format!("{c:?}")));
    for (y, row) in lf.rows.iter().enumerate() {
        let n = row.chars().count();
        if n != wu {
            let what = if n < wu { "short" } else { "long" };
            cx.err(
                &[P::F("rows"), P::I(y)],
                format!("row {y} is too {what}: {n} cells; expected {w} (the width)"),
            );
        }
        let mut reported = HashSet::new();
        for (x, ch) in row.chars().enumerate() {
            match ids.get(&ch) {
                Some(id) if x < wu && y < hu => {
                    map.terrain[y * wu + x] = *id;
                    map.known[y * wu + x] = true;
                }
                Some(_) => {}
                None if reported.insert(ch) => {
                    let off = cx.char_in_string(&[P::F("rows"), P::I(y)], x);
                    cx.err_at(
                        off,
                        format!(
                            "unknown terrain character {ch:?} in row {y}: expected one of the \
                             legend's {}",
                            legend_list()
                        ),
                    );
                }
                None => {}
            }
        }
    }
    Some(map)
}

/// Checks the sides and returns each good name's index.
pub(super) fn check_sides<'l>(lf: &'l LevelFile, cx: &mut Ctx) -> HashMap<&'l str, u8> {
    if lf.sides.len() < 2 {
        cx.err(
            &[P::F("sides")],
            format!(
                "a level needs at least 2 sides, found {}: expected a list like \
                 [(name: \"Red\", control: Human), (name: \"Blue\", control: Ai)]",
                lf.sides.len()
            ),
        );
    }
    if lf.sides.len() > MAX_SIDES {
        cx.err(
            &[P::F("sides"), P::I(MAX_SIDES)],
            format!(
                "{LIMIT_TAG}{} sides; at most {MAX_SIDES} are allowed",
                lf.sides.len()
            ),
        );
    }
    let mut index: HashMap<&str, u8> = HashMap::new();
    for (i, s) in lf.sides.iter().enumerate() {
        let at = [P::F("sides"), P::I(i), P::F("name")];
        if s.name.trim().is_empty() {
            cx.err(&at, "a side name is empty: expected a name");
        } else if index.contains_key(s.name.as_str()) {
            cx.err(
                &at,
                format!("duplicate side {:?}: expected each side once", s.name),
            );
        } else if i < MAX_SIDES {
            index.insert(&s.name, i as u8);
        }
    }
    index
}

/// Checks every figure and places the good ones; also returns the index of the figure that
/// owns each id, for the groups.
pub(super) fn check_figures<'l>(
    lf: &'l LevelFile,
    rules: Option<&Ruleset>,
    map: &MapIds,
    sides: &HashMap<&str, u8>,
    cx: &mut Ctx,
) -> (Vec<PlacedFigure>, HashMap<&'l str, usize>) {
    let (w, h) = (lf.width, lf.height);
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut cells: HashMap<Cell, &str> = HashMap::new();
    let mut placed = Vec::with_capacity(lf.figures.len());
    for (i, f) in lf.figures.iter().enumerate() {
        let fp = |field: &'static str| [P::F("figures"), P::I(i), P::F(field)];
        // Id: unique, and usable on the command line.
        if f.id.trim().is_empty() || f.id.chars().any(char::is_whitespace) {
            cx.err(
                &fp("id"),
                format!(
                    "figure id {:?}: expected a non-empty name without spaces (orders use it)",
                    f.id
                ),
            );
        } else if let Some(first) = ids.get(f.id.as_str()) {
            cx.err(
                &fp("id"),
                format!(
                    "duplicate figure id {:?} (figure {first} has it): expected unique ids",
                    f.id
                ),
            );
        } else {
            ids.insert(&f.id, i);
        }
        let side = sides.get(f.side.as_str()).copied();
        if side.is_none() {
            cx.err(
                &fp("side"),
                format!(
                    "unknown side {:?}: expected one of {}",
                    f.side,
                    list(lf.sides.iter().map(|s| &s.name))
                ),
            );
        }
        let template = rules.and_then(|r| {
            let t = r.templates.get(&f.template);
            if t.is_none() {
                cx.err(
                    &fp("template"),
                    format!(
                        "unknown template {:?} in ruleset {:?}: expected one of {}",
                        f.template,
                        r.name,
                        list(r.templates.keys())
                    ),
                );
            }
            t
        });
        let mounted = template.is_some_and(is_mounted);
        // Cell: on the map, enterable, and not shared (D10a).
        let cell = Cell::new(f.at.0, f.at.1);
        let on_map = f.at.0 >= 0 && f.at.1 >= 0 && (f.at.0 as u32) < w && (f.at.1 as u32) < h;
        if !on_map {
            cx.err(
                &fp("at"),
                format!(
                    "figure {:?} at {cell} is off the map: expected 0 <= x < {w} and 0 <= y < {h}",
                    f.id
                ),
            );
        } else {
            let idx = f.at.1 as usize * w as usize + f.at.0 as usize;
            let ter = map
                .terrain
                .get(idx)
                .filter(|_| map.known.get(idx) == Some(&true))
                .and_then(|id| lf.legend.values().nth(usize::from(*id)));
            if let (Some(ter), Some(_)) = (ter, template)
                && ter.multiplier(mounted).is_none()
            {
                cx.err(
                    &fp("at"),
                    format!(
                        "figure {:?} at {cell} stands on impassable terrain {:?}: expected a \
                         cell it could enter",
                        f.id, ter.name
                    ),
                );
            }
            // A2 (`asl`): riderless horses do not count for stacking: any number share a
            // hex, and a unit may share a hex with them.
            let riderless = template
                .is_some_and(|t| t.troop == TroopType::Horse && t.mount.is_none())
                && rules.is_some_and(|r| r.asl.is_some());
            let shared = if riderless {
                None
            } else {
                cells.get(&cell).copied()
            };
            if let Some(other) = shared {
                cx.err(
                    &fp("at"),
                    format!(
                        "two figures in one cell: {:?} and {other:?} at {cell}; expected one \
                         figure per cell (D10a)",
                        f.id
                    ),
                );
            } else if !riderless {
                cells.insert(cell, &f.id);
            }
        }
        let facing = rules.and_then(|r| check_facing(f, r, mounted, cx, &fp("facing")));
        if let (Some(r), Some(t)) = (rules, template) {
            if let Some(g) = f.gait {
                check_gait(f, g, t, r, cx, &fp("gait"));
            }
            for (j, c) in f.conditions.iter().enumerate() {
                if !r.conditions.contains_key(c) {
                    cx.err(
                        &[P::F("figures"), P::I(i), P::F("conditions"), P::I(j)],
                        unknown_condition(c, r),
                    );
                }
            }
            if let (Some(side), Some(facing)) = (side, facing) {
                let mut template = t.clone();
                template.hero |= f.leader;
                placed.push(PlacedFigure {
                    id: f.id.clone(),
                    name: f.name.clone(),
                    template_key: f.template.clone(),
                    template,
                    side,
                    at: cell,
                    facing,
                    gait: f.gait.unwrap_or(Gait::Walk),
                    conditions: t.conditions.iter().chain(&f.conditions).cloned().collect(),
                });
            }
        }
    }
    check_mount_ids(lf, rules, &ids, cx);
    check_names(lf, &placed, cx);
    (placed, ids)
}

/// Two figures of one name would be one figure to a player (issue 34): the second is
/// refused at its `name`, or its `id` when the name is the one made for it.
fn check_names(lf: &LevelFile, placed: &[PlacedFigure], cx: &mut Ctx) {
    let names = crate::level::names_of(placed);
    let mut seen: HashMap<&str, &str> = HashMap::new();
    let mut ids = std::collections::HashSet::new();
    for (i, f) in lf.figures.iter().enumerate() {
        // A second figure of one id is refused for its id already.
        if !ids.insert(f.id.as_str()) {
            continue;
        }
        let name = names.name(&f.id);
        if let Some(other) = seen.insert(name, &f.id) {
            let field = if f.name.is_some() { "name" } else { "id" };
            cx.err(
                &[P::F("figures"), P::I(i), P::F(field)],
                format!(
                    "{:?} and {other:?} would both be called {name:?}; expected a name of its \
                     own for each figure",
                    f.id
                ),
            );
        }
    }
}

/// In the game a rider's mount is a figure of its own, with the id `<rider>.mount`; a
/// figure written with that id would be a second figure with one id (one of them could
/// never be ordered), so it is refused at its `id`.
pub(super) fn check_mount_ids(
    lf: &LevelFile,
    rules: Option<&Ruleset>,
    ids: &HashMap<&str, usize>,
    cx: &mut Ctx,
) {
    let Some(r) = rules else { return };
    for (i, f) in lf.figures.iter().enumerate() {
        let rides = r
            .templates
            .get(&f.template)
            .is_some_and(|t| t.mount.is_some());
        if !rides || ids.get(f.id.as_str()) != Some(&i) {
            continue;
        }
        let mount_id = format!("{}.mount", f.id);
        if let Some(&j) = ids.get(mount_id.as_str()) {
            cx.err(
                &[P::F("figures"), P::I(j), P::F("id")],
                format!(
                    "figure id {mount_id:?} is the id of {:?}'s mount (figure {i} rides, and a \
                     mount's id is its rider's id followed by \".mount\"): expected an id no \
                     other figure or mount has",
                    f.id
                ),
            );
        }
    }
}

/// A facing name of the ruleset's grid; a mount that pays horse turning costs on squares
/// must face along a grid line (H6).
pub(super) fn check_facing(
    f: &FigureSpec,
    r: &Ruleset,
    mounted: bool,
    cx: &mut Ctx,
    at: &[P],
) -> Option<Dir> {
    let g = r.grid;
    let Some(d) = g.parse_dir(&f.facing) else {
        cx.err(
            at,
            format!(
                "unknown facing {:?} on {}: expected one of {}",
                f.facing,
                grid_name(g),
                list(g.all_dirs().map(|d| g.dir_name(d)))
            ),
        );
        return None;
    };
    if mounted && r.style(true) == MoveStyle::Horse && !g.is_orthogonal(d) {
        cx.err(
            at,
            format!(
                "a mount on squares faces along a grid line (H6): expected N, E, S or W, found \
                 {:?}",
                f.facing
            ),
        );
    }
    Some(d)
}

/// Foot figures always walk; a mount's gait must be one the ruleset and its class have.
pub(super) fn check_gait(
    f: &FigureSpec,
    g: Gait,
    t: &Template,
    r: &Ruleset,
    cx: &mut Ctx,
    at: &[P],
) {
    let mounted = is_mounted(t);
    if !mounted && g != Gait::Walk {
        cx.err(
            at,
            format!(
                "{:?} is on foot and foot figures always walk: expected Walk (or no gait), \
                 found {g:?}",
                f.id
            ),
        );
    } else if mounted && r.gait_multiplier(g).is_none() {
        cx.err(
            at,
            format!(
                "the ruleset {:?} has no {g:?}: expected one of {}",
                r.name,
                list(r.gaits.keys().map(|g| format!("{g:?}")))
            ),
        );
    } else if let Some(class) = t.mount.as_ref().and_then(|m| r.horse_classes.get(&m.class))
        && !class.gaits.contains(&g)
    {
        cx.err(
            at,
            format!(
                "{:?}'s mount cannot {g}: expected one of {}",
                f.id,
                list(class.gaits.iter().map(|g| format!("{g:?}")))
            ),
        );
    }
}

/// AI groups (I1): unique names, known members listed once, all on one side.
pub(super) fn check_groups(lf: &LevelFile, ids: &HashMap<&str, usize>, cx: &mut Ctx) {
    let mut names = HashSet::new();
    for (g, group) in lf.groups.iter().enumerate() {
        let name_at = [P::F("groups"), P::I(g), P::F("name")];
        if group.name.trim().is_empty() {
            cx.err(&name_at, "a group name is empty: expected a name");
        } else if !names.insert(group.name.as_str()) {
            cx.err(
                &name_at,
                format!(
                    "duplicate group {:?}: expected unique group names",
                    group.name
                ),
            );
        }
        if group.members.is_empty() {
            cx.err(
                &[P::F("groups"), P::I(g), P::F("members")],
                format!("group {:?} has no members: expected figure ids", group.name),
            );
        }
        let mut members = HashSet::new();
        let mut group_side: Option<&str> = None;
        for (m, id) in group.members.iter().enumerate() {
            let at = [P::F("groups"), P::I(g), P::F("members"), P::I(m)];
            let Some(&fi) = ids.get(id.as_str()) else {
                cx.err(
                    &at,
                    format!(
                        "unknown figure {id:?} in group {:?}: expected the id of a figure",
                        group.name
                    ),
                );
                continue;
            };
            if !members.insert(id.as_str()) {
                cx.err(
                    &at,
                    format!("{id:?} is listed twice in group {:?}", group.name),
                );
            }
            let side = lf.figures.get(fi).map(|f| f.side.as_str());
            match (group_side, side) {
                (None, s) => group_side = s,
                (Some(a), Some(b)) if a != b => cx.err(
                    &at,
                    format!(
                        "group {:?} mixes sides {a:?} and {b:?}: expected one side",
                        group.name
                    ),
                ),
                _ => {}
            }
        }
    }
}

/// §6 FEROCITY: a figure's `beloved` (its Lady or Man) is another figure of its own side.
pub(super) fn check_beloved(lf: &LevelFile, ids: &HashMap<&str, usize>, cx: &mut Ctx) {
    for (i, f) in lf.figures.iter().enumerate() {
        let Some(l) = &f.beloved else { continue };
        let at = [P::F("figures"), P::I(i), P::F("beloved")];
        match ids.get(l.as_str()).map(|&j| &lf.figures[j]) {
            None => cx.err(
                &at,
                format!(
                    "unknown figure {l:?} as {:?}'s beloved: expected the id of a figure",
                    f.id
                ),
            ),
            Some(g) if g.id == f.id => cx.err(
                &at,
                format!(
                    "{:?} names itself as its beloved: expected another figure (§6 FEROCITY)",
                    f.id
                ),
            ),
            Some(g) if g.side != f.side => cx.err(
                &at,
                format!(
                    "{:?}'s beloved {l:?} is of side {:?}: expected a figure of its own side \
                     {:?} (§6 FEROCITY)",
                    f.id, g.side, f.side
                ),
            ),
            Some(_) => {}
        }
    }
}

pub(super) fn grid_name(g: GridKind) -> &'static str {
    match g {
        GridKind::Square => "squares",
        GridKind::Hex => "hexes",
    }
}

/// D17: the heaviest obstacle a legend may declare (a castle gate is lighter).
pub(super) const MAX_OBSTACLE_LB: u32 = 100_000;

pub(super) fn check_terrain(ch: char, t: &Terrain, cx: &mut Ctx) {
    let key = ch.to_string();
    if t.name.trim().is_empty() {
        cx.err(
            &[P::F("legend"), P::K(&key), P::F("name")],
            format!("terrain {ch:?} has an empty name: expected a name"),
        );
    }
    let cost_at = [P::F("legend"), P::K(&key), P::F("cost")];
    if let Some(c) = t.cost
        && !(positive_mp(c) && written_in_range(cx, &cost_at))
    {
        let c = as_written(cx, &cost_at, c);
        cx.err(
            &cost_at,
            format!(
                "terrain {ch:?} costs {c}: expected a positive multiplier up to {MAX_AMOUNT}, \
                 with a denominator of at most {MAX_AMOUNT} as written, or None for impassable"
            ),
        );
    }
    if let Some(w) = t.obstacle
        && !(1..=MAX_OBSTACLE_LB).contains(&w)
    {
        cx.err(
            &[P::F("legend"), P::K(&key), P::F("obstacle")],
            format!(
                "terrain {ch:?} is an obstacle of {w} lb: expected a weight from 1 to \
                 {MAX_OBSTACLE_LB} lb (D17), or no `obstacle`"
            ),
        );
    }
    let mounted_at = [P::F("legend"), P::K(&key), P::F("mounted_cost")];
    if let Some(Some(c)) = t.mounted_cost
        && !(positive_mp(c) && written_in_range(cx, &mounted_at))
    {
        let c = as_written(cx, &mounted_at, c);
        cx.err(
            &mounted_at,
            format!(
                "terrain {ch:?} costs mounted figures {c}: expected a positive multiplier up to \
                 {MAX_AMOUNT}, with a denominator of at most {MAX_AMOUNT} as written, or \
                 Some(None) for impassable"
            ),
        );
    }
}
