-- Scanned sites per kind of API or agent surface evidence (surface_signals: each once per
-- record), for the report's population table.
SELECT signal AS value, count() AS sites
FROM sites FINAL
ARRAY JOIN surface_signals AS signal
WHERE run_id = ? AND outcome NOT IN {not_scanned}
GROUP BY value
ORDER BY value
