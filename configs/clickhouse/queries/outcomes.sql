-- Records per outcome (all records; shares are computed in Rust from these counts).
SELECT outcome, count() AS sites
FROM sites FINAL
WHERE run_id = ?
GROUP BY outcome
ORDER BY outcome
