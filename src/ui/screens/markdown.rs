//! Just enough Markdown to read `docs/rules.md` in the window: headings, paragraphs, bullets
//! (nested), numbered items, code blocks, and tables laid out as aligned monospace text. Inline
//! `**bold**`, `*italic*`, `` `code` `` and `[links](…)` are styled or unwrapped. Parsing is a
//! pure function so it is tested without egui; drawing only copies the blocks onto a `Ui`.

use bevy_egui::egui;

/// The rules page, embedded so the window shows the rules of this very build.
pub const RULES_MD: &str = include_str!("../../../docs/rules.md");

/// One block of a Markdown document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// `#`…`######`: level and text.
    Heading(u8, String),
    /// Running text, lines joined with spaces.
    Paragraph(String),
    /// A `-`/`*`/`+` item: nesting depth (0 at the margin) and text.
    Bullet(usize, String),
    /// A `1.` item: depth, its number as written, and text.
    Numbered(usize, String, String),
    /// A fenced code block, verbatim.
    Code(String),
    /// A table, already laid out as aligned monospace lines.
    Table(String),
}

/// Splits Markdown text into blocks. Never fails: anything it does not recognise is text.
pub fn parse(md: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = md.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("```") {
            let mut code = Vec::new();
            for l in lines.by_ref() {
                if l.trim_start().starts_with("```") {
                    break;
                }
                code.push(l);
            }
            out.push(Block::Code(code.join("\n")));
        } else if trimmed.starts_with('|') {
            let mut rows = vec![trimmed];
            while let Some(l) = lines.next_if(|l| l.trim_start().starts_with('|')) {
                rows.push(l.trim_start());
            }
            out.push(Block::Table(layout_table(&rows)));
        } else if let Some((level, text)) = heading(trimmed) {
            out.push(Block::Heading(level, text.to_string()));
        } else if let Some(start) = item_start(trimmed) {
            let mut text = trimmed[start.len()..].trim().to_string();
            while let Some(l) = lines.next_if(|l| continues(l, indent)) {
                text.push(' ');
                text.push_str(l.trim());
            }
            let depth = indent / 2;
            out.push(match start.trim_end().strip_suffix('.') {
                Some(n) => Block::Numbered(depth, n.to_string(), text),
                None => Block::Bullet(depth, text),
            });
        } else {
            let mut text = trimmed.trim_end().to_string();
            while let Some(l) = lines.next_if(|l| starts_plain(l)) {
                text.push(' ');
                text.push_str(l.trim());
            }
            out.push(Block::Paragraph(text));
        }
    }
    out
}

fn heading(line: &str) -> Option<(u8, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    let rest = line.get(level..)?;
    ((1..=6).contains(&level) && rest.starts_with(' ')).then(|| (level as u8, rest.trim()))
}

/// The marker of a list item (`- `, `12. `), if the line starts one.
fn item_start(line: &str) -> Option<&str> {
    if ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m)) {
        return line.get(..2);
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    (digits > 0 && line[digits..].starts_with(". ")).then(|| &line[..digits + 2])
}

/// A line that carries on the block above: indented past `indent`, not blank, and not the
/// start of anything else.
fn continues(line: &str, indent: usize) -> bool {
    let t = line.trim_start();
    let ind = line.len() - t.len();
    ind > indent && starts_plain(line) && item_start(t).is_none()
}

fn starts_plain(line: &str) -> bool {
    let t = line.trim_start();
    !t.is_empty()
        && !t.starts_with('|')
        && !t.starts_with("```")
        && heading(t).is_none()
        && item_start(t).is_none()
}

/// Lays out `| a | b |` rows as aligned columns; the `|---|` row becomes a rule.
fn layout_table(rows: &[&str]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let r = r.trim().trim_start_matches('|').trim_end_matches('|');
            split_cells(r).iter().map(|c| plain(c.trim())).collect()
        })
        .collect();
    let is_rule = |row: &Vec<String>| {
        row.iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')))
    };
    let cols = cells.iter().map(Vec::len).max().unwrap_or(0);
    let mut width = vec![0usize; cols];
    for row in cells.iter().filter(|r| !is_rule(r)) {
        for (i, c) in row.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let mut out = Vec::new();
    for row in &cells {
        if is_rule(row) {
            let total = width.iter().sum::<usize>() + 3 * cols.saturating_sub(1);
            out.push("─".repeat(total));
            continue;
        }
        let line: Vec<String> = (0..cols)
            .map(|i| {
                let c = row.get(i).map_or("", String::as_str);
                format!("{c}{}", " ".repeat(width[i] - c.chars().count()))
            })
            .collect();
        out.push(line.join(" │ ").trim_end().to_string());
    }
    out.join("\n")
}

/// Splits a table row on `|`, keeping `\|` and pipes inside backticks.
fn split_cells(row: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let (mut code, mut esc) = (false, false);
    for ch in row.chars() {
        match ch {
            '\\' if !esc => {
                esc = true;
                continue;
            }
            '`' => code = !code,
            '|' if !code && !esc => {
                cells.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(c) = cells.last_mut() {
            if esc && ch != '|' {
                c.push('\\');
            }
            c.push(ch);
        }
        esc = false;
    }
    cells
}

/// Inline styles of a span of text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// The text shown.
    pub text: String,
    /// `**bold**`.
    pub bold: bool,
    /// `*italic*`.
    pub italic: bool,
    /// `` `code` ``.
    pub code: bool,
}

/// Splits a line into styled spans; `[text](target)` shows `text`.
pub fn spans(text: &str) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut cur = Span::default();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let flush = |cur: &mut Span, out: &mut Vec<Span>| {
        if !cur.text.is_empty() {
            let next = Span {
                text: String::new(),
                ..cur.clone()
            };
            out.push(std::mem::replace(cur, next));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            flush(&mut cur, &mut out);
            cur.code = !cur.code;
        } else if cur.code {
            cur.text.push(c);
        } else if c == '*' && chars.get(i + 1) == Some(&'*') {
            flush(&mut cur, &mut out);
            cur.bold = !cur.bold;
            i += 1;
        } else if c == '*' && (cur.italic || opens(&chars, i)) {
            flush(&mut cur, &mut out);
            cur.italic = !cur.italic;
        } else if c == '[' {
            let rest: String = chars[i + 1..].iter().collect();
            match link(&rest) {
                Some((label, used)) => {
                    cur.text.push_str(label);
                    i += used;
                }
                None => cur.text.push(c),
            }
        } else {
            cur.text.push(c);
        }
        i += 1;
    }
    flush(&mut cur, &mut out);
    out
}

/// A `*` that opens italics: at the start or after a space, and before a non-space.
fn opens(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).and_then(|j| chars.get(j));
    before.is_none_or(|c| c.is_whitespace() || "([\"'".contains(*c))
        && chars.get(i + 1).is_some_and(|n| !n.is_whitespace())
}

/// `label](target)…` → the label and the characters used after the `[`.
fn link(rest: &str) -> Option<(&str, usize)> {
    let close = rest.find("](")?;
    let end = rest[close..].find(')')? + close;
    let label = &rest[..close];
    (!label.contains('[')).then(|| (label, rest[..=end].chars().count()))
}

/// Text without inline markup, for monospace table cells.
pub fn plain(text: &str) -> String {
    spans(text).into_iter().map(|s| s.text).collect()
}

fn rich(s: &Span, size: Option<f32>) -> egui::RichText {
    let mut t = egui::RichText::new(&s.text);
    if let Some(size) = size {
        t = t.size(size);
    }
    if s.bold {
        t = t.strong();
    }
    if s.italic {
        t = t.italics();
    }
    if s.code {
        t = t.code();
    }
    t
}

fn inline(ui: &mut egui::Ui, text: &str) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        for s in spans(text) {
            ui.label(rich(&s, None));
        }
    });
}

/// Draws parsed blocks into `ui` (inside a scroll area, usually).
pub fn show(ui: &mut egui::Ui, blocks: &[Block]) {
    for block in blocks {
        match block {
            Block::Heading(level, text) => {
                ui.add_space(if *level <= 2 { 10.0 } else { 6.0 });
                let size = [24.0, 20.0, 17.0, 15.0, 14.0, 13.0][usize::from(*level - 1).min(5)];
                ui.label(egui::RichText::new(plain(text)).size(size).strong());
            }
            Block::Paragraph(text) => {
                inline(ui, text);
                ui.add_space(4.0);
            }
            Block::Bullet(depth, text) | Block::Numbered(depth, _, text) => {
                let mark = match block {
                    Block::Numbered(_, n, _) => format!("{n}."),
                    _ => "•".to_string(),
                };
                ui.horizontal(|ui| {
                    ui.add_space(12.0 + 16.0 * *depth as f32);
                    ui.label(mark);
                    ui.vertical(|ui| inline(ui, text));
                });
            }
            Block::Code(text) | Block::Table(text) => {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    egui::ScrollArea::horizontal()
                        .id_salt(text.len() ^ (text.lines().count() << 20))
                        .show(ui, |ui| {
                            ui.add(
                                egui::Label::new(egui::RichText::new(text).monospace()).extend(),
                            );
                        });
                });
                ui.add_space(4.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_a_small_document() {
        let md = "# Title\n\nSome *text* and\nmore.\n\n- one\n  carried on\n  - nested\n\
                  2. second\n\n| a | bb |\n|---|---|\n| ccc | d |\n\n```\nx = 1\n```\n";
        let b = parse(md);
        assert_eq!(b[0], Block::Heading(1, "Title".into()));
        assert_eq!(b[1], Block::Paragraph("Some *text* and more.".into()));
        assert_eq!(b[2], Block::Bullet(0, "one carried on".into()));
        assert_eq!(b[3], Block::Bullet(1, "nested".into()));
        assert_eq!(b[4], Block::Numbered(0, "2".into(), "second".into()));
        assert_eq!(
            b[5],
            Block::Table("a   │ bb\n────────\nccc │ d".into()),
            "columns aligned"
        );
        assert_eq!(b[6], Block::Code("x = 1".into()));
    }

    #[test]
    fn inline_styles_and_links() {
        let s = spans("a **b** *c* `d*e` [f](#g) x*y");
        let texts: Vec<&str> = s.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["a ", "b", " ", "c", " ", "d*e", " f x*y"]);
        assert!(s[1].bold && s[3].italic && s[5].code && !s[6].italic);
        assert_eq!(plain("`a|b` \\| c"), "a|b \\| c");
    }

    #[test]
    fn the_rules_page_parses_into_every_kind_of_block() {
        let b = parse(RULES_MD);
        assert!(matches!(b[0], Block::Heading(1, _)));
        for kind in [
            |b: &Block| matches!(b, Block::Table(_)),
            |b: &Block| matches!(b, Block::Bullet(..)),
            |b: &Block| matches!(b, Block::Numbered(..)),
            |b: &Block| matches!(b, Block::Paragraph(_)),
        ] {
            assert!(b.iter().any(kind));
        }
        // Nothing of the text is lost: every heading of the page is a heading block.
        let headings = RULES_MD.lines().filter(|l| l.starts_with('#')).count();
        let parsed = b.iter().filter(|b| matches!(b, Block::Heading(..))).count();
        assert_eq!(headings, parsed);
    }

    #[test]
    fn garbage_never_panics() {
        for md in [
            "",
            "|",
            "| a |\n|",
            "```",
            "[x](",
            "**",
            "# ",
            "1.",
            "- ",
            "\t|é|ü|",
        ] {
            let _ = parse(md);
            let _ = spans(md);
        }
    }
}
