#!/usr/bin/env python3
"""Runs mcpcensus's ClickHouse schema, its migrations and every query of the pack on a modern
ClickHouse (26.x, embedded in-process by the `chdb` package) over the rows of a database on an
18.16 server, and compares each result with 18.16's.

    scripts/chdb-compare.py URL DATABASE

URL is an 18.16 server with the query log on (log_queries=1); DATABASE holds mcpcensus rows, and
`mcpcensus report --clickhouse` has run against it. The queries compared are exactly the ones
the report sent (read back from system.query_log, binds filled in), plus the analysts' queries
of configs/clickhouse/queries/ with `?` set to the latest run. Exit status 1 on any difference
or error, each named on stderr. Used by tests/tests/e2e/chdb.rs.
"""
import json
import pathlib
import re
import sys
import tempfile
import urllib.parse
import urllib.request

TOP = pathlib.Path(__file__).resolve().parent.parent
QUERIES = TOP / "configs/clickhouse/queries"
SCHEMA = TOP / "configs/clickhouse/schema.sql"
# The migration's columns are read from the Rust source so the two cannot drift apart.
SCHEMA_RS = TOP / "store/src/clickhouse/schema.rs"
TABLES = ["runs", "run_parts", "sites", "tools", "findings"]
# Tables whose later columns `schema init` adds by ALTER, and the Rust list of them.
MIGRATED = [("sites", "ADDED_SITES_COLUMNS"), ("runs", "ADDED_RUNS_COLUMNS")]
# Queries of the pack that the crawl sends, not the report.
CRAWL_QUERIES = ["last_scans.sql"]
DAILY = ("SELECT day, run_id, outcome, uniqExactMerge(sites), uniqExactMerge(endpoints) "
         "FROM daily_adoption GROUP BY day, run_id, outcome ORDER BY day, run_id, outcome")
TIMEOUT_S = 60


def old(url, db, sql):
    """One statement on the 18.16 server; its result as text."""
    query = urllib.parse.urlencode({"database": db} if db else {})
    req = urllib.request.Request(f"{url}/?{query}", data=sql.encode())
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as r:
            return r.read().decode()
    except urllib.error.HTTPError as e:
        raise RuntimeError(e.read().decode(errors="replace")) from None


def statements(text):
    """A DDL file's statements: `--` lines removed, split at `;` (as store/src/clickhouse)."""
    body = "".join(l + "\n" for l in text.splitlines() if not l.lstrip().startswith("--"))
    return [s.strip() for s in body.split(";") if s.strip()]


def tsv(sql):
    return re.sub(r"\s*FORMAT\s+\w+\s*$", "", sql.strip()) + "\nFORMAT TabSeparated"


def report_queries(url):
    """The SELECTs the report sent, in order, each once."""
    old(url, None, "SYSTEM FLUSH LOGS")
    log = old(url, None, "SELECT query FROM system.query_log WHERE type = 2 AND is_initial_query "
                         "ORDER BY event_time, query_start_time FORMAT JSONEachRow")
    seen, out = set(), []
    for line in log.splitlines():
        q = json.loads(line)["query"]
        head = q.lstrip()
        if not (head.startswith("SELECT") or head.startswith("WITH") or head.startswith("--")):
            continue
        if "system." in q or "version()" in q or "query_log" in q or q in seen:
            continue
        seen.add(q)
        out.append(q)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    url, db = sys.argv[1], sys.argv[2]
    from chdb import session  # imported here so a missing package fails with the usage known

    s = session.Session(tempfile.mkdtemp(prefix="mcpcensus-chdb-"))
    version = str(s.query("SELECT version()", "TabSeparated")).strip()
    problems = []

    def new(sql):
        return str(s.query(sql, "TabSeparated"))

    # The schema, as `schema init` runs it.
    for st in statements(SCHEMA.read_text()):
        new(st.replace("{db}", db))
    # The migration: a table from before the added columns gets them by ALTER.
    rust = SCHEMA_RS.read_text()
    for st in statements(SCHEMA.read_text()):
        new(st.replace("{db}", "migrated"))
    for table, const in MIGRATED:
        block = re.search(const + r"[^=]*=\s*\[(.*?)\];", rust, re.S)
        added = re.findall(r'\("(\w+)", "([^"]+)"\)', block.group(1)) if block else []
        if not added:
            problems.append(f"no {const} found in {SCHEMA_RS}")
        for name, _ in added:
            new(f"ALTER TABLE migrated.{table} DROP COLUMN {name}")
        for name, ty in added:
            present = new("SELECT count() FROM system.columns WHERE database = 'migrated' "
                          f"AND table = '{table}' AND name = '{name}'").strip()
            if present != "0":
                problems.append(f"migration: {table}.{name} present before ALTER ({present})")
            new(f"ALTER TABLE migrated.{table} ADD COLUMN {name} {ty}")
        if new(f"DESCRIBE TABLE {db}.{table}") != new(f"DESCRIBE TABLE migrated.{table}"):
            problems.append(f"migration: migrated {table} columns differ from a fresh table")

    # Read before this script sends queries of its own.
    queries = report_queries(url)
    # The real rows, as 18.16 holds them (replays included: the queries read with FINAL).
    rows = 0
    for t in TABLES:
        data = old(url, db, f"SELECT * FROM {t} FORMAT TabSeparated")
        rows += data.count("\n")
        if data:
            new(f"INSERT INTO {db}.{t} FORMAT TabSeparated\n{data}")
    new(f"USE {db}")

    latest = old(url, db, "SELECT max(run_id) FROM sites").strip()
    for f in sorted(QUERIES.glob("analyst_*.sql")):
        queries.append(f.read_text().replace("?", f"'{latest}'"))
    queries.append(DAILY)
    # The crawl's own query (re-scans); ordered here only, so both engines list rows alike.
    for name in CRAWL_QUERIES:
        queries.append((QUERIES / name).read_text().rstrip() + "\nORDER BY site")
    # Every query file of the pack must be among them (its first line is its comment).
    for f in sorted(QUERIES.glob("*.sql")):
        first = f.read_text().splitlines()[0].split("{")[0]
        if not any(first in q for q in queries):
            problems.append(f"{f.name}: not run by the report (no query starts with {first!r})")

    same = 0
    for q in queries:
        name = q.strip().splitlines()[0][:80]
        try:
            a = old(url, db, tsv(q))
        except RuntimeError as e:
            problems.append(f"18.16 failed: {name}: {e.strip()[:300]}")
            continue
        try:
            b = new(tsv(q))
        except Exception as e:  # chdb raises its own error type
            problems.append(f"{version} failed: {name}: {str(e).strip()[:300]}")
            continue
        if a != b:
            problems.append(f"differs: {name}\n  18.16: {a[:400]!r}\n  {version}: {b[:400]!r}")
        else:
            same += 1
    print(f"chdb {version}: schema and migration applied; {rows} rows loaded; "
          f"{same} of {len(queries)} queries give 18.16's result")
    for p in problems:
        print("PROBLEM: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
