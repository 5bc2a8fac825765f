-- Scanned sites, those with an API or agent surface, endpoints and passing endpoints per rank
-- slot: 0 to 4 the smallest Web Almanac bucket the input's rank falls in (top 1k, 10k, 100k,
-- 1M, 10M), 5 past 10M, 6 no rank. The report makes the buckets cumulative (docs/report.md).
SELECT
    {rank_slot} AS slot,
    count() AS scanned,
    countIf(surface = 1) AS surface,
    countIf(isNotNull(endpoint)) AS endpoints,
    countIf(isNotNull(endpoint) AND outcome = 'pass') AS passing
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN {not_scanned}
GROUP BY slot
ORDER BY slot
