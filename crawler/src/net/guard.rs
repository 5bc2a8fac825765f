//! The address guard: only public unicast addresses are connected to, unless a range is allowed.
//!
//! Every address the crawler connects to passes [`Guard::check`] first, after DNS and right
//! before the connection is opened to that exact address.
//!
//! Decisions:
//! - IPv6 forms that embed an IPv4 address reach (or are translated to) that IPv4 host, so they
//!   are judged by the embedded address: IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96`,
//!   NAT64 `64:ff9b::/96` and 6to4 `2002::/16` (embedded address in bits 16..48). The embedded
//!   address is judged against the allow list too: allowing `127.0.0.0/8` lets `::ffff:127.0.0.1`
//!   through, since both reach the same host.
//! - Teredo `2001::/32` is refused outright. Its client address is obfuscated, its path runs
//!   through relays we do not control, and no public web server needs it.
//! - Local-use NAT64 `64:ff9b:1::/48` is refused outright (its translation is site-specific).
//! - IPv6 outside global unicast `2000::/3` is refused (after the embedding forms above), so
//!   unassigned space cannot sneak through; so are 6to4's IPv4 relay anycast and the IPv6
//!   benchmarking, ORCHID and documentation blocks.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

/// A range the guard refuses, named for logs and records (use [`BlockedRange::name`] as a label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockedRange {
    /// `0.0.0.0`, `::`.
    Unspecified,
    /// `0.0.0.0/8`.
    ThisNetwork,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// RFC 1918: `10/8`, `172.16/12`, `192.168/16`.
    Private,
    /// RFC 6598 carrier-grade NAT `100.64/10`.
    SharedAddressSpace,
    /// Instance metadata services: `169.254.169.254`, `169.254.170.2`, `100.100.100.200`,
    /// `fd00:ec2::254`.
    CloudMetadata,
    /// `169.254/16`, `fe80::/10`.
    LinkLocal,
    /// IETF protocol assignments `192.0.0/24`.
    ProtocolAssignments,
    /// `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// `198.18/15`, `2001:2::/48`.
    Benchmarking,
    /// 6to4 relay anycast `192.88.99/24` (deprecated).
    SixToFourRelay,
    /// `224/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// `240/4`.
    Reserved,
    /// IPv6 unique local `fc00::/7`.
    UniqueLocal,
    /// IPv6 site-local `fec0::/10` (deprecated).
    SiteLocal,
    /// IPv6 discard-only `100::/64`.
    DiscardOnly,
    /// Local-use NAT64 `64:ff9b:1::/48`.
    Nat64LocalUse,
    /// Teredo `2001::/32`.
    Teredo,
    /// ORCHID `2001:10::/28`, `2001:20::/28`.
    Orchid,
    /// IPv6 outside global unicast `2000::/3`.
    NotGlobalUnicast,
    /// A range the operator opted out (`--exclude-net`); checked before the allow list.
    OptedOut,
}

impl BlockedRange {
    /// A short stable name, fit for a metric label or a record field.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unspecified => "unspecified",
            Self::ThisNetwork => "this network",
            Self::Loopback => "loopback",
            Self::Private => "private (RFC 1918)",
            Self::SharedAddressSpace => "shared address space (CGNAT, RFC 6598)",
            Self::CloudMetadata => "cloud metadata",
            Self::LinkLocal => "link-local",
            Self::ProtocolAssignments => "IETF protocol assignments",
            Self::Documentation => "documentation",
            Self::Benchmarking => "benchmarking",
            Self::SixToFourRelay => "6to4 relay anycast",
            Self::Multicast => "multicast",
            Self::Broadcast => "broadcast",
            Self::Reserved => "reserved",
            Self::UniqueLocal => "unique local (fc00::/7)",
            Self::SiteLocal => "site-local (fec0::/10)",
            Self::DiscardOnly => "discard-only (100::/64)",
            Self::Nat64LocalUse => "local-use NAT64 (64:ff9b:1::/48)",
            Self::Teredo => "Teredo (2001::/32)",
            Self::Orchid => "ORCHID",
            Self::NotGlobalUnicast => "not IPv6 global unicast",
            Self::OptedOut => "in an opted-out IP range",
        }
    }
}

impl fmt::Display for BlockedRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An IPv6 form that carries an IPv4 address, judged by that address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Embedding {
    /// `::ffff:0:0/96`.
    Ipv4Mapped,
    /// `::/96` (deprecated).
    Ipv4Compatible,
    /// `64:ff9b::/96`.
    Nat64,
    /// `2002::/16`.
    SixToFour,
}

impl Embedding {
    /// A short stable name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ipv4Mapped => "IPv4-mapped",
            Self::Ipv4Compatible => "IPv4-compatible",
            Self::Nat64 => "NAT64",
            Self::SixToFour => "6to4",
        }
    }
}

/// Why an address was refused: the range, and the IPv6 form it was embedded in, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Refusal {
    /// The refused range.
    pub range: BlockedRange,
    /// Set when the refused IPv4 address was embedded in an IPv6 address.
    pub embedded_in: Option<Embedding>,
    /// The opted-out range that matched, for [`BlockedRange::OptedOut`].
    pub listed: Option<IpNet>,
}

impl Refusal {
    fn direct(range: BlockedRange) -> Self {
        Self {
            range,
            embedded_in: None,
            listed: None,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.embedded_in, self.listed) {
            (_, Some(net)) => write!(f, "{} ({net})", self.range),
            (None, None) => write!(f, "{}", self.range),
            (Some(form), None) => write!(f, "{} (embedded in {} IPv6)", self.range, form.name()),
        }
    }
}

/// Refuses non-public addresses, except those in the allowed ranges, and always the
/// opted-out ranges.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    allow: Vec<IpNet>,
    exclude: Vec<IpNet>,
}

impl Guard {
    /// A guard that lets the `allow` ranges through besides public addresses.
    pub fn new(allow: Vec<IpNet>) -> Self {
        Self {
            allow,
            exclude: Vec::new(),
        }
    }

    /// The same guard, also refusing every address in `exclude` (the operator's IP-range
    /// opt-outs win over the allow list: a range that asked not to be crawled never is).
    pub fn excluding(mut self, exclude: Vec<IpNet>) -> Self {
        self.exclude = exclude;
        self
    }

    /// The opted-out ranges.
    pub fn excluded(&self) -> &[IpNet] {
        &self.exclude
    }

    /// The allowed ranges.
    pub fn allowed(&self) -> &[IpNet] {
        &self.allow
    }

    /// `Ok` when the crawler may connect to `ip`.
    pub fn check(&self, ip: IpAddr) -> Result<(), Refusal> {
        self.check_opt_out(ip)?;
        if self.is_allowed(ip) {
            return Ok(());
        }
        match ip {
            IpAddr::V4(v4) => check_v4(v4).map_err(Refusal::direct),
            IpAddr::V6(v6) => self.check_v6(v6),
        }
    }

    /// An opted-out range covering `ip`, or the IPv4 address an IPv6 form embeds.
    fn check_opt_out(&self, ip: IpAddr) -> Result<(), Refusal> {
        if self.exclude.is_empty() {
            return Ok(());
        }
        let embedded = match ip {
            IpAddr::V6(v6) => embedded_v4(v6).map(|(_, v4)| IpAddr::V4(v4)),
            IpAddr::V4(_) => None,
        };
        let hit = self
            .exclude
            .iter()
            .find(|net| net.contains(&ip) || embedded.is_some_and(|v4| net.contains(&v4)));
        match hit {
            Some(net) => Err(Refusal {
                range: BlockedRange::OptedOut,
                embedded_in: None,
                listed: Some(*net),
            }),
            None => Ok(()),
        }
    }

    fn is_allowed(&self, ip: IpAddr) -> bool {
        self.allow.iter().any(|net| net.contains(&ip))
    }

    fn check_v6(&self, ip: Ipv6Addr) -> Result<(), Refusal> {
        if ip.is_unspecified() {
            return Err(Refusal::direct(BlockedRange::Unspecified));
        }
        if ip.is_loopback() {
            return Err(Refusal::direct(BlockedRange::Loopback));
        }
        let seg = ip.segments();
        if seg[0] == 0x2001 && seg[1] == 0 {
            return Err(Refusal::direct(BlockedRange::Teredo));
        }
        if seg[0] == 0x64 && seg[1] == 0xff9b && seg[2] == 1 {
            return Err(Refusal::direct(BlockedRange::Nat64LocalUse));
        }
        if let Some((form, v4)) = embedded_v4(ip) {
            if self.is_allowed(IpAddr::V4(v4)) {
                return Ok(());
            }
            return check_v4(v4).map_err(|range| Refusal {
                range,
                embedded_in: Some(form),
                listed: None,
            });
        }
        check_v6_native(ip).map_err(Refusal::direct)
    }
}

/// The IPv4 address inside an embedding IPv6 form (not `::` or `::1`, handled before).
fn embedded_v4(ip: Ipv6Addr) -> Option<(Embedding, Ipv4Addr)> {
    let seg = ip.segments();
    let o = ip.octets();
    let last = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    if seg[..5] == [0; 5] && seg[5] == 0xffff {
        return Some((Embedding::Ipv4Mapped, last));
    }
    if seg[..6] == [0; 6] {
        return Some((Embedding::Ipv4Compatible, last));
    }
    if seg[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some((Embedding::Nat64, last));
    }
    if seg[0] == 0x2002 {
        return Some((Embedding::SixToFour, Ipv4Addr::new(o[2], o[3], o[4], o[5])));
    }
    None
}

fn check_v4(ip: Ipv4Addr) -> Result<(), BlockedRange> {
    use BlockedRange as R;
    let [a, b, c, d] = ip.octets();
    let range = match (a, b, c, d) {
        (0, 0, 0, 0) => R::Unspecified,
        (0, ..) => R::ThisNetwork,
        (127, ..) => R::Loopback,
        (10, ..) => R::Private,
        (172, 16..=31, ..) => R::Private,
        (192, 168, ..) => R::Private,
        (169, 254, 169, 254) | (169, 254, 170, 2) | (100, 100, 100, 200) => R::CloudMetadata,
        (100, 64..=127, ..) => R::SharedAddressSpace,
        (169, 254, ..) => R::LinkLocal,
        (192, 0, 0, _) => R::ProtocolAssignments,
        (192, 0, 2, _) | (198, 51, 100, _) | (203, 0, 113, _) => R::Documentation,
        (192, 88, 99, _) => R::SixToFourRelay,
        (198, 18..=19, ..) => R::Benchmarking,
        (224..=239, ..) => R::Multicast,
        (255, 255, 255, 255) => R::Broadcast,
        (240..=255, ..) => R::Reserved,
        _ => return Ok(()),
    };
    Err(range)
}

fn check_v6_native(ip: Ipv6Addr) -> Result<(), BlockedRange> {
    use BlockedRange as R;
    let seg = ip.segments();
    let range = if seg[0] & 0xff00 == 0xff00 {
        R::Multicast
    } else if seg[0] & 0xffc0 == 0xfe80 {
        R::LinkLocal
    } else if seg[0] & 0xffc0 == 0xfec0 {
        R::SiteLocal
    } else if ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        R::CloudMetadata
    } else if seg[0] & 0xfe00 == 0xfc00 {
        R::UniqueLocal
    } else if seg[..4] == [0x100, 0, 0, 0] {
        R::DiscardOnly
    } else if seg[0] == 0x2001 && seg[1] == 0xdb8 || seg[0] == 0x3fff && seg[1] & 0xf000 == 0 {
        R::Documentation
    } else if seg[0] == 0x2001 && seg[1] == 2 && seg[2] == 0 {
        R::Benchmarking
    } else if seg[0] == 0x2001 && (seg[1] & 0xfff0 == 0x10 || seg[1] & 0xfff0 == 0x20) {
        R::Orchid
    } else if seg[0] & 0xe000 != 0x2000 {
        R::NotGlobalUnicast
    } else {
        return Ok(());
    };
    Err(range)
}
