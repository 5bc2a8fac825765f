//! `WWW-Authenticate` challenges: the hard cases of RFC 9110 §11.6.1, and garbage.

use proptest::prelude::*;

use crate::mcp::{Challenge, Challenges, Problem, MAX_CHALLENGES, MAX_PARAMS};

fn params(challenge: &Challenge) -> Vec<(&str, &str)> {
    challenge
        .params
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

fn schemes(read: &Challenges) -> Vec<&str> {
    read.challenges.iter().map(|c| c.scheme.as_str()).collect()
}

#[test]
fn basic_then_bearer_with_resource_metadata_on_one_line() {
    let read = Challenges::parse(
        r#"Basic realm="a", Bearer resource_metadata="https://x/.well-known/oauth-protected-resource""#,
    );
    assert_eq!(read.problems, []);
    assert_eq!(schemes(&read), ["Basic", "Bearer"]);
    assert_eq!(params(&read.challenges[0]), [("realm", "a")]);
    assert_eq!(
        read.param("bearer", "RESOURCE_METADATA"),
        Some("https://x/.well-known/oauth-protected-resource")
    );
    // Only the Bearer challenge has it: the Basic one is not asked for it.
    assert_eq!(
        read.find("Basic")
            .and_then(|c| c.param("resource_metadata")),
        None
    );
}

#[test]
fn a_comma_and_an_escaped_quote_inside_a_quoted_string() {
    let read = Challenges::parse(
        r#"Newauth realm="apps, and more", type=1, title="Login to \"apps\"", Basic realm="simple""#,
    );
    assert_eq!(read.problems, []);
    assert_eq!(schemes(&read), ["Newauth", "Basic"]);
    assert_eq!(
        params(&read.challenges[0]),
        [
            ("realm", "apps, and more"),
            ("type", "1"),
            ("title", r#"Login to "apps""#)
        ]
    );
    assert_eq!(params(&read.challenges[1]), [("realm", "simple")]);
}

#[test]
fn schemes_and_names_are_case_insensitive_values_are_not() {
    let read = Challenges::parse(r#"bEaReR Realm = "MCP" , Error=invalid_token"#);
    assert_eq!(read.problems, []);
    let bearer = read.find("BEARER").expect("a bearer challenge");
    assert_eq!(bearer.scheme, "bEaReR");
    assert_eq!(bearer.param("realm"), Some("MCP"));
    assert_eq!(bearer.param("error"), Some("invalid_token"));
}

#[test]
fn token68_and_schemes_without_parameters() {
    let read = Challenges::parse("Negotiate abc==, Basic, NTLM, Bearer x/y+z=");
    assert_eq!(read.problems, []);
    assert_eq!(schemes(&read), ["Negotiate", "Basic", "NTLM", "Bearer"]);
    assert_eq!(read.challenges[0].token68.as_deref(), Some("abc=="));
    assert_eq!(
        read.challenges[1],
        Challenge {
            scheme: "Basic".into(),
            token68: None,
            params: Vec::new(),
        }
    );
    assert_eq!(read.challenges[3].token68.as_deref(), Some("x/y+z="));
    // `name=value` is a parameter, not a token68.
    let read = Challenges::parse("Bearer realm=mcp");
    assert_eq!(read.challenges[0].token68, None);
    assert_eq!(read.challenges[0].param("realm"), Some("mcp"));
}

#[test]
fn several_header_lines_are_one_list_each_read_on_its_own() {
    let read = Challenges::parse_lines([
        r#"Basic realm="open quote, Bearer realm=swallowed"#,
        r#"Bearer resource_metadata="https://mcp.test/prm""#,
    ]);
    assert_eq!(schemes(&read), ["Basic", "Bearer"]);
    assert_eq!(read.problems, [Problem::UnterminatedQuote { at: 12 }]);
    assert_eq!(
        read.param("Bearer", "resource_metadata"),
        Some("https://mcp.test/prm")
    );
}

#[test]
fn unquoted_urls_are_read_as_servers_send_them() {
    let read = Challenges::parse("Bearer resource_metadata=https://mcp.test/prm, scope=files");
    assert_eq!(read.problems, []);
    assert_eq!(
        params(&read.challenges[0]),
        [
            ("resource_metadata", "https://mcp.test/prm"),
            ("scope", "files")
        ]
    );
}

#[test]
fn garbage_gives_a_typed_partial_result() {
    assert_eq!(Challenges::parse(""), Challenges::default());
    assert_eq!(Challenges::parse(" , ,, "), Challenges::default());
    let read =
        Challenges::parse(r#"realm="x", "quoted", Bearer realm="r", error=, scope="a"junk, Basic"#);
    assert_eq!(schemes(&read), ["Bearer", "Basic"]);
    assert_eq!(
        params(&read.challenges[0]),
        [("realm", "r"), ("scope", "a")]
    );
    assert_eq!(
        read.problems,
        [
            Problem::ParamWithoutScheme { at: 0 },
            Problem::ExpectedToken { at: 11 },
            Problem::ExpectedValue { at: 45 },
            Problem::ExpectedComma { at: 56 },
        ]
    );
    // Not a single scheme in sight.
    let read = Challenges::parse("\u{1F600} ünïcode=\"é\\");
    assert!(read.challenges.is_empty());
    assert!(!read.problems.is_empty());
}

#[test]
fn counts_are_capped() {
    let many = vec!["Basic"; MAX_CHALLENGES + 5].join(", ");
    let read = Challenges::parse(&many);
    assert_eq!(read.challenges.len(), MAX_CHALLENGES);
    assert_eq!(read.problems, [Problem::TooMany]);
    let params: Vec<String> = (0..MAX_PARAMS + 5).map(|i| format!("p{i}=v")).collect();
    let read = Challenges::parse(&format!("Bearer {}", params.join(", ")));
    assert_eq!(read.challenges[0].params.len(), MAX_PARAMS);
    assert_eq!(read.problems, [Problem::TooMany]);
    // Problems are capped too.
    let read = Challenges::parse(&vec!["="; 1000].join(","));
    assert!(read.problems.len() <= 8);
}

proptest! {
    #[test]
    fn any_text_reads_without_panic_and_within_bounds(lines in prop::collection::vec(".{0,200}", 0..4)) {
        let read = Challenges::parse_lines(lines.iter().map(String::as_str));
        prop_assert!(read.challenges.len() <= MAX_CHALLENGES);
        prop_assert!(read.challenges.iter().all(|c| c.params.len() <= MAX_PARAMS));
    }

    #[test]
    fn quoted_values_round_trip(value in "[ -~]{0,40}") {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let read = Challenges::parse(&format!("Bearer realm=\"{escaped}\", Basic"));
        prop_assert_eq!(read.param("Bearer", "realm"), Some(value.as_str()));
        prop_assert_eq!(read.challenges.len(), 2);
    }
}
