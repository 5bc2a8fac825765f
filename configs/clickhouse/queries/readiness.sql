-- The readiness level's counts (docs/readiness.md) per exclusive rank slot (as rank_slots.sql)
-- and check: the scanned sites the level ran on and the catch-alls among them, the sites where
-- the check was made, where it was true, and where its path answered 2xx without counting
-- (naive-only). Nullable values are compared through ifNull: countIf over a Nullable condition
-- is Nullable itself. The report orders the checks as the record does; this by slot, then id.
SELECT
    {rank_slot} AS slot,
    check_id,
    count() AS sites,
    countIf(ifNull(readiness_catch_all, 0) = 1) AS catch_all,
    countIf(isNotNull(check_value)) AS checked,
    countIf(ifNull(check_value, 0) = 1) AS present,
    countIf(has(readiness_naive_only, check_id)) AS naive_only
FROM sites FINAL
ARRAY JOIN
    {readiness_check_ids} AS check_id,
    {readiness_check_values} AS check_value
WHERE run_id = ? AND outcome NOT IN {not_scanned}
    AND isNotNull(readiness_checks_version)
GROUP BY slot, check_id
ORDER BY slot, check_id
