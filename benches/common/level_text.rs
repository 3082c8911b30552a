//! The text of the benches' generated `destrier` levels (both sides played by the AI), shared
//! by `benches/ai.rs` and the level at the limits (`limits.rs`), so both write levels the same
//! way.

/// A unit of a side: its members' ids, as `(id, template, x, y)` placed facing `facing`.
pub struct Unit<'a> {
    /// The group's name.
    pub name: String,
    /// Side name.
    pub side: &'a str,
    /// Facing of every member.
    pub facing: &'a str,
    /// Members: id, template, column, row.
    pub members: Vec<(String, String, usize, usize)>,
}

/// The level's text: a square map of `rows`, the open/rough/hedges/woods legend plus
/// `extra_legend` (entries ending with a comma), Red and Blue both AI, `extra` fields
/// (each ending with a comma), and the units' figures and groups.
pub fn level_text(
    name: &str,
    rows: &[Vec<char>],
    extra_legend: &str,
    extra: &str,
    units: &[Unit],
) -> String {
    let mut figs = Vec::new();
    let mut groups = Vec::new();
    for u in units {
        let mut ids = Vec::new();
        for (id, template, x, y) in &u.members {
            figs.push(format!(
                r#"(id: "{id}", template: "{template}", side: "{}", at: ({x}, {y}), facing: "{}")"#,
                u.side, u.facing
            ));
            ids.push(format!("{id:?}"));
        }
        groups.push(format!(
            r#"(name: "{}", members: [{}])"#,
            u.name,
            ids.join(", ")
        ));
    }
    let (w, h) = (rows.first().map_or(0, Vec::len), rows.len());
    let rows: Vec<String> = rows
        .iter()
        .map(|r| format!("{:?}", r.iter().collect::<String>()))
        .collect();
    format!(
        r#"Level(name: "{name}", ruleset: "destrier", width: {w}, height: {h},
        legend: {{ '.': (name: "open", cost: 1), 'r': (name: "rough", cost: 2),
                   'c': (name: "hedges", cost: 1, cover: true),
                   'f': (name: "woods", cost: 2, cover: true, blocks_sight: true), {extra_legend} }},
        rows: [{}],
        sides: [(name: "Red", control: Ai), (name: "Blue", control: Ai)], {extra}
        figures: [{}],
        groups: [{}])"#,
        rows.join(",\n"),
        figs.join(",\n"),
        groups.join(",\n")
    )
}

/// A `side` × `side` map drawn cell by cell, row by row, from `next() % 100`: open ground
/// below `bands[0]`, woods below `bands[1]`, hedges below `bands[2]`, rough ground above.
pub fn random_rows(side: usize, mut next: impl FnMut() -> u64, bands: [u64; 3]) -> Vec<Vec<char>> {
    let mut rows = vec![vec!['.'; side]; side];
    for row in rows.iter_mut() {
        for c in row.iter_mut() {
            let r = next() % 100;
            *c = if r < bands[0] {
                '.'
            } else if r < bands[1] {
                'f'
            } else if r < bands[2] {
                'c'
            } else {
                'r'
            };
        }
    }
    rows
}
