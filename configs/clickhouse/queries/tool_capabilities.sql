-- The capability mix (docs/report.md, run.tool_capabilities) per exclusive rank slot (as
-- rank_slots.sql) and tag: over the scanned sites whose tools were tagged, the servers with at
-- least one such tool and the tools, with every site counted and with each platform counted
-- once. A platform is a server fingerprint on at least the bound number of these sites; it
-- counts once, through its first site by site key. `*` is every tagged tool; `toxic_flow`
-- counts the sites with an MCP-TOOLS-001 finding (one per site). No CTE or JOIN: the oldest
-- server we support (18.16) has neither in this form. Mirrors analysis/src/capabilities.rs.
-- GLOBAL: on a cluster each subquery runs once over every shard (a Distributed table inside a
-- query on another is refused otherwise); on one node it is IN.
SELECT
    slot,
    tag,
    countIf(n > 0) AS servers,
    countIf(n > 0 AND once = 1) AS servers_once,
    sum(toUInt64(n)) AS tools,
    sumIf(toUInt64(n), once = 1) AS tools_once
FROM (
    SELECT
        {rank_slot} AS slot,
        {capability_counts} AS counts,
        toUInt8(server_fingerprint GLOBAL NOT IN (
            SELECT server_fingerprint FROM sites FINAL
            WHERE run_id = ? AND outcome NOT IN {not_scanned}
                AND isNotNull(capabilities_version)
            GROUP BY server_fingerprint
            HAVING count() >= ?)
        OR site_key GLOBAL IN (
            SELECT min(site_key) FROM sites FINAL
            WHERE run_id = ? AND outcome NOT IN {not_scanned}
                AND isNotNull(capabilities_version)
            GROUP BY server_fingerprint)) AS once
    FROM sites FINAL
    WHERE run_id = ? AND outcome NOT IN {not_scanned}
        AND isNotNull(capabilities_version)
)
ARRAY JOIN
    {capability_tags} AS tag,
    counts AS n
GROUP BY slot, tag
ORDER BY slot, tag
