-- Graded tools per letter, of scanned sites only.
SELECT assumeNotNull(grade) AS letter, count() AS tools
FROM tools FINAL
WHERE run_id = ? AND isNotNull(grade) AND site_key NOT IN (
    SELECT site_key FROM sites FINAL WHERE run_id = ? AND NOT (outcome NOT IN ('invalid_input', 'excluded', 'planned', 'not_started')))
GROUP BY letter
ORDER BY letter
