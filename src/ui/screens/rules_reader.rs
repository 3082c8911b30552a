//! The rules window's text: `docs/rules.md`, drawn by egui_commonmark (issue 16, item 6: a
//! well-kept Markdown library instead of a parser of our own). The page is long (about 86 kB):
//! laying all of it out every frame would make the window sluggish, so it is shown as its
//! introduction and one folding section per `## ` heading, and only the open sections are
//! parsed and drawn.

use bevy_egui::egui;
use egui_commonmark::{CommonMarkCache, CommonMarkViewer};

/// The rules page, embedded so the window shows the rules of this very build.
pub const RULES_MD: &str = include_str!("../../../docs/rules.md");

/// One part of a Markdown page: the text before its first `## ` heading (no title), or one
/// `## ` section (its title, and the text under it up to the next `## `).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section<'a> {
    /// The heading's text, without the `## `.
    pub title: Option<&'a str>,
    /// The Markdown under it (the introduction's, for the part before the first heading).
    pub body: &'a str,
}

/// Splits `md` at its `## ` headings; a `## ` inside a fenced code block is text. The
/// sections hold every line of `md` but the headings' own, in order.
pub fn sections(md: &str) -> Vec<Section<'_>> {
    let mut out = Vec::new();
    let mut title = None;
    let mut start = 0;
    let mut fenced = false;
    let mut at = 0;
    for line in md.split_inclusive('\n') {
        let text = line.trim_end();
        if text.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && let Some(t) = text.strip_prefix("## ") {
            out.push(Section {
                title,
                body: &md[start..at],
            });
            title = Some(t.trim());
            start = at + line.len();
        }
        at += line.len();
    }
    out.push(Section {
        title,
        body: &md[start..],
    });
    out
}

/// The rules reader's state between frames: the Markdown viewer's cache and the page's
/// sections, split once.
pub struct RulesReader {
    cache: CommonMarkCache,
    sections: Vec<Section<'static>>,
    /// A section to unfold on the next frame (see [`RulesReader::open`]).
    to_open: Option<usize>,
}

impl Default for RulesReader {
    fn default() -> Self {
        RulesReader {
            cache: CommonMarkCache::default(),
            sections: sections(RULES_MD),
            to_open: None,
        }
    }
}

impl RulesReader {
    /// Draws the page into `ui`: the introduction, then each section folded under its title.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let to_open = self.to_open.take();
        for (i, s) in self.sections.iter().enumerate() {
            match s.title {
                None => {
                    CommonMarkViewer::new().show(ui, &mut self.cache, s.body);
                }
                Some(title) => {
                    // Code marks in a title read as plain words in a heading.
                    let title = title.replace('`', "");
                    egui::CollapsingHeader::new(egui::RichText::new(title).heading())
                        .id_salt(("warhorse-rules-section", i))
                        .open((to_open == Some(i)).then_some(true))
                        .show(ui, |ui| {
                            CommonMarkViewer::new().show(ui, &mut self.cache, s.body);
                        });
                }
            }
        }
    }

    /// Unfolds the section titled `title` on the next frame (as a click on its title would);
    /// false when the page has no such section.
    pub fn open(&mut self, title: &str) -> bool {
        self.to_open = self.sections.iter().position(|s| s.title == Some(title));
        self.to_open.is_some()
    }

    /// The sections' titles, in order (the tests check them against the page).
    pub fn titles(&self) -> impl Iterator<Item = &str> {
        self.sections.iter().filter_map(|s| s.title)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_splits_at_its_second_level_headings_and_loses_nothing() {
        let md =
            "# Top\n\nIntro.\n\n## One\n\nText.\n\n```\n## not a heading\n```\n\n## Two\nMore.";
        let s = sections(md);
        let titles: Vec<_> = s.iter().map(|s| s.title).collect();
        assert_eq!(titles, [None, Some("One"), Some("Two")]);
        assert_eq!(s[0].body, "# Top\n\nIntro.\n\n");
        assert!(s[1].body.contains("## not a heading"), "{:?}", s[1].body);
        assert_eq!(s[2].body, "More.");
        let joined: String = s
            .iter()
            .map(|s| match s.title {
                Some(t) => format!("## {t}\n{}", s.body),
                None => s.body.to_string(),
            })
            .collect();
        assert_eq!(joined, md);
    }

    /// One frame of `reader` in a tall panel, with the section titled `open` unfolded.
    fn drawn(reader: &mut RulesReader, open: Option<&str>) -> String {
        if let Some(t) = open {
            assert!(reader.open(t), "a section titled {t}");
        }
        crate::ui::tests::painted_texts(egui::vec2(1280.0, 20_000.0), |ui| {
            egui::CentralPanel::default().show(ui, |ui| reader.show(ui));
        })
    }

    #[test]
    fn the_reader_draws_the_introduction_and_an_opened_section_only() {
        let mut reader = RulesReader::default();
        let folded = drawn(&mut reader, None);
        assert!(folded.contains("Warhorse rules"), "{folded}");
        assert!(folded.contains("The three rulesets"), "the titles show");
        assert!(
            !folded.contains("A level names its ruleset"),
            "folded sections are not drawn"
        );
        let open = drawn(&mut reader, Some("The three rulesets"));
        assert!(open.contains("A level names its ruleset"), "{open}");
        // The Markdown is read, not shown raw: a table's cells, no pipes or asterisks.
        assert!(open.contains("destrier"), "{open}");
        assert!(!open.contains("|---|"), "{open}");
        assert!(!reader.open("No such section"));
    }

    #[test]
    fn the_rules_page_has_a_section_for_each_heading() {
        let reader = RulesReader::default();
        let titles: Vec<_> = reader.titles().collect();
        assert!(titles.contains(&"The three rulesets"), "{titles:?}");
        assert!(titles.contains(&"Not built yet"), "{titles:?}");
        let headings = RULES_MD.lines().filter(|l| l.starts_with("## ")).count();
        assert_eq!(titles.len(), headings);
    }
}
