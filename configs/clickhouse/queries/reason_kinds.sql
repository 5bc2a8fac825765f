-- Scanned sites per outcome and reason kind (the verdict's typed reason, `reason_kind`), for
-- records that have one: `body_cap` (an answer over 64 KB) and `newer_revision_only` (the
-- server speaks a newer revision only) among them (docs/report.md).
SELECT outcome, assumeNotNull(reason_kind) AS kind, count() AS sites
FROM sites FINAL
WHERE run_id = ? AND outcome NOT IN {not_scanned} AND isNotNull(reason_kind)
GROUP BY outcome, kind
ORDER BY outcome, kind
