//! Which of a registry entry's remotes decides its record: each remote is tried in turn
//! (streamable HTTP first, then legacy SSE) until one is live; the entry's record is the one
//! whose class is best (`mcpcensus_store::RegistryClass`, the first remote on a tie), and its
//! reason says which remote decided when the entry declares several.

use mcpcensus_store::{registry_class, registry_server, Record, RegistryClass};

use super::registry_error::RegistryScanError;
use crate::net::Exchange;
use crate::probe::Remote;

/// One remote's scan as the entry's record may take it.
#[derive(Debug)]
pub struct Picked {
    pub record: Record,
    pub transcript: Vec<Exchange>,
    /// The remote's failure may pass: the entry gets its second look.
    pub transient: bool,
}

impl Picked {
    /// A record decided without a request.
    pub fn alone(record: Record) -> Picked {
        Picked {
            record,
            transcript: Vec::new(),
            transient: false,
        }
    }
}

/// The record's class, read as a registry entry's whatever its input (`check NAME` has no
/// `registry:` prefix).
fn class_of(record: &mut Record) -> Option<RegistryClass> {
    if registry_server(record).is_some() {
        return registry_class(record);
    }
    let prefixed = format!("registry:{}", record.input);
    let input = std::mem::replace(&mut record.input, prefixed);
    let class = registry_class(record);
    record.input = input;
    class
}

/// The best remote so far.
pub(super) struct RemotePick {
    declared: usize,
    best: Option<(usize, Option<RegistryClass>, Picked)>,
    first_error: Option<RegistryScanError>,
    /// A remote's scan was held: the entry is scanned again as a whole.
    held: Option<std::net::IpAddr>,
}

impl RemotePick {
    pub fn new(declared: usize) -> RemotePick {
        RemotePick {
            declared,
            best: None,
            first_error: None,
            held: None,
        }
    }

    /// Offers remote `i`'s scan; true when no later remote can do better (it is live, or
    /// the scan was held and must be made again as a whole).
    pub fn offer(
        &mut self,
        i: usize,
        remote: &Remote,
        scanned: Result<Picked, RegistryScanError>,
    ) -> bool {
        let mut picked = match scanned {
            Ok(picked) => picked,
            Err(RegistryScanError::Held(ip)) => {
                self.held = Some(ip);
                return true;
            }
            Err(e) => {
                self.first_error.get_or_insert(e);
                return false;
            }
        };
        if self.declared > 1 {
            picked.record.outcome_reason.push_str(&format!(
                " (remote {} of {}, {}, decided)",
                i + 1,
                self.declared,
                remote.kind.as_str()
            ));
        }
        let class = class_of(&mut picked.record);
        let stop = class == Some(RegistryClass::Live);
        // Classes rank best first; a record with no class ranks last.
        let rank = |c: Option<RegistryClass>| c.map_or(usize::MAX, |c| c as usize);
        let better = self
            .best
            .as_ref()
            .is_none_or(|(_, best, _)| rank(class) < rank(*best));
        if better {
            self.best = Some((i, class, picked));
        }
        stop
    }

    /// The deciding remote's record, else the first remote's error; held when a remote's
    /// scan was.
    pub fn finish(self) -> Result<Picked, RegistryScanError> {
        if let Some(ip) = self.held {
            return Err(RegistryScanError::Held(ip));
        }
        match (self.best, self.first_error) {
            (Some((_, _, picked)), _) => Ok(picked),
            (None, Some(e)) => Err(e),
            (None, None) => Err(RegistryScanError::NotUsable(String::new())),
        }
    }
}
