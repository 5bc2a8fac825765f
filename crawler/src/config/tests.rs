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
