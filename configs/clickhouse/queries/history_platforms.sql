-- Per run, the sites beyond the first of each platform (a server fingerprint on at least the
-- bound number of endpoint sites), all and passing: adoption with each platform counted once
-- is the run's count minus these.
SELECT
    run_id,
    sum(sites - 1) AS extra_sites,
    sum(if(passing > 0, passing - 1, 0)) AS extra_passing
FROM (
    SELECT run_id, server_fingerprint, count() AS sites, countIf(outcome = 'pass') AS passing
    FROM sites FINAL
    WHERE outcome NOT IN {not_scanned} AND isNotNull(endpoint)
        AND (isNotNull(server_name) OR notEmpty(tool_names))
    GROUP BY run_id, server_fingerprint
    HAVING sites >= ?
)
GROUP BY run_id
ORDER BY run_id
