//! The command line without network: dry runs, export, config errors.

use std::process::ExitCode;

use mcpcensus_store::{Outcome, RunStatus};

use crate::util::{counts, csv_records, mcpcensus, only_run};

#[tokio::test]
async fn dry_run_records_every_distinct_origin_and_invalid_line() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    let ex = dir.path().join("optout.txt");
    let out = dir.path().join("store");
    std::fs::write(
        &list,
        "Example.com\r\nexample.com.\nhttps://example.com/x\nwww.example.com\nbücher.de\n\
         # comment\n\nhttp://x.example\nshop.optout.test\nexample.com:8443\n",
    )
    .unwrap();
    std::fs::write(&ex, "optout.test\n").unwrap();
    let code = mcpcensus(&[
        "crawl",
        list.to_str().unwrap(),
        "--dry-run",
        "--quiet",
        "--exclude",
        ex.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
    .await
    .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let (manifest, records) = only_run(&out);
    assert_eq!(manifest.status, RunStatus::Complete);
    assert!(manifest.dry_run);
    let got: Vec<(&str, Outcome)> = records
        .iter()
        .map(|r| (r.origin.as_deref().unwrap_or(&r.input), r.outcome))
        .collect();
    assert_eq!(
        got,
        [
            ("https://example.com", Outcome::Planned),
            ("https://www.example.com", Outcome::Planned),
            ("https://xn--bcher-kva.de", Outcome::Planned),
            ("http://x.example", Outcome::InvalidInput),
            ("https://shop.optout.test", Outcome::Excluded),
            ("https://example.com:8443", Outcome::Planned),
        ]
    );
    assert_eq!(counts(&manifest).lines_read, 10);
    assert_eq!(counts(&manifest).duplicates_skipped, 2);
    assert_eq!(counts(&manifest).blank_or_comment, 2);
    assert_eq!(counts(&manifest).records_written, 6);

    // Export prints the same records as JSON lines with the contract's field names.
    let jsonl = dir.path().join("out.jsonl");
    mcpcensus(&[
        "export",
        "--from",
        out.to_str().unwrap(),
        "-o",
        jsonl.to_str().unwrap(),
    ])
    .await
    .unwrap();
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["outcome"], "planned");
    assert_eq!(lines[3]["outcome"], "invalid_input");
    assert_eq!(
        lines[3]["outcome_reason"],
        "http:// origins are not scanned"
    );
    assert_eq!(
        lines[4]["outcome_reason"],
        "opted out: optout.test is on the exclusion list"
    );
    for key in [
        "run_id",
        "scanned_at",
        "input",
        "origin",
        "registrable_domain",
        "tool_names",
    ] {
        assert!(lines[0].get(key).is_some(), "missing {key}");
    }
}

#[tokio::test]
async fn gzip_input_and_shards_partition_the_list() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&list).unwrap(),
        flate2::Compression::fast(),
    );
    for i in 0..300 {
        writeln!(gz, "site{i}.test\nwww.site{i}.test").unwrap();
    }
    gz.finish().unwrap();
    let mut total = 0;
    let mut hosts = std::collections::HashMap::new();
    for k in 0..3 {
        let out = dir.path().join(format!("shard{k}"));
        let shard = format!("{k}/3");
        mcpcensus(&[
            "crawl",
            list.to_str().unwrap(),
            "--dry-run",
            "--quiet",
            "--shard",
            &shard,
            "--out",
            out.to_str().unwrap(),
        ])
        .await
        .unwrap();
        let (_, records) = only_run(&out);
        total += records.len();
        for r in records {
            hosts.insert(
                r.host.clone().unwrap(),
                (k, r.registrable_domain.clone().unwrap()),
            );
        }
    }
    assert_eq!(total, 600, "the shards together hold each site once");
    for i in 0..300 {
        // A site and its subdomain land in the same shard.
        assert_eq!(
            hosts[&format!("site{i}.test")].0,
            hosts[&format!("www.site{i}.test")].0
        );
    }
}

#[tokio::test]
async fn config_errors_are_clear_and_stop_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "example.com\n").unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, "[crawl]\nconcurency = 3\n").unwrap();
    let out = dir.path().join("store");
    let err = mcpcensus(&[
        "crawl",
        list.to_str().unwrap(),
        "--dry-run",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
    .await
    .unwrap_err();
    assert!(format!("{err:#}").contains("concurency"), "{err:#}");
    assert!(!out.exists(), "nothing may be written after a config error");

    let err = mcpcensus(&["crawl", "/nonexistent/list.txt", "--dry-run"])
        .await
        .unwrap_err();
    assert!(
        format!("{err:#}").contains("/nonexistent/list.txt"),
        "{err:#}"
    );
    let err = mcpcensus(&[
        "crawl",
        list.to_str().unwrap(),
        "--shard",
        "5/2",
        "--dry-run",
    ])
    .await
    .unwrap_err();
    assert!(format!("{err:#}").contains("shard"), "{err:#}");
}

/// Ranked lists as they are published: every line read, each rank kept in the record and in
/// the flat export, header lines counted apart.
#[tokio::test]
async fn ranked_lists_keep_every_lines_rank_through_records_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let crux = dir.path().join("crux.csv");
    std::fs::write(
        &crux,
        "origin,rank\nhttps://www.a.example,1000\nhttps://b.example,5000\nhttps://c.example,10000\n",
    )
    .unwrap();
    let majestic = dir.path().join("majestic.csv");
    std::fs::write(
        &majestic,
        "GlobalRank,TldRank,Domain,TLD,RefSubNets,RefIPs,IDN_Domain,IDN_TLD\n\
         1,1,d.example,example,10,20,d.example,example\n",
    )
    .unwrap();
    let tranco = dir.path().join("tranco.csv");
    std::fs::write(&tranco, "1,e.example\n2,http://f.example\n").unwrap();
    let out = dir.path().join("store");
    let code = mcpcensus(&[
        "crawl",
        crux.to_str().unwrap(),
        majestic.to_str().unwrap(),
        tranco.to_str().unwrap(),
        "--dry-run",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
    .await
    .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let (manifest, records) = only_run(&out);
    let got: Vec<(&str, Option<u32>, Outcome)> = records
        .iter()
        .map(|r| (r.origin.as_deref().unwrap_or(&r.input), r.rank, r.outcome))
        .collect();
    assert_eq!(
        got,
        [
            ("https://www.a.example", Some(1000), Outcome::Planned),
            ("https://b.example", Some(5000), Outcome::Planned),
            ("https://c.example", Some(10000), Outcome::Planned),
            ("https://d.example", Some(1), Outcome::Planned),
            ("https://e.example", Some(1), Outcome::Planned),
            ("2,http://f.example", None, Outcome::InvalidInput),
        ]
    );
    let c = counts(&manifest);
    assert_eq!((c.lines_read, c.header_lines, c.records_written), (8, 2, 6));

    let tables = dir.path().join("tables");
    let code = mcpcensus(&[
        "export",
        "--from",
        out.to_str().unwrap(),
        "--format",
        "csv",
        "-o",
        tables.to_str().unwrap(),
    ])
    .await
    .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let sites = csv_records(&std::fs::read_to_string(tables.join("sites.csv")).unwrap());
    let rank = sites[0]
        .iter()
        .position(|c| c == "rank")
        .expect("a rank column");
    let ranks: Vec<&str> = sites[1..].iter().map(|r| r[rank].as_str()).collect();
    assert_eq!(ranks, ["1000", "5000", "10000", "1", "1", ""]);
}
