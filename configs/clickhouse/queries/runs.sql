-- Each run's `runs` row: its label (`crawl --label`, '' without one), start time in ms (from
-- the seconds column for rows written before the ms one) and run manifest (JSON; '' for rows
-- written before ClickHouse kept it), each from the run's latest row (shard processes of one
-- run share its label; their manifests differ only in the shard).
SELECT
    run_id,
    argMax(label, updated_at_ms) AS run_label,
    min(if(started_at_ms > 0, started_at_ms, toUInt64(started_at) * 1000)) AS start_ms,
    argMax(manifest, updated_at_ms) AS run_manifest
FROM runs
GROUP BY run_id
ORDER BY run_id
