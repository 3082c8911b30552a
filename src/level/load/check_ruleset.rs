//! Ruleset resolution (built-in or by path) and the checks that keep a ruleset consistent.

use super::*;

// Ruleset resolution and checks.

pub(super) fn resolve_ruleset(
    name: &str,
    base_dir: Option<&Path>,
    cx: &mut Ctx,
) -> Option<Ruleset> {
    let at = [P::F("ruleset")];
    if let Some(src) = builtin_source(name) {
        return match load_ruleset_str(src, &format!("<builtin {name}>")) {
            Ok(r) => Some(r),
            Err(es) => {
                cx.err(&at, format!("the built-in ruleset {name:?} does not load"));
                cx.extend(es);
                None
            }
        };
    }
    let expected = format!(
        "expected one of {} or the path of a ruleset file relative to the level's folder",
        BUILTIN_RULESETS.join(", ")
    );
    let Some(dir) = base_dir.filter(|_| !name.trim().is_empty()) else {
        cx.err(&at, format!("unknown ruleset {name:?}: {expected}"));
        return None;
    };
    // The path stays inside the level's folder: a shared level can never make the game read
    // (and report on) a file elsewhere.
    let rel = Path::new(name);
    let inside = !rel.is_absolute()
        && rel.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
    if !inside {
        cx.err(
            &at,
            format!(
                "the ruleset path {name:?} leaves the level's folder: expected one of {} or a \
                 relative path inside the level's folder, such as \"rules/house.ron\" (no \
                 absolute paths, no \"..\")",
                BUILTIN_RULESETS.join(", ")
            ),
        );
        return None;
    }
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let path = dir.join(rel);
    if !path.is_file() {
        cx.err(
            &at,
            format!(
                "unknown ruleset {name:?} (no file {}): {expected}",
                crate::level::error::shown_path(&path)
            ),
        );
        return None;
    }
    // …and does not leave it through a symbolic link either.
    if let (Ok(base), Ok(target)) = (dir.canonicalize(), path.canonicalize())
        && !target.starts_with(&base)
    {
        cx.err(
            &at,
            format!(
                "the ruleset path {name:?} leads outside the level's folder (through a \
                 symbolic link): expected a ruleset file inside the level's folder"
            ),
        );
        return None;
    }
    let shown = crate::level::error::shown_path(&path);
    let src = match read_source(&path) {
        Ok(src) => src,
        Err(es) => {
            cx.err(&at, format!("the ruleset file {shown} cannot be read"));
            cx.extend(es);
            return None;
        }
    };
    // Only a file that says it is a ruleset is parsed, so the errors of some other file (which
    // would quote its words) are never shown.
    if first_ident_before_paren(&src).as_deref() != Some("Ruleset") {
        cx.err(
            &at,
            format!(
                "the file {shown} is not a ruleset: expected a file that begins with \
                 `Ruleset(` (after any comments)"
            ),
        );
        return None;
    }
    match load_ruleset_str(&src, &shown) {
        Ok(r) => Some(r),
        Err(es) => {
            cx.err(
                &at,
                format!("the ruleset file {shown} has {} error(s)", es.len()),
            );
            cx.extend(es);
            None
        }
    }
}

/// Largest movement amount (cells) or multiplier a file may give, and largest denominator.
/// Real rules need single or double digits; the bound keeps every later sum and product far
/// from overflow, so no file can make the engine's arithmetic panic.
pub const MAX_AMOUNT: i64 = 1000;

/// Largest distance in feet a file may give (R2 penalties, R1 conditions, `cell_feet`).
pub const MAX_FEET: i64 = 1_000_000;

pub(super) fn frac_in_range(f: Frac) -> bool {
    (1..=MAX_AMOUNT).contains(&f.den)
        && f.num.unsigned_abs() <= MAX_AMOUNT.unsigned_abs() * f.den.unsigned_abs()
}

pub(super) fn mp_in_range(m: Mp) -> bool {
    m.raw().unsigned_abs() <= Mp::cells(MAX_AMOUNT).raw().unsigned_abs()
        && m.as_fraction().1 <= MAX_AMOUNT
}

/// True unless the amount or fraction at `path` is *written* out of range: a denominator
/// over [`MAX_AMOUNT`] as written (before reducing: `"9223372036854775807/9223372036854775807"`
/// is 1, but no file may write it), or a whole part or numerator past what the range allows.
/// Reduced values are checked by the other `*_in_range` functions; this closes the gap where
/// an absurd fraction reduces to a sensible one. A value the text does not show (or that is
/// not a number) is left to those checks.
pub(super) fn written_in_range(cx: &Ctx, path: &[P]) -> bool {
    let Some(Kind::Atom(t)) = cx.node(path).map(|n| &n.kind) else {
        return true;
    };
    let text = if t.starts_with('"') || t.starts_with('r') {
        match ron::from_str::<String>(t) {
            Ok(s) => s,
            Err(_) => return true,
        }
    } else {
        (*t).to_string()
    };
    written_fraction_in_range(&text)
}

/// A value as the file writes it (`"1/100800"`, quotes and all), for messages about how it
/// is written; `value` when the text does not show it.
pub(super) fn as_written(cx: &Ctx, path: &[P], value: impl fmt::Display) -> String {
    match cx.node(path).map(|n| &n.kind) {
        Some(Kind::Atom(t)) => (*t).to_string(),
        _ => value.to_string(),
    }
}

/// The rule of [`written_in_range`] on the text of one number (`7`, `"27/2"`, `"2 1/2"`).
pub(super) fn written_fraction_in_range(text: &str) -> bool {
    let max = i128::from(MAX_AMOUNT);
    let num = |t: &str| t.trim().parse::<i128>().ok();
    let s = text.trim();
    let (whole, frac) = match s.split_once(' ') {
        Some((w, f)) => (Some(w), f),
        None => (None, s),
    };
    let (n, d) = match frac.split_once('/') {
        Some((n, d)) => (n, Some(d)),
        None => (frac, None),
    };
    let (Some(n), Some(d)) = (num(n), d.map_or(Some(1), num)) else {
        // Not a number this rule can read: the parse has refused it, or it is not an amount.
        return true;
    };
    if !(1..=max).contains(&d) {
        return false;
    }
    match whole.map(num) {
        Some(Some(w)) => w.abs() <= max && n.abs() <= max * d,
        Some(None) => true,
        None => n.abs() <= max * d,
    }
}

pub(super) fn feet_in_range(ft: i64) -> bool {
    ft.unsigned_abs() <= MAX_FEET.unsigned_abs()
}

pub(super) fn frac_positive(f: Frac) -> bool {
    f.num > 0 && frac_in_range(f)
}

pub(super) fn frac_unit(f: Frac) -> bool {
    f.num >= 0 && f.num <= f.den && frac_in_range(f)
}

pub(super) fn positive_mp(m: Mp) -> bool {
    m > Mp::ZERO && mp_in_range(m)
}

pub(super) fn non_negative_mp(m: Mp) -> bool {
    m >= Mp::ZERO && mp_in_range(m)
}

/// Checks a ruleset for self-consistency, placing each problem at the value that causes it.
pub(super) fn check_ruleset(r: &Ruleset, cx: &mut Ctx) {
    if r.name.trim().is_empty() {
        cx.err(
            &[P::F("name")],
            "the ruleset name is empty: expected a name",
        );
    }
    // Gaits (H2).
    if !r.gaits.contains_key(&Gait::Walk) {
        cx.err(
            &[P::F("gaits")],
            "gaits has no Walk multiplier: expected at least `Walk: 1`",
        );
    }
    for (g, m) in &r.gaits {
        let key = format!("{g:?}");
        let at = [P::F("gaits"), P::K(&key)];
        if *g != Gait::Halt && !(frac_positive(*m) && written_in_range(cx, &at)) {
            cx.err(
                &at,
                format!("the {g} multiplier is {m}: expected a positive number up to {MAX_AMOUNT}"),
            );
        }
    }
    // Horse classes (H1, A7).
    for (name, class) in &r.horse_classes {
        let at = [P::F("horse_classes"), P::K(name), P::F("walk")];
        if !(positive_mp(class.walk) && written_in_range(cx, &at)) {
            cx.err(
                &at,
                format!(
                    "horse class {name:?} walks {}: expected a positive rate up to {MAX_AMOUNT}",
                    class.walk
                ),
            );
        }
        if class.gaits.is_empty() {
            cx.err(
                &[P::F("horse_classes"), P::K(name), P::F("gaits")],
                format!("horse class {name:?} has no gaits: expected at least [Halt, Walk]"),
            );
        }
        for (j, g) in class.gaits.iter().enumerate() {
            if *g != Gait::Halt && !r.gaits.contains_key(g) {
                cx.err(
                    &[P::F("horse_classes"), P::K(name), P::F("gaits"), P::I(j)],
                    format!(
                        "horse class {name:?} can {g}, but the ruleset's gaits give no {g} \
                         multiplier: expected one of {}",
                        list(r.gaits.keys().map(|g| format!("{g:?}")))
                    ),
                );
            }
        }
    }
    // Turning and manoeuvre costs (D14, H3–H5).
    for (field, f) in [
        ("front", r.foot_turn.front),
        ("side", r.foot_turn.side),
        ("rear", r.foot_turn.rear),
    ] {
        let at = [P::F("foot_turn"), P::F(field)];
        if !(frac_unit(f) && written_in_range(cx, &at)) {
            cx.err(
                &at,
                format!("foot_turn.{field} is {f}: expected a fraction from 0 to 1"),
            );
        }
    }
    let at = [P::F("foot_turn"), P::F("minimum")];
    if !(non_negative_mp(r.foot_turn.minimum) && written_in_range(cx, &at)) {
        cx.err(
            &at,
            format!(
                "foot_turn.minimum is {}: expected 0 to {MAX_AMOUNT}",
                r.foot_turn.minimum
            ),
        );
    }
    for (field, v) in [
        ("veer", r.horse.veer),
        ("right_angle", r.horse.right_angle),
        ("turn_around", r.horse.turn_around),
        ("back_up", r.horse.back_up),
    ] {
        let at = [P::F("horse"), P::F(field)];
        if !(non_negative_mp(v) && written_in_range(cx, &at)) {
            cx.err(
                &at,
                format!("horse.{field} is {v}: expected 0 to {MAX_AMOUNT}"),
            );
        }
    }
    if r.gallop_streak == Some(0) {
        cx.err(
            &[P::F("gallop_streak")],
            "gallop_streak is 0: expected at least 1 (or None for no limit)",
        );
    }
    if !(0..=MAX_FEET).contains(&r.cell_feet) {
        cx.err(
            &[P::F("cell_feet")],
            format!("cell_feet is {}: expected 0 to {MAX_FEET}", r.cell_feet),
        );
    }
    // Activity penalties (D15, R2).
    let mut uses_feet = false;
    for (act, p) in &r.activities {
        let key = format!("{act:?}");
        let bad: Option<String> = match p {
            Penalty::Allowance(f) | Penalty::Species(f) => {
                (!frac_unit(*f)).then(|| format!("{f}: expected a fraction from 0 to 1"))
            }
            Penalty::ByEncumbrance {
                none,
                partial,
                full,
            } => [none, partial, full]
                .into_iter()
                .find(|f| !frac_unit(**f))
                .map(|f| format!("{f}: expected fractions from 0 to 1")),
            Penalty::Feet(ft) => {
                uses_feet = true;
                (!(0..=MAX_FEET).contains(ft))
                    .then(|| format!("{ft} feet: expected 0 to {MAX_FEET}"))
            }
            Penalty::HalveAllowance | Penalty::Free => None,
        };
        if let Some(bad) = bad {
            cx.err(
                &[P::F("activities"), P::K(&key)],
                format!("the {key} penalty is {bad}"),
            );
        }
    }
    match &r.mounting {
        MountRule::Asl if r.asl.is_none() => cx.err(
            &[P::F("mounting")],
            "mounting is Asl but the ruleset has no `asl` numbers: expected `asl: Some((...))`",
        ),
        MountRule::ByEncumbrance {
            none,
            partial,
            full,
        } if ![none, partial, full].iter().all(|f| frac_unit(**f)) => cx.err(
            &[P::F("mounting")],
            "mounting fractions: expected fractions from 0 to 1",
        ),
        MountRule::BySteedSize { large, huge } if !frac_unit(*large) || !frac_unit(*huge) => cx
            .err(
                &[P::F("mounting")],
                "mounting fractions: expected fractions from 0 to 1",
            ),
        _ => {}
    }
    if let Some(c) = r.crawl_cost
        && !(positive_mp(c) && written_in_range(cx, &[P::F("crawl_cost")]))
    {
        cx.err(
            &[P::F("crawl_cost")],
            format!("crawl_cost is {c}: expected a positive multiplier up to {MAX_AMOUNT}"),
        );
    }
    if !(positive_mp(r.ally_pass_cost) && written_in_range(cx, &[P::F("ally_pass_cost")])) {
        cx.err(
            &[P::F("ally_pass_cost")],
            format!(
                "ally_pass_cost is {}: expected a positive cost up to {MAX_AMOUNT}",
                r.ally_pass_cost
            ),
        );
    }
    // Conditions (R1).
    for (name, c) in &r.conditions {
        if c.feet.is_some() {
            uses_feet = true;
        }
        if let Some(p) = c.percent
            && !(frac_in_range(p)
                && written_in_range(cx, &[P::F("conditions"), P::K(name), P::F("percent")]))
        {
            cx.err(
                &[P::F("conditions"), P::K(name), P::F("percent")],
                format!(
                    "condition {name:?} changes movement by {p}: expected at most {MAX_AMOUNT}"
                ),
            );
        }
        if let Some(ft) = c.feet
            && !feet_in_range(ft)
        {
            cx.err(
                &[P::F("conditions"), P::K(name), P::F("feet")],
                format!("condition {name:?} is {ft} feet: expected -{MAX_FEET} to {MAX_FEET}"),
            );
        }
        if let Some(cells) = c.cells
            && !(mp_in_range(cells)
                && written_in_range(cx, &[P::F("conditions"), P::K(name), P::F("cells")]))
        {
            cx.err(
                &[P::F("conditions"), P::K(name), P::F("cells")],
                format!(
                    "condition {name:?} is {cells} cells: expected -{MAX_AMOUNT} to {MAX_AMOUNT}"
                ),
            );
        }
    }
    if uses_feet && r.cell_feet <= 0 {
        cx.err(
            &[P::F("cell_feet")],
            "penalties or conditions are in feet but cell_feet is not set: expected the feet \
             in one cell (e.g. `cell_feet: 5`)",
        );
    }
    // Templates.
    for (key, t) in &r.templates {
        check_template(r, key, t, cx);
    }
}

pub(super) fn check_template(r: &Ruleset, key: &str, t: &Template, cx: &mut Ctx) {
    let sub = |rest: &[P<'static>]| -> Vec<P<'_>> {
        let mut path = vec![P::F("templates"), P::K(key)];
        path.extend_from_slice(rest);
        path
    };
    if key.trim().is_empty() {
        cx.err(&sub(&[]), "a template key is empty: expected a name");
    }
    if !(non_negative_mp(t.rate) && written_in_range(cx, &sub(&[P::F("rate")]))) {
        cx.err(
            &sub(&[P::F("rate")]),
            format!(
                "template {key:?} has rate {}: expected 0 to {MAX_AMOUNT}",
                t.rate
            ),
        );
    }
    let cavalry = matches!(
        t.troop,
        TroopType::ShockCavalry | TroopType::ShootingCavalry | TroopType::MountedInfantry
    );
    match &t.mount {
        Some(m) => {
            if !cavalry {
                cx.err(
                    &sub(&[P::F("troop")]),
                    format!(
                        "template {key:?} rides a mount but its troop is {:?}: expected \
                         ShockCavalry, ShootingCavalry or MountedInfantry",
                        t.troop
                    ),
                );
            }
            if !r.horse_classes.contains_key(&m.class) {
                cx.err(
                    &sub(&[P::F("mount"), P::F("class")]),
                    format!(
                        "unknown horse class {:?} in template {key:?}: expected one of {}",
                        m.class,
                        list(r.horse_classes.keys())
                    ),
                );
            }
        }
        None if cavalry => cx.err(
            &sub(&[P::F("troop")]),
            format!(
                "template {key:?} is {:?} but has no mount: expected `mount: Some((...))`",
                t.troop
            ),
        ),
        None => {}
    }
    for (j, c) in t.conditions.iter().enumerate() {
        if !r.conditions.contains_key(c) {
            cx.err(
                &sub(&[P::F("conditions"), P::I(j)]),
                unknown_condition(c, r),
            );
        }
    }
}

pub(super) fn unknown_condition(c: &str, r: &Ruleset) -> String {
    if r.conditions.is_empty() {
        format!(
            "unknown condition {c:?}: the ruleset {:?} defines no conditions",
            r.name
        )
    } else {
        format!(
            "unknown condition {c:?}: expected one of {}",
            list(r.conditions.keys())
        )
    }
}

/// `a, b, c` for "expected one of" messages, cut short when long.
pub(super) fn list<I, S>(items: I) -> String
where
    I: IntoIterator<Item = S>,
    S: fmt::Display,
{
    let mut out = String::new();
    for (i, s) in items.into_iter().enumerate() {
        if i == 16 {
            out.push_str(", …");
            break;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&s.to_string());
    }
    if out.is_empty() {
        out.push_str("(none)");
    }
    out
}
