//! Issue 29's done-when: no import circle between the modules of `src/sim/` or of
//! `src/rules/melee/`, and nothing outside the simulation but the AI reaches into the game's
//! world (the window and the command line ask the game: `sim/asks.rs`). Each direct child module (a file `x.rs` or a folder `x/`, with the
//! folder's files counted as one) and the parent's own `mod.rs` is a node; a path written in
//! one node's code (`crate::sim::x::…`, `super::x::…`, `use super::{x, y}`, or a parent
//! naming its child `x::…`) that lands in another is an edge. Test code and comments do not
//! count. The vocabulary sits at the bottom (`sim::order`, `sim::phase`, `rules::melee::deck`),
//! the router at the top, so the graph must have no circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path from `src/`, e.g. `["sim", "orders", "moving"]`.
type ModPath = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("source folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") && !p.to_string_lossy().contains("test")
        {
            out.push(p);
        }
    }
}

fn mod_path(src: &Path, file: &Path) -> ModPath {
    let rel = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let mut v: ModPath = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if v.last().is_some_and(|l| l == "mod") {
        v.pop();
    }
    v
}

/// The code of a file without comments, test modules and `pub(in …)` visibility.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = text.lines().collect();
    for (k, line) in lines.iter().enumerate() {
        // An inline test module (`#[cfg(test)] mod tests {`) runs to the end of the file.
        if line.trim_start().starts_with("#[cfg(test)]")
            && lines.get(k + 1).is_some_and(|l| {
                let l = l.trim();
                l.starts_with("mod ") && l.ends_with('{')
            })
        {
            break;
        }
        out.push_str(line.split("//").next().unwrap_or(""));
        out.push('\n');
    }
    while let Some(i) = out.find("pub(in ") {
        let j = out[i..].find(')').map_or(out.len(), |j| i + j + 1);
        out.replace_range(i..j, "pub");
    }
    out
}

fn ident_end(s: &str) -> usize {
    s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len())
}

/// Every module path written in `code` (absolute, from `src/`), `me` being the file's module.
fn paths_in(code: &str, me: &ModPath) -> Vec<ModPath> {
    let mut found = Vec::new();
    for head in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(head) {
            let at = from + k;
            from = at + head.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let base: ModPath = match head {
                "crate::" => Vec::new(),
                "self::" => me.clone(),
                _ => me[..me.len().saturating_sub(1)].to_vec(),
            };
            let mut segs = base;
            let mut rest = &code[from..];
            loop {
                if let Some(r) = rest.strip_prefix("super::") {
                    segs.pop();
                    rest = r;
                    continue;
                }
                if let Some(r) = rest.strip_prefix('{') {
                    let end = r.find('}').unwrap_or(r.len());
                    for item in r[..end].split(',') {
                        let item = item.trim();
                        let mut s = segs.clone();
                        s.extend(item.split("::").map(|x| x[..ident_end(x)].to_string()));
                        found.push(s);
                    }
                    break;
                }
                let n = ident_end(rest);
                if n == 0 {
                    found.push(segs.clone());
                    break;
                }
                segs.push(rest[..n].to_string());
                rest = &rest[n..];
                match rest.strip_prefix("::") {
                    Some(r) => rest = r,
                    None => {
                        found.push(segs.clone());
                        break;
                    }
                }
            }
        }
    }
    found
}

/// The node a module path belongs to under `pkg`: its first segment below `pkg`, or `(mod)`.
fn node_of(pkg: &ModPath, m: &ModPath) -> Option<String> {
    if !m.starts_with(pkg) {
        return None;
    }
    Some(m.get(pkg.len()).cloned().unwrap_or_else(|| "(mod)".into()))
}

fn circles(pkg_dir: &str) -> Vec<Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join(pkg_dir), &mut files);
    let modules: BTreeMap<ModPath, PathBuf> = files
        .iter()
        .map(|f| (mod_path(&src, f), f.clone()))
        .collect();
    let pkg: ModPath = pkg_dir.split('/').map(String::from).collect();
    let resolve = |segs: &ModPath| -> Option<ModPath> {
        (1..=segs.len())
            .rev()
            .map(|k| segs[..k].to_vec())
            .find(|p| modules.contains_key(p))
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (me, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).expect("readable source"));
        let from = node_of(&pkg, me).expect("under the package");
        edges.entry(from.clone()).or_default();
        let mut targets: Vec<ModPath> = paths_in(&code, me).iter().filter_map(&resolve).collect();
        // A parent naming its own child module's items.
        for line in code.lines() {
            let t = line.trim_start();
            let t = t
                .strip_prefix("pub ")
                .or(t.strip_prefix("pub(crate) "))
                .unwrap_or(t);
            if let Some(name) = t.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                let child: ModPath = me.iter().cloned().chain([name.to_string()]).collect();
                let named = code.match_indices(&format!("{name}::")).any(|(i, _)| {
                    !code[..i]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                });
                if named && modules.contains_key(&child) {
                    targets.push(child);
                }
            }
        }
        for t in targets {
            if let Some(to) = node_of(&pkg, &t)
                && to != from
            {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    // The strongly connected parts of more than one node are the circles.
    let nodes: Vec<String> = edges.keys().cloned().collect();
    let reach = |a: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![a.clone()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<String, BTreeSet<String>> =
        nodes.iter().map(|n| (n.clone(), reach(n))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for n in &nodes {
        let part: Vec<String> = nodes
            .iter()
            .filter(|m| reaches[n].contains(*m) && reaches[*m].contains(n))
            .cloned()
            .collect();
        if part.len() > 1 && !out.contains(&part) {
            out.push(part);
        }
    }
    out
}

#[test]
fn no_import_circle_between_the_modules_of_sim() {
    assert_eq!(circles("sim"), Vec::<Vec<String>>::new());
}

#[test]
fn no_import_circle_between_the_modules_of_rules_melee() {
    assert_eq!(circles("rules/melee"), Vec::<Vec<String>>::new());
}

#[test]
fn the_circle_finder_sees_a_circle() {
    // The check could be false: the screens import each other, and it says so.
    assert!(!circles("ui").is_empty());
}

/// The places in `code` that name a `Game`'s `app` field (`game.app.world()`, a field access
/// split over lines): `.app` followed by anything but an identifier's letter.
fn world_reaches(code: &str) -> usize {
    code.match_indices(".app")
        .filter(|(i, _)| {
            code[i + 4..]
                .chars()
                .next()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
        })
        .count()
}

/// Issue 29 item 3: the window and the command line give orders and ask the game questions
/// (`Game::turn_state`, `Game::reach`, `Game::charge_targets`, …); none reads or writes the
/// game's world itself. Outside `sim/` only the AI still does (left in issue 29), and only the
/// tests and benches call `Game::world_for_tests`.
#[test]
fn outside_the_simulation_only_the_ai_reaches_into_the_games_world() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 50, "the sources are read");
    let mut reaching = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&root).expect("under src");
        let code = code_of(&std::fs::read_to_string(&f).expect("source"));
        let door = rel.starts_with("sim") || rel.starts_with("ai");
        let n = if door { 0 } else { world_reaches(&code) };
        // Defined in sim/mod.rs; called nowhere in src/.
        let hatch = if rel == Path::new("sim/mod.rs") {
            0
        } else {
            code.matches("world_for_tests").count()
        };
        if n > 0 || hatch > 0 {
            reaching.push(format!(
                "{} ({n} reaches, {hatch} world_for_tests)",
                rel.display()
            ));
        }
    }
    assert!(reaching.is_empty(), "reach into Game's world: {reaching:?}");
}

#[test]
fn the_world_reach_finder_sees_a_reach() {
    assert_eq!(world_reaches("let w = game.app.world();"), 1);
    assert_eq!(world_reaches("game\n    .app\n    .world()"), 1);
    assert_eq!(world_reaches("let a = self.apply(); x.apples"), 0);
}

/// The names through which the simulation's secrets could be read: the melee's face-down
/// plays and guesses (`MeleeState`), the charge orders before their reveal (`ChargeBook`) and
/// the dice with their seed (`Dice`, `sim::dice`).
const SECRET_HOLDERS: [&str; 4] = ["MeleeState", "ChargeBook", "Dice>", "sim::dice"];

/// How many times `code` names a holder of secrets.
fn secret_reads(code: &str) -> usize {
    SECRET_HOLDERS.iter().map(|h| code.matches(h).count()).sum()
}

/// Issue 29 item 3 and I4: the computer knows what a player at the table would. `src/ai/`
/// reads the melee, the charges and its own seed through `sim::side_asks`, which answers
/// only what the asking side may know; no file of it names the books that hold the other
/// side's face-down choices, nor the dice.
#[test]
fn the_ai_reads_no_book_of_secrets_and_no_dice() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join("ai"), &mut files);
    assert!(files.len() > 10, "the AI's sources are read");
    let reading: Vec<String> = files
        .iter()
        .filter(|f| secret_reads(&code_of(&std::fs::read_to_string(f).expect("source"))) > 0)
        .map(|f| f.display().to_string())
        .collect();
    assert!(reading.is_empty(), "the AI reads secrets in {reading:?}");
}

#[test]
fn the_secret_read_finder_sees_a_read() {
    assert_eq!(secret_reads("world.get_resource::<MeleeState>()"), 1);
    assert_eq!(
        secret_reads("world.resource::<crate::sim::dice::Dice>().seed"),
        2
    );
    assert_eq!(secret_reads("asks::melee_stage(world) // MeleeState"), 1);
    assert_eq!(
        secret_reads(&code_of("asks::melee_stage(world) // MeleeState")),
        0
    );
}
