-- (A subquery the comparison queries embed as {sites}.) One row per origin scanned in the
-- base run or the reported run (bound in that order): whether each run had it, its endpoint,
-- outcome and tool list fingerprint ('' when it listed no tools).
SELECT
    origin_key,
    max(run_id = ?) AS in_base,
    max(run_id = ?) AS in_run,
    maxIf(has_endpoint, run_id = ?) AS base_endpoint,
    maxIf(has_endpoint, run_id = ?) AS run_endpoint,
    anyIf(outcome, run_id = ?) AS base_outcome,
    anyIf(outcome, run_id = ?) AS run_outcome,
    anyIf(tools_fp, run_id = ?) AS base_tools,
    anyIf(tools_fp, run_id = ?) AS run_tools
FROM (
    SELECT
        run_id,
        assumeNotNull(origin) AS origin_key,
        isNotNull(endpoint) AS has_endpoint,
        outcome,
        if(ifNull(tool_count, 0) > 0, server_fingerprint, '') AS tools_fp
    FROM sites FINAL
    WHERE run_id IN (?, ?) AND outcome NOT IN ('invalid_input', 'excluded', 'planned', 'not_started') AND isNotNull(origin)
)
GROUP BY origin_key
