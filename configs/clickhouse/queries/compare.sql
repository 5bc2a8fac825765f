-- Two runs compared origin by origin. Only sites scanned in both runs are compared: the
-- endpoint and passing counts of each, new and vanished endpoints, changed tool names and,
-- with the same names, changed description fingerprints (exact counts; each list sorted and
-- cut at the bound length); sites scanned in one run only are counted, not compared.
WITH
    in_base = 1 AND in_run = 1 AS in_both,
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
    countIf(in_both AND base_endpoint = 1 AND run_endpoint = 0) AS vanished_count,
    arraySlice(arraySort(groupArrayIf(origin_key, in_both AND base_endpoint = 1 AND run_endpoint = 0)), 1, ?) AS vanished_list,
    countIf(names_changed) AS changed_count,
    arraySlice(arraySort(groupArrayIf(origin_key, names_changed)), 1, ?) AS changed_list,
    countIf(descriptions_changed) AS descriptions_changed_count,
    arraySlice(arraySort(groupArrayIf(origin_key, descriptions_changed)), 1, ?) AS descriptions_changed_list
FROM ({sites})
