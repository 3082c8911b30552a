//! The names players read. Ids (`sir_roland`, `foot_1`, `sir_roland.mount`) are for files,
//! orders and tests; every panel, log line and refusal a player reads names a figure by its
//! display name instead ("Sir Roland", "Footman 1", "Sir Roland's destrier", issue 34).
//!
//! The game keeps writing ids into its log and refusals, so saves, tests and replays stay as
//! they are; [`Names::show`] puts the names in when a line is shown.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Display names by figure id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    by_id: BTreeMap<String, String>,
}

/// A figure as the naming needs it: its id, the name its level gives it, its template's name
/// and, when it rides, the name of its mount's template.
#[derive(Clone, Copy, Debug)]
pub struct Naming<'a> {
    /// The figure's id.
    pub id: &'a str,
    /// The name its level gives it, if any.
    pub own: Option<&'a str>,
    /// Its template's name ("Footman").
    pub template: &'a str,
    /// Its mount's template name ("Destrier"), for a mounted template.
    pub mount: Option<&'a str>,
}

/// Words before which a one-word id is an ordinary word, not a figure: "its rider", "the
/// rider", "a mage who cast". A level may call a figure `rider`; the log's "its rider
/// strikes" must not become "its Human rider strikes".
const NOT_A_NAME_AFTER: [&str; 10] = [
    "a", "an", "the", "its", "his", "her", "their", "no", "each", "every",
];

impl Names {
    /// Names for a level's figures, in level order: the level's own name where it gives one,
    /// else the template's name, numbered when several figures share it ("Footman 1",
    /// "Footman 2"); a mount is "<rider>'s <mount>" ("Sir Roland's destrier").
    pub fn for_figures(figures: &[Naming]) -> Names {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for f in figures.iter().filter(|f| f.own.is_none()) {
            *count.entry(f.template).or_default() += 1;
        }
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let mut by_id = BTreeMap::new();
        for f in figures {
            let name = match f.own {
                Some(own) => own.to_string(),
                None if count[f.template] > 1 => {
                    let n = seen.entry(f.template).or_default();
                    *n += 1;
                    format!("{} {n}", f.template)
                }
                None => f.template.to_string(),
            };
            if let Some(m) = f.mount {
                by_id.insert(
                    format!("{}.mount", f.id),
                    format!("{name}'s {}", common_noun(m)),
                );
            }
            by_id.insert(f.id.to_string(), name);
        }
        Names { by_id }
    }

    /// The display name of figure `id`, or `id` itself when it names no figure.
    pub fn name<'a>(&'a self, id: &'a str) -> &'a str {
        self.by_id.get(id).map_or(id, String::as_str)
    }

    /// Every `(id, name)`, by id.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.by_id.iter().map(|(i, n)| (i.as_str(), n.as_str()))
    }

    /// `text` with every figure id in it replaced by the figure's name. An id is a whole
    /// token (letters, digits, `_` and `.`, a sentence's full stop left outside it); a
    /// one-word id after an article or a possessive is read as the ordinary word it is.
    pub fn show(&self, text: &str) -> String {
        if self.by_id.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len() + 16);
        let mut rest = text;
        // The word just before, while a single space separates it from the next.
        let mut prev = "";
        while let Some(start) = rest.find(is_token_char) {
            let (gap, tail) = rest.split_at(start);
            out.push_str(gap);
            if gap != " " {
                prev = "";
            }
            let len = tail.find(|c| !is_token_char(c)).unwrap_or(tail.len());
            let token = match tail[..len].trim_end_matches('.') {
                "" => &tail[..len],
                t => t,
            };
            let word_like = !token.contains(['_', '.']);
            let after_article = NOT_A_NAME_AFTER
                .iter()
                .any(|w| prev.eq_ignore_ascii_case(w));
            match self.by_id.get(token) {
                Some(name) if !(word_like && after_article) => out.push_str(name),
                _ => out.push_str(token),
            }
            prev = token;
            rest = &tail[token.len()..];
        }
        out.push_str(rest);
        out
    }
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// A template's name inside a sentence: "Destrier" → "destrier"; "SMC horse" stays.
fn common_noun(name: &str) -> String {
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() && !b.is_ascii_digit() => {
            a.to_lowercase().chain(name.chars().skip(1)).collect()
        }
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn charge() -> Names {
        let n = |id, own, template, mount| Naming {
            id,
            own,
            template,
            mount,
        };
        Names::for_figures(&[
            n("sir_roland", Some("Sir Roland"), "Knight", Some("Destrier")),
            n("foot_1", None, "Footman", None),
            n("foot_2", None, "Footman", None),
            n("rider", None, "Human rider", None),
            n("cav_1", None, "4-4-7 cavalry", Some("SMC horse")),
        ])
    }

    #[test]
    fn names_come_from_the_level_the_template_and_a_number() {
        let n = charge();
        assert_eq!(n.name("sir_roland"), "Sir Roland");
        assert_eq!(n.name("sir_roland.mount"), "Sir Roland's destrier");
        assert_eq!(n.name("foot_1"), "Footman 1");
        assert_eq!(n.name("foot_2"), "Footman 2");
        assert_eq!(n.name("rider"), "Human rider");
        assert_eq!(n.name("cav_1.mount"), "4-4-7 cavalry's SMC horse");
        assert_eq!(n.name("nobody"), "nobody");
    }

    #[test]
    fn show_puts_names_for_ids_and_leaves_words_alone() {
        let n = charge();
        assert_eq!(
            n.show("sir_roland charges foot_1; sir_roland.mount passes."),
            "Sir Roland charges Footman 1; Sir Roland's destrier passes."
        );
        assert_eq!(n.show("foot_2."), "Footman 2.");
        assert_eq!(n.show("(foot_1, foot_2)"), "(Footman 1, Footman 2)");
        // A one-word id is a figure at the head of a sentence, a word after an article.
        assert_eq!(
            n.show("rider moves; its rider strikes; the rider falls"),
            "Human rider moves; its rider strikes; the rider falls"
        );
        // Longer tokens that merely contain an id are not it.
        assert_eq!(n.show("foot_10 and xfoot_1"), "foot_10 and xfoot_1");
        assert_eq!(n.show("no ids here: 3.5 MP"), "no ids here: 3.5 MP");
    }
}
