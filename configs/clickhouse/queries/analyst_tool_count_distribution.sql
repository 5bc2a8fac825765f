-- Analysts: how many servers list how many tools, in one run.
SELECT assumeNotNull(tool_count) AS tools, count() AS servers
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN ('invalid_input', 'excluded', 'planned', 'not_started') AND ifNull(tool_count, 0) > 0
GROUP BY tools
ORDER BY tools
