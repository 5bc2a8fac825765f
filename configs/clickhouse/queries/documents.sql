-- Scanned sites per discovery document kind, usable ('p:kind') or soft 404 ('s:kind'), from
-- the per-site kind lists computed at insert time.
SELECT entry, count() AS sites
FROM sites FINAL
ARRAY JOIN arrayConcat(
    arrayMap(k -> concat('p:', k), documents_parsed),
    arrayMap(k -> concat('s:', k), documents_soft_404)) AS entry
WHERE run_id = ? AND outcome NOT IN {not_scanned}
GROUP BY entry
ORDER BY entry
