//! The deployment files (configs/deploy/, Dockerfile): the Kubernetes manifests parsed
//! (PyYAML, as kubectl would read them), the Indexed Job's completion index mapped to
//! `--shard K/N` through the real command-line parser, the systemd unit's command line
//! likewise, and the Dockerfile's stages and user.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Parser;
use serde_json::Value;

use super::args::{Cli, Command as Sub};
use crate::input::Shard;

fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A YAML file as JSON (python3 with PyYAML: scripts/setup.sh installs it).
fn yaml(path: &str) -> Value {
    let out = Command::new("python3")
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
        ])
        .arg(top().join(path))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Kubernetes' `$(VAR)` expansion of container arguments.
fn expand(arg: &str, env: &[(&str, String)]) -> String {
    env.iter()
        .fold(arg.to_owned(), |a, (k, v)| a.replace(&format!("$({k})"), v))
}

/// The crawl's shard and run id for this command line.
fn crawl_of(argv: Vec<String>) -> (Option<Shard>, Option<String>) {
    let cli = Cli::try_parse_from(std::iter::once("mcpcensus".to_owned()).chain(argv))
        .unwrap_or_else(|e| panic!("{e}"));
    match cli.command {
        Sub::Crawl(c) => (c.shard, c.run_id),
        other => panic!("not a crawl: {other:?}"),
    }
}

/// Checks an Indexed Job spec: pod K of `completions` crawls shard K of that many.
fn check_indexed_job(spec: &Value) {
    assert_eq!(spec["completionMode"], "Indexed");
    let n = spec["completions"].as_u64().unwrap();
    assert!(n > 1);
    assert_eq!(spec["parallelism"].as_u64(), Some(n), "all shards at once");
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(pod["restartPolicy"], "Never");
    let container = &pod["containers"][0];
    let env = container["env"].as_array().unwrap();
    let run_id_from = env
        .iter()
        .find(|e| e["name"] == "RUN_ID")
        .map(|e| &e["valueFrom"]["fieldRef"]["fieldPath"]);
    assert_eq!(
        run_id_from.and_then(Value::as_str),
        Some("metadata.labels['batch.kubernetes.io/job-name']")
    );
    let args: Vec<&str> = container["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    for k in 0..n {
        let env = [
            ("JOB_COMPLETION_INDEX", k.to_string()),
            ("RUN_ID", "mcpcensus-nightly-29411520".to_owned()),
        ];
        let argv = args.iter().map(|a| expand(a, &env)).collect();
        let (shard, run_id) = crawl_of(argv);
        let want = Shard {
            index: k as u32,
            count: n as u32,
        };
        assert_eq!(shard, Some(want), "pod {k}");
        assert_eq!(run_id.as_deref(), Some("mcpcensus-nightly-29411520"));
    }
}

#[test]
fn the_indexed_job_maps_completion_index_k_to_shard_k_of_n() {
    let job = yaml("configs/deploy/kubernetes/census-job.yaml");
    assert_eq!(
        (job["apiVersion"].as_str(), job["kind"].as_str()),
        (Some("batch/v1"), Some("Job"))
    );
    check_indexed_job(&job["spec"]);
}

#[test]
fn the_nightly_cronjob_runs_the_same_indexed_job() {
    let cron = yaml("configs/deploy/kubernetes/nightly-cronjob.yaml");
    assert_eq!(cron["kind"], "CronJob");
    assert_eq!(cron["spec"]["concurrencyPolicy"], "Forbid");
    assert_eq!(
        cron["spec"]["schedule"]
            .as_str()
            .unwrap()
            .split(' ')
            .count(),
        5
    );
    let spec = &cron["spec"]["jobTemplate"]["spec"];
    check_indexed_job(spec);
    let job = yaml("configs/deploy/kubernetes/census-job.yaml");
    assert_eq!(
        spec, &job["spec"],
        "the CronJob's Job differs from census-job.yaml"
    );
}

#[test]
fn the_systemd_unit_crawls_the_configured_shard_nightly() {
    let unit =
        std::fs::read_to_string(top().join("configs/deploy/systemd/mcpcensus.service")).unwrap();
    let exec = unit
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .unwrap();
    // ExecStart=/bin/sh -c '...': systemd halves %%, the shell expands $SHARD and $(date).
    let script = exec
        .strip_prefix("/bin/sh -c '")
        .and_then(|s| s.strip_suffix('\''))
        .unwrap()
        .replace("%%", "%");
    for shard in ["0/1", "2/3"] {
        let out = Command::new("sh")
            .args(["-c", &script.replace("exec ", "printf '%s\\n' ")])
            .env("SHARD", shard)
            .env("CLICKHOUSE_URL", "http://127.0.0.1:8123")
            .output()
            .unwrap();
        let argv: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .skip(1) // the binary
            .map(str::to_owned)
            .collect();
        let (got, run_id) = crawl_of(argv);
        assert_eq!(got.map(|s| s.to_string()).as_deref(), Some(shard));
        let run_id = run_id.unwrap();
        assert!(
            run_id.starts_with("nightly-20") && run_id.len() == 16,
            "{run_id}"
        );
    }
    assert!(unit.contains("DynamicUser=yes"), "runs as a non-root user");
    let timer =
        std::fs::read_to_string(top().join("configs/deploy/systemd/mcpcensus.timer")).unwrap();
    assert!(timer.lines().any(|l| l.starts_with("OnCalendar=")));
    assert!(timer.contains("WantedBy=timers.target"));
}

#[test]
fn the_dockerfile_is_multi_stage_and_runs_the_binary_as_non_root() {
    let text = std::fs::read_to_string(top().join("Dockerfile")).unwrap();
    let froms: Vec<&str> = text.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(froms.len(), 2, "{froms:?}");
    assert!(froms[0].ends_with(" AS build"));
    let user = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("USER "))
        .unwrap();
    let uid: u32 = user.split(':').next().unwrap().parse().unwrap();
    assert_ne!(uid, 0, "the runtime user is root");
    let entry = text
        .lines()
        .find_map(|l| l.strip_prefix("ENTRYPOINT "))
        .unwrap();
    let binary: Vec<String> = serde_json::from_str(entry).unwrap();
    let copied = format!("/src/target/release/mcpcensus {}", binary[0]);
    assert!(text.contains(&copied), "the entrypoint is the built binary");
}
