-- Scanned sites per value of one record field where set ({field}: protocol_version,
-- transport, auth_kind, spec_version, migration_status, or discovered_via with
-- {filter} = isNotNull(endpoint) for endpoints by method, origin_move, or outcome with
-- {filter} = surface = 1 for the outcomes of sites with a surface).
SELECT assumeNotNull({field}) AS value, count() AS sites
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN {not_scanned} AND isNotNull({field}) AND {filter}
GROUP BY value
ORDER BY value
