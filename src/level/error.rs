//! Errors from reading levels and rulesets: always a position and what was expected.
//!
//! Every problem a player or level designer can cause — bad syntax, a wrong type, an unknown
//! template, a figure off the map, an absurd size — becomes one [`LoadError`] pointing at the
//! offending text, so an editor can jump straight to it. Loading collects all of them into
//! [`LoadErrors`] rather than stopping at the first, so one `warhorse check` run shows every
//! fix needed.

use std::fmt;

/// A file name as printed in messages: control characters (ESC, BEL, a newline…) shown
/// escaped (`\u{1b}`), so a name can never drive the terminal or forge a line of output.
pub fn shown(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// [`shown`] for a path.
pub fn shown_path(path: &std::path::Path) -> String {
    shown(&path.to_string_lossy())
}

/// One problem in one file, at a 1-based line and column (columns count characters, as `ron`
/// does, so positions agree whichever stage found the problem). Printed
/// `file:line:column: message`, the file name [`shown`] escaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The path (or `<embedded default>`-style name) of the file, as given to the loader.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, line, column, message) =
            (shown(&self.file), self.line, self.column, &self.message);
        write!(f, "{file}:{line}:{column}: {message}")
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    /// Builds an error; kept as a function so call sites read as one line.
    pub fn new(file: &str, line: usize, column: usize, message: impl Into<String>) -> LoadError {
        LoadError {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
        }
    }
}

/// Every problem found in one load, in the order found (never empty when returned as an
/// error), so callers report all of them at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadErrors(pub Vec<LoadError>);

impl LoadErrors {
    /// A list holding one error, for failures that stop a load outright (unreadable file,
    /// syntax error, size limit).
    pub fn one(e: LoadError) -> LoadErrors {
        LoadErrors(vec![e])
    }

    /// The errors, for callers that want to inspect positions (tests, the window's message
    /// list).
    pub fn errors(&self) -> &[LoadError] {
        &self.0
    }

    /// True when nothing was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of errors.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl From<LoadError> for LoadErrors {
    fn from(e: LoadError) -> LoadErrors {
        LoadErrors::one(e)
    }
}

impl fmt::Display for LoadErrors {
    /// One error per line, `file:line:column: message`, the format compilers use so editors
    /// and CI annotate it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

#[cfg(test)]
mod shown_tests {
    use super::*;

    #[test]
    fn control_characters_in_file_names_are_escaped() {
        let e = LoadError::new("a\u{1b}[31mb\u{7}.ron", 1, 2, "bad");
        assert_eq!(e.to_string(), "a\\u{1b}[31mb\\u{7}.ron:1:2: bad");
        assert_eq!(shown("plain é.ron"), "plain é.ron");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_file_line_column_message() {
        let e = LoadError::new("a.ron", 3, 7, "unknown template \"x\"");
        assert_eq!(e.to_string(), "a.ron:3:7: unknown template \"x\"");
        let es = LoadErrors(vec![e.clone(), LoadError::new("b.ron", 1, 1, "m")]);
        assert_eq!(
            es.to_string(),
            "a.ron:3:7: unknown template \"x\"\nb.ron:1:1: m"
        );
    }
}
