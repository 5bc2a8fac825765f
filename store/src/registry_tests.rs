use super::*;
use crate::record::{AuthInfo, FirstLook, RequestLog};
use crate::MigrationStatus;

fn listed(outcome: Outcome, kind: Option<K>) -> Record {
    let mut r = Record::new("run", 0, "registry:com.example/s", 1, outcome, "");
    r.endpoint = Some("https://s.test/mcp".into());
    r.reason_kind = kind;
    r
}

fn with_status(mut r: Record, purpose: &str, status: u16) -> Record {
    r.requests.push(RequestLog {
        purpose: purpose.into(),
        status: Some(status),
        ..RequestLog::default()
    });
    r
}

fn first(mut r: Record, kind: K) -> Record {
    r.first_look = Some(FirstLook {
        scanned_at: 0,
        outcome: Outcome::NotMeasured,
        outcome_reason: String::new(),
        reason_kind: Some(kind),
        total_ms: 0,
        requests: Vec::new(),
    });
    r
}

#[test]
fn registry_entries_are_classified_from_typed_fields_only() {
    use RegistryClass as C;
    let class = |outcome, kind| registry_class(&listed(outcome, kind));
    assert_eq!(class(Outcome::Pass, None), Some(C::Live));
    assert_eq!(class(Outcome::Partial, None), Some(C::Live));
    let challenged = with_status(listed(Outcome::Partial, None), "initialize", 401);
    assert_eq!(registry_class(&challenged), Some(C::AuthGated));
    // The deep probe marks a 401/403 endpoint not probeable: it is still auth-gated.
    let mut deep = with_status(listed(Outcome::NotMeasured, Some(K::Answer)), "x", 403);
    deep.migration_status = Some(MigrationStatus::NotProbeable);
    assert_eq!(registry_class(&deep), Some(C::AuthGated));
    // A sign-in redirect answered HTTP, not MCP, and is counted apart.
    let sign_in = listed(Outcome::NotMeasured, Some(K::Redirect));
    assert_eq!(registry_class(&sign_in), Some(C::HttpNotMcp));
    assert!(signin_redirect(&sign_in));
    assert!(!signin_redirect(&listed(Outcome::Fail, Some(K::Answer))));
    assert_eq!(class(Outcome::Fail, Some(K::Answer)), Some(C::HttpNotMcp));
    for kind in [K::Dns, K::Connect, K::Tls] {
        assert_eq!(class(Outcome::Unreachable, Some(kind)), Some(C::Dead));
    }
    assert_eq!(class(Outcome::NotMeasured, Some(K::Timeout)), Some(C::Dead));
    assert_eq!(
        class(Outcome::Fail, Some(K::NewerRevisionOnly)),
        Some(C::Live)
    );
    // The survey failed, the deep probe listed the tools anonymously (legacy SSE, a 400 to
    // the notification): live.
    let mut sse = listed(Outcome::Fail, Some(K::Answer));
    sse.auth = Some(AuthInfo {
        kind: crate::AuthKind::None,
        challenge: None,
        resource_metadata_url: None,
        authorization_servers: Vec::new(),
        metadata_urls: Vec::new(),
    });
    assert_eq!(registry_class(&sse), Some(C::Live));
    let refusing = with_status(sse, "probe:notifications/initialized", 400);
    assert!(initialized_400(&refusing));
    assert!(!initialized_400(&with_status(
        listed(Outcome::Pass, None),
        "initialize",
        400
    )));
    // Not now: a 5xx is dead only when the second look confirms it; a 429 never decides.
    let busy = listed(Outcome::NotMeasured, Some(K::ServerError));
    assert_eq!(registry_class(&busy), Some(C::NoVerdict));
    assert_eq!(
        registry_class(&first(busy.clone(), K::ServerError)),
        Some(C::Dead)
    );
    assert_eq!(
        registry_class(&first(busy, K::RateLimited)),
        Some(C::NoVerdict)
    );
    let limited = listed(Outcome::NotMeasured, Some(K::RateLimited));
    assert_eq!(
        registry_class(&first(limited, K::RateLimited)),
        Some(C::NoVerdict)
    );
    // A template is never requested; a stdio entry has no remote.
    assert_eq!(
        class(Outcome::NotMeasured, Some(K::Template)),
        Some(C::Template)
    );
    let mut stdio = listed(Outcome::NotMeasured, Some(K::NoEndpoint));
    stdio.endpoint = None;
    stdio.transport = Some(crate::Transport::Stdio);
    assert_eq!(registry_class(&stdio), Some(C::NotProbeable));
    assert_eq!(class(Outcome::NotStarted, None), None);
    // A lookup that failed says nothing of the server.
    let mut lookup = listed(Outcome::NotMeasured, Some(K::Connect));
    lookup.endpoint = None;
    assert_eq!(registry_class(&lookup), None);
    // A site of the web, and an invalid registry line, are no registry entries.
    let mut web = listed(Outcome::Pass, None);
    web.input = "s.test".into();
    assert_eq!(registry_class(&web), None);
    let mut bad = listed(Outcome::InvalidInput, Some(K::Input));
    bad.input = "registry:no-slash".into();
    assert_eq!(registry_server(&bad), None);
}

#[test]
fn classes_rank_best_first() {
    let mut all = RegistryClass::ALL;
    all.reverse();
    all.sort();
    assert_eq!(all, RegistryClass::ALL);
    assert_eq!(all[0], RegistryClass::Live);
}
