-- The latest run (run ids sort by start time), as the embedded store's latest manifest.
SELECT max(run_id) AS run_id FROM sites
