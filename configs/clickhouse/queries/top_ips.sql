-- First resolved addresses with the most endpoints, ties by address text.
SELECT addresses[1] AS name, count() AS sites
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN {not_scanned} AND isNotNull(endpoint) AND notEmpty(addresses)
GROUP BY name
ORDER BY sites DESC, name ASC
LIMIT ?
