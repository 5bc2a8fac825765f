-- mcpcensus ClickHouse schema. `mcpcensus schema init` (and `crawl --clickhouse`) runs these
-- statements in order, with {db} replaced by the database name; every one is IF NOT EXISTS.
-- Valid on ClickHouse 18.16 (Debian, the test server) and on modern servers (24.x-26.x): no
-- LowCardinality, DateTime64, Map, TTL, CODEC or skip indexes. Enumerations are Strings (their
-- stable text forms), booleans UInt8.
--
-- Idempotency: every data table is a ReplacingMergeTree keyed by (run_id, site_key[, position]),
-- so a retried insert or a replayed store (`mcpcensus load`) collapses into one row per key.
-- Collapsing happens at merge time: queries that must count exactly read with FINAL (or
-- GROUP BY the key). site_key is the origin, or for records without one (invalid input)
-- "line:<input_line>:<input>".
--
-- Partitioning: by month of scanned_at, so a run's rows stay in one or two partitions, old
-- months can be dropped whole, and a row and its replays always share a partition (a
-- ReplacingMergeTree only collapses within one). ORDER BY starts with run_id because every
-- report reads one run (or compares two), then site_key for the per-site joins.

CREATE DATABASE IF NOT EXISTS {db};

-- One row per crawl or load; the latest row of a run_id (by updated_at) wins. The columns
-- after `label` came later (schema init adds them to an older table): the times in ms (runs
-- are ordered by start time; the latest row by updated_at_ms) and the run manifest as JSON
-- (the report's methods), '' in rows written before.
CREATE TABLE IF NOT EXISTS {db}.runs (
    run_id String,
    started_at DateTime('UTC'),
    updated_at DateTime('UTC'),
    status String,
    source String,
    sites UInt64,
    server_version String,
    label String,
    started_at_ms UInt64,
    updated_at_ms UInt64,
    manifest String
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY run_id;

-- One row per process that wrote a run: a run crawled by `crawl --shard K/N` processes has
-- one row a shard (`part` is the shard, '' for a run of every site), each with that process's
-- manifest, so the report's methods count the run's lines and name its inputs whole (`runs`
-- keeps one row a run). The latest row of a part (by updated_at_ms) wins.
CREATE TABLE IF NOT EXISTS {db}.run_parts (
    run_id String,
    part String,
    updated_at DateTime('UTC'),
    updated_at_ms UInt64,
    manifest String
) ENGINE = ReplacingMergeTree(updated_at_ms)
ORDER BY (run_id, part);

-- One row per site per run: the record's scalar fields, arrays of tool names and finding ids,
-- and the whole record as its JSON export line (record_json) so nothing is lost.
CREATE TABLE IF NOT EXISTS {db}.sites (
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
    -- Derived in Rust at insert time (store/src/derived.rs) so reports in SQL count exactly
    -- what the embedded report counts: document kinds served usable and as soft 404s, and
    -- the server fingerprint (tool list fingerprint, else name + version + sorted tools).
    documents_parsed Array(String),
    documents_soft_404 Array(String),
    server_fingerprint String,
    -- Where the homepage's redirects led (NULL: measured at origin), how the site moved
    -- (www, apex, other_subdomain; derived::origin_move) and its API or agent surface flag.
    final_origin Nullable(String),
    origin_move Nullable(String),
    surface UInt8,
    -- The typed failure kinds (schema 3): the kind of the verdict's reason (NULL for pass
    -- and for rows of schema 2 records), and the distinct kinds of the site's failed requests
    -- in the order first seen. Group by these, never by outcome_reason's wording.
    reason_kind Nullable(String),
    request_error_kinds Array(String),
    -- Which side of the measured site holds the endpoint: scanned (the scanned origin's site)
    -- or final (only the final origin's, after the homepage's in-site redirects).
    endpoint_site Nullable(String),
    -- Schema 4: the input line's rank in its ranked list (NULL: unranked, or a record of
    -- schema 3 and earlier) and why the deep probe stopped early (NULL: it did not).
    rank Nullable(UInt32),
    probe_note Nullable(String),
    -- The kinds of API or agent surface evidence the scan saw (mcp, api_catalog, openapi,
    -- a2a_agent_card, ...; empty for records of schema 3 and earlier): surface = not empty.
    surface_signals Array(String),
    -- Schema 5: what the first of two looks said (NULL: the site was looked at once); the
    -- row's outcome is the second look's.
    first_look_outcome Nullable(String),
    first_look_reason_kind Nullable(String),
    -- Schema 5, the readiness level (docs/readiness.md): which list of checks the row's
    -- record implements (NULL: the level was off), each check 1, 0 or NULL (not checked),
    -- the negative control (1: the site answers paths that cannot exist), the checks a naive
    -- 2xx count would have called present, and the AI crawlers robots.txt names with their
    -- access (GPTBot=disallow).
    readiness_checks_version Nullable(String),
    readiness_robots_txt Nullable(UInt8),
    readiness_robots_txt_ai_rules Nullable(UInt8),
    readiness_content_signals Nullable(UInt8),
    readiness_sitemap Nullable(UInt8),
    readiness_link_headers Nullable(UInt8),
    readiness_markdown_negotiation Nullable(UInt8),
    readiness_llms_txt Nullable(UInt8),
    readiness_llms_full_txt Nullable(UInt8),
    readiness_a2a_agent_card Nullable(UInt8),
    readiness_agent_skills Nullable(UInt8),
    readiness_api_catalog Nullable(UInt8),
    readiness_oauth_discovery Nullable(UInt8),
    readiness_oauth_protected_resource Nullable(UInt8),
    readiness_mcp_server_card Nullable(UInt8),
    readiness_web_mcp Nullable(UInt8),
    readiness_web_bot_auth Nullable(UInt8),
    readiness_agentmap Nullable(UInt8),
    readiness_ai_catalog_link Nullable(UInt8),
    readiness_catch_all Nullable(UInt8),
    readiness_naive_only Array(String),
    readiness_ai_bot_rules Array(String),
    -- Schema 6: the measured origin's robots.txt verdict (rules, allow_all, disallow_all; NULL:
    -- not read) and the status of /mcp's plain GET (NULL: not asked, or no answer), from which
    -- the report counts the sites robots.txt kept out and those "not now" moved (docs/rules.md).
    robots_verdict Nullable(String),
    mcp_get_status Nullable(UInt16),
    -- The capability table's version that tagged the tools (docs/rules.md, "Tool capabilities").
    capabilities_version Nullable(String),
    -- The tools tagged (the record's kept tools; null when none was tagged).
    tools_tagged Nullable(UInt32),
    -- Tools tagged read_only (null when no tool was tagged).
    tools_read_only Nullable(UInt32),
    -- Tools tagged writes (null when no tool was tagged).
    tools_writes Nullable(UInt32),
    -- Tools tagged destructive (null when no tool was tagged).
    tools_destructive Nullable(UInt32),
    -- Tools tagged executes_code (null when no tool was tagged).
    tools_executes_code Nullable(UInt32),
    -- Tools tagged moves_money (null when no tool was tagged).
    tools_moves_money Nullable(UInt32),
    -- Tools tagged sends_messages (null when no tool was tagged).
    tools_sends_messages Nullable(UInt32),
    -- Tools tagged reads_untrusted_content (null when no tool was tagged).
    tools_reads_untrusted_content Nullable(UInt32),
    -- Tools tagged reads_private_data (null when no tool was tagged).
    tools_reads_private_data Nullable(UInt32)
) ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(scanned_at)
ORDER BY (run_id, site_key);

-- One row per tool per site per run (position: its index in tools/list).
CREATE TABLE IF NOT EXISTS {db}.tools (
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
    grade Nullable(String),
    -- What the tool can do: its capability tags (docs/rules.md, "Tool capabilities").
    capabilities Array(String)
) ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(scanned_at)
ORDER BY (run_id, site_key, position);

-- One row per finding (position: its index in the record's findings).
CREATE TABLE IF NOT EXISTS {db}.findings (
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

-- Daily adoption counts: distinct sites per day, run and outcome, and how many had an MCP
-- endpoint. uniqExact states make the counts replay-proof (a site inserted twice is counted
-- once). Read with: SELECT day, outcome, uniqExactMerge(sites), uniqExactMerge(endpoints)
-- FROM {db}.daily_adoption GROUP BY day, outcome
CREATE TABLE IF NOT EXISTS {db}.daily_adoption (
    day Date,
    run_id String,
    outcome String,
    sites AggregateFunction(uniqExact, String),
    endpoints AggregateFunction(uniqExact, String)
) ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(day)
ORDER BY (day, run_id, outcome);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.daily_adoption_mv TO {db}.daily_adoption AS
SELECT
    toDate(scanned_at) AS day,
    run_id,
    outcome,
    uniqExactState(site_key) AS sites,
    uniqExactStateIf(site_key, isNotNull(endpoint)) AS endpoints
FROM {db}.sites
GROUP BY day, run_id, outcome;
