-- A run's scalar counts: records, scanned, reachable, defects, sites with a discovery
-- document, endpoints and passing endpoints (docs/report.md).
WITH outcome NOT IN {not_scanned} AS is_scanned
SELECT
    count() AS sites_read,
    countIf(is_scanned) AS sites_scanned,
    countIf(is_scanned AND outcome != 'unreachable') AS sites_reachable,
    countIf(is_scanned AND defect = 1) AS defects,
    countIf(is_scanned AND isNotNull(discovery_source)) AS sites_with_discovery_document,
    countIf(is_scanned AND isNotNull(endpoint)) AS endpoints,
    countIf(is_scanned AND isNotNull(endpoint) AND outcome = 'pass') AS passing
FROM sites FINAL
WHERE run_id = ?
