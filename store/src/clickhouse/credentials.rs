//! Credentials in a ClickHouse URL (`https://user:password@host:8443/`): taken out of the URL
//! into the target (the client sends them as its user and password), and [`redact_url`] for
//! every URL that is shown or stored, so a password never reaches a manifest, log or message.

use percent_encoding::percent_decode_str;

use super::client::Password;
use crate::error::StoreError;

/// What stands for a password in a shown URL.
pub const REDACTED_PASSWORD: &str = "***";

/// `text` with the password of every URL in it replaced by [`REDACTED_PASSWORD`]
/// (`https://user:***@host/`); the rest is unchanged. Total: text that is not a URL comes back
/// as it was.
pub fn redact_url(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let authority_start = at + 3;
        out.push_str(&rest[..authority_start]);
        rest = &rest[authority_start..];
        // The user info ends at the token's last `@`, even past a `/`, `?` or `#`: a password
        // may hold any of them unencoded (a URL no parser accepts, so its error shows it), and
        // `host:port/a@b` is redacted too rather than risk showing one.
        let token_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..token_end];
        match token.rfind('@').map(|at| (&token[..at], &token[at..])) {
            Some((userinfo, host_on)) if userinfo.contains(':') => {
                let (user, _password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
                out.push_str(user);
                out.push(':');
                out.push_str(REDACTED_PASSWORD);
                out.push_str(host_on);
            }
            _ => out.push_str(token),
        }
        rest = &rest[token_end..];
    }
    out.push_str(rest);
    out
}

/// A URL split into the URL without its user info and the user and password it carried
/// (percent-decoded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlCredentials {
    pub url: String,
    pub user: Option<String>,
    pub password: Option<Password>,
}

/// Takes the user info out of `url`; a URL without any comes back unchanged. Only `http` and
/// `https` URLs are accepted. Errors show the URL redacted.
pub fn split_credentials(url: &str) -> Result<UrlCredentials, StoreError> {
    let invalid = |reason: String| StoreError::InvalidUrl {
        url: redact_url(url),
        reason,
    };
    let mut parsed = url::Url::parse(url).map_err(|e| invalid(e.to_string()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(invalid(format!(
            "the scheme is {:?}: http or https only",
            parsed.scheme()
        )));
    }
    if parsed.username().is_empty() && parsed.password().is_none() {
        return Ok(UrlCredentials {
            url: url.to_owned(),
            user: None,
            password: None,
        });
    }
    let decode = |s: &str| {
        percent_decode_str(s)
            .decode_utf8()
            .map(|d| d.into_owned())
            .map_err(|_| invalid("its user info is not UTF-8 once percent-decoded".to_owned()))
    };
    let user = Some(decode(parsed.username())?).filter(|u| !u.is_empty());
    let password = parsed
        .password()
        .map(decode)
        .transpose()?
        .map(Password::new);
    // Neither can fail on an http(s) URL, which always has a host.
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    Ok(UrlCredentials {
        url: parsed.to_string(),
        user,
        password,
    })
}
