-- When each site was last scanned, over every run (`crawl --rescan-older-than`): one row per
-- origin with its newest scan time in ms and the rank its newest record had (NULL: none). Dry-run and not-started placeholders are not scans;
-- records without an origin (invalid input) name no site, and registry names (`registry:NAME`
-- input) are looked up again from the lists on every re-scan. Replayed rows share their scan
-- time, so no FINAL is needed for a maximum.
SELECT
    assumeNotNull(origin) AS site,
    max(scanned_at_ms) AS last_scan_ms,
    argMax(rank, scanned_at_ms) AS last_rank
FROM sites
WHERE isNotNull(origin) AND outcome NOT IN ('planned', 'not_started')
    AND lower(input) NOT LIKE 'registry:%'
GROUP BY site
