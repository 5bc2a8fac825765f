use super::*;

fn configs_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs")
}

#[test]
fn every_file_in_configs_parses_and_validates() {
    let mut seen = 0;
    for entry in std::fs::read_dir(configs_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let config = Config::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
            config
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            seen += 1;
        }
    }
    assert!(seen >= 2, "expected the config files, found {seen}");
}

#[test]
fn default_toml_documents_exactly_the_defaults() {
    let config = Config::from_file(&configs_dir().join("default.toml")).unwrap();
    assert_eq!(config, Config::default());
}

#[test]
fn unknown_keys_are_rejected() {
    let err = Config::from_toml("[crawl]\nconcurency = 5\n", "t")
        .unwrap_err()
        .to_string();
    assert!(err.contains("concurency"), "{err}");
    assert!(Config::from_toml("[crawler]\n", "t").is_err());
}

#[test]
fn bad_values_are_rejected_before_any_io() {
    let bad = [
        "[crawl]\nconcurrency = 0\n",
        "[input]\nshard = \"3/2\"\n",
        "[net]\nallow_net = [\"not-a-net\"]\n",
    ];
    for text in bad {
        assert!(Config::from_toml(text, "t").is_err(), "{text}");
    }
    let invalid = [
        "[crawl]\nsite_deadline_secs = 0\n",
        "[crawl]\nmax_duration = \"soon\"\n",
        "[net]\nper_host_rps = 0.0\n",
        "[net]\nper_ip_rps = -1.0\n",
        "[net]\nresolvers = [\"dns.example\"]\n",
        "[net]\nuser_agent = \"\"\n",
    ];
    for text in invalid {
        let config = Config::from_toml(text, "t").unwrap();
        assert!(config.validate().is_err(), "{text}");
    }
}

#[test]
fn resolver_addresses_default_to_port_53() {
    assert_eq!(parse_resolver("127.0.0.1").unwrap().port(), 53);
    assert_eq!(parse_resolver("127.0.0.1:5353").unwrap().port(), 5353);
    assert_eq!(parse_resolver("[::1]:5353").unwrap().port(), 5353);
    assert!(parse_resolver("nope").is_none());
}

#[test]
fn durations_past_their_maximum_are_clear_errors() {
    let huge = [
        (
            "[crawl]\nsite_deadline_secs = 18446744073709551615\n",
            "crawl.site_deadline_secs",
            "3600",
        ),
        (
            "[crawl]\nmax_duration = \"1000000y\"\n",
            "crawl.max_duration",
            "365d",
        ),
        (
            "[crawl]\nshutdown_grace_secs = 18446744073709551615\n",
            "crawl.shutdown_grace_secs",
            "3600",
        ),
        (
            "[net]\nconnect_timeout_ms = 18446744073709551615\n",
            "net.connect_timeout_ms",
            "600000",
        ),
        (
            "[net]\nresolver_timeout_ms = 18446744073709551615\n",
            "net.resolver_timeout_ms",
            "600000",
        ),
        (
            "[output]\nprogress_interval_secs = 18446744073709551615\n",
            "output.progress_interval_secs",
            "86400",
        ),
    ];
    for (text, key, max) in huge {
        let config = Config::from_toml(text, "t").unwrap();
        let err = config.validate().unwrap_err().to_string();
        assert!(err.contains(key), "{text}: {err}");
        assert!(
            err.contains(&format!("must be at most {max}")),
            "{text}: {err}"
        );
    }
    // A number past what humantime reads is an error too, not a panic.
    let config = Config::from_toml(
        "[crawl]\nmax_duration = \"99999999999999999999999d\"\n",
        "t",
    );
    assert!(config.unwrap().validate().is_err());
    // Each maximum itself is accepted.
    let at_max = "[crawl]\nsite_deadline_secs = 3600\nmax_duration = \"365d\"\n\
                  shutdown_grace_secs = 3600\n[net]\nconnect_timeout_ms = 600000\n\
                  resolver_timeout_ms = 600000\n[output]\nprogress_interval_secs = 86400\n";
    let config = Config::from_toml(at_max, "t").unwrap();
    config.validate().unwrap();
    assert_eq!(config.max_duration().unwrap(), Some(defaults::MAX_DURATION));
}
