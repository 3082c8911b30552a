//! A side's name in a sentence. Levels name their sides "Red" and "Blue" or "Germans" and
//! "Wardens": a name that reads as a plural takes a plural verb, "their" and a possessive
//! in a bare apostrophe ("the Germans win", "Germans' half-move"); any other takes the
//! singular ("Red wins", "Red's half-move"). Every log line and screen that puts a side in a
//! sentence goes through here, so none says "Germans wins" (issue 34).

/// A side's name, to put in a sentence.
#[derive(Clone, Copy, Debug)]
pub struct SideWords<'a>(pub &'a str);

impl SideWords<'_> {
    /// True when the name reads as a plural: it ends in a single "s" ("Germans", not "Ross").
    pub fn plural(self) -> bool {
        let n = self.0.trim_end();
        n.len() > 1 && n.ends_with('s') && !n.ends_with("ss")
    }

    /// `one` after a singular name, `many` after a plural one (`wins` / `win`).
    pub fn verb(self, one: &'static str, many: &'static str) -> &'static str {
        if self.plural() { many } else { one }
    }

    /// "its" or "their".
    pub fn its(self) -> &'static str {
        self.verb("its", "their")
    }

    /// "it" or "they".
    pub fn it(self) -> &'static str {
        self.verb("it", "they")
    }

    /// "Red's" or "Germans'".
    pub fn possessive(self) -> String {
        if self.plural() {
            format!("{}'", self.0)
        } else {
            format!("{}'s", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SideWords;

    #[test]
    fn a_plural_name_takes_a_plural_verb_and_a_bare_apostrophe() {
        let g = SideWords("Germans");
        assert_eq!(format!("{} {}", g.0, g.verb("wins", "win")), "Germans win");
        assert_eq!(g.possessive(), "Germans'");
        assert_eq!(g.its(), "their");
        let r = SideWords("Red");
        assert_eq!(format!("{} {}", r.0, r.verb("wins", "win")), "Red wins");
        assert_eq!(r.possessive(), "Red's");
        assert_eq!(r.its(), "its");
        assert!(!SideWords("Ross").plural());
        assert!(!SideWords("s").plural());
    }
}
