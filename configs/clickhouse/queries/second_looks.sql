-- Scanned sites looked at twice (the second look), per (first look's outcome, outcome): the
-- row's outcome is the second look's.
SELECT assumeNotNull(first_look_outcome) AS first, outcome AS second, count() AS sites
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN {not_scanned}
    AND isNotNull(first_look_outcome)
GROUP BY first, second
ORDER BY first, second
