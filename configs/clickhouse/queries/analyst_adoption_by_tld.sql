-- Analysts: MCP adoption per top-level domain in one run: scanned sites, endpoints, and the
-- share in percent.
SELECT
    topLevelDomain(assumeNotNull(origin)) AS tld,
    count() AS scanned,
    countIf(isNotNull(endpoint)) AS endpoints,
    round(100 * endpoints / scanned, 2) AS percent
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN ('invalid_input', 'excluded', 'planned', 'not_started') AND isNotNull(origin)
GROUP BY tld
ORDER BY endpoints DESC, tld ASC
