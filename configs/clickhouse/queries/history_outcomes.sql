-- Records per outcome of every run (the stacked outcome shares over runs).
SELECT run_id, outcome, count() AS sites
FROM sites FINAL
GROUP BY run_id, outcome
ORDER BY run_id, outcome
