//! `WWW-Authenticate` challenges read by RFC 9110 §11.6.1 (grammar in §11.3 and §5.6):
//!
//! ```text
//! WWW-Authenticate = #challenge
//! challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//! auth-param = token BWS "=" BWS ( token / quoted-string )
//! token68    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
//! ```
//!
//! A comma separates both challenges and the parameters of one, so an element is a parameter
//! when a `=` follows its name and a new challenge otherwise. Reading never fails: what cannot be
//! read is skipped to the next comma and named in [`Challenges::problems`], and what was read
//! stands. Counts are capped, so a hostile header costs bounded memory.

/// At most this many challenges are kept, over every header line.
pub const MAX_CHALLENGES: usize = 16;
/// At most this many parameters are kept per challenge.
pub const MAX_PARAMS: usize = 32;
/// At most this many problems are named; later ones are only counted by the cap's own problem.
const MAX_PROBLEMS: usize = 8;

/// One challenge: its scheme and either a token68 or parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// As sent (compare with [`Challenge::is`]: schemes are case-insensitive).
    pub scheme: String,
    /// The token68 form (`Negotiate abc==`).
    pub token68: Option<String>,
    /// `(name, value)` in order, quoted values unescaped; names as sent.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// Whether the scheme is `scheme`, case-insensitively.
    pub fn is(&self, scheme: &str) -> bool {
        self.scheme.eq_ignore_ascii_case(scheme)
    }

    /// The first value of the parameter `name` (names are case-insensitive).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What did not read as the grammar says, with its byte offset in its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// An element that starts with neither a scheme nor a parameter name.
    ExpectedToken { at: usize },
    /// A parameter before any scheme (`realm="x"` alone).
    ParamWithoutScheme { at: usize },
    /// `name=` with no value after it.
    ExpectedValue { at: usize },
    /// A quoted string the line ends inside.
    UnterminatedQuote { at: usize },
    /// Something after a complete element other than a comma.
    ExpectedComma { at: usize },
    /// More than [`MAX_CHALLENGES`] challenges or [`MAX_PARAMS`] parameters: the rest is unread.
    TooMany,
}

/// Every challenge read, and what could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenges {
    pub challenges: Vec<Challenge>,
    pub problems: Vec<Problem>,
}

impl Challenges {
    /// One header line.
    pub fn parse(line: &str) -> Self {
        Self::parse_lines([line])
    }

    /// Several header lines, one list (RFC 9110 §5.3), each read on its own so one line's
    /// open quote cannot swallow the next.
    pub fn parse_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Self {
        let mut out = Self::default();
        for line in lines {
            if out.problems.contains(&Problem::TooMany) {
                break;
            }
            Reader::new(line, &mut out).run();
        }
        out
    }

    /// The first challenge of `scheme`.
    pub fn find(&self, scheme: &str) -> Option<&Challenge> {
        self.challenges.iter().find(|c| c.is(scheme))
    }

    /// The first value of parameter `name`, from a `preferred` challenge when one has it, else
    /// from any challenge.
    pub fn param(&self, preferred: &str, name: &str) -> Option<&str> {
        let (mut first, rest): (Vec<&Challenge>, Vec<&Challenge>) =
            self.challenges.iter().partition(|c| c.is(preferred));
        first.extend(rest);
        first.into_iter().find_map(|c| c.param(name))
    }

    fn note(&mut self, problem: Problem) {
        if self.problems.len() < MAX_PROBLEMS || problem == Problem::TooMany {
            self.problems.push(problem);
        }
    }
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// RFC 9110 §11.2 `token68` characters before its `=` padding.
fn is_token68(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/".contains(&b)
}

fn is_ows(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// One line's reader: a cursor over its bytes (every delimiter is ASCII, so every slice taken
/// falls on a character boundary).
struct Reader<'a, 'o> {
    text: &'a str,
    at: usize,
    out: &'o mut Challenges,
}

impl<'a, 'o> Reader<'a, 'o> {
    fn new(text: &'a str, out: &'o mut Challenges) -> Self {
        Self { text, at: 0, out }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) -> &'a str {
        let start = self.at;
        while self.peek().is_some_and(&keep) {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    /// Whether only whitespace lies between here and a comma or the end.
    fn at_element_end(&self) -> bool {
        let rest = &self.text.as_bytes()[self.at..];
        rest.iter()
            .find(|b| !is_ows(**b))
            .is_none_or(|b| *b == b',')
    }

    fn run(&mut self) {
        // True right after `scheme 1*SP`: the one place a token68 may stand.
        let mut after_scheme = false;
        // Whether this line has a challenge parameters can belong to.
        let mut open = false;
        loop {
            self.skip_while(|b| is_ows(b) || b == b',');
            if self.peek().is_none() {
                return;
            }
            let start = self.at;
            if after_scheme {
                after_scheme = false;
                if let Some(token68) = self.token68() {
                    if let Some(challenge) = self.out.challenges.last_mut() {
                        challenge.token68 = Some(token68.to_owned());
                    }
                    self.expect_comma();
                    continue;
                }
            }
            let name = self.skip_while(is_tchar);
            if name.is_empty() {
                self.out.note(Problem::ExpectedToken { at: start });
                self.skip_element();
                continue;
            }
            let after_name = self.at;
            self.skip_while(is_ows);
            if self.peek() == Some(b'=') {
                self.at += 1;
                self.skip_while(is_ows);
                if !open {
                    self.out.note(Problem::ParamWithoutScheme { at: start });
                    self.skip_element();
                    continue;
                }
                let Some(value) = self.value() else {
                    self.skip_element();
                    continue;
                };
                let Some(challenge) = self.out.challenges.last_mut() else {
                    return;
                };
                if challenge.params.len() >= MAX_PARAMS {
                    self.out.note(Problem::TooMany);
                    return;
                }
                challenge.params.push((name.to_owned(), value));
                self.expect_comma();
                continue;
            }
            // A new challenge.
            if self.out.challenges.len() >= MAX_CHALLENGES {
                self.out.note(Problem::TooMany);
                return;
            }
            self.out.challenges.push(Challenge {
                scheme: name.to_owned(),
                token68: None,
                params: Vec::new(),
            });
            open = true;
            after_scheme = self.at > after_name && !self.at_element_end();
        }
    }

    /// A token68 standing alone up to the next comma, else nothing (and the cursor unmoved).
    fn token68(&mut self) -> Option<&'a str> {
        let start = self.at;
        let body = self.skip_while(is_token68);
        if !body.is_empty() {
            self.skip_while(|b| b == b'=');
            if self.at_element_end() {
                return Some(&self.text[start..self.at]);
            }
        }
        self.at = start;
        None
    }

    /// A quoted string (unescaped) or a bare value. Bare values are read up to the next comma
    /// or space rather than strictly as a token, as servers send URLs unquoted.
    fn value(&mut self) -> Option<String> {
        let start = self.at;
        match self.peek() {
            Some(b'"') => self.quoted(),
            Some(b) if b != b',' && !is_ows(b) => {
                let bare = self.skip_while(|b| b != b',' && !is_ows(b) && b != b'"');
                Some(bare.to_owned())
            }
            _ => {
                self.out.note(Problem::ExpectedValue { at: start });
                None
            }
        }
    }

    /// RFC 9110 §5.6.4 quoted-string from its opening quote; a backslash escapes any character.
    fn quoted(&mut self) -> Option<String> {
        let start = self.at;
        self.at += 1;
        let mut value = String::new();
        let mut chars = self.text[self.at..].char_indices();
        while let Some((offset, c)) = chars.next() {
            match c {
                '"' => {
                    self.at += offset + 1;
                    return Some(value);
                }
                '\\' => match chars.next() {
                    Some((_, escaped)) => value.push(escaped),
                    None => break,
                },
                c => value.push(c),
            }
        }
        self.at = self.text.len();
        self.out.note(Problem::UnterminatedQuote { at: start });
        None
    }

    /// After an element: whitespace, then a comma or the end; anything else is named and
    /// skipped.
    fn expect_comma(&mut self) {
        self.skip_while(is_ows);
        if self.peek().is_some_and(|b| b != b',') {
            self.out.note(Problem::ExpectedComma { at: self.at });
            self.skip_element();
        }
    }

    /// To the next comma outside a quoted string.
    fn skip_element(&mut self) {
        let bytes = self.text.as_bytes();
        let mut quoted = false;
        while let Some(&b) = bytes.get(self.at) {
            match b {
                b'"' => quoted = !quoted,
                b'\\' if quoted => self.at += 1,
                b',' if !quoted => return,
                _ => {}
            }
            self.at += 1;
        }
        self.at = self.at.min(bytes.len());
    }
}
