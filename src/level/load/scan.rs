//! A span scanner for RON: just enough structure to find where a value is written, so a
//! meaning error (an unknown template, a figure off the map) points at its line and column.

// A span scanner for RON: just enough structure to find where a value is written.

/// One step of a path into the document.
#[derive(Clone, Copy, Debug)]
pub(super) enum P<'a> {
    /// A struct field.
    F(&'a str),
    /// A list or tuple element.
    I(usize),
    /// A map entry's value, by key as decoded (`'f'` → `f`, `"knight"` → `knight`).
    K(&'a str),
}

#[derive(Debug)]
pub(super) struct Node<'s> {
    pub(super) start: usize,
    pub(super) name: Option<&'s str>,
    pub(super) kind: Kind<'s>,
}

#[derive(Debug)]
pub(super) enum Kind<'s> {
    Atom(&'s str),
    List(Vec<Node<'s>>),
    Struct(Vec<(&'s str, Node<'s>)>),
    Map(Vec<(Node<'s>, Node<'s>)>),
}

impl<'s> Node<'s> {
    /// Looks through `Some(x)` (explicit options) to `x`.
    pub(super) fn inner(&self) -> &Node<'s> {
        match (&self.name, &self.kind) {
            (Some("Some"), Kind::List(v)) if v.len() == 1 => v.first().map_or(self, Node::inner),
            _ => self,
        }
    }

    pub(super) fn step(&self, step: P) -> Option<&Node<'s>> {
        match (step, &self.inner().kind) {
            (P::F(f), Kind::Struct(fields)) => fields
                .iter()
                .find(|(n, _)| n.strip_prefix("r#").unwrap_or(n) == f)
                .map(|(_, v)| v),
            (P::I(i), Kind::List(items)) => items.get(i),
            (P::K(k), Kind::Map(entries)) => entries
                .iter()
                .find(|(key, _)| key.key_text().as_deref() == Some(k))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// A map key as the program sees it: strings and chars decoded, identifiers as written.
    pub(super) fn key_text(&self) -> Option<String> {
        let Kind::Atom(t) = self.kind else {
            return None;
        };
        if t.starts_with('\'') {
            ron::from_str::<char>(t).ok().map(String::from)
        } else if t.starts_with('"') || t.starts_with('r') && t.contains('"') {
            ron::from_str::<String>(t).ok()
        } else {
            Some(t.to_string())
        }
    }
}

/// Whitespace as `ron` defines it, so the scanner and `ron` agree on token positions.
pub(super) fn is_ws(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '\r'
            | '\x0B'
            | '\x0C'
            | '\u{85}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Recursion guard for the scanner; `ron` has already refused anything deeper than its own
/// limit by the time the scanner runs.
pub(super) const SCAN_DEPTH: usize = 512;

pub(super) struct Scan<'s> {
    pub(super) src: &'s str,
    pub(super) i: usize,
}

impl<'s> Scan<'s> {
    pub(super) fn new(src: &'s str) -> Scan<'s> {
        Scan { src, i: 0 }
    }

    pub(super) fn rest(&self) -> &'s str {
        self.src.get(self.i..).unwrap_or_default()
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub(super) fn peek2(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        Some(c)
    }

    /// Skips whitespace, comments and `#![enable(...)]` attributes. `None` only for an
    /// unclosed comment or attribute.
    pub(super) fn skip_ws(&mut self) -> Option<()> {
        loop {
            match (self.peek(), self.peek2()) {
                (Some(c), _) if is_ws(c) => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                (Some('/'), Some('*')) => {
                    self.i += 2;
                    let mut depth = 1;
                    while depth > 0 {
                        match (self.bump()?, self.peek()) {
                            ('*', Some('/')) => {
                                self.i += 1;
                                depth -= 1;
                            }
                            ('/', Some('*')) => {
                                self.i += 1;
                                depth += 1;
                            }
                            _ => {}
                        }
                    }
                }
                (Some('#'), Some('!')) => while self.bump()? != ']' {},
                _ => return Some(()),
            }
        }
    }

    pub(super) fn quoted(&mut self, close: char) -> Option<()> {
        self.bump()?;
        loop {
            match self.bump()? {
                '\\' => {
                    self.bump()?;
                }
                c if c == close => return Some(()),
                _ => {}
            }
        }
    }

    pub(super) fn raw_string(&mut self, hashes: usize) -> Option<()> {
        self.bump()?; // the opening quote
        loop {
            if self.bump()? == '"' && self.rest().bytes().take(hashes).all(|b| b == b'#') {
                if self.rest().len() < hashes {
                    return None;
                }
                self.i += hashes;
                return Some(());
            }
        }
    }

    /// One token that is not a bracket: a string, a char, a number, an identifier.
    pub(super) fn atom(&mut self) -> Option<()> {
        let rest = self.rest();
        match self.peek()? {
            '"' => return self.quoted('"'),
            '\'' => return self.quoted('\''),
            _ => {}
        }
        if rest.starts_with("b'") || rest.starts_with("b\"") {
            self.i += 1;
            let close = if rest.starts_with("b'") { '\'' } else { '"' };
            return self.quoted(close);
        }
        let prefix = if rest.starts_with("br") {
            2
        } else if rest.starts_with('r') {
            1
        } else {
            0
        };
        if prefix > 0 {
            let after = rest.get(prefix..).unwrap_or_default();
            let hashes = after.bytes().take_while(|&b| b == b'#').count();
            if after.get(hashes..).is_some_and(|s| s.starts_with('"')) {
                self.i += prefix + hashes;
                return self.raw_string(hashes);
            }
        }
        let start = self.i;
        while let Some(c) = self.peek() {
            if is_ws(c) || "(),:[]{}\"'/".contains(c) {
                break;
            }
            self.bump();
        }
        (self.i > start).then_some(())
    }

    pub(super) fn document(mut self) -> Option<Node<'s>> {
        self.value(0)
    }

    pub(super) fn value(&mut self, depth: usize) -> Option<Node<'s>> {
        if depth > SCAN_DEPTH {
            return None;
        }
        self.skip_ws()?;
        let start = self.i;
        match self.peek()? {
            '(' => self.paren(start, None, depth),
            '[' => {
                self.bump();
                let items = self.items(']', depth)?;
                Some(Node {
                    start,
                    name: None,
                    kind: Kind::List(items),
                })
            }
            '{' => {
                self.bump();
                let mut entries = Vec::new();
                loop {
                    self.skip_ws()?;
                    if self.peek()? == '}' {
                        self.bump();
                        break;
                    }
                    let key = self.value(depth + 1)?;
                    self.skip_ws()?;
                    (self.bump()? == ':').then_some(())?;
                    let value = self.value(depth + 1)?;
                    entries.push((key, value));
                    if !self.separator('}')? {
                        break;
                    }
                }
                Some(Node {
                    start,
                    name: None,
                    kind: Kind::Map(entries),
                })
            }
            _ => {
                self.atom()?;
                let text = self.src.get(start..self.i)?;
                let ident = text
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && !text.contains(['"', '\'']);
                if ident {
                    let save = self.i;
                    self.skip_ws()?;
                    if self.peek() == Some('(') {
                        return self.paren(start, Some(text), depth);
                    }
                    self.i = save;
                }
                Some(Node {
                    start,
                    name: None,
                    kind: Kind::Atom(text),
                })
            }
        }
    }

    /// After an element: a comma (more may follow, `Some(true)`) or the closing bracket
    /// (`Some(false)`).
    pub(super) fn separator(&mut self, close: char) -> Option<bool> {
        self.skip_ws()?;
        match self.bump()? {
            ',' => Some(true),
            c if c == close => Some(false),
            _ => None,
        }
    }

    pub(super) fn items(&mut self, close: char, depth: usize) -> Option<Vec<Node<'s>>> {
        let mut items = Vec::new();
        loop {
            self.skip_ws()?;
            if self.peek()? == close {
                self.bump();
                return Some(items);
            }
            items.push(self.value(depth + 1)?);
            if !self.separator(close)? {
                return Some(items);
            }
        }
    }

    /// `(` … `)`: a struct when it opens with `name:`, else a tuple.
    pub(super) fn paren(
        &mut self,
        start: usize,
        name: Option<&'s str>,
        depth: usize,
    ) -> Option<Node<'s>> {
        self.bump(); // (
        self.skip_ws()?;
        let save = self.i;
        let is_struct =
            self.atom().is_some() && self.skip_ws().is_some() && self.peek() == Some(':');
        self.i = save;
        if !is_struct {
            let items = self.items(')', depth)?;
            return Some(Node {
                start,
                name,
                kind: Kind::List(items),
            });
        }
        let mut fields = Vec::new();
        loop {
            self.skip_ws()?;
            if self.peek()? == ')' {
                self.bump();
                break;
            }
            let fstart = self.i;
            self.atom()?;
            let fname = self.src.get(fstart..self.i)?;
            self.skip_ws()?;
            (self.bump()? == ':').then_some(())?;
            let value = self.value(depth + 1)?;
            fields.push((fname, value));
            if !self.separator(')')? {
                break;
            }
        }
        Some(Node {
            start,
            name,
            kind: Kind::Struct(fields),
        })
    }
}
