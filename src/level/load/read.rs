//! Reading level and ruleset text: size and token limits, RON parsing with positions, and the
//! header pass that refuses absurd sizes before anything big is built.

#[allow(unused_imports)]
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
    LoadErrors::one(LoadError::new(
        file,
        1,
        1,
        format!("{LIMIT_TAG}the file is {len} bytes; at most {MAX_FILE_BYTES} bytes are read"),
    ))
}

/// Reads a file as UTF-8, refusing one over [`MAX_FILE_BYTES`] before reading it (and
/// reading at most one byte more, in case it grows or is a device that reports no size).
pub(super) fn read_source(path: &Path) -> Result<String, LoadErrors> {
    let file = path.display().to_string();
    let io = |what: &str, e: std::io::Error| {
        LoadErrors::one(LoadError::new(
            &file,
            1,
            1,
            format!("cannot {what} the file: {e}"),
        ))
    };
    let meta = std::fs::metadata(path).map_err(|e| io("read", e))?;
    if meta.is_dir() {
        return Err(LoadErrors::one(LoadError::new(
            &file,
            1,
            1,
            "is a directory; expected a level or ruleset file",
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(file_too_big(&file, meta.len()));
    }
    let f = std::fs::File::open(path).map_err(|e| io("open", e))?;
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io("read", e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(file_too_big(&file, bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let prefix =
            std::str::from_utf8(e.as_bytes().get(..good).unwrap_or_default()).unwrap_or_default();
        let (line, column) = LineIndex::new(prefix).pos(good);
        LoadErrors::one(LoadError::new(
            &file,
            line,
            column,
            "the file is not UTF-8 text: expected UTF-8 here",
        ))
    })
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

/// Refuses any single token longer than [`MAX_TOKEN_CHARS`], in one cheap pass before `ron`
/// runs. Text the scanner cannot follow is left for `ron` to report.
pub(super) fn check_token_lengths(text: &str, file: &str) -> Result<(), LoadErrors> {
    let mut sc = Scan::new(text);
    loop {
        if sc.skip_ws().is_none() {
            return Ok(());
        }
        let start = sc.i;
        match sc.peek() {
            None => return Ok(()),
            Some(c) if "()[]{},:".contains(c) => {
                sc.bump();
                continue;
            }
            Some(_) => {}
        }
        if sc.atom().is_none() {
            return Ok(());
        }
        let len = text.get(start..sc.i).map_or(0, |t| t.chars().count());
        if len > MAX_TOKEN_CHARS {
            let (line, column) = LineIndex::new(text).pos(start);
            return Err(LoadErrors::one(LoadError::new(
                file,
                line,
                column,
                format!(
                    "{LIMIT_TAG}a value {len} characters long; at most {MAX_TOKEN_CHARS} are \
                     allowed"
                ),
            )));
        }
    }
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
    #[serde(default)]
    #[allow(dead_code)]
    pub(super) figures: FigureCount,
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
