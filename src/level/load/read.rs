//! Reading level and ruleset text: size and token limits, RON parsing with positions, and the
//! header pass that refuses absurd sizes before anything big is built.

use super::*;

// Reading.

/// `Some(x)` may be written as just `x` in every file (`cost: 2`, `gait: Trot`); the explicit
/// `Some(x)` still works, and `None` is always `None`.
pub(super) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Runs `ron`, turning a panic anywhere in deserialisation (a bug in some `Deserialize`
/// impl, never expected) into `None`, so a bad file can still never crash the game.
pub(super) fn ron_parse<T: DeserializeOwned>(text: &str) -> Option<ron::error::SpannedResult<T>> {
    std::panic::catch_unwind(|| ron_options().from_str::<T>(text)).ok()
}

/// Deserialises a whole file, with its syntax or type error placed in the text.
pub(super) fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, LoadErrors> {
    match ron_parse(text) {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(LoadErrors::one(ron_error(file, text, &e))),
        None => Err(LoadErrors::one(LoadError::new(
            file,
            1,
            1,
            "internal error: reading this file panicked (a bug in Warhorse; please report it \
             with the file)",
        ))),
    }
}

pub(super) fn file_too_big(file: &str, len: u64) -> LoadErrors {
    file_over(file, len, MAX_FILE_BYTES)
}

/// The `limit:` error of a text over `limit` bytes.
pub(super) fn file_over(file: &str, len: u64, limit: u64) -> LoadErrors {
    LoadErrors::one(LoadError::new(
        file,
        1,
        1,
        format!("{LIMIT_TAG}the file is {len} bytes; at most {limit} bytes are read"),
    ))
}

/// Reads a level or ruleset file through the one shared reader ([`crate::level::input`]):
/// a regular file only, at most [`MAX_FILE_BYTES`], UTF-8 with a bad byte's line and column.
pub(super) fn read_source(path: &Path) -> Result<String, LoadErrors> {
    crate::level::input::read_text(path, MAX_FILE_BYTES)
        .map_err(|e| LoadErrors::one(e.into_load_error(&path.display().to_string())))
}

/// Makes the text `ron` sees: a leading byte-order mark becomes a space, and an optional
/// leading struct name (`Level(`, friendlier than the Rust type's name) is blanked out.
/// Both keep every line and column where it was.
pub(super) fn normalise<'a>(src: &'a str, blank_name: Option<&str>) -> Cow<'a, str> {
    let mut text = match src.strip_prefix('\u{feff}') {
        Some(rest) => Cow::Owned(format!(" {rest}")),
        None => Cow::Borrowed(src),
    };
    if let Some(name) = blank_name {
        let mut sc = Scan::new(&text);
        if sc.skip_ws().is_some() {
            let at = sc.i;
            let after = at + name.len();
            let rest = text.get(after..).unwrap_or_default();
            let next = rest.trim_start_matches(is_ws).chars().next();
            if text.get(at..after) == Some(name) && next == Some('(') {
                let mut owned = text.into_owned();
                owned.replace_range(at..after, &" ".repeat(name.len()));
                text = Cow::Owned(owned);
            }
        }
    }
    text
}

/// The identifier a file opens with, if it is followed by `(` (`Ruleset(`, `Level(`).
pub(super) fn first_ident_before_paren(src: &str) -> Option<String> {
    let text = normalise(src, None);
    let mut sc = Scan::new(&text);
    sc.skip_ws()?;
    let start = sc.i;
    sc.atom()?;
    let name = text.get(start..sc.i)?.to_string();
    sc.skip_ws()?;
    (sc.peek() == Some('(')).then_some(name)
}

/// Turns a `ron` error into ours. `ron` positions are already 1-based line and character
/// column, but may sit on the whitespace before the offending value or just inside its
/// opening quote; both are nudged onto the value itself. A few serde messages are reworded
/// into what the file should hold, and messages start in lower case like ours.
pub(super) fn ron_error(file: &str, text: &str, e: &ron::error::SpannedError) -> LoadError {
    let mut message = match &e.code {
        ron::Error::Message(m) if m.contains("untagged enum Raw") => {
            "expected a number like 7, -2, \"27/2\" or \"2 1/2\"".to_string()
        }
        ron::Error::Message(m) => m.clone(),
        code => code.to_string(),
    };
    let mut chars = message.chars();
    if let (Some(a), Some(b)) = (chars.next(), chars.next())
        && a.is_ascii_uppercase()
        && b.is_ascii_lowercase()
    {
        message.replace_range(..1, &a.to_ascii_lowercase().to_string());
    }
    let (start, end) = (&e.span.start, &e.span.end);
    let lines = LineIndex::new(text);
    let (mut off, end_off) = (
        lines.offset(start.line, start.col),
        lines.offset(end.line, end.col),
    );
    while off < end_off {
        match text.get(off..).and_then(|t| t.chars().next()) {
            Some(c) if is_ws(c) => off += c.len_utf8(),
            _ => break,
        }
    }
    if matches!(e.code, ron::Error::Message(_))
        && off > 0
        && text.as_bytes().get(off - 1) == Some(&b'"')
    {
        off -= 1;
    }
    let (line, column) = lines.pos(off);
    LoadError::new(file, line, column, message)
}

/// How the token pass treats the strings of one kind of file.
#[derive(Clone, Copy, Default)]
pub(super) struct TokenRules<'a> {
    /// Fields whose string may hold line breaks and tabs (a level's `description`).
    pub(super) multiline: &'a [&'a str],
    /// Fields whose string is another file's whole text (a save's `level` and `ruleset`),
    /// checked as that file when it is loaded, so neither its length nor its characters are
    /// checked here.
    pub(super) embedded: &'a [&'a str],
}

/// A character no name, id or other text in a file may hold: a control character (ESC,
/// BEL, NUL, DEL, the C1 controls, …) — which a terminal would act on when a name is
/// printed — or a bidirectional override or isolate, which reorders what is shown. Line
/// breaks and tabs are allowed where `lines` is true (a level's description).
pub(super) fn forbidden_char(c: char, lines: bool) -> bool {
    if lines && matches!(c, '\n' | '\r' | '\t') {
        return false;
    }
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn forbidden_message(c: char) -> String {
    format!(
        "a control character (U+{:04X}) in the text: names, ids and other strings may not \
         hold control characters (ESC, BEL, …) or bidirectional overrides, written or as \
         escapes; remove it",
        u32::from(c)
    )
}

/// One cheap pass over every token before `ron` runs: refuses any single token longer than
/// [`MAX_TOKEN_CHARS`], and any control character in a string, a character or a name —
/// written as is or as an escape such as `\u{1b}` — so nothing raw ever reaches a terminal
/// that prints a name. Text the scanner cannot follow is left for `ron` to report.
pub(super) fn check_tokens(text: &str, file: &str, rules: TokenRules) -> Result<(), LoadErrors> {
    let lines = OnceCell::new();
    let mut errors = Vec::new();
    let mut push = |off: usize, message: String| {
        if errors.len() < MAX_ERRORS {
            let (line, column) = lines.get_or_init(|| LineIndex::new(text)).pos(off);
            errors.push(LoadError::new(file, line, column, message));
        }
    };
    let mut sc = Scan::new(text);
    // The name before the last `:`, and whether the token now read directly follows it.
    let (mut key, mut last_atom, mut after_colon) = (None::<&str>, None::<&str>, false);
    loop {
        if sc.skip_ws().is_none() {
            break;
        }
        let start = sc.i;
        match sc.peek() {
            None => break,
            Some(c) if "()[]{},:".contains(c) => {
                sc.bump();
                after_colon = c == ':';
                if after_colon {
                    key = last_atom;
                }
                last_atom = None;
                continue;
            }
            Some(_) => {}
        }
        if sc.atom().is_none() {
            break;
        }
        let tok = text.get(start..sc.i).unwrap_or_default();
        let field = if after_colon { key } else { None };
        after_colon = false;
        last_atom = Some(tok);
        if field.is_some_and(|k| rules.embedded.contains(&k)) {
            continue;
        }
        let len = tok.chars().count();
        if len > MAX_TOKEN_CHARS {
            push(
                start,
                format!(
                    "{LIMIT_TAG}a value {len} characters long; at most {MAX_TOKEN_CHARS} are \
                     allowed"
                ),
            );
            continue;
        }
        let lines_ok = field.is_some_and(|k| rules.multiline.contains(&k));
        if let Some((i, c)) = tok
            .char_indices()
            .find(|&(_, c)| forbidden_char(c, lines_ok))
        {
            push(start + i, forbidden_message(c));
            continue;
        }
        if tok.contains('\\') {
            let decoded: Option<String> = if tok.starts_with('\'') {
                ron::from_str::<char>(tok).ok().map(String::from)
            } else if tok.starts_with('"') || tok.starts_with('r') {
                ron::from_str::<String>(tok).ok()
            } else {
                None
            };
            if let Some(c) = decoded
                .as_deref()
                .and_then(|d| d.chars().find(|&c| forbidden_char(c, lines_ok)))
            {
                push(start, forbidden_message(c));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(LoadErrors(errors))
    }
}

/// Reads RON text of any kind the game is given besides levels and rulesets — an orders
/// file, a save — with exactly the conveniences and error positions of levels: a byte-order
/// mark is accepted, optional values may be written bare (`Some` implied), every token is
/// checked for length and control characters, and an error is placed at the value it is
/// about (`file:line:column`). `limit` is the largest text accepted, in bytes; `embedded`
/// names fields holding another file's whole text (see [`TokenRules`]).
pub fn parse_ron_text<T: DeserializeOwned>(
    src: &str,
    file: &str,
    limit: u64,
    embedded: &[&str],
) -> Result<T, LoadErrors> {
    if src.len() as u64 > limit {
        return Err(file_over(file, src.len() as u64, limit));
    }
    let text = normalise(src, None);
    check_tokens(
        &text,
        file,
        TokenRules {
            multiline: &[],
            embedded,
        },
    )?;
    parse(&text, file)
}

/// The first top-level fields of a RON record whose values are single tokens (strings,
/// numbers, names), as `(field, value as written)`, reading no further than the last of them:
/// how a save's `game` and `format` (and an older save's `level_name`) are found without
/// parsing the whole file. Stops at the first value that is not a single token, at anything
/// it cannot follow, and after `max` fields.
pub fn leading_fields(text: &str, max: usize) -> Vec<(String, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut sc = Scan::new(text);
    let _ = leading_fields_into(&mut sc, max, &mut out);
    out
}

fn leading_fields_into(sc: &mut Scan, max: usize, out: &mut Vec<(String, String)>) -> Option<()> {
    sc.skip_ws()?;
    if sc.peek()? != '(' {
        sc.atom()?; // the record's name (`Record`)
        sc.skip_ws()?;
    }
    (sc.bump()? == '(').then_some(())?;
    while out.len() < max {
        sc.skip_ws()?;
        let start = sc.i;
        sc.atom()?;
        let name = sc.src.get(start..sc.i)?.to_string();
        sc.skip_ws()?;
        (sc.bump()? == ':').then_some(())?;
        sc.skip_ws()?;
        if "([{".contains(sc.peek()?) {
            return None;
        }
        let start = sc.i;
        sc.atom()?;
        let value = sc.src.get(start..sc.i)?.to_string();
        sc.skip_ws()?;
        let sep = sc.bump()?;
        if sep != ',' && sep != ')' {
            return None;
        }
        out.push((name, value));
        if sep == ')' {
            return None;
        }
    }
    Some(())
}

// Header pass: the limits, checked before anything big is built.

/// Only what the limits need; every other field is skipped without being stored.
#[derive(Deserialize)]
#[serde(rename = "LevelFile")]
pub(super) struct Header {
    #[serde(default)]
    pub(super) width: Option<u64>,
    #[serde(default)]
    pub(super) height: Option<u64>,
    /// Read only to count the entries as they go by (a file with too many is refused).
    #[serde(default, rename = "figures")]
    pub(super) _figures: FigureCount,
}

/// Counts `figures` entries without keeping them, failing as soon as there are too many.
#[derive(Default)]
pub(super) struct FigureCount;

impl<'de> Deserialize<'de> for FigureCount {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<FigureCount, D::Error> {
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = FigureCount;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of figures")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<FigureCount, A::Error> {
                let mut n = 0usize;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                    if n > MAX_FIGURES {
                        return Err(de::Error::custom(format!(
                            "{LIMIT_TAG}more than {MAX_FIGURES} figures; a level may hold at \
                             most {MAX_FIGURES}"
                        )));
                    }
                }
                Ok(FigureCount)
            }
        }
        d.deserialize_seq(Counter)
    }
}

/// The header pass. Syntax or type errors are left for the full parse, which words them
/// better; only limit violations stop here.
pub(super) fn check_level_header(text: &str, file: &str) -> Result<(), LoadErrors> {
    let header: Header = match ron_parse(text) {
        Some(Ok(h)) => h,
        None => return Ok(()),
        Some(Err(e)) => {
            return match &e.code {
                ron::Error::Message(m) if m.starts_with(LIMIT_TAG) => {
                    Err(LoadErrors::one(ron_error(file, text, &e)))
                }
                _ => Ok(()),
            };
        }
    };
    let mut cx = Ctx::new(file, text);
    let (w, h) = (header.width.unwrap_or(0), header.height.unwrap_or(0));
    for (name, v) in [("width", w), ("height", h)] {
        if v > u64::from(MAX_SIDE) {
            cx.err(
                &[P::F(name)],
                format!("{LIMIT_TAG}{name} {v} is over the largest map side of {MAX_SIDE} cells"),
            );
        }
    }
    let cells = u128::from(w) * u128::from(h);
    if cx.errors.is_empty() && cells > u128::from(MAX_CELLS) {
        cx.err(
            &[P::F("height")],
            format!("{LIMIT_TAG}a {w} x {h} map is {cells} cells; at most {MAX_CELLS} are allowed"),
        );
    }
    if cx.errors.is_empty() {
        Ok(())
    } else {
        Err(cx.into_errors())
    }
}
