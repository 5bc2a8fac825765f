#!/usr/bin/env python3
"""Compares two runs' records of the same sites: each site's (by host) verdict (outcome, reason kind,
endpoint, tool count and tool list fingerprint) must be the same.

usage: same_verdicts.py A.jsonl B.jsonl
Prints the sites compared and each difference (the first 20); exits 1 on any difference.
"""
import json
import re
import sys


def verdicts(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        out[r["host"]] = (
            r["outcome"],
            r.get("reason_kind"),
            # Each run's web listens on its own port.
            re.sub(r":\d+/", ":PORT/", r.get("endpoint") or ""),
            r.get("tool_count"),
            r.get("tool_list_fingerprint"),
        )
    return out


def main():
    a, b = verdicts(sys.argv[1]), verdicts(sys.argv[2])
    differ = [k for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k)]
    print(f"verdicts: {len(a)} and {len(b)} sites, {len(differ)} differ")
    for k in differ[:20]:
        print(f"  {k}: {a.get(k)} / {b.get(k)}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
