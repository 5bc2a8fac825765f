-- Analysts: authorization kinds of MCP endpoints per run, oldest run first.
SELECT run_id, ifNull(auth_kind, 'none recorded') AS auth, count() AS endpoints
FROM sites FINAL
WHERE isNotNull(endpoint) AND outcome NOT IN ('invalid_input', 'excluded', 'planned', 'not_started')
GROUP BY run_id, auth
ORDER BY run_id, endpoints DESC, auth
