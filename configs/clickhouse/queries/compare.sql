-- Two runs compared origin by origin: endpoint and passing counts of each, new and vanished
-- endpoints and changed tool lists (exact counts; each list sorted and cut at the bound length).
SELECT
    countIf(base_endpoint = 1) AS endpoints_before,
    countIf(run_endpoint = 1) AS endpoints_now,
    countIf(base_outcome = 'pass') AS passing_before,
    countIf(run_outcome = 'pass') AS passing_now,
    countIf(run_endpoint = 1 AND base_endpoint = 0) AS new_count,
    arraySlice(arraySort(groupArrayIf(origin_key, run_endpoint = 1 AND base_endpoint = 0)), 1, ?) AS new_list,
    countIf(base_endpoint = 1 AND run_endpoint = 0) AS vanished_count,
    arraySlice(arraySort(groupArrayIf(origin_key, base_endpoint = 1 AND run_endpoint = 0)), 1, ?) AS vanished_list,
    countIf(base_tools != '' AND run_tools != '' AND base_tools != run_tools) AS changed_count,
    arraySlice(arraySort(groupArrayIf(origin_key, base_tools != '' AND run_tools != '' AND base_tools != run_tools)), 1, ?) AS changed_list
FROM ({sites})
