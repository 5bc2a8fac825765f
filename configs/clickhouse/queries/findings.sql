-- Findings per rule and severity, of scanned sites only (the few unscanned site keys are
-- excluded by a small subquery).
-- GLOBAL: on a cluster the subquery runs once and its keys go to every shard (a
-- Distributed table inside a query on another is refused otherwise); on one node it is IN.
SELECT rule_id, severity, count() AS findings
FROM findings FINAL
WHERE run_id = ? AND site_key GLOBAL NOT IN (
    SELECT site_key FROM sites FINAL WHERE run_id = ? AND NOT (outcome NOT IN {not_scanned}))
GROUP BY rule_id, severity
ORDER BY rule_id, severity
