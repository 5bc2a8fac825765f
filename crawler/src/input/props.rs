//! Properties of the normalizer over generated lines: it never panics, and what it makes of
//! a line is a fixed point (the origin it gives normalizes to the same target).

use proptest::prelude::*;

use super::{normalize, Line};

/// Lines shaped like the input lists (names, ports, schemes, ranks, IDN, junk), so most
/// cases reach the target path rather than the first rejection.
fn line() -> impl Strategy<Value = String> {
    let label = "[a-zA-Z0-9ßü-]{1,12}";
    let host = prop::collection::vec(label, 1..5).prop_map(|l| l.join("."));
    (
        prop::option::of(prop_oneof![
            Just("https://"),
            Just("HTTP://"),
            Just("http://"),
            Just("ftp://")
        ]),
        prop::option::of(0u32..100_000u32),
        host,
        prop::option::of(any::<u16>()),
        prop::option::of("/[ -~]{0,10}"),
        prop::option::of(prop_oneof![Just("."), Just(" "), Just("\r"), Just("\t")]),
    )
        .prop_map(|(scheme, rank, host, port, path, tail)| {
            let mut s = String::new();
            if let Some(rank) = rank {
                s.push_str(&format!("{rank},"));
            }
            s.push_str(scheme.unwrap_or(""));
            s.push_str(&host);
            if let Some(port) = port {
                s.push_str(&format!(":{port}"));
            }
            s.push_str(path.as_deref().unwrap_or(""));
            s.push_str(tail.unwrap_or(""));
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn never_panics_on_any_text(text in any::<String>()) {
        let _ = normalize(&text);
    }

    #[test]
    fn a_target_normalizes_to_itself(text in prop_oneof![line(), any::<String>()]) {
        if let Line::Target(target) = normalize(&text) {
            prop_assert_eq!(normalize(&target.origin), Line::Target(target.clone()));
            let host_port = format!("{}:{}", target.host, target.port);
            prop_assert_eq!(normalize(&host_port), Line::Target(target));
        }
    }
}
