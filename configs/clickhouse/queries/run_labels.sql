-- Each run's label (`crawl --label`), from the runs rows: the latest row of a run wins, and
-- an empty label is a run without one (the shard processes of one run share its label).
SELECT
    run_id,
    argMax(label, updated_at) AS label
FROM runs
GROUP BY run_id
ORDER BY run_id
