-- Registrable domains with the most endpoints, ties by name.
SELECT assumeNotNull(registrable_domain) AS name, count() AS sites
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN {not_scanned} AND isNotNull(endpoint) AND isNotNull(registrable_domain)
GROUP BY name
ORDER BY sites DESC, name ASC
LIMIT ?
