-- Tools per server over servers that listed at least one: min, lower median, nearest-rank
-- p90 (1-based index ceil(0.9 n)), max and buckets. Computed on the server from the sorted
-- counts of tool-listing servers; quantileExact is not used because its median is the upper
-- one for an even count.
SELECT
    toUInt64(length(counts)) AS servers,
    toUInt64(counts[1]) AS min,
    toUInt64(counts[intDiv(length(counts) - 1, 2) + 1]) AS median,
    toUInt64(counts[intDiv(length(counts) * 9 + 9, 10)]) AS p90,
    toUInt64(counts[length(counts)]) AS max,
    {tool_count_buckets} AS buckets
FROM (
    SELECT arraySort(groupArray(assumeNotNull(tool_count))) AS counts
    FROM sites FINAL
    WHERE run_id = ? AND outcome NOT IN {not_scanned} AND ifNull(tool_count, 0) > 0
)
