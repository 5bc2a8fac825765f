//! The first phase: the host resolved, its addresses checked by the guard, and the site's turn
//! on its address (the seat's hold ends the scan).

use std::net::IpAddr;
use std::sync::atomic::Ordering;

use mcpcensus_store::{FailureKind, Outcome};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use super::job::{Seat, Turn};
use super::phases::{ms, Context, Phases};
use super::site::SiteScan;
use crate::verdict::Verdict;

/// The site's turn on its address: the next site on it waits until this is dropped.
pub(super) struct SiteTurn {
    _permit: Option<OwnedSemaphorePermit>,
}

impl Context<'_> {
    /// Warns once per crawl when it reaches an address outside the allowed ranges (the public
    /// web) without an operator contact in the User-Agent.
    fn warn_without_contact(&self, ip: IpAddr) {
        let opts = self.net.options();
        if opts.contact.is_some() || opts.allow_nets.iter().any(|n| n.contains(&ip)) {
            return;
        }
        if !self.warned_contact.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                address = %ip,
                "crawling addresses outside --allow-net without an operator contact: set \
                 net.contact (or --contact) so site owners know who to write to"
            );
        }
    }

    /// The site's turn on its address: sites sharing one take turns, so shared hosting is
    /// spread over time rather than burst. While it waits, the site gives up its place among
    /// the sites scanned at once.
    async fn turn(&self, ip: IpAddr, seat: Option<&dyn Seat>) -> Turn {
        let throttle = self.net.throttle();
        if let Some(now) = throttle.site_permit_now(ip) {
            return Turn::Taken(Some(now));
        }
        if let Some(seat) = seat {
            if !seat.leave(ip) {
                return Turn::Held;
            }
        }
        let permit = throttle.site_permit(ip).await;
        if let Some(seat) = seat {
            seat.back().await;
        }
        Turn::Taken(permit)
    }

    /// Resolves the host, checks its addresses and waits for the site's turn on the address its
    /// requests go to first (waiting in `seat`, when given); the turn, to hold while the scan
    /// runs.
    pub(super) async fn resolve_and_guard(
        &self,
        site: &mut SiteScan,
        out: &mut Phases,
        seat: Option<&dyn Seat>,
    ) -> Result<SiteTurn, Verdict> {
        let ip = self.resolve(site, out).await?;
        let waits = site.client().waits().clone();
        let Turn::Taken(permit) = waits.during(self.turn(ip, seat)).await else {
            out.held = Some(ip);
            return Err(Verdict::held(ip));
        };
        Ok(SiteTurn { _permit: permit })
    }

    /// Resolves the host and checks its addresses; the address the site's requests go to
    /// first.
    async fn resolve(&self, site: &mut SiteScan, out: &mut Phases) -> Result<IpAddr, Verdict> {
        let resolve_started = Instant::now();
        let host = site.host().to_owned();
        let resolved = self
            .net
            .resolver()
            .resolve_for(&host, site.client().waits());
        let addresses = match resolved.await {
            Ok(a) => a,
            Err(e) => {
                site.client().note_resolve_error(&e);
                return Err(Verdict::resolve(&e));
            }
        };
        out.timings.resolve_ms = Some(ms(resolve_started.elapsed()));
        out.addresses = addresses.to_vec();
        let refusals: Vec<_> = addresses
            .iter()
            .filter_map(|ip| self.net.guard().check(*ip).err().map(|r| (*ip, r)))
            .collect();
        if let Some(ip) = addresses
            .iter()
            .find(|ip| self.net.guard().check(**ip).is_ok())
        {
            self.warn_without_contact(*ip);
            return Ok(*ip);
        }
        // Every address refused, one of them opted out: the site is excluded, not unmeasured.
        let opted_out = refusals
            .iter()
            .find(|(_, r)| r.range == crate::net::BlockedRange::OptedOut);
        Err(match (opted_out, refusals.first()) {
            (Some((ip, refusal)), _) => Verdict::new(
                Outcome::Excluded,
                FailureKind::OptedOut,
                format!("excluded: {ip} is {refusal}, named by the IP-range opt-outs (--exclude-net); no connection made"),
            ),
            (None, Some((ip, refusal))) => Verdict::not_measured(
                FailureKind::Guard,
                format!("refused by the address guard: {ip} is {refusal}"),
            ),
            (None, None) => Verdict::new(
                Outcome::Unreachable,
                FailureKind::Dns,
                "DNS: the name has no A or AAAA records",
            ),
        })
    }
}
