//! The deployment files (configs/deploy/, Dockerfile): the Kubernetes manifests parsed
//! (PyYAML, as kubectl would read them), the Indexed Job's completion index mapped to
//! `--shard K/N` through the real command-line parser, the systemd unit's command line
//! likewise, and the Dockerfile's stages and user.

use std::process::Command;
use std::time::Duration;

use clap::Parser;
use serde_json::Value;

use super::args::{Cli, Command as Sub, CrawlArgs};
use super::test_files::{stdout_of, top};
use crate::config::LogFormat;
use crate::input::Shard;

/// A YAML file as JSON (python3 with PyYAML: scripts/setup.sh installs it).
fn yaml(path: &str) -> Value {
    let out = stdout_of(
        Command::new("python3")
            .args([
                "-c",
                "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
            ])
            .arg(top().join(path)),
    );
    serde_json::from_slice(&out).unwrap()
}

/// Kubernetes' `$(VAR)` expansion of container arguments.
fn expand(arg: &str, env: &[(&str, String)]) -> String {
    env.iter()
        .fold(arg.to_owned(), |a, (k, v)| a.replace(&format!("$({k})"), v))
}

/// The crawl's shard and run id for this command line.
fn crawl_of(argv: Vec<String>) -> (Option<Shard>, Option<String>) {
    let c = crawl_args(argv);
    (c.shard, c.run_id)
}

/// The crawl arguments of this command line, as the real parser reads them.
fn crawl_args(argv: Vec<String>) -> CrawlArgs {
    let cli = Cli::try_parse_from(std::iter::once("mcpcensus".to_owned()).chain(argv))
        .unwrap_or_else(|e| panic!("{e}"));
    match cli.command {
        Sub::Crawl(c) => c,
        other => panic!("not a crawl: {other:?}"),
    }
}

/// The label of the Job that Kubernetes sets on its pods to the Job's uid (1.27+).
const JOB_UID_LABEL: &str = "metadata.labels['batch.kubernetes.io/controller-uid']";

/// Checks an Indexed Job spec: pod K of `completions` crawls shard K of that many, under a run
/// id made from the Job's uid (unique per census), resuming or starting a retried shard, into
/// ClickHouse alone with JSON logs and the summary shown, its lists from a volume. Returns
/// pod 0's crawl arguments.
fn check_indexed_job(spec: &Value, run_prefix: &str) -> CrawlArgs {
    assert_eq!(spec["completionMode"], "Indexed");
    let n = spec["completions"].as_u64().unwrap();
    assert!(n > 1);
    assert_eq!(spec["parallelism"].as_u64(), Some(n), "all shards at once");
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(pod["restartPolicy"], "Never");
    let container = &pod["containers"][0];
    let env = container["env"].as_array().unwrap();
    let uid_from = env
        .iter()
        .find(|e| e["name"] == "JOB_UID")
        .map(|e| &e["valueFrom"]["fieldRef"]["fieldPath"]);
    assert_eq!(uid_from.and_then(Value::as_str), Some(JOB_UID_LABEL));
    let args: Vec<&str> = container["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let uid = "0b7c1e2a-5f3d-4c8e-9a61-2d4f6e8b0c13";
    let mut first = None;
    for k in 0..n {
        let env = [
            ("JOB_COMPLETION_INDEX", k.to_string()),
            ("JOB_UID", uid.to_owned()),
        ];
        let argv = args.iter().map(|a| expand(a, &env)).collect();
        let crawl = crawl_args(argv);
        let want = Shard {
            index: k as u32,
            count: n as u32,
        };
        assert_eq!(crawl.shard, Some(want), "pod {k}");
        let run_id = crawl.run_id.clone().unwrap();
        assert_eq!(run_id, format!("{run_prefix}{uid}"));
        mcpcensus_store::validate_run_id(&run_id).unwrap();
        assert!(crawl.resume_or_start, "a retried shard resumes or starts");
        first.get_or_insert(crawl);
    }
    let crawl = first.unwrap();
    assert!(
        crawl.clickhouse.is_some() && crawl.out.is_none(),
        "records go to ClickHouse alone: --out would tee them onto the pod's disk"
    );
    assert_eq!(crawl.scan.log_format, Some(LogFormat::Json));
    assert!(!crawl.scan.quiet, "--quiet would hide the summary");
    check_lists_from_a_volume(pod, &crawl);
    crawl
}

/// Every list the crawl reads is on a mounted volume that is not a ConfigMap (1 MiB at most).
fn check_lists_from_a_volume(pod: &Value, crawl: &CrawlArgs) {
    let mounts = pod["containers"][0]["volumeMounts"].as_array().unwrap();
    let volumes = pod["volumes"].as_array().unwrap();
    assert!(!crawl.inputs.is_empty());
    for list in &crawl.inputs {
        let mount = mounts
            .iter()
            .find(|m| list.starts_with(&format!("{}/", m["mountPath"].as_str().unwrap())))
            .unwrap_or_else(|| panic!("{list} is on no mounted volume"));
        assert_eq!(mount["readOnly"], true);
        let volume = volumes.iter().find(|v| v["name"] == mount["name"]).unwrap();
        assert!(volume.get("configMap").is_none(), "{list} from a ConfigMap");
        assert_eq!(
            volume["persistentVolumeClaim"]["readOnly"], true,
            "{list}: {volume}"
        );
    }
}

#[test]
fn the_indexed_job_maps_completion_index_k_to_shard_k_of_n() {
    let job = yaml("configs/deploy/kubernetes/census-job.yaml");
    assert_eq!(
        (job["apiVersion"].as_str(), job["kind"].as_str()),
        (Some("batch/v1"), Some("Job"))
    );
    // `kubectl create` gives each census its own Job, hence its own uid and run id.
    assert!(job["metadata"].get("name").is_none());
    assert!(job["metadata"]["generateName"].as_str().is_some());
    let crawl = check_indexed_job(&job["spec"], "census-");
    assert!(crawl.rescan_older_than.is_none() && crawl.label.is_none());
}

#[test]
fn the_nightly_cronjob_runs_the_labelled_rescan_as_the_census_job() {
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
    let crawl = check_indexed_job(spec, "nightly-");
    let older = crawl.rescan_older_than.as_deref().unwrap();
    let older = humantime::parse_duration(older).unwrap();
    // Nightly: everything scanned before last night is stale, this night's retries are not.
    assert!(
        older >= Duration::from_secs(3600) && older < Duration::from_secs(24 * 3600),
        "{older:?}"
    );
    assert_eq!(crawl.label.as_deref(), Some("nightly"));
    // The rest of the Job is census-job.yaml's.
    let job = yaml("configs/deploy/kubernetes/census-job.yaml");
    let without_args = |spec: &Value| {
        let mut spec = spec.clone();
        spec["template"]["spec"]["containers"][0]["args"] = Value::Null;
        spec
    };
    assert_eq!(
        without_args(spec),
        without_args(&job["spec"]),
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
