-- Scanned sites robots.txt kept out, by the verdict's reason kind (`robots`: the site's own
-- rules; otherwise the failure RFC 9309 reads as complete disallow), and the sites a "not now"
-- reading decided (docs/rules.md, "Not now is not no"): `mcp_get_not_now` (/mcp's GET answered
-- a 5xx or 429; the literal reading says out of scope) and `robots_server_error` (robots.txt
-- answered a 5xx; the literal reading says reason kind `robots`). Mirrors `robots_kept_out` and
-- `not_now_reading` in store/src/derived.rs. Rows written before schema 6 have neither column.
-- (The aliases are not `outcome` or `kind`: ClickHouse lets an alias shadow a column in WHERE.)
SELECT 'robots_kept_out' AS figure, assumeNotNull(reason_kind) AS key, count() AS sites
FROM sites FINAL
WHERE run_id = ? AND outcome = 'not_measured' AND isNotNull(reason_kind)
  AND (ifNull(robots_verdict, '') = 'disallow_all' OR reason_kind = 'robots')
GROUP BY key
UNION ALL
SELECT 'not_now' AS figure,
       if(ifNull(robots_verdict, '') = 'disallow_all', 'robots_server_error', 'mcp_get_not_now') AS key,
       count() AS sites
FROM sites FINAL
WHERE run_id = ? AND outcome = 'not_measured'
  AND ((ifNull(robots_verdict, '') = 'disallow_all' AND ifNull(reason_kind, '') = 'server_error')
    OR (ifNull(robots_verdict, '') != 'disallow_all' AND isNull(endpoint)
        AND ((ifNull(mcp_get_status, 0) >= 500 AND ifNull(mcp_get_status, 0) < 600)
             OR ifNull(mcp_get_status, 0) = 429)))
GROUP BY key
ORDER BY figure, key
