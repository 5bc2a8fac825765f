-- Adoption per run (the report orders runs by their start time, from runs.sql, else by the
-- first record here): records, scanned sites, endpoints and passing sites, the first record
-- and the earliest scan (the trend's time axis), counted from
-- the sites rows exactly as the embedded report counts each run's records. Dry runs (records
-- planned, not scanned) are left out.
WITH outcome NOT IN {not_scanned} AS is_scanned
SELECT
    run_id,
    count() AS sites_read,
    countIf(is_scanned) AS sites_scanned,
    min(scanned_at_ms) AS first_record_ms,
    minIf(scanned_at_ms, is_scanned) AS first_scan_ms,
    countIf(is_scanned AND isNotNull(endpoint)) AS endpoints,
    countIf(is_scanned AND isNotNull(endpoint) AND outcome = 'pass') AS passing
FROM sites FINAL
GROUP BY run_id
HAVING countIf(outcome = 'planned') = 0
ORDER BY run_id
