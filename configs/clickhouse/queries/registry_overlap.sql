-- The endpoints of a run's registry servers beside those discovery found on the web, compared
-- as `endpoint_key` (store/src/derived.rs) does: scheme and host lowercase, the scheme's
-- default port dropped, the path without trailing slashes, no query or fragment. Per set
-- (`web_and_registry`, `web_only`, `registry_only`): distinct endpoints, and the first
-- origins behind them (sorted, at most the first parameter; the run is the second). A template
-- (a URL with unexpanded placeholders, never requested) is no endpoint of either.
SELECT
    multiIf(in_registry AND on_web, 'web_and_registry', on_web, 'web_only', 'registry_only') AS set,
    count() AS endpoints,
    arraySlice(arraySort(groupUniqArray(origin)), 1, ?) AS origins
FROM (
    SELECT key, any(origin) AS origin, max(listed) AS in_registry, max(NOT listed) AS on_web
    FROM (
        SELECT
            lower(substring(input, 1, 9)) = 'registry:' AND outcome != 'invalid_input' AS listed,
            assumeNotNull(endpoint) AS e,
            lower(protocol(e)) AS scheme,
            extract(extract(e, '^[^:/]+://([^/#\\x3F]*)'), ':([0-9]+)$') AS port,
            concat(scheme, '://', lower(domain(e)),
                if(port = '' OR (scheme = 'https' AND port = '443') OR (scheme = 'http' AND port = '80'),
                   '', concat(':', port))) AS origin,
            concat(origin, replaceRegexpOne(path(e), '/+$', '')) AS key
        FROM sites FINAL
        WHERE run_id = ? AND isNotNull(endpoint) AND domain(assumeNotNull(endpoint)) != ''
            AND ifNull(reason_kind, '') != 'template'
    )
    GROUP BY key
)
GROUP BY set
ORDER BY set
