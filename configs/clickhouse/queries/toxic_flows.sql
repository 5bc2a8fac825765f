-- The first servers with a toxic flow (MCP-TOOLS-001), by origin (the site key without one),
-- with the finding's evidence.
SELECT ifNull(origin, site_key) AS origin, evidence
FROM findings FINAL
WHERE run_id = ? AND rule_id = {toxic_flow_rule}
ORDER BY origin, evidence
LIMIT ?
