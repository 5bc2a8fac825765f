//! Which early verdicts may pass (worth a second look): decided on typed failures only.

use crate::net::{ConnectFailure, FetchError, ResolveError, TimeoutPhase};
use crate::verdict::Verdict;

#[test]
fn a_name_servers_failure_may_pass_and_a_missing_name_does_not() {
    assert!(Verdict::resolve(&ResolveError::ServFail).transient);
    assert!(Verdict::resolve(&ResolveError::Timeout).transient);
    assert!(!Verdict::resolve(&ResolveError::NxDomain).transient);
    assert!(!Verdict::resolve(&ResolveError::NoAddresses).transient);
}

#[test]
fn no_connection_a_timeout_or_a_reset_may_pass_and_a_refusal_of_ours_does_not() {
    let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
    let connect = FetchError::Connect {
        host: "a.test".into(),
        address: "192.0.2.1:443".parse().unwrap(),
        failure: ConnectFailure::from_io(&refused),
    };
    let timeout = FetchError::Timeout {
        url: "https://a.test".into(),
        phase: TimeoutPhase::Connect,
    };
    let reset = FetchError::Reset {
        url: "https://a.test".into(),
        detail: "reset".into(),
    };
    for err in [&connect, &timeout, &reset] {
        assert!(Verdict::no_answer(err).transient, "{err}");
    }
    let disallowed = FetchError::Disallowed {
        url: "https://a.test/".into(),
    };
    let tls = FetchError::Tls {
        host: "a.test".into(),
        address: "192.0.2.1:443".parse().unwrap(),
        reason: "bad certificate".into(),
    };
    for err in [&disallowed, &tls] {
        assert!(!Verdict::no_answer(err).transient, "{err}");
    }
    // This machine's own failure is never the site's: the run retries it, not a second look.
    let emfile = std::io::Error::from_raw_os_error(rustix::io::Errno::MFILE.raw_os_error());
    let local = FetchError::Connect {
        host: "a.test".into(),
        address: "192.0.2.1:443".parse().unwrap(),
        failure: ConnectFailure::from_io(&emfile),
    };
    assert!(!local.is_transient());
}
