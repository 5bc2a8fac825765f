-- The readiness level's counts (docs/readiness.md) per exclusive rank slot (as rank_slots.sql)
-- and check: the scanned sites the level ran on and the catch-alls among them, the sites where
-- the check was made, where it was true, and where its path answered 2xx without counting
-- (naive-only). Nullable values are compared through ifNull: countIf over a Nullable condition
-- is Nullable itself. The report orders the checks as the record does; this by slot, then id.
SELECT
    toUInt8(multiIf(ifNull(rank, 0) = 0, 6, ifNull(rank, 0) <= 1000, 0, ifNull(rank, 0) <= 10000, 1,
        ifNull(rank, 0) <= 100000, 2, ifNull(rank, 0) <= 1000000, 3, ifNull(rank, 0) <= 10000000, 4, 5)) AS slot,
    check_id,
    count() AS sites,
    countIf(ifNull(readiness_catch_all, 0) = 1) AS catch_all,
    countIf(isNotNull(check_value)) AS checked,
    countIf(ifNull(check_value, 0) = 1) AS present,
    countIf(has(readiness_naive_only, check_id)) AS naive_only
FROM sites FINAL
ARRAY JOIN
    ['robotsTxt', 'robotsTxtAiRules', 'contentSignals', 'sitemap', 'linkHeaders', 'markdownNegotiation', 'llmsTxt', 'llmsFullTxt', 'a2aAgentCard', 'agentSkills', 'apiCatalog', 'oauthDiscovery', 'oauthProtectedResource', 'mcpServerCard', 'webMcp', 'webBotAuth', 'agentmap', 'aiCatalogLink'] AS check_id,
    [readiness_robots_txt, readiness_robots_txt_ai_rules, readiness_content_signals, readiness_sitemap, readiness_link_headers, readiness_markdown_negotiation, readiness_llms_txt, readiness_llms_full_txt, readiness_a2a_agent_card, readiness_agent_skills, readiness_api_catalog, readiness_oauth_discovery, readiness_oauth_protected_resource, readiness_mcp_server_card, readiness_web_mcp, readiness_web_bot_auth, readiness_agentmap, readiness_ai_catalog_link] AS check_value
WHERE run_id = ? AND outcome NOT IN ('invalid_input', 'excluded', 'planned', 'not_started')
    AND isNotNull(readiness_checks_version)
GROUP BY slot, check_id
ORDER BY slot, check_id
