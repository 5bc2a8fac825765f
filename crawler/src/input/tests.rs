use super::*;
use std::sync::Arc;

fn target(line: &str) -> Target {
    match normalize(line) {
        Line::Target(t) => t,
        other => panic!("{line:?}: expected a target, got {other:?}"),
    }
}

fn reason(line: &str) -> String {
    match normalize(line) {
        Line::Invalid(r) => r.into_owned(),
        other => panic!("{line:?}: expected invalid, got {other:?}"),
    }
}

#[test]
fn accepts_each_form() {
    let cases = [
        ("example.com", "https://example.com", "example.com", 443),
        ("EXAMPLE.COM", "https://example.com", "example.com", 443),
        ("example.com.", "https://example.com", "example.com", 443),
        ("  example.com  ", "https://example.com", "example.com", 443),
        ("example.com\r", "https://example.com", "example.com", 443),
        (
            "example.com:8443",
            "https://example.com:8443",
            "example.com",
            8443,
        ),
        ("example.com:443", "https://example.com", "example.com", 443),
        (
            "https://example.com",
            "https://example.com",
            "example.com",
            443,
        ),
        (
            "HTTPS://Example.com/some/path?q=1#f",
            "https://example.com",
            "example.com",
            443,
        ),
        (
            "https://shop.example.co.uk:8443/",
            "https://shop.example.co.uk:8443",
            "shop.example.co.uk",
            8443,
        ),
        (
            "example.com/path",
            "https://example.com",
            "example.com",
            443,
        ),
        ("42,example.org", "https://example.org", "example.org", 443),
        (
            "bücher.de",
            "https://xn--bcher-kva.de",
            "xn--bcher-kva.de",
            443,
        ),
        (
            "BÜCHER.DE",
            "https://xn--bcher-kva.de",
            "xn--bcher-kva.de",
            443,
        ),
        (
            "xn--bcher-kva.de",
            "https://xn--bcher-kva.de",
            "xn--bcher-kva.de",
            443,
        ),
        (
            "例え.テスト",
            "https://xn--r8jz45g.xn--zckzah",
            "xn--r8jz45g.xn--zckzah",
            443,
        ),
        (
            "my_host.example.com",
            "https://my_host.example.com",
            "my_host.example.com",
            443,
        ),
    ];
    for (line, origin, host, port) in cases {
        let t = target(line);
        assert_eq!(t.origin, origin, "{line:?}");
        assert_eq!(t.host, host, "{line:?}");
        assert_eq!(t.port, port, "{line:?}");
    }
}

#[test]
fn registrable_domain_uses_the_public_suffix_list() {
    assert_eq!(
        target("a.b.example.co.uk").registrable_domain,
        "example.co.uk"
    );
    assert_eq!(target("www.example.com").registrable_domain, "example.com");
    assert_eq!(
        target("user.github.io").registrable_domain,
        "user.github.io"
    );
    assert_eq!(target("site.test:8443").registrable_domain, "site.test");
}

#[test]
fn skips_blank_lines_and_comments() {
    for line in ["", "   ", "\r", "# a comment", "   # indented comment"] {
        assert_eq!(normalize(line), Line::Skip, "{line:?}");
    }
}

#[test]
fn rejects_each_bad_form_with_its_reason() {
    let long_label = format!("{}.com", "a".repeat(64));
    let long_name = format!("{}.com", ["abcdefghij"; 25].join("."));
    let cases: Vec<(&str, &str)> = vec![
        ("exa mple.com", "contains spaces"),
        // U+3200 maps to "(ᄀ)": the punycode label would keep the parentheses.
        (
            "\u{3200}.\u{19b0}0",
            "its internationalized form contains the character '('",
        ),
        ("example.com extra", "contains spaces"),
        ("http://example.com", "http:// origins are not scanned"),
        ("ftp://example.com", "unsupported scheme ftp://"),
        ("192.0.2.1", "IP literals are not scanned"),
        ("https://192.0.2.1/", "IP literals are not scanned"),
        ("[2001:db8::1]", "IP literals are not scanned"),
        ("2001:db8::1", "IP literals are not scanned"),
        ("https://[::1]:8443", "IP literals are not scanned"),
        ("0x7f.1", "IP literals are not scanned"),
        (&long_label, "label longer than 63 bytes"),
        (&long_name, "name longer than 253 bytes"),
        ("example..com", "empty label"),
        ("-example.com", "label starts or ends with a hyphen"),
        ("example-.com", "label starts or ends with a hyphen"),
        ("example.com:0", "invalid port \"0\""),
        ("example.com:99999", "invalid port \"99999\""),
        ("example.com:abc", "invalid port \"abc\""),
        ("user:pw@example.com", "contains a user name or password"),
        (
            "https://user@example.com/",
            "contains a user name or password",
        ),
        ("localhost", "single-label name, not a public site"),
        ("intranet", "single-label name, not a public site"),
        ("app.localhost", ".localhost names are not public"),
        ("printer.local", ".local names are not public"),
        ("exa$mple.com", "contains the character '$'"),
        ("https://", "no host name"),
        ("https:///path", "no host name"),
        ("xn--a.com", "not a valid internationalized domain name"),
    ];
    for (line, want) in cases {
        assert_eq!(reason(line), want, "{line:?}");
    }
}

#[test]
fn shard_parses_and_splits_by_registrable_domain() {
    assert_eq!(
        "1/4".parse::<Shard>().unwrap(),
        Shard { index: 1, count: 4 }
    );
    for bad in ["4/4", "1/0", "x/2", "3", "-1/2"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    let shards: Vec<Shard> = (0..4).map(|i| Shard { index: i, count: 4 }).collect();
    for domain in ["example.com", "example.org", "foo.test", "bar.co.uk"] {
        assert_eq!(
            shards.iter().filter(|s| s.owns(domain)).count(),
            1,
            "{domain}"
        );
    }
    // A site and its subdomains share a shard because they share a registrable domain.
    let mut planner = Planner::new(shards[0], Default::default());
    let a = matches!(
        planner.plan(RawLine::Text("www.example.com")),
        Planned::Scan(_)
    );
    let b = matches!(
        planner.plan(RawLine::Text("api.example.com")),
        Planned::Scan(_)
    );
    assert_eq!(a, b);
}

#[test]
fn exclusions_cover_subdomains_only() {
    let ex = Exclusions::from_domains(["example.com".to_owned()]);
    assert_eq!(ex.covering("example.com"), Some("example.com"));
    assert_eq!(ex.covering("a.b.example.com"), Some("example.com"));
    assert_eq!(ex.covering("notexample.com"), None);
    assert_eq!(ex.covering("example.org"), None);
}

#[test]
fn exclusion_file_rejects_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "# opt-outs\nExample.COM\n*.other.org\n\n").unwrap();
    let ex = Exclusions::load(&[&good]).unwrap();
    assert_eq!(ex.len(), 2);
    assert!(ex.covering("www.other.org").is_some());
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "example.com\nnot a domain\n").unwrap();
    let err = Exclusions::load(&[&bad]).unwrap_err().to_string();
    assert!(
        err.contains("line 2") && err.contains("contains spaces"),
        "{err}"
    );
}

#[test]
fn planner_accounts_for_every_line() {
    let ex = Exclusions::from_domains(["blocked.com".to_owned()]);
    let mut planner = Planner::new(Shard::ALL, Arc::new(ex));
    let lines = [
        "example.com",
        "EXAMPLE.com",
        "https://example.com/x",
        "example.com:8443",
        "# comment",
        "",
        "bad line",
        "www.blocked.com",
        "blocked.com",
        "blocked.com",
    ];
    let mut scans = 0;
    for line in lines {
        if let Planned::Scan(_) = planner.plan(RawLine::Text(line)) {
            scans += 1;
        }
    }
    assert!(matches!(
        planner.plan(RawLine::TooLong),
        Planned::Invalid { .. }
    ));
    assert!(matches!(
        planner.plan(RawLine::NotUtf8),
        Planned::Invalid { .. }
    ));
    let c = planner.counts();
    assert_eq!(scans, 2);
    assert_eq!(
        c,
        InputCounts {
            lines: 12,
            blank_or_comment: 2,
            headers: 0,
            duplicates: 3,
            other_shard: 0,
            invalid: 3,
            excluded: 2,
            targets: 2,
            registry_all: 0,
            registry_listed: 0,
        }
    );
    assert!(c.balanced());
}

#[test]
fn a_registry_all_line_expands_into_names_planned_like_lines() {
    let mut planner = Planner::new(Shard::ALL, Arc::new(Exclusions::default()));
    assert!(matches!(
        planner.plan(RawLine::Text("registry:*")),
        Planned::RegistryAll
    ));
    // The listed names: each planned as a `registry:NAME` line, a name given twice once.
    assert!(matches!(
        planner.plan(RawLine::Text("registry:com.example/a")),
        Planned::Registry { .. }
    ));
    assert!(matches!(
        planner.plan_listed("com.example/a"),
        Planned::Skip
    ));
    assert!(matches!(
        planner.plan_listed("com.example/b"),
        Planned::Registry { name } if name == "com.example/b"
    ));
    assert!(matches!(
        planner.plan_listed("bad name/x"),
        Planned::Invalid { .. }
    ));
    assert!(matches!(planner.plan_listed("*"), Planned::Invalid { .. }));
    let c = planner.counts();
    assert_eq!((c.lines, c.registry_all, c.registry_listed), (2, 1, 4));
    assert_eq!((c.targets, c.duplicates, c.invalid), (2, 1, 2));
    assert!(c.balanced(), "{c:?}");

    // Sharded by name: two shards together hold each listed name once.
    let owners: Vec<usize> = (0..2)
        .map(|i| {
            let mut p = Planner::new(Shard { index: i, count: 2 }, Arc::default());
            assert!(matches!(
                p.plan(RawLine::Text("registry:*")),
                Planned::RegistryAll
            ));
            (0..40)
                .filter(|n| {
                    matches!(
                        p.plan_listed(&format!("com.example/s{n}")),
                        Planned::Registry { .. }
                    )
                })
                .count()
        })
        .collect();
    assert_eq!(owners.iter().sum::<usize>(), 40);
    assert!(owners.iter().all(|n| *n > 0), "{owners:?}");
}

#[test]
fn reader_handles_crlf_gzip_long_lines_and_bad_utf8() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("list.txt");
    let mut content = b"a.com\r\nb.com\n".to_vec();
    content.extend(vec![b'x'; MAX_LINE_BYTES * 3]);
    content.extend(b"\n\xff\xfe.com\nlast.com");
    std::fs::write(&plain, &content).unwrap();
    let gz = dir.path().join("list.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(b"c.com\nd.com\n").unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();

    let mut reader = LineReader::new(vec![Source::File(plain.clone()), Source::File(gz.clone())]);
    let mut seen = Vec::new();
    while let Some(line) = reader.next_line().unwrap() {
        seen.push(match line {
            RawLine::Text(t) => t.to_owned(),
            RawLine::TooLong => "<too long>".to_owned(),
            RawLine::NotUtf8 => "<not utf-8>".to_owned(),
        });
        // A source counts as read once its last line has gone by, not before.
        if seen.len() == 5 {
            assert!(reader.finished().is_empty());
        }
    }
    assert_eq!(
        seen,
        [
            "a.com",
            "b.com",
            "<too long>",
            "<not utf-8>",
            "last.com",
            "c.com",
            "d.com"
        ]
    );
    // Each list's lines, for the manifest (a run written by shards counts a list once).
    assert_eq!(
        reader.finished(),
        [
            (plain.display().to_string(), 5),
            (gz.display().to_string(), 2)
        ]
    );
}

#[test]
fn every_sites_shard_is_named_as_the_store_expects() {
    assert_eq!(Shard::ALL.to_string(), mcpcensus_store::ALL_SHARDS);
}

#[test]
fn dedupe_is_exact_for_distinct_origins() {
    let mut d = Dedupe::new();
    for i in 0..100_000 {
        assert!(d.first_time(&format!("https://site{i}.example")));
    }
    assert!(!d.first_time("https://site5.example"));
    assert_eq!(d.len(), 100_000);
}

#[test]
fn normalize_never_panics_on_arbitrary_text() {
    // A small deterministic generator over characters that matter to the parser.
    let alphabet: Vec<char> = "aZ09.-_:/@[]#?% \t,xn--ßü日\u{200b}\u{fffd}0x"
        .chars()
        .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..50_000 {
        let len = (next() % 40) as usize;
        let line: String = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        if let Line::Target(t) = normalize(&line) {
            // Whatever is accepted is a clean origin.
            assert!(t.origin.starts_with("https://"), "{line:?}");
            assert!(
                t.host.is_ascii() && !t.host.contains(['/', '@', ' ', ':']),
                "{line:?} -> {t:?}"
            );
            assert_eq!(
                normalize(&t.origin),
                Line::Target(t.clone()),
                "{line:?} is not stable"
            );
        }
    }
}

#[test]
fn ranked_lists_of_every_shape_keep_their_ranks_and_count_their_headers() {
    let dir = tempfile::tempdir().unwrap();
    let crux = dir.path().join("crux.csv");
    std::fs::write(
        &crux,
        "origin,rank\nhttps://www.a.example,1000\nhttps://b.example,5000\n",
    )
    .unwrap();
    let majestic = dir.path().join("majestic.csv");
    std::fs::write(
        &majestic,
        "GlobalRank,TldRank,Domain,TLD\n1,1,c.example,example\n2,2,www.a.example,example\n",
    )
    .unwrap();
    let tranco = dir.path().join("tranco.csv");
    std::fs::write(&tranco, "1,d.example\n2,e.example\nf.example\n").unwrap();
    let mut reader = LineReader::new(vec![
        Source::File(crux),
        Source::File(majestic),
        Source::File(tranco),
    ]);
    let mut planner = Planner::new(Shard::ALL, Default::default());
    let mut got = Vec::new();
    while let Some((line_no, raw)) = reader.next_line_at().unwrap() {
        if let Planned::Scan(t) = planner.plan_at(line_no, raw) {
            got.push((t.origin, t.rank));
        }
    }
    let want: Vec<(String, Option<u32>)> = [
        ("https://www.a.example", Some(1000)),
        ("https://b.example", Some(5000)),
        ("https://c.example", Some(1)),
        ("https://d.example", Some(1)),
        ("https://e.example", Some(2)),
        ("https://f.example", None),
    ]
    .into_iter()
    .map(|(o, r)| (o.to_owned(), r))
    .collect();
    assert_eq!(got, want);
    let c = planner.counts();
    assert_eq!((c.lines, c.headers, c.duplicates, c.targets), (9, 2, 1, 6));
    assert!(c.balanced());
}
