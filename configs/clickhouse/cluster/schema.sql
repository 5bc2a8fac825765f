-- mcpcensus ClickHouse schema for a cluster: `mcpcensus schema init --cluster NAME` runs these
-- statements in order, with {db} replaced by the database name and {on_cluster} by
-- "ON CLUSTER NAME" (distributed DDL, needs ClickHouse Keeper or ZooKeeper) or, with
-- `--node URL`, by nothing while the statements are sent to every node in turn.
--
-- Each table of configs/clickhouse/schema.sql becomes a local table on every node
-- (<name>_local, the same columns and MergeTree-family engine) behind a Distributed table with
-- the plain name, so `crawl --clickhouse`, `load` and every query of the pack
-- (configs/clickhouse/queries/) work unchanged against any node.
--
-- Sharding keys keep what must collapse or be joined on one shard: a site's sites, tools and
-- findings rows go where sipHash64(site_key) points, so a replayed row meets its first copy
-- (a ReplacingMergeTree collapses only within one table on one node) and FINAL on each shard
-- is exact; runs rows go by run_id. The daily adoption view is attached to the local sites
-- table of each node, and its aggregate states merge across shards when read.
--
-- Replicated variant (two or more replicas per shard): replace each local engine by its
-- Replicated* form, e.g. ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{db}/sites',
-- '{replica}') with the server's {shard}/{replica} macros, and set internal_replication=true
-- for each shard in remote_servers (docs/clickhouse.md).
--
-- The column lists equal configs/clickhouse/schema.sql's (a test checks it); the local runs
-- table is keyed by (run_id, source) because each shard process of one run writes its own row.

CREATE DATABASE IF NOT EXISTS {db} {on_cluster};

CREATE TABLE IF NOT EXISTS {db}.runs_local {on_cluster} (
    run_id String,
    started_at DateTime('UTC'),
    updated_at DateTime('UTC'),
    status String,
    source String,
    sites UInt64,
    server_version String,
    label String
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY (run_id, source);

CREATE TABLE IF NOT EXISTS {db}.runs {on_cluster} AS {db}.runs_local
ENGINE = Distributed({cluster}, {db}, runs_local, sipHash64(run_id));

CREATE TABLE IF NOT EXISTS {db}.sites_local {on_cluster} (
    run_id String,
    site_key String,
    scanned_at DateTime('UTC'),
    scanned_at_ms UInt64,
    schema_version UInt16,
    input String,
    input_line UInt64,
    origin Nullable(String),
    host Nullable(String),
    registrable_domain Nullable(String),
    addresses Array(String),
    outcome String,
    outcome_reason String,
    defect UInt8,
    endpoint Nullable(String),
    discovered_via Nullable(String),
    discovery_source Nullable(String),
    protocol_version Nullable(String),
    session_id_issued UInt8,
    server_name Nullable(String),
    server_version Nullable(String),
    capabilities Nullable(String),
    tool_count Nullable(UInt32),
    tool_names Array(String),
    tool_list_fingerprint Nullable(String),
    probe Nullable(String),
    transport Nullable(String),
    auth_kind Nullable(String),
    spec_version Nullable(String),
    deprecated_features Array(String),
    migration_status Nullable(String),
    checklist Array(String),
    finding_ids Array(String),
    grade_median Nullable(String),
    request_count UInt32,
    total_ms UInt32,
    record_json String,
    documents_parsed Array(String),
    documents_soft_404 Array(String),
    server_fingerprint String,
    final_origin Nullable(String),
    origin_move Nullable(String),
    surface UInt8
) ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(scanned_at)
ORDER BY (run_id, site_key);

CREATE TABLE IF NOT EXISTS {db}.sites {on_cluster} AS {db}.sites_local
ENGINE = Distributed({cluster}, {db}, sites_local, sipHash64(site_key));

CREATE TABLE IF NOT EXISTS {db}.tools_local {on_cluster} (
    run_id String,
    site_key String,
    position UInt32,
    scanned_at DateTime('UTC'),
    origin Nullable(String),
    name String,
    title Nullable(String),
    description Nullable(String),
    annotations Nullable(String),
    input_schema_hash Nullable(String),
    fingerprint Nullable(String),
    grade Nullable(String)
) ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(scanned_at)
ORDER BY (run_id, site_key, position);

CREATE TABLE IF NOT EXISTS {db}.tools {on_cluster} AS {db}.tools_local
ENGINE = Distributed({cluster}, {db}, tools_local, sipHash64(site_key));

CREATE TABLE IF NOT EXISTS {db}.findings_local {on_cluster} (
    run_id String,
    site_key String,
    position UInt32,
    scanned_at DateTime('UTC'),
    origin Nullable(String),
    rule_id String,
    severity String,
    evidence String,
    url Nullable(String),
    tool Nullable(String)
) ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(scanned_at)
ORDER BY (run_id, site_key, position);

CREATE TABLE IF NOT EXISTS {db}.findings {on_cluster} AS {db}.findings_local
ENGINE = Distributed({cluster}, {db}, findings_local, sipHash64(site_key));

CREATE TABLE IF NOT EXISTS {db}.daily_adoption_local {on_cluster} (
    day Date,
    run_id String,
    outcome String,
    sites AggregateFunction(uniqExact, String),
    endpoints AggregateFunction(uniqExact, String)
) ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (day, run_id, outcome);

CREATE TABLE IF NOT EXISTS {db}.daily_adoption {on_cluster} AS {db}.daily_adoption_local
ENGINE = Distributed({cluster}, {db}, daily_adoption_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.daily_adoption_mv {on_cluster} TO {db}.daily_adoption_local AS
SELECT
    toDate(scanned_at) AS day,
    run_id,
    outcome,
    uniqExactState(site_key) AS sites,
    uniqExactStateIf(site_key, isNotNull(endpoint)) AS endpoints
FROM {db}.sites_local
GROUP BY day, run_id, outcome;
