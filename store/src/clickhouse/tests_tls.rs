//! The ClickHouse URL's credentials and redaction, and the CA file's errors (the TLS round
//! trip itself is in the e2e suite, behind a TLS proxy).

use std::io::Write;

use super::{base_client, connect, redact_url, split_credentials, Password, Target};
use crate::error::StoreError;

#[test]
fn redaction_hides_every_password_and_keeps_the_rest() {
    for (text, want) in [
        ("https://u:pw@h:8443/", "https://u:***@h:8443/"),
        ("https://u:pw@h", "https://u:***@h"),
        (
            "http://u:p@ss@h:1/?database=x",
            "http://u:***@h:1/?database=x",
        ),
        ("https://u@h/", "https://u@h/"),
        ("https://h/path@x", "https://h/path@x"),
        // Ambiguous without a parser: redacted rather than risk a password.
        ("https://h:8443/path@x", "https://h:***@x"),
        // Unencoded `/`, `?`, `#` in a password (no parser accepts the URL; its error shows it).
        ("https://u:pa/ss@h:1/", "https://u:***@h:1/"),
        ("https://u:p?s#s@h", "https://u:***@h"),
        ("http://127.0.0.1:8123", "http://127.0.0.1:8123"),
        ("--clickhouse=https://a:b@h", "--clickhouse=https://a:***@h"),
        (
            "at https://a:s1@h and http://b:s2@k:1 failed",
            "at https://a:***@h and http://b:***@k:1 failed",
        ),
        ("https://:pw@h", "https://:***@h"),
        ("not a url", "not a url"),
        ("://", "://"),
        ("", ""),
    ] {
        assert_eq!(redact_url(text), want, "{text}");
    }
}

#[test]
fn credentials_leave_the_url_for_the_target() {
    let split = split_credentials("https://writer:p%40ss%3Aw@ch.example:8443/?database=x").unwrap();
    assert_eq!(split.url, "https://ch.example:8443/?database=x");
    assert_eq!(split.user.as_deref(), Some("writer"));
    assert_eq!(split.password, Some(Password::new("p@ss:w")));

    let plain = split_credentials("http://127.0.0.1:8123").unwrap();
    assert_eq!(
        plain.url, "http://127.0.0.1:8123",
        "unchanged, no slash added"
    );
    assert_eq!((plain.user, plain.password), (None, None));

    let target = Target::from_url("https://u:secret@h:8443", "db").unwrap();
    assert_eq!(target.url, "https://h:8443/");
    assert_eq!(target.user.as_deref(), Some("u"));
    assert!(!format!("{target:?}").contains("secret"));
}

#[test]
fn a_bad_url_is_refused_with_its_password_redacted() {
    for url in ["ftp://u:secret@h/", "https://u:secret@", "nonsense"] {
        let err = split_credentials(url).unwrap_err();
        assert!(
            matches!(err, StoreError::InvalidUrl { .. }),
            "{url}: {err:?}"
        );
        let shown = format!("{err} {err:?}");
        assert!(!shown.contains("secret"), "{shown}");
    }
}

#[test]
fn a_missing_empty_or_broken_ca_file_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pem");
    let err = base_client(Some(&missing)).map(|_| ()).unwrap_err();
    assert!(
        matches!(err, StoreError::ClickHouseCaFile { ref path, .. } if *path == missing),
        "{err:?}"
    );

    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "no certificate here\n").unwrap();
    let err = base_client(Some(&empty)).map(|_| ()).unwrap_err();
    assert!(
        matches!(err, StoreError::ClickHouseCaFile { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("empty.pem"), "{err}");

    let broken = dir.path().join("broken.pem");
    let mut f = std::fs::File::create(&broken).unwrap();
    writeln!(
        f,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"
    )
    .unwrap();
    drop(f);
    let err = base_client(Some(&broken)).map(|_| ()).unwrap_err();
    assert!(
        matches!(err, StoreError::ClickHouseCaCertificate { .. }),
        "{err:?}"
    );

    assert!(base_client(None).is_ok());
}

/// The CA file is read before any request: no server is needed to see the error.
#[tokio::test]
async fn connect_reports_the_ca_file_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    let mut target = Target::new("https://127.0.0.1:9/", "db");
    target.ca_file = Some(dir.path().join("missing.pem"));
    let err = connect(&target).await.unwrap_err();
    assert!(
        matches!(err, StoreError::ClickHouseCaFile { .. }),
        "{err:?}"
    );
}
