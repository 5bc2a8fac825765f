-- Two runs compared origin by origin. Only sites scanned in both runs are compared: the
-- endpoint and passing counts of each, new endpoints, the base run's endpoints split by what
-- this run saw (still there; moved to another URL; vanished: measured with none; unavailable:
-- not measured or unreachable tonight; not scanned), changed tool names and, with the same
-- names, changed description fingerprints (exact counts; each list sorted and cut at the
-- bound length); sites scanned in one run only are counted, not compared. Mirrors
-- analysis/src/compare.rs.
WITH
    in_base = 1 AND in_run = 1 AS in_both,
    run_outcome NOT IN ('not_measured', 'unreachable') AS run_measured,
    in_both AND base_endpoint = 1 AND NOT run_measured AS unavailable,
    in_both AND base_endpoint = 1 AND run_measured AND run_endpoint = 0 AS vanished,
    in_both AND base_endpoint = 1 AND run_measured AND run_endpoint = 1
        AND base_endpoint_url != run_endpoint_url AS moved,
    in_base = 1 AND in_run = 0 AND base_endpoint = 1 AS not_scanned,
    in_both AND base_listed = 1 AND run_listed = 1 AS both_listed,
    both_listed AND base_names != run_names AS names_changed,
    both_listed AND base_names = run_names AND base_descriptions != ''
        AND run_descriptions != '' AND base_descriptions != run_descriptions AS descriptions_changed
SELECT
    countIf(in_both) AS sites_in_both,
    countIf(in_base = 1 AND in_run = 0) AS sites_only_in_base,
    countIf(in_base = 0 AND in_run = 1) AS sites_only_in_run,
    countIf(in_both AND base_endpoint = 1) AS endpoints_before,
    countIf(in_both AND run_endpoint = 1) AS endpoints_now,
    countIf(in_both AND base_outcome = 'pass') AS passing_before,
    countIf(in_both AND run_outcome = 'pass') AS passing_now,
    countIf(in_both AND run_endpoint = 1 AND base_endpoint = 0) AS new_count,
    arraySlice(arraySort(groupArrayIf(origin_key, in_both AND run_endpoint = 1 AND base_endpoint = 0)), 1, ?) AS new_list,
    countIf(vanished) AS vanished_count,
    arraySlice(arraySort(groupArrayIf(origin_key, vanished)), 1, ?) AS vanished_list,
    countIf(in_both AND base_endpoint = 1 AND run_measured AND run_endpoint = 1
        AND base_endpoint_url = run_endpoint_url) AS still_there,
    countIf(moved) AS moved_count,
    arraySlice(arraySort(groupArrayIf(origin_key, moved)), 1, ?) AS moved_list,
    countIf(unavailable) AS unavailable_count,
    arraySlice(arraySort(groupArrayIf(origin_key, unavailable)), 1, ?) AS unavailable_list,
    countIf(not_scanned) AS not_scanned_count,
    arraySlice(arraySort(groupArrayIf(origin_key, not_scanned)), 1, ?) AS not_scanned_list,
    countIf(names_changed) AS changed_count,
    arraySlice(arraySort(groupArrayIf(origin_key, names_changed)), 1, ?) AS changed_list,
    countIf(descriptions_changed) AS descriptions_changed_count,
    arraySlice(arraySort(groupArrayIf(origin_key, descriptions_changed)), 1, ?) AS descriptions_changed_list
FROM ({sites})
