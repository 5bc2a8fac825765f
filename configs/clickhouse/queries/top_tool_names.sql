-- The most common tool names over tool-listing servers, ties by name.
SELECT name, count() AS sites
FROM sites FINAL
ARRAY JOIN tool_names AS name
WHERE run_id = ? AND outcome NOT IN {not_scanned} AND ifNull(tool_count, 0) > 0
GROUP BY name
ORDER BY sites DESC, name ASC
LIMIT ?
