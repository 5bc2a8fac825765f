-- Origins in both runs whose outcome changed, per (from, to).
SELECT base_outcome, run_outcome, count() AS sites
FROM ({sites})
WHERE in_base = 1 AND in_run = 1 AND base_outcome != run_outcome
GROUP BY base_outcome, run_outcome
ORDER BY base_outcome, run_outcome
