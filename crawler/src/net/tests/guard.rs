//! The guard: every refused range, public addresses, embedding forms, the allow list.

use std::net::IpAddr;

use crate::net::{BlockedRange as R, Embedding as E, Guard, Refusal};

fn ip(text: &str) -> IpAddr {
    text.parse().expect("test address")
}

fn refused(guard: &Guard, text: &str) -> Refusal {
    match guard.check(ip(text)) {
        Err(refusal) => refusal,
        Ok(()) => panic!("{text} should be refused"),
    }
}

fn assert_refused(text: &str, range: R) {
    let refusal = refused(&Guard::default(), text);
    assert_eq!(refusal.range, range, "{text}: {refusal}");
    assert_eq!(refusal.embedded_in, None, "{text}");
}

fn assert_allowed(guard: &Guard, text: &str) {
    if let Err(refusal) = guard.check(ip(text)) {
        panic!("{text} should be allowed, refused as {refusal}");
    }
}

#[test]
fn refuses_every_ipv4_special_range() {
    let cases = [
        ("0.0.0.0", R::Unspecified),
        ("0.1.2.3", R::ThisNetwork),
        ("0.255.255.255", R::ThisNetwork),
        ("127.0.0.1", R::Loopback),
        ("127.255.255.254", R::Loopback),
        ("10.0.0.1", R::Private),
        ("10.255.255.255", R::Private),
        ("172.16.0.1", R::Private),
        ("172.31.255.255", R::Private),
        ("192.168.1.1", R::Private),
        ("100.64.0.1", R::SharedAddressSpace),
        ("100.127.255.255", R::SharedAddressSpace),
        ("169.254.169.254", R::CloudMetadata),
        ("169.254.170.2", R::CloudMetadata),
        ("100.100.100.200", R::CloudMetadata),
        ("169.254.0.1", R::LinkLocal),
        ("169.254.255.255", R::LinkLocal),
        ("192.0.0.8", R::ProtocolAssignments),
        ("192.0.2.1", R::Documentation),
        ("198.51.100.7", R::Documentation),
        ("203.0.113.200", R::Documentation),
        ("192.88.99.1", R::SixToFourRelay),
        ("198.18.0.1", R::Benchmarking),
        ("198.19.255.255", R::Benchmarking),
        ("224.0.0.1", R::Multicast),
        ("239.255.255.250", R::Multicast),
        ("255.255.255.255", R::Broadcast),
        ("240.0.0.1", R::Reserved),
        ("255.255.255.254", R::Reserved),
    ];
    for (text, range) in cases {
        assert_refused(text, range);
    }
}

#[test]
fn refuses_every_ipv6_special_range() {
    let cases = [
        ("::", R::Unspecified),
        ("::1", R::Loopback),
        ("fc00::1", R::UniqueLocal),
        ("fdff:ffff::1", R::UniqueLocal),
        ("fd00:ec2::254", R::CloudMetadata),
        ("fe80::1", R::LinkLocal),
        ("febf:ffff::1", R::LinkLocal),
        ("fec0::1", R::SiteLocal),
        ("feff::1", R::SiteLocal),
        ("ff02::1", R::Multicast),
        ("ff0e::1", R::Multicast),
        ("100::1", R::DiscardOnly),
        ("100::ffff:ffff:ffff:ffff", R::DiscardOnly),
        ("2001:db8::1", R::Documentation),
        ("2001:db8:ffff::1", R::Documentation),
        ("3fff::1", R::Documentation),
        ("2001:2::1", R::Benchmarking),
        ("2001:10::1", R::Orchid),
        ("2001:20::1", R::Orchid),
        ("64:ff9b:1::a00:1", R::Nat64LocalUse),
        ("64:ff9b:1::808:808", R::Nat64LocalUse),
        ("2001::1", R::Teredo),
        // Teredo with a public client address (inverted 8.8.8.8 in the last 32 bits): still refused.
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", R::Teredo),
        ("4000::1", R::NotGlobalUnicast),
        ("::ffff:0:808:808", R::NotGlobalUnicast), // SIIT IPv4-translated, not an embedding we pass
        ("1::1", R::NotGlobalUnicast),
    ];
    for (text, range) in cases {
        assert_refused(text, range);
    }
}

#[test]
fn allows_ordinary_public_addresses() {
    let guard = Guard::default();
    for text in [
        "93.184.216.34",
        "8.8.8.8",
        "1.1.1.1",
        "172.15.255.255",
        "172.32.0.1",
        "100.63.255.255",
        "100.128.0.1",
        "192.0.1.1",
        "198.17.255.255",
        "198.20.0.1",
        "223.255.255.255",
        "2606:4700::1111",
        "2a00:1450:4001:81c::200e",
        "2001:4860:4860::8888",
        "2001:db9::1",
        "3ffe:ffff::1",
    ] {
        assert_allowed(&guard, text);
    }
}

#[test]
fn judges_embedded_ipv4_by_the_embedded_address() {
    let guard = Guard::default();
    let private = [
        ("::ffff:127.0.0.1", R::Loopback, E::Ipv4Mapped),
        ("::ffff:10.1.2.3", R::Private, E::Ipv4Mapped),
        ("::ffff:169.254.169.254", R::CloudMetadata, E::Ipv4Mapped),
        ("::127.0.0.1", R::Loopback, E::Ipv4Compatible),
        ("::192.168.0.1", R::Private, E::Ipv4Compatible),
        ("::0.0.0.2", R::ThisNetwork, E::Ipv4Compatible),
        ("64:ff9b::10.0.0.1", R::Private, E::Nat64),
        ("64:ff9b::127.0.0.1", R::Loopback, E::Nat64),
        ("2002:7f00:1::1", R::Loopback, E::SixToFour),
        ("2002:c0a8:101::1", R::Private, E::SixToFour),
        ("2002:a9fe:a9fe::", R::CloudMetadata, E::SixToFour),
    ];
    for (text, range, form) in private {
        let refusal = refused(&guard, text);
        assert_eq!(refusal.range, range, "{text}");
        assert_eq!(refusal.embedded_in, Some(form), "{text}");
    }
    for text in [
        "::ffff:93.184.216.34",
        "::93.184.216.34",
        "64:ff9b::8.8.8.8",
        "2002:5db8:d822::1",
    ] {
        assert_allowed(&guard, text);
    }
}

#[test]
fn refusal_names_the_range_and_the_embedding() {
    let guard = Guard::default();
    assert_eq!(
        refused(&guard, "10.0.0.1").to_string(),
        "private (RFC 1918)"
    );
    assert_eq!(
        refused(&guard, "::ffff:169.254.169.254").to_string(),
        "cloud metadata (embedded in IPv4-mapped IPv6)"
    );
    assert_eq!(R::LinkLocal.name(), "link-local");
}

#[test]
fn allow_list_lets_ranges_through_including_embedded_forms() {
    let guard = Guard::new(vec!["127.0.0.0/8".parse().expect("net")]);
    assert_allowed(&guard, "127.0.0.1");
    assert_allowed(&guard, "127.1.2.3");
    assert_allowed(&guard, "::ffff:127.0.0.1");
    assert_allowed(&guard, "64:ff9b::127.0.0.1");
    // Only what is allowed: other ranges stay refused.
    assert_eq!(refused(&guard, "::1").range, R::Loopback);
    assert_eq!(refused(&guard, "10.0.0.1").range, R::Private);
    assert_eq!(refused(&guard, "::ffff:10.0.0.1").range, R::Private);
    // Teredo and local-use NAT64 are refused whatever they embed.
    assert_eq!(refused(&guard, "2001::1").range, R::Teredo);

    let v6 = Guard::new(vec![
        "::1/128".parse().expect("net"),
        "fd00::/8".parse().expect("net"),
    ]);
    assert_allowed(&v6, "::1");
    assert_allowed(&v6, "fd12::1");
    assert_eq!(refused(&v6, "127.0.0.1").range, R::Loopback);

    // An allowed IPv6 range is judged on the address as written too.
    let mapped = Guard::new(vec!["::ffff:0:0/96".parse().expect("net")]);
    assert_allowed(&mapped, "::ffff:10.0.0.1");
}
