-- Every run with sites rows and its first record's time: the report's latest run is the one
-- started last (its `runs` row's start time, else this), as the embedded store's latest
-- manifest; run ids are names (`--run-id`), so their text says nothing of time.
SELECT run_id, min(scanned_at_ms) AS first_record_ms
FROM sites
GROUP BY run_id
ORDER BY run_id
