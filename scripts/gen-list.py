#!/usr/bin/env python3
"""Writes a synthetic domain list mixing every input form, deterministically.

usage: gen-list.py LINES OUT [EXCLUDE_OUT]

Mix (per 100 lines): 55 distinct valid hosts, 15 duplicates (case, trailing dot, https://
form), 8 subdomains, 5 host:port, 5 IDN, 4 invalid, 4 comments/blank, 4 under excluded
domains. Prints the expected number of records (distinct origins + invalid lines) to stdout.
"""
import random
import sys

def main():
    lines, out = int(sys.argv[1]), sys.argv[2]
    exclude_out = sys.argv[3] if len(sys.argv) > 3 else None
    rnd = random.Random(20261130)
    tlds = ["com", "org", "net", "de", "co.uk", "io", "fr", "com.br", "test"]
    idn = ["bücher", "münchen", "españa", "日本語", "例え", "καλημέρα", "россия"]
    invalid = ["bad line", "http://plain.example", "192.0.2.7", "-dash.com", "a..b.com",
               "x" * 70 + ".com", "host.com:99999", "user@host.com"]
    excluded_domains = [f"optout{i}.com" for i in range(50)]
    seen_origins = set()  # only feasible for moderate sizes; used for the expected count
    distinct = 0
    invalid_count = 0
    emitted = []
    def origin_of(host, port=443):
        return host if port == 443 else f"{host}:{port}"
    with open(out, "w", encoding="utf-8") as f:
        n = 0
        serial = 0
        while n < lines:
            r = rnd.randrange(100)
            if r < 55 or not emitted:
                serial += 1
                host = f"site{serial}.{tlds[serial % len(tlds)]}"
                line, key = host, origin_of(host)
                emitted.append(host)
                if len(emitted) > 1000:
                    emitted.pop(0)
            elif r < 70:
                host = rnd.choice(emitted)
                form = rnd.randrange(4)
                line = [host.upper(), host + ".", f"https://{host}/path", host][form]
                key = origin_of(host)
            elif r < 78:
                host = f"www{rnd.randrange(3)}.{rnd.choice(emitted)}"
                line, key = host, origin_of(host)
            elif r < 83:
                host = rnd.choice(emitted)
                port = rnd.choice([8443, 8080, 9443])
                line, key = f"{host}:{port}", origin_of(host, port)
            elif r < 88:
                serial += 1
                label = rnd.choice(idn) + str(serial)
                line = f"{label}.{rnd.choice(['de', 'jp', 'com'])}"
                key = "idn:" + line.lower()
            elif r < 92:
                line, key = rnd.choice(invalid), None
                invalid_count += 1
            elif r < 96:
                line, key = rnd.choice(["", "# comment", "   ", "#"]), ""
            else:
                d = rnd.choice(excluded_domains)
                line = rnd.choice([d, f"www.{d}", f"api.{d}"])
                key = origin_of(line)
            if key:
                if key not in seen_origins:
                    seen_origins.add(key)
                    distinct += 1
            f.write(line + ("\r\n" if n % 17 == 0 else "\n"))
            n += 1
    if exclude_out:
        with open(exclude_out, "w") as f:
            f.write("# opt-outs\n" + "\n".join(excluded_domains) + "\n")
    print(distinct + invalid_count)

if __name__ == "__main__":
    main()
