//! After a 401 or 403, the deep probe reads the OAuth metadata: the protected-resource
//! document, then the authorization server's.

use super::auth::{
    as_metadata_candidates, classify_auth, first_authorization_server, issuer_matches,
    prm_candidates, AuthFacts,
};
use super::sequence::Probe;
use super::server_urls::{auth_url_rule, refusal, AUTH_METADATA_BUDGET};
use super::transport::Stop;

impl Probe<'_, '_> {
    /// After a 401 or 403: the protected-resource metadata, then the authorization server's.
    pub(super) async fn read_auth(&mut self, challenge: Option<String>) {
        let mut facts = AuthFacts {
            challenge: challenge.clone(),
            ..AuthFacts::default()
        };
        let site_port = self.endpoint.port_or_known_default().unwrap_or(443);
        let mut budget = AUTH_METADATA_BUDGET;
        for url in prm_candidates(self.endpoint, challenge.as_deref()) {
            if !self.may_fetch(&url, site_port, &mut budget) {
                break;
            }
            match self.pc.get_json(&url, "protected_resource").await {
                Ok((_, Some(doc))) => {
                    facts.metadata_urls.push(url.to_string());
                    facts.prm = Some((url.to_string(), doc));
                    break;
                }
                Ok(_) => {}
                Err(Stop::Budget | Stop::OutOfTime) => break,
                Err(_) => {}
            }
        }
        let issuer = facts
            .prm
            .as_ref()
            .and_then(|(_, doc)| first_authorization_server(doc));
        if let Some(issuer) = issuer {
            for url in as_metadata_candidates(&issuer) {
                if !self.may_fetch(&url, site_port, &mut budget) {
                    break;
                }
                match self.pc.get_json(&url, "auth_server").await {
                    Ok((_, Some(doc))) => {
                        facts.metadata_urls.push(url.to_string());
                        // 2026-07-28: a document whose issuer differs is rejected.
                        if issuer_matches(&doc, &issuer) {
                            facts.as_metadata = Some((url.to_string(), doc));
                            break;
                        }
                    }
                    Ok(_) => {}
                    Err(Stop::Budget | Stop::OutOfTime) => break,
                    Err(_) => {}
                }
            }
        }
        self.report.facts.auth = Some(classify_auth(&facts));
    }

    /// A metadata URL is fetched only within the budget and when it keeps the rules for URLs
    /// a server chose; one that breaks a rule is recorded with it. False ends the search (a
    /// refused URL stands for the server's choice: its fallbacks are not guessed around it).
    fn may_fetch(&mut self, url: &url::Url, site_port: u16, budget: &mut usize) -> bool {
        if let Err(rule) = auth_url_rule(url, site_port) {
            let refused = refusal(url.as_str(), rule);
            self.report.facts.refused_urls.push(refused);
            return false;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        true
    }
}
