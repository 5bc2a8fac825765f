-- Server fingerprints (computed at insert time) on at least the bound number of endpoint
-- sites: the platforms.
-- Name, version and tool count are the latest scanned site's (the embedded report keeps the
-- last record read); passing feeds adoption with each platform counted once.
SELECT
    server_fingerprint,
    argMax(ifNull(server_name, ''), scanned_at_ms) AS name,
    argMax(isNull(server_name), scanned_at_ms) AS name_missing,
    argMax(ifNull(server_version, ''), scanned_at_ms) AS version,
    argMax(isNull(server_version), scanned_at_ms) AS version_missing,
    argMax(toUInt64(ifNull(tool_count, 0)), scanned_at_ms) AS tool_count,
    count() AS sites,
    countIf(outcome = 'pass') AS passing
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN {not_scanned} AND isNotNull(endpoint)
    AND (isNotNull(server_name) OR notEmpty(tool_names))
GROUP BY server_fingerprint
HAVING sites >= ?
ORDER BY sites DESC, server_fingerprint ASC
