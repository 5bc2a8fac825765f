-- Each part of each run (a shard's process, or the one process of a run of every site) with
-- the manifest of its latest row: the report's methods combine a run's parts.
SELECT
    run_id,
    argMax(manifest, updated_at_ms) AS part_manifest
FROM run_parts
GROUP BY run_id, part
ORDER BY run_id, part
