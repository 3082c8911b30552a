//! Collecting every error of a file with the position of the value it is about.

use super::*;

// Collecting errors with positions.

/// The errors of one load, and what is needed to place them in the text.
pub(super) struct Ctx<'s> {
    pub(super) file: &'s str,
    pub(super) src: &'s str,
    pub(super) tree: OnceCell<Option<Node<'s>>>,
    pub(super) lines: OnceCell<LineIndex<'s>>,
    pub(super) errors: Vec<LoadError>,
    pub(super) truncated: bool,
}

impl<'s> Ctx<'s> {
    pub(super) fn new(file: &'s str, src: &'s str) -> Ctx<'s> {
        Ctx {
            file,
            src,
            tree: OnceCell::new(),
            lines: OnceCell::new(),
            errors: Vec::new(),
            truncated: false,
        }
    }

    pub(super) fn tree(&self) -> Option<&Node<'s>> {
        self.tree
            .get_or_init(|| Scan::new(self.src).document())
            .as_ref()
    }

    /// The offset of the deepest part of `path` found in the text (the start of the document
    /// if nothing matches), so an error lands as close to its cause as the text allows.
    pub(super) fn offset(&self, path: &[P]) -> usize {
        let Some(mut node) = self.tree() else {
            return 0;
        };
        let mut off = node.start;
        for step in path {
            match node.step(*step) {
                Some(n) => {
                    node = n;
                    off = n.start;
                }
                None => break,
            }
        }
        off
    }

    /// The value written at exactly `path`, if the text has it (explicit `Some(…)` looked
    /// through), for checks of how a value was written rather than what it parsed to.
    pub(super) fn node(&self, path: &[P]) -> Option<&Node<'s>> {
        let mut node = self.tree()?;
        for step in path {
            node = node.step(*step)?;
        }
        Some(node.inner())
    }

    /// The offset of the `index`-th character inside the string at `path`, or of the string
    /// itself when it holds escapes (whose text positions do not match character indices).
    pub(super) fn char_in_string(&self, path: &[P], index: usize) -> usize {
        let start = self.offset(path);
        let text = self.src.get(start..).unwrap_or_default();
        let Some(body) = text.strip_prefix('"') else {
            return start;
        };
        let mut off = None;
        for (k, (b, c)) in body.char_indices().enumerate() {
            if c == '\\' || c == '"' {
                break;
            }
            if k == index {
                off = Some(start + 1 + b);
                break;
            }
        }
        off.unwrap_or(start)
    }

    pub(super) fn err(&mut self, path: &[P], message: impl Into<String>) {
        let off = self.offset(path);
        self.err_at(off, message);
    }

    pub(super) fn err_at(&mut self, offset: usize, message: impl Into<String>) {
        if self.errors.len() >= MAX_ERRORS {
            if !self.truncated {
                self.truncated = true;
                self.errors.push(LoadError::new(
                    self.file,
                    1,
                    1,
                    format!("too many errors; stopped after {MAX_ERRORS}"),
                ));
            }
            return;
        }
        let (line, column) = self
            .lines
            .get_or_init(|| LineIndex::new(self.src))
            .pos(offset);
        self.errors
            .push(LoadError::new(self.file, line, column, message));
    }

    pub(super) fn extend(&mut self, es: LoadErrors) {
        self.errors.extend(es.0);
    }

    pub(super) fn into_errors(self) -> LoadErrors {
        LoadErrors(self.errors)
    }

    pub(super) fn finish<T>(self, value: T) -> Result<T, LoadErrors> {
        if self.errors.is_empty() {
            Ok(value)
        } else {
            Err(self.into_errors())
        }
    }
}

/// Byte offset → 1-based line and character column, like `ron` counts them.
pub(super) struct LineIndex<'s> {
    pub(super) src: &'s str,
    pub(super) starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    pub(super) fn new(src: &'s str) -> LineIndex<'s> {
        let starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { src, starts }
    }

    /// The byte offset of a 1-based line and character column (clamped into the text).
    pub(super) fn offset(&self, line: usize, column: usize) -> usize {
        let start = self
            .starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.src.len());
        let rest = self.src.get(start..).unwrap_or_default();
        start
            + rest
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(rest.len(), |(b, _)| b)
    }

    /// The position of `offset`, clamped into the text and back to a character boundary, so
    /// any offset is safe to ask about.
    pub(super) fn pos(&self, offset: usize) -> (usize, usize) {
        let mut off = offset.min(self.src.len());
        while off > 0 && !self.src.is_char_boundary(off) {
            off -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= off).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = self.src.get(start..off).map_or(0, |s| s.chars().count()) + 1;
        (line, column)
    }
}
