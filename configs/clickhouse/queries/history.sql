-- Adoption per run, oldest first (run ids sort by start time): scanned sites, endpoints and
-- passing sites, counted from the sites rows exactly as the embedded store's run manifests
-- count them. Dry runs (records planned, not scanned) are left out.
WITH outcome NOT IN ('invalid_input', 'excluded', 'planned', 'not_started') AS is_scanned
SELECT
    run_id,
    countIf(is_scanned) AS sites_scanned,
    countIf(isNotNull(endpoint)) AS endpoints,
    countIf(outcome = 'pass') AS passing
FROM sites FINAL
GROUP BY run_id
HAVING countIf(outcome = 'planned') = 0
ORDER BY run_id
