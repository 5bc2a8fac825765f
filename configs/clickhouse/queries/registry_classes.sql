-- The registry entries of a run (input `registry:NAME`, invalid names left out), one row each:
-- its class in the probers' vocabulary, the endpoint URL it names as `endpoint_key` compares
-- them (a template by its text), and the two facts counted apart. The same rules as
-- `registry_class`, `initialized_400` and `signin_redirect` in store/src/registry.rs, which
-- must change with this file; '' is an entry with no class (not measured for reasons of the
-- run), '' a key when it names no endpoint. The report counts entries and URLs from these rows
-- as the embedded report does (analysis/src/registry.rs). A 401 or 403, and a 400 to the
-- notification, are found in the record's own JSON (our serialization: a key `"status"` with
-- unescaped quotes is never text a server wrote), as JSON functions need a newer server.
SELECT
    class,
    if(isNull(endpoint), '', if(class = 'template', e, url_key)) AS key,
    toUInt8(match(record_json,
        '"purpose":"(probe:){0,1}notifications/initialized","status":400[,}]')) AS initialized_400,
    toUInt8(class = 'http_not_mcp' AND kind = 'redirect') AS signin_redirect
FROM (
    SELECT endpoint, kind, record_json,
        ifNull(endpoint, '') AS e,
        lower(protocol(e)) AS scheme,
        extract(extract(e, '^[^:/]+://([^/#\\x3F]*)'), ':([0-9]+)$') AS port,
        concat(scheme, '://', lower(domain(e)),
            if(port = '' OR (scheme = 'https' AND port = '443') OR (scheme = 'http' AND port = '80'),
               '', concat(':', port)),
            replaceRegexpOne(path(e), '/+$', '')) AS url_key,
        multiIf(
            kind = 'template', 'template',
            isNull(endpoint) AND (ifNull(transport, '') = 'stdio' OR kind IN {refused_kinds}), 'not_probeable',
            isNull(endpoint), '',
            outcome IN {not_scanned}, '',
            outcome = 'pass' OR ifNull(auth_kind, '') = 'none', 'live',
            match(record_json, '"status":40[13][,}]'), 'auth_gated',
            outcome = 'partial' OR kind = 'newer_revision_only', 'live',
            kind = 'redirect', 'http_not_mcp',
            outcome = 'unreachable' OR kind IN {no_answer_kinds}, 'dead',
            kind = 'server_error' AND ifNull(first_look_reason_kind, '') = 'server_error', 'dead',
            kind IN ('server_error', 'rate_limited'), 'no_verdict',
            kind IN {refused_kinds}, 'not_probeable',
            outcome IN ('fail', 'out_of_scope') OR kind IN ('answer', 'body_cap', 'protocol'), 'http_not_mcp',
            '') AS class
    FROM (
        SELECT endpoint, transport, outcome, record_json, auth_kind, first_look_reason_kind,
            ifNull(reason_kind, '') AS kind
        FROM sites FINAL
        WHERE run_id = ? AND lower(substring(input, 1, 9)) = 'registry:' AND outcome != 'invalid_input'
    )
)
ORDER BY key, class
