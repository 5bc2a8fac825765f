-- (A subquery the comparison queries embed as {sites}.) One row per origin scanned in the
-- base run or the reported run (bound in that order): whether each run scanned it, its
-- endpoint (whether it has one, and its URL, '' without one) and outcome, whether it listed
-- tools, its tool names (sorted) and its tool list's description fingerprint ('' without one;
-- the deep probe computes it).
SELECT
    origin_key,
    max(run_id = ?) AS in_base,
    max(run_id = ?) AS in_run,
    maxIf(has_endpoint, run_id = ?) AS base_endpoint,
    maxIf(has_endpoint, run_id = ?) AS run_endpoint,
    anyIf(endpoint_url, run_id = ?) AS base_endpoint_url,
    anyIf(endpoint_url, run_id = ?) AS run_endpoint_url,
    anyIf(outcome, run_id = ?) AS base_outcome,
    anyIf(outcome, run_id = ?) AS run_outcome,
    maxIf(listed, run_id = ?) AS base_listed,
    maxIf(listed, run_id = ?) AS run_listed,
    anyIf(names, run_id = ?) AS base_names,
    anyIf(names, run_id = ?) AS run_names,
    anyIf(descriptions, run_id = ?) AS base_descriptions,
    anyIf(descriptions, run_id = ?) AS run_descriptions
FROM (
    SELECT
        run_id,
        assumeNotNull(origin) AS origin_key,
        isNotNull(endpoint) AS has_endpoint,
        ifNull(endpoint, '') AS endpoint_url,
        outcome,
        ifNull(tool_count, 0) > 0 AS listed,
        arraySort(tool_names) AS names,
        ifNull(tool_list_fingerprint, '') AS descriptions
    FROM sites FINAL
    WHERE run_id IN (?, ?) AND outcome NOT IN {not_scanned} AND isNotNull(origin)
)
GROUP BY origin_key
