//! Connecting: the target (URL, database, credentials, CA file), version detection and retry
//! backoff.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use clickhouse::Client;

use super::credentials::split_credentials;
use super::tls::base_client;
use crate::error::StoreError;

/// Servers from this major version on get the client's schema validation
/// (`RowBinaryWithNamesAndTypes`); older ones (Debian's 18.16) get plain RowBinary.
pub const VALIDATION_FROM_MAJOR: u32 = 24;
/// Start-up requests (version, DDL) must answer within this.
pub const DEFAULT_QUERY_TIMEOUT: Duration = Duration::from_secs(30);

/// A password that never shows in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub fn new(secret: impl Into<String>) -> Password {
        Password(secret.into())
    }
    fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Where records go.
#[derive(Debug, Clone)]
pub struct Target {
    /// e.g. `http://127.0.0.1:8123` or `https://ch.example:8443`; without user info when built
    /// by [`Target::from_url`] (show it through `redact_url` all the same).
    pub url: String,
    pub database: String,
    pub user: Option<String>,
    pub password: Option<Password>,
    /// PEM certificates trusted for `https://` besides the webpki roots.
    pub ca_file: Option<PathBuf>,
}

impl Target {
    pub fn new(url: impl Into<String>, database: impl Into<String>) -> Target {
        Target {
            url: url.into(),
            database: database.into(),
            user: None,
            password: None,
            ca_file: None,
        }
    }

    /// The target for `url`, its user info (`https://user:password@host/`) taken out into
    /// `user` and `password`.
    pub fn from_url(url: &str, database: impl Into<String>) -> Result<Target, StoreError> {
        let split = split_credentials(url)?;
        let mut target = Target::new(split.url, database);
        target.user = split.user;
        target.password = split.password;
        Ok(target)
    }

    /// Database names go into DDL unquoted, so only plain identifiers are accepted.
    pub fn validate(&self) -> Result<(), StoreError> {
        let ok = !self.database.is_empty()
            && self
                .database
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !self.database.as_bytes()[0].is_ascii_digit();
        if ok {
            Ok(())
        } else {
            Err(StoreError::InvalidDatabase {
                name: self.database.clone(),
            })
        }
    }

    /// `base` (from [`base_client`]) pointed at this target, with its credentials.
    fn client(&self, base: Client) -> Client {
        let mut c = base.with_url(&self.url);
        if let Some(user) = &self.user {
            c = c.with_user(user);
        }
        if let Some(p) = &self.password {
            c = c.with_password(p.expose());
        }
        c
    }
}

/// A client set up for the server it talks to.
#[derive(Clone)]
pub struct Connection {
    /// With the target's database selected (valid once the schema exists).
    pub client: Client,
    /// Without a database: for DDL and version queries.
    pub server: Client,
    pub target: Target,
    /// `SELECT version()`.
    pub version: String,
    pub validation: bool,
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("target", &self.target)
            .field("version", &self.version)
            .field("validation", &self.validation)
            .finish()
    }
}

/// Asks the server its version and returns a client suited to it.
pub async fn connect(target: &Target) -> Result<Connection, StoreError> {
    target.validate()?;
    // One HTTP client (and connection pool) for both: the CA file is read once.
    let base = base_client(target.ca_file.as_deref())?;
    let plain = target.client(base.clone()).with_validation(false);
    let version: String = with_timeout(
        "asking the server version",
        plain.query("SELECT version()").fetch_one(),
    )
    .await?;
    let validation = major_version(&version).is_some_and(|m| m >= VALIDATION_FROM_MAJOR);
    let server = target.client(base).with_validation(validation);
    let client = server.clone().with_database(&target.database);
    tracing::info!(version = %version, validation, "connected to ClickHouse");
    Ok(Connection {
        client,
        server,
        target: target.clone(),
        version,
        validation,
    })
}

pub(crate) fn major_version(version: &str) -> Option<u32> {
    version.split('.').next()?.trim().parse().ok()
}

/// Runs a ClickHouse request under [`DEFAULT_QUERY_TIMEOUT`], naming it in the error.
pub(crate) async fn with_timeout<T>(
    op: &str,
    fut: impl std::future::Future<Output = clickhouse::error::Result<T>>,
) -> Result<T, StoreError> {
    match tokio::time::timeout(DEFAULT_QUERY_TIMEOUT, fut).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(source)) => Err(StoreError::ClickHouse {
            op: op.to_owned(),
            source,
        }),
        Err(_) => Err(StoreError::ClickHouseTimeout {
            op: op.to_owned(),
            secs: DEFAULT_QUERY_TIMEOUT.as_secs(),
        }),
    }
}

/// Jittered exponential backoff: attempt n waits a random time in [d/2, d] where
/// d = min(initial * 2^n, max).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    initial: Duration,
    max: Duration,
}

impl Backoff {
    /// Rejects a zero initial delay or a maximum below it.
    pub fn new(initial: Duration, max: Duration) -> Option<Backoff> {
        (!initial.is_zero() && max >= initial).then_some(Backoff { initial, max })
    }

    pub fn delay(&self, attempt: u32) -> Duration {
        let factor = 1u32.checked_shl(attempt.min(20)).unwrap_or(u32::MAX);
        let full = self.initial.saturating_mul(factor).min(self.max);
        let half = full / 2;
        let jitter = getrandom::u64().unwrap_or(0) % (half.as_millis() as u64 + 1);
        half + Duration::from_millis(jitter)
    }
}
