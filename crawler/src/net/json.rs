//! JSON from outside input: where a value ends as its bytes arrive, and a parse with a stated
//! depth limit.
//!
//! The end finder looks at each byte once (strings, escapes, depth), so a body that arrives one
//! byte at a time costs linear time and is parsed once, when complete. Every parse of outside
//! input goes through [`parse_json`] (or [`check_depth`] first), whose limit is
//! [`MAX_JSON_DEPTH`]: well inside serde_json's own, which is then never the one hit.

use serde_json::Value;

/// Deepest nesting of arrays and objects read from outside input. MCP messages, cards and
/// catalogs nest a few levels (a tool's input schema perhaps a dozen); 64 leaves ample room.
pub const MAX_JSON_DEPTH: usize = 64;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Why outside bytes gave no JSON value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    #[error("JSON nested deeper than {MAX_JSON_DEPTH} levels")]
    TooDeep,
    #[error("{0}")]
    Invalid(String),
}

/// Where the value stands after the bytes seen so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonEnd {
    /// Not complete yet.
    Incomplete,
    /// The value's last byte is at index `end - 1` of the buffer.
    Complete(usize),
    /// Nested deeper than [`MAX_JSON_DEPTH`].
    TooDeep,
    /// Not an array or object, or closed more than it opened.
    Invalid,
}

/// The lexical state that depth tracking needs: inside a string, after a backslash, depth.
#[derive(Debug, Clone, Copy, Default)]
struct Lexer {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

/// What one byte did to the nesting.
enum Step {
    Open,
    Close,
    Other,
}

impl Lexer {
    fn step(&mut self, byte: u8) -> Step {
        if self.in_string {
            match byte {
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_string = false,
                _ => {}
            }
            return Step::Other;
        }
        match byte {
            b'"' => self.in_string = true,
            b'{' | b'[' => {
                self.depth += 1;
                return Step::Open;
            }
            b'}' | b']' => return Step::Close,
            _ => {}
        }
        Step::Other
    }
}

/// Finds the end of one JSON array or object (after an optional BOM and white space) in a
/// buffer that grows as bytes arrive. Brackets are only counted, not matched: the one parse
/// at the end judges the value.
#[derive(Debug, Default)]
pub struct JsonEndFinder {
    lexer: Lexer,
    /// Bytes of the buffer already looked at.
    scanned: usize,
    started: bool,
    /// Once decided, the answer stays.
    decided: Option<JsonEnd>,
}

impl JsonEndFinder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Looks at the bytes of `buf` not seen before; `buf` must extend the buffer of the
    /// previous call.
    pub fn feed(&mut self, buf: &[u8]) -> JsonEnd {
        if let Some(done) = self.decided {
            return done;
        }
        if self.scanned == 0 && !self.started {
            if buf.len() < BOM.len() && BOM.starts_with(buf) {
                return JsonEnd::Incomplete;
            }
            if buf.starts_with(BOM) {
                self.scanned = BOM.len();
            }
        }
        while self.scanned < buf.len() {
            let byte = buf[self.scanned];
            self.scanned += 1;
            if !self.started {
                if byte.is_ascii_whitespace() {
                    continue;
                }
                if !matches!(byte, b'{' | b'[') {
                    return self.decide(JsonEnd::Invalid);
                }
                self.started = true;
            }
            match self.lexer.step(byte) {
                Step::Open if self.lexer.depth > MAX_JSON_DEPTH => {
                    return self.decide(JsonEnd::TooDeep);
                }
                Step::Close if self.lexer.depth == 0 => return self.decide(JsonEnd::Invalid),
                Step::Close => {
                    self.lexer.depth -= 1;
                    if self.lexer.depth == 0 {
                        return self.decide(JsonEnd::Complete(self.scanned));
                    }
                }
                Step::Open | Step::Other => {}
            }
        }
        JsonEnd::Incomplete
    }

    fn decide(&mut self, end: JsonEnd) -> JsonEnd {
        self.decided = Some(end);
        end
    }
}

/// Checks that `bytes` never nest deeper than [`MAX_JSON_DEPTH`] (counting only, in one pass;
/// a cut-off or invalid body passes and is judged by its parse).
pub fn check_depth(bytes: &[u8]) -> Result<(), JsonError> {
    let mut lexer = Lexer::default();
    for &byte in bytes {
        match lexer.step(byte) {
            Step::Open if lexer.depth > MAX_JSON_DEPTH => return Err(JsonError::TooDeep),
            Step::Close => lexer.depth = lexer.depth.saturating_sub(1),
            Step::Open | Step::Other => {}
        }
    }
    Ok(())
}

/// Parses outside bytes (a leading BOM skipped) as one JSON value, within the depth limit.
pub fn parse_json(bytes: &[u8]) -> Result<Value, JsonError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    check_depth(bytes)?;
    serde_json::from_slice(bytes).map_err(|e| JsonError::Invalid(e.to_string()))
}
