-- Scanned sites per deprecated feature the deep probe saw (a site counts once per feature it
-- lists).
SELECT feature AS value, count() AS sites
FROM sites FINAL
ARRAY JOIN deprecated_features AS feature
WHERE run_id = ? AND outcome NOT IN {not_scanned}
GROUP BY value
ORDER BY value
