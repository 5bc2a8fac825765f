-- Both runs' tools of the sites (origins) scanned in both runs, for the comparison's tool
-- changes (analysis/src/tool_changes.rs compares them, as for the embedded store).
-- GLOBAL: on a cluster each subquery runs once over every shard; on one node it is IN.
SELECT run_id, assumeNotNull(origin) AS origin, name, description, capabilities
FROM tools FINAL
WHERE run_id IN (?, ?) AND isNotNull(origin)
    AND site_key GLOBAL IN (
        SELECT site_key FROM sites FINAL
        WHERE run_id = ? AND outcome NOT IN {not_scanned})
    AND site_key GLOBAL IN (
        SELECT site_key FROM sites FINAL
        WHERE run_id = ? AND outcome NOT IN {not_scanned})
ORDER BY run_id, origin, position
