//! Durations on the command line past their maximum fail at parse time with an error that
//! names the flag and the maximum, never later as an `Instant` overflow.

use std::time::Duration;

use clap::Parser;

use super::args::{Cli, Command};

fn parse(args: &[&str]) -> Result<Cli, String> {
    let argv = ["mcpcensus"].iter().chain(args);
    Cli::try_parse_from(argv).map_err(|e| e.to_string())
}

#[test]
fn a_huge_site_deadline_is_a_clear_parse_error() {
    for value in ["18446744073709551615", "3601", "99999999999999999999999"] {
        for command in ["crawl", "check"] {
            let err = parse(&[command, "a.test", "--site-deadline", value]).unwrap_err();
            assert!(err.contains("--site-deadline"), "{err}");
        }
    }
    let err = parse(&["crawl", "a.test", "--site-deadline", "3601"]).unwrap_err();
    assert!(err.contains("must be at most 1h"), "{err}");
    assert!(parse(&["crawl", "a.test", "--site-deadline", "0"]).is_err());
    assert!(parse(&["crawl", "a.test", "--site-deadline", "61m"]).is_err());
}

#[test]
fn the_site_deadline_takes_durations_as_every_other_duration_flag_does() {
    let deadline = |value: &str| {
        let cli = parse(&["crawl", "a.test", "--site-deadline", value]);
        match cli.map(|c| c.command) {
            Ok(Command::Crawl(args)) => Ok(args.scan.site_deadline.unwrap()),
            Ok(other) => panic!("not a crawl: {other:?}"),
            Err(e) => Err(e),
        }
    };
    assert_eq!(deadline("30s"), Ok(30));
    assert_eq!(deadline("2m"), Ok(120));
    assert_eq!(deadline("1m 30s"), Ok(90));
    assert_eq!(deadline("1h"), Ok(3600));
    // A plain number is seconds, as the flag always took.
    assert_eq!(deadline("45"), Ok(45));
    for bad in ["0s", "1500ms", "soon", "5x"] {
        let err = deadline(bad).unwrap_err();
        assert!(err.contains("--site-deadline"), "{bad}: {err}");
    }
    // check takes it the same way.
    let cli = parse(&["check", "a.test", "--site-deadline", "2m"]).unwrap();
    let Command::Check(args) = cli.command else {
        panic!("not a check");
    };
    assert_eq!(args.scan.site_deadline, Some(120));
}

#[test]
fn a_huge_max_duration_or_metrics_linger_is_a_clear_parse_error() {
    let err = parse(&["crawl", "a.test", "--max-duration", "1000000y"]).unwrap_err();
    assert!(err.contains("--max-duration"), "{err}");
    assert!(err.contains("must be at most 365d"), "{err}");
    let err = parse(&[
        "crawl",
        "a.test",
        "--max-duration",
        "99999999999999999999999d",
    ]);
    assert!(err.unwrap_err().contains("--max-duration"));
    let args = [
        "crawl",
        "a.test",
        "--metrics",
        "127.0.0.1:0",
        "--metrics-linger",
        "2d",
    ];
    let err = parse(&args).unwrap_err();
    assert!(err.contains("--metrics-linger"), "{err}");
    assert!(err.contains("must be at most 1d"), "{err}");
}

#[test]
fn durations_at_their_maximum_are_taken() {
    let cli = parse(&[
        "crawl",
        "a.test",
        "--site-deadline",
        "3600",
        "--max-duration",
        "365d",
        "--metrics",
        "127.0.0.1:0",
        "--metrics-linger",
        "1d",
    ])
    .unwrap();
    let Command::Crawl(args) = cli.command else {
        panic!("not a crawl");
    };
    assert_eq!(args.scan.site_deadline, Some(3600));
    assert_eq!(args.metrics_linger, Some(Duration::from_secs(86_400)));
    let config = args.load_config().unwrap();
    assert_eq!(config.crawl.site_deadline_secs, 3600);
    assert_eq!(
        config.max_duration().unwrap(),
        Some(Duration::from_secs(365 * 86_400))
    );
}
