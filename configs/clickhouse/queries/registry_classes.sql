-- The registry servers of a run (input `registry:NAME`, invalid names left out) by the
-- probers' classes: the same rules as `registry_class` in store/src/derived.rs, which must
-- change with this file; '' is a server with no class (not measured for reasons of the run).
-- A 401 or 403 is found in the record's own JSON (our serialization: a key `"status"` with
-- unescaped quotes is never text a server wrote), as JSON functions need a newer server.
SELECT class, count() AS servers
FROM (
    SELECT multiIf(
        ifNull(transport, '') = 'stdio' OR ifNull(migration_status, '') = 'not_probeable', 'not_probeable',
        isNull(endpoint) AND kind IN ('no_endpoint', 'refused', 'invalid_url', 'guard', 'robots', 'opted_out'), 'not_probeable',
        isNull(endpoint), '',
        outcome IN ('invalid_input', 'excluded', 'planned', 'not_started'), '',
        outcome = 'pass', 'live',
        match(record_json, '"status":40[13][,}]'), 'auth_gated',
        kind = 'redirect', 'auth_gated',
        outcome = 'partial' OR kind = 'newer_revision_only', 'live',
        outcome = 'unreachable' OR kind IN ('dns', 'connect', 'tls', 'timeout', 'deadline', 'reset'), 'dead',
        kind IN ('no_endpoint', 'refused', 'invalid_url', 'guard', 'robots', 'opted_out'), 'not_probeable',
        outcome IN ('fail', 'out_of_scope') OR kind IN ('answer', 'body_cap', 'protocol'), 'http_not_mcp',
        '') AS class
    FROM (
        SELECT transport, migration_status, endpoint, outcome, record_json,
            ifNull(reason_kind, '') AS kind
        FROM sites FINAL
        WHERE run_id = ? AND lower(substring(input, 1, 9)) = 'registry:' AND outcome != 'invalid_input'
    )
)
GROUP BY class
ORDER BY class
