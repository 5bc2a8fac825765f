-- Graded tools per letter, of scanned sites only.
-- GLOBAL: on a cluster the subquery runs once and its keys go to every shard (a
-- Distributed table inside a query on another is refused otherwise); on one node it is IN.
SELECT assumeNotNull(grade) AS letter, count() AS tools
FROM tools FINAL
WHERE run_id = ? AND isNotNull(grade) AND site_key GLOBAL NOT IN (
    SELECT site_key FROM sites FINAL WHERE run_id = ? AND NOT (outcome NOT IN {not_scanned}))
GROUP BY letter
ORDER BY letter
