//! A run written by shard processes read as one run: lines counted once, inputs named once
//! with the shards that read them, the status and dates of the whole, the missing shards.

use mcpcensus_store::{InputChecksum, RunCounts, RunManifest, RunStatus};
use serde_json::json;

use crate::methods::combined_methods;

fn input(path: &str, hash: &str, lines: Option<u64>) -> InputChecksum {
    InputChecksum {
        input: path.into(),
        bytes: Some(100),
        xxh3_64: Some(hash.into()),
        lines,
    }
}

fn part(shard: &str, lines_read: u64, inputs: Vec<InputChecksum>) -> RunManifest {
    let k: u64 = shard.split('/').next().unwrap().parse().unwrap();
    let mut m = RunManifest::new(
        "night",
        1_000 + k,
        vec![],
        json!({"crawl": {"probe": "survey"}}),
        false,
    );
    m.selection = Some(json!({ "shard": shard }));
    m.status = RunStatus::Complete;
    m.ended_at = Some(5_000 + k);
    m.counts = Some(RunCounts {
        lines_read,
        records_written: lines_read / 4,
        ..RunCounts::default()
    });
    m.provenance.inputs = inputs;
    m
}

#[test]
fn shards_reading_one_list_count_its_lines_once() {
    let parts: Vec<RunManifest> = ["0/4", "1/4", "2/4", "3/4"]
        .iter()
        .map(|s| part(s, 20_025, vec![input("/data/list.csv", "aa", Some(20_025))]))
        .collect();
    let refs: Vec<&RunManifest> = parts.iter().collect();
    let m = combined_methods(&refs);
    assert_eq!(m.lines_read, Some(20_025));
    assert_eq!(m.inputs.len(), 1);
    assert_eq!(m.inputs[0].read_by, ["0/4", "1/4", "2/4", "3/4"]);
    assert_eq!(m.shards.len(), 4);
    assert!(m.shards_missing.is_empty());
    assert_eq!(m.status.as_deref(), Some("complete"));
    assert_eq!(m.started_at, Some(mcpcensus_store::format_timestamp(1_000)));
    assert_eq!(m.ended_at, Some(mcpcensus_store::format_timestamp(5_003)));
}

#[test]
fn shards_reading_their_own_lists_add_up() {
    let parts: Vec<RunManifest> = (0..4)
        .map(|k| {
            let hash = format!("h{k}");
            part(
                &format!("{k}/4"),
                5_000 + k,
                vec![input(&format!("/data/part{k}.csv"), &hash, Some(5_000 + k))],
            )
        })
        .collect();
    let refs: Vec<&RunManifest> = parts.iter().collect();
    let m = combined_methods(&refs);
    assert_eq!(m.lines_read, Some(20_006));
    assert_eq!(m.inputs.len(), 4, "every shard's input is named");
    // Overlapping lists: one shared file and one of each shard's own.
    let parts: Vec<RunManifest> = (0..2)
        .map(|k| {
            part(
                &format!("{k}/2"),
                110 + k,
                vec![
                    input("/data/common.csv", "common", Some(100)),
                    input(
                        &format!("/data/own{k}.csv"),
                        &format!("own{k}"),
                        Some(10 + k),
                    ),
                ],
            )
        })
        .collect();
    let refs: Vec<&RunManifest> = parts.iter().collect();
    assert_eq!(combined_methods(&refs).lines_read, Some(100 + 10 + 11));
}

#[test]
fn manifests_without_input_lines_fall_back_to_groups_of_the_same_inputs() {
    let same = |k: u64| part(&format!("{k}/4"), 20_025, vec![input("l", "aa", None)]);
    let parts = [same(0), same(1), same(2), same(3)];
    let refs: Vec<&RunManifest> = parts.iter().collect();
    assert_eq!(combined_methods(&refs).lines_read, Some(20_025));
    let own = |k: u64| {
        part(
            &format!("{k}/2"),
            7 + k,
            vec![input("l", &format!("{k}"), None)],
        )
    };
    let parts = [own(0), own(1)];
    let refs: Vec<&RunManifest> = parts.iter().collect();
    assert_eq!(combined_methods(&refs).lines_read, Some(15));
}

#[test]
fn a_missing_or_unfinished_shard_is_said() {
    let mut parts: Vec<RunManifest> = ["0/4", "1/4", "3/4"]
        .iter()
        .map(|s| part(s, 10, vec![input("l", "aa", Some(10))]))
        .collect();
    parts[1].status = RunStatus::Interrupted;
    parts[2].ended_at = None;
    parts[2].status = RunStatus::Running;
    let refs: Vec<&RunManifest> = parts.iter().collect();
    let m = combined_methods(&refs);
    assert_eq!(m.shards_missing, ["2/4"]);
    assert_eq!(m.status.as_deref(), Some("interrupted"));
    assert_eq!(m.ended_at, None, "a part still running has not ended");
    assert_eq!(m.shards[1].status, "interrupted");
}

#[test]
fn settings_that_differ_by_shard_are_shown_per_shard() {
    let mut a = part("0/2", 1, vec![]);
    let b = part("1/2", 1, vec![]);
    a.config = json!({"crawl": {"probe": "deep"}});
    let m = combined_methods(&[&a, &b]);
    let probe = m.settings.iter().find(|s| s.name == "probe level").unwrap();
    assert_eq!(
        probe.value.as_deref(),
        Some("differs by shard: 0/2 deep; 1/2 survey")
    );
    // One process, every site: no shard table.
    let mut one = part("0/1", 3, vec![input("l", "aa", Some(3))]);
    one.selection = Some(json!({ "shard": "0/1" }));
    let m = combined_methods(&[&one]);
    assert!(m.shards.is_empty() && m.shards_missing.is_empty());
    assert_eq!(m.lines_read, Some(3));
}

#[test]
fn the_methods_say_where_the_ranks_came_from() {
    // A run given lists: its inputs, each once however many shards read it.
    let parts: Vec<RunManifest> = ["0/2", "1/2"]
        .iter()
        .map(|s| part(s, 10, vec![input("/data/list.csv", "aa", Some(10))]))
        .collect();
    let refs: Vec<&RunManifest> = parts.iter().collect();
    let ranks = combined_methods(&refs).ranks.unwrap();
    assert_eq!(ranks.from, "lists");
    assert_eq!(ranks.lists, ["/data/list.csv"]);
    assert_eq!(ranks.sites_ranked_by_lists, None);

    // A re-scan by two shards: today's list ranks the sites it names (listed again or new),
    // the stale sites it leaves out keep their last rank; the counts add over the shards.
    let rescan = |k: u64| {
        let mut m = part(
            &format!("{k}/2"),
            10,
            vec![input("/run/rescan-targets.txt", &format!("t{k}"), Some(10))],
        );
        m.selection = Some(json!({
            "shard": format!("{k}/2"),
            "rescan": {
                "older_than": "20h",
                "lists": [{"path": "/data/today.csv", "bytes": 9, "modified_ms": 1}],
                "stale": 7 + k,
                "ranks_from_lists": 5,
                "new": 2 + k,
            }
        }));
        m
    };
    let parts = [rescan(0), rescan(1)];
    let refs: Vec<&RunManifest> = parts.iter().collect();
    let ranks = combined_methods(&refs).ranks.unwrap();
    assert_eq!(ranks.from, "rescan");
    assert_eq!(ranks.lists, ["/data/today.csv"]);
    assert_eq!(ranks.sites_ranked_by_lists, Some((5 + 2) + (5 + 3)));
    assert_eq!(ranks.sites_keeping_last_rank, Some(2 + 3));

    // A re-scan given no list: every site keeps its last rank.
    let mut alone = part("0/1", 4, vec![]);
    alone.selection = Some(json!({"shard": "0/1", "rescan": {"stale": 4, "lists": []}}));
    let ranks = combined_methods(&[&alone]).ranks.unwrap();
    assert!(ranks.lists.is_empty());
    assert_eq!(ranks.sites_ranked_by_lists, Some(0));
    assert_eq!(ranks.sites_keeping_last_rank, Some(4));
}
