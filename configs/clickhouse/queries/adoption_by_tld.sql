-- Adoption per top-level domain (the host's last label) among a run's scanned sites: the
-- bound number of domains with the most endpoints, then the most scanned sites, then by name.
WITH outcome NOT IN {not_scanned} AS is_scanned
SELECT
    arrayElement(splitByChar('.', assumeNotNull(host)), -1) AS tld,
    count() AS scanned,
    countIf(isNotNull(endpoint)) AS endpoints,
    countIf(isNotNull(endpoint) AND outcome = 'pass') AS passing
FROM sites FINAL
WHERE run_id = ? AND is_scanned AND isNotNull(host)
GROUP BY tld
ORDER BY endpoints DESC, scanned DESC, tld ASC
LIMIT ?
