//! The survey's verdict on each answer of the session, with a reason a site owner can read.
//!
//! The survey's rules name kinds of answers ("403, 429, a 5xx", "a JSON-RPC error", "another error
//! status"), not steps, so every answer is judged by the same rules and the first one that
//! decides ends the session. A failing `tools/list` therefore decides too: a 500 there is not
//! measured and a JSON-RPC error there fails, rather than falling back to a partial (the partial
//! is for a server that "lists no tool", which a failed `tools/list` has not said).
//!
//! Defects. The survey: "It fails when the handshake answers an HTML page, a body that holds no
//! JSON-RPC answer, a JSON-RPC error, or another error status, and an HTML page or an answer with
//! no JSON-RPC result is a defect." The defect sentence says "result" where the sentence before
//! says "answer", so it is read literally: every failing answer that carries no JSON-RPC result
//! is a defect, a JSON-RPC error and a bare 404 included. The one failing answer that is not a
//! defect is an error status whose body does carry a result for our request (the result does not
//! count, "A JSON-RPC result counts only in a 2xx answer", but the server did answer the call).
//!
//! The notification. "Of the notification's answer only the status and the headers are read."
//! Its status is judged like any other (the survey's "handshake" is the lifecycle's initialization,
//! which ends with this notification): a 3xx is not followed, a 401 with a challenge is partial,
//! 403/429/5xx are not measured, another 4xx fails. Its body is never read, so any 2xx (202 as the
//! SDKs answer, 200, 204) lets the session go on, whatever it carries.
//!
//! Over the cap. "An answer is read ... up to 64 KB." Nothing past 64 KB is read, so a larger
//! answer is judged on its first 64 KB: a cut JSON value, or a stream whose answer comes later,
//! holds no complete JSON-RPC answer there and fails as "a body that holds no JSON-RPC answer"
//! (a defect: no result), with its own reason ("an answer over 64 KB") and kind (`body_cap`),
//! so the servers that fail only on the cap can be counted; a cut `tools/list` keeps the tool
//! names whole in its first 64 KB (`capped.rs`).
//!
//! "Initialize succeeds" when a 2xx answer carries a JSON-RPC result for its id, whatever the
//! result holds; "no answer" covers every failure before the head and a connection that breaks
//! before the answer is complete (both not measured).

use std::time::Duration;

use http::StatusCode;
use mcpcensus_store::{FailureKind, Outcome};
use serde_json::Value;

use crate::mcp::{Answer, Body, Challenges, NoAnswer, RpcError};
use crate::net::{clip, FetchError, TimeoutPhase};
use crate::verdict::Verdict;

/// The reason given for any 3xx, word for word as the survey reports it.
pub const REDIRECT_REASON: &str = "redirects; not followed";

/// The session's three requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// `initialize`.
    Initialize,
    /// The `notifications/initialized` notification.
    Initialized,
    /// `tools/list`.
    ToolsList,
}

impl Step {
    /// The method name, also the request log's purpose.
    pub fn method(self) -> &'static str {
        match self {
            Self::Initialize => "initialize",
            Self::Initialized => "notifications/initialized",
            Self::ToolsList => "tools/list",
        }
    }
}

/// How one request went, as far as the verdict cares.
#[derive(Debug, Clone)]
pub enum Reply {
    /// No response head: the fetch failed (guard, DNS, connect, TLS, reset, ...).
    NoAnswer(FetchError),
    /// The session's time ran out before the answer was complete.
    OutOfTime,
    /// The head arrived but the connection broke before the answer was complete.
    Broken(FetchError),
    /// An answer.
    Answered {
        /// Its status.
        status: StatusCode,
        /// The `WWW-Authenticate` challenge of a 401, when non-empty.
        challenge: Option<String>,
        /// What the body held; `None` when it was not read (the notification's answer, and
        /// answers whose status alone decides).
        body: Option<Body>,
    },
}

/// A verdict other than pass or partial, with its reason's kind and the survey's defect flag.
fn failed(outcome: Outcome, kind: FailureKind, reason: impl Into<String>, defect: bool) -> Verdict {
    let verdict = Verdict::new(outcome, kind, reason);
    if defect {
        verdict.defect()
    } else {
        verdict
    }
}

/// Not measured: too little time left in the scan to open the session.
pub fn too_little_time(budget: Duration) -> Verdict {
    failed(
        Outcome::NotMeasured,
        FailureKind::Deadline,
        format!(
            "too little time left in the scan to open the {} session: not measured",
            seconds(budget)
        ),
        false,
    )
    .transient()
}

/// Pass: `tools/list` named tools.
pub fn pass(count: usize, protocol_version: Option<&str>) -> Verdict {
    let tools = if count == 1 { "tool" } else { "tools" };
    let version = protocol_version
        .map(|v| format!(" (protocol version {v})"))
        .unwrap_or_default();
    Verdict::answered(
        Outcome::Pass,
        format!("tools/list names {count} {tools}{version}"),
    )
}

/// Partial: `initialize` succeeded, but the server declares no tools capability.
pub fn no_tools_capability() -> Verdict {
    Verdict::answered(
        Outcome::Partial,
        "initialize succeeded but the server declares no tools capability, so tools/list \
         was not sent",
    )
}

/// Partial: `tools/list` succeeded and named no tool.
pub fn empty_tool_list() -> Verdict {
    Verdict::answered(
        Outcome::Partial,
        "initialize succeeded but tools/list names no tool",
    )
}

/// What to do after one answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    /// Go on; carries the JSON-RPC result of a request (`None` for the notification).
    Proceed(Option<Value>),
    /// The session ends with this verdict.
    Decided(Verdict),
}

/// Judges one answer. `budget` only words the time-limit reason.
pub fn judge(step: Step, reply: &Reply, budget: Duration) -> Judged {
    let name = step.method();
    match reply {
        Reply::NoAnswer(err) => Judged::Decided(no_answer(step, err, budget)),
        Reply::OutOfTime => Judged::Decided(out_of_time(step, budget)),
        Reply::Broken(err) => Judged::Decided(
            failed(
                Outcome::NotMeasured,
                err.failure_kind(),
                format!(
                    "the connection broke while {name}'s answer was being read ({}): not \
                     measured",
                    short_error(err)
                ),
                false,
            )
            .transient(),
        ),
        Reply::Answered {
            status,
            challenge,
            body,
        } => judge_answer(step, *status, challenge.as_deref(), body.as_ref()),
    }
}

/// An answer's verdict, by its status first and its body after.
fn judge_answer(
    step: Step,
    status: StatusCode,
    challenge: Option<&str>,
    body: Option<&Body>,
) -> Judged {
    let name = step.method();
    let not_measured = |what: String| {
        Judged::Decided(failed(
            Outcome::NotMeasured,
            FailureKind::Answer,
            format!("{name} answered {what}: not measured"),
            false,
        ))
    };
    if status.is_redirection() {
        return Judged::Decided(failed(
            Outcome::NotMeasured,
            FailureKind::Redirect,
            REDIRECT_REASON,
            false,
        ));
    }
    if status == StatusCode::UNAUTHORIZED {
        let schemes = challenge.map(schemes).unwrap_or_default();
        return if schemes.is_empty() {
            let what = if challenge.is_some() {
                "401 (unauthorized) with a WWW-Authenticate that names no challenge"
            } else {
                "401 (unauthorized) without a WWW-Authenticate challenge"
            };
            not_measured(what.into())
        } else {
            Judged::Decided(Verdict::answered(
                Outcome::Partial,
                format!(
                    "{name} answered 401 with a WWW-Authenticate challenge ({schemes}): an agent \
                     can use it with authorization"
                ),
            ))
        };
    }
    if status == StatusCode::FORBIDDEN {
        return not_measured(status_words(status));
    }
    // The server asked to come back later, or failed for now.
    // Typed as "not now" (docs/rules.md), the same kinds as `/mcp`'s GET.
    if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
        let kind = if status.is_server_error() {
            FailureKind::ServerError
        } else {
            FailureKind::RateLimited
        };
        let reason = format!("{name} answered {}: not measured", status_words(status));
        let decision = failed(Outcome::NotMeasured, kind, reason, false);
        return Judged::Decided(decision.transient());
    }
    if status.is_success() {
        if step == Step::Initialized {
            // "Of the notification's answer only the status and the headers are read."
            return Judged::Proceed(None);
        }
        return judge_success(name, &status_words(status), body);
    }
    Judged::Decided(other_status(name, &status_words(status), body))
}

/// A 2xx answer to a request: its JSON-RPC result proceeds, anything else fails.
fn judge_success(name: &str, code: &str, body: Option<&Body>) -> Judged {
    let fail =
        |reason: String| Judged::Decided(failed(Outcome::Fail, FailureKind::Answer, reason, true));
    match body {
        Some(Body::Answer(Answer::Result(result))) => Judged::Proceed(Some(result.clone())),
        Some(Body::Answer(Answer::Error(err))) => match newer_revision_only(name, code, err) {
            Some(decision) => Judged::Decided(decision),
            None => fail(format!(
                "{name} answered a JSON-RPC error: {}",
                rpc_error(err)
            )),
        },
        Some(Body::Html) => fail(format!(
            "{name} answered {code} with an HTML page instead of JSON-RPC"
        )),
        // Its own reason and kind, so the servers that fail only on the cap can be counted.
        Some(Body::NoAnswer(NoAnswer::OverCap)) => Judged::Decided(failed(
            Outcome::Fail,
            FailureKind::BodyCap,
            format!(
                "{name} answered {code} with an answer over 64 KB: the first 64 KB hold no \
                 complete JSON-RPC answer"
            ),
            true,
        )),
        Some(Body::NoAnswer(why)) => fail(format!(
            "{name} answered {code} with {}: no JSON-RPC answer",
            why.describe()
        )),
        None => fail(format!(
            "{name} answered {code} with a body that holds no JSON-RPC answer"
        )),
    }
}

/// The error codes of a server that refused our protocol version: UnsupportedProtocolVersion
/// (2026-07-28) and -32004, which pre-release servers of that revision sent.
const UNSUPPORTED_VERSION_CODES: [i64; 2] = [-32022, -32004];

/// Whether `version` names a revision released after `offered`: both are dates
/// (`YYYY-MM-DD`), compared as dates; anything else (`draft`, `latest`, `2026-7-28`) is not
/// newer, so a server naming only such tokens is the survey's plain fail.
pub(crate) fn is_newer_revision(version: &str, offered: &str) -> bool {
    let date = |v: &str| -> Option<(u16, u8, u8)> {
        let b = v.as_bytes();
        let shape = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shape {
            return None;
        }
        let (y, m, d) = (
            v[..4].parse().ok()?,
            v[5..7].parse().ok()?,
            v[8..].parse().ok()?,
        );
        ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
    };
    matches!((date(version), date(offered)), (Some(a), Some(b)) if a > b)
}

/// A refusal of the offered protocol version by a server that names only revisions newer than
/// the survey offers (a 2026-07-28-only server): the survey's fail, with its own reason and kind,
/// and not a defect (the server answered correctly in its own revision).
fn newer_revision_only(name: &str, code: &str, err: &RpcError) -> Option<Verdict> {
    let newer = |v: &String| is_newer_revision(v, crate::session::OFFERED_PROTOCOL_VERSION);
    if !UNSUPPORTED_VERSION_CODES.contains(&err.code)
        || err.supported.is_empty()
        || !err.supported.iter().all(newer)
    {
        return None;
    }
    Some(failed(
        Outcome::Fail,
        FailureKind::NewerRevisionOnly,
        format!(
            "{name} answered {code}: the server speaks {} only (JSON-RPC error {}), not the \
             survey's {}",
            err.supported.join(", "),
            err.code,
            crate::session::OFFERED_PROTOCOL_VERSION
        ),
        false,
    ))
}

/// "another error status": 400, 404, 405, 406, 415, ... (and anything outside 2xx-5xx).
fn other_status(name: &str, code: &str, body: Option<&Body>) -> Verdict {
    if let Some(Body::Answer(Answer::Error(err))) = body {
        if let Some(decision) = newer_revision_only(name, code, err) {
            return decision;
        }
    }
    let (detail, defect) = match body {
        Some(Body::Answer(Answer::Error(err))) => {
            (format!(" with a JSON-RPC error: {}", rpc_error(err)), true)
        }
        Some(Body::Answer(Answer::Result(_))) => (
            " with a JSON-RPC result, which counts only in a 2xx answer".to_owned(),
            false,
        ),
        Some(Body::Html) => (" with an HTML page".to_owned(), true),
        _ => (String::new(), true),
    };
    failed(
        Outcome::Fail,
        FailureKind::Answer,
        format!("{name} answered {code}{detail}"),
        defect,
    )
}

fn no_answer(step: Step, err: &FetchError, budget: Duration) -> Verdict {
    let name = step.method();
    let reason = match err {
        FetchError::Timeout {
            phase: TimeoutPhase::Headers | TimeoutPhase::Body,
            ..
        } => return out_of_time(step, budget),
        FetchError::Guard {
            address, refusal, ..
        } => format!(
            "the scanner's guard refused to send {name}: the endpoint's address {address} is \
             not public ({refusal}): not measured"
        ),
        FetchError::TooManyHosts { .. }
        | FetchError::InvalidUrl { .. }
        | FetchError::OptedOut { .. }
        | FetchError::Disallowed { .. } => {
            format!("the scanner refused to send {name} ({err}): not measured")
        }
        other => format!(
            "{name} got no answer ({}): not measured",
            short_error(other)
        ),
    };
    let decision = failed(Outcome::NotMeasured, err.failure_kind(), reason, false);
    if err.is_transient() {
        decision.transient()
    } else {
        decision
    }
}

fn out_of_time(step: Step, budget: Duration) -> Verdict {
    failed(
        Outcome::NotMeasured,
        FailureKind::Timeout,
        format!(
            "the session's {} limit ran out waiting for {}'s answer: not measured",
            seconds(budget),
            step.method()
        ),
        false,
    )
    .transient()
}

/// A failure in a few words, without the URL.
fn short_error(err: &FetchError) -> String {
    match err {
        FetchError::Resolve { error, .. } => format!("the name did not resolve: {error}"),
        FetchError::Connect { failure, .. } => failure.to_string(),
        FetchError::Tls { reason, .. } => format!("TLS handshake failed: {reason}"),
        FetchError::Timeout { phase, .. } => format!("timed out ({})", phase.name()),
        FetchError::Reset { .. } => "connection reset".to_owned(),
        FetchError::Protocol { detail, .. } => format!("HTTP protocol error: {detail}"),
        other => other.to_string(),
    }
}

/// `403 (forbidden)`.
fn status_words(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(words) => format!("{} ({})", status.as_u16(), words.to_ascii_lowercase()),
        None => status.as_u16().to_string(),
    }
}

fn rpc_error(err: &RpcError) -> String {
    if err.message.is_empty() {
        format!("code {}", err.code)
    } else {
        format!("code {} \"{}\"", err.code, err.message)
    }
}

/// Bytes of scheme names a reason carries: the names are the server's tokens, of any length.
const SCHEMES_MAX: usize = 120;

/// The auth schemes of the challenges (`Bearer`, `Basic, Bearer`), for the reason.
fn schemes(challenge: &str) -> String {
    let read = Challenges::parse(challenge);
    let names: Vec<&str> = read.challenges.iter().map(|c| c.scheme.as_str()).collect();
    clip(&names.join(", "), SCHEMES_MAX)
}

/// `12 s`, `1.5 s`.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{} s", d.as_secs_f64())
    }
}
