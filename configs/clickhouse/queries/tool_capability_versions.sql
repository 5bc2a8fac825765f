-- The capability table versions a run's tools were tagged with (docs/rules.md).
SELECT DISTINCT assumeNotNull(capabilities_version) AS value
FROM sites FINAL
WHERE run_id = ? AND isNotNull(capabilities_version)
ORDER BY value
