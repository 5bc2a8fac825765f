# Sourced by scripts that crawl a web served by nginx: the same sites as the simulated web
# (`simweb DIR SITES IPS MIX`: the names siteN.bench.test on 127.0.10.(N % IPS + 1), each of
# the mix's kind) served by nginx on another port of the same addresses, so the simulated
# web's DNS server (the crawler's `--resolver`) names them unchanged. nginx serves an 8 KB
# homepage and 404 elsewhere, one wildcard ECDSA P-256 certificate signed by a test CA,
# each MCP site's server card (naming https://NAME:PORT/mcp on nginx), and 401, 429, 503 or a
# redirect for every path of the sites of those kinds; only /mcp of the MCP sites is passed
# on (a TLS connection a request) to the simulated web's MCP server, so the sessions are real.
# usage: source nginx-web-start.sh SITES IPS MIX DELAY_MS
# DELAY_MS is added before every answer: by nginx's echo module (`echo_sleep`, then the
# answer from a named location) for what nginx serves, by the simulated web for /mcp.
# NGINX_WORKERS sets nginx's worker processes (default 1).
# Sets what simweb-start.sh sets (top, work, SIMWEB_DIR, SIMWEB_PID) and: WEB_DIR (list.txt,
# kinds.txt, sites.txt, ca.pem, dns.txt, and requests.txt and connections.txt once web_stop
# has run), NGINX_PID,
# web_cpu (CPU seconds of nginx's master and workers plus the simulated web behind /mcp and
# the DNS) and web_stop (stops both, writing the requests nginx answered).
ECHO_MODULE=/usr/lib/nginx/modules/ngx_http_echo_module.so
[ "${4:-0}" = 0 ] || [ -e "$ECHO_MODULE" ] || {
  echo "nginx-web-start.sh: a delay needs nginx's echo module (apt-get install libnginx-mod-http-echo)"
  exit 2
}
command -v nginx > /dev/null || { echo "nginx-web-start.sh: nginx is missing (apt-get install nginx-light)"; exit 2; }
command -v openssl > /dev/null || { echo "nginx-web-start.sh: openssl is missing"; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/simweb-start.sh" "$@"
WEB_DIR="$work/nginx"
mkdir -p "$WEB_DIR/www" "$WEB_DIR/cards" "$WEB_DIR/tmp"
# nginx's workers run as another user when started by root: they must reach the files.
chmod a+rx "$work"
NGINX_PID=
# CPU seconds of nginx (master and workers, read live: the workers are not reaped before the
# end) and of the simulated web (the MCP servers behind /mcp, and the DNS).
web_cpu() {
  local pids
  pids="$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ') $SIMWEB_PID"
  # shellcheck disable=SC2086 # a list of pids
  for pid in $pids; do cat "/proc/$pid/stat" 2>/dev/null; done \
    | awk -v t="$web_ticks" '{ s += $14 + $15 } END { print s / t }'
}
# Stops nginx and the simulated web; writes the requests nginx answered and the connections
# it accepted since it started (less the status requests that read them) to
# WEB_DIR/requests.txt and connections.txt.
web_stop() {
  if [ -n "${NGINX_PID:-}" ]; then
    # stub_status's third line: accepted connections, handled, requests.
    curl -sf "http://127.0.0.1:$STATUS_PORT/status" > "$WEB_DIR/status.txt" || true
    # Each status read is one connection and one request: the one at start (counted in its
    # own answer) and this one.
    awk 'FNR == 3 { n[FILENAME == ARGV[1]] = $3 } END { print n[0] - n[1] - 1 }' \
      "$WEB_DIR/status-start.txt" "$WEB_DIR/status.txt" > "$WEB_DIR/requests.txt"
    awk 'FNR == 3 { n[FILENAME == ARGV[1]] = $1 } END { print n[0] - n[1] - 1 }' \
      "$WEB_DIR/status-start.txt" "$WEB_DIR/status.txt" > "$WEB_DIR/connections.txt"
    kill -QUIT "$NGINX_PID" 2> /dev/null || true
    wait "$NGINX_PID" 2> /dev/null || true
    NGINX_PID=
  fi
  simweb_stop
}
trap 'web_stop; rm -rf "$work"' EXIT

# The test CA and one certificate for *.bench.test, both ECDSA P-256.
(
  cd "$WEB_DIR"
  openssl ecparam -name prime256v1 -genkey -noout -out ca.key
  openssl req -x509 -new -key ca.key -days 2 -subj "/CN=mcpcensus bench CA" -out ca.pem \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
  openssl ecparam -name prime256v1 -genkey -noout -out site.key
  openssl req -new -key site.key -subj "/CN=*.bench.test" -out site.csr
  printf '%s\n' "subjectAltName=DNS:*.bench.test" "basicConstraints=critical,CA:FALSE" \
    "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" > site.ext
  openssl x509 -req -in site.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
    -extfile site.ext -out site.pem
) 2> "$WEB_DIR/openssl.log" || { cat "$WEB_DIR/openssl.log"; exit 1; }

# A free port on the sites' addresses (the kernel's pick, released for nginx to bind).
NGINX_PORT=$(python3 -c "
import socket; s = socket.socket(); s.bind(('127.0.10.1', 0)); print(s.getsockname()[1])")
STATUS_PORT=$(python3 -c "
import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
simweb_port=$(head -1 "$SIMWEB_DIR/list.txt" | sed 's/.*://')
cp "$SIMWEB_DIR/kinds.txt" "$SIMWEB_DIR/sites.txt" "$SIMWEB_DIR/dns.txt" "$WEB_DIR/"
sed "s/:$simweb_port\$/:$NGINX_PORT/" "$SIMWEB_DIR/list.txt" > "$WEB_DIR/list.txt"

python3 - "$WEB_DIR" "$NGINX_PORT" "$STATUS_PORT" "$simweb_port" "${NGINX_WORKERS:-1}" \
  "${4:-0}" "$ECHO_MODULE" <<'PY'
import json, os, sys
web, port, status_port, simweb_port, workers, delay_ms, echo_module = sys.argv[1:]
delay_ms = int(delay_ms)
named = []

def location(match, body):
    """A location answering with `body`; with a delay, after echo_sleep, from a named location."""
    if not delay_ms:
        return f"    location {match} {{ {body} }}\n"
    name = f"@a{len(named)}"
    named.append(name)
    return (f"    location {match} {{ echo_sleep {delay_ms / 1000}; echo_exec {name}; }}\n"
            f"    location {name} {{ {body} }}\n")

# An 8 KB homepage shaped like a real one: links in the head, anchors and text below.
head = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page</title>'
        '<meta name="viewport" content="width=device-width">'
        '<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/favicon.ico">'
        '<link rel="canonical" href="/"><script src="/static/app.js" defer></script></head>'
        '<body><header><nav><a href="/">Home</a> <a href="/about">About</a> '
        '<a href="/blog">Blog</a> <a href="/contact">Contact</a></nav></header><main><h1>Welcome</h1>')
tail = '</main><footer><p>&copy; 2026 Example</p></footer></body></html>'
para = ('<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor '
        'incididunt ut labore et dolore magna aliqua. <a href="/post/{0}">Read more</a></p>')
body, n = head, 0
while len(body) + len(tail) < 8192 - 160:
    body += para.format(n)
    n += 1
page = (body + tail).ljust(8192 - 1) + "\n"
open(os.path.join(web, "www", "index.html"), "w").write(page)

by_kind = {}
for line in open(os.path.join(web, "sites.txt")):
    name, ip, kind = line.split()
    by_kind.setdefault(kind, []).append(name)
    if kind == "mcp":
        # The card of tests/src/mix.rs, naming the endpoint on nginx's port.
        card = {
            "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
            "name": f"bench.test/{name}",
            "version": "1.0.0",
            "description": "A simulated MCP server",
            "remotes": [{"type": "streamable-http", "url": f"https://{name}:{port}/mcp",
                         "supportedProtocolVersions": ["2025-11-25"]}],
        }
        folder = os.path.join(web, "cards", name, ".well-known", "mcp")
        os.makedirs(folder)
        json.dump(card, open(os.path.join(folder, "server-card.json"), "w"))
ips = sorted({line.split()[1] for line in open(os.path.join(web, "sites.txt"))})

def listen(default=False):
    flag = " default_server" if default else ""
    return "".join(f"    listen {ip}:{port} ssl http2{flag};\n" for ip in ips)

home = location("= /", "try_files /index.html =404;") + location("/", "return 404;")
servers = [f"  server {{\n{listen(True)}    server_name _;\n    root {web}/www;\n{home}  }}\n"]
if by_kind.get("mcp"):
    servers.append(
        f"  server {{\n{listen()}    server_name {' '.join(by_kind['mcp'])};\n    root {web}/www;\n{home}"
        + location("= /.well-known/mcp/server-card.json", f"root {web}/cards/$host; "
                   "types { } default_type application/mcp-server-card+json;")
        # The simulated sites answer HTTPS only, each under its own name: a new connection a
        # request (a kept one would carry another site's name). The simulated web adds the delay.
        + "    location = /mcp {\n      proxy_pass https://simweb;\n      proxy_http_version 1.1;\n"
        "      proxy_ssl_server_name on;\n      proxy_ssl_name $host;\n"
        "      proxy_set_header Host $host;\n      proxy_buffering off;\n    }\n  }\n")
answers = {"401": "return 401;", "429": "return 429;", "503": "return 503;",
           "redirect": "return 301 https://elsewhere.bench.test/;"}
for kind, answer in answers.items():
    if by_kind.get(kind):
        servers.append(f"  server {{\n{listen()}    server_name {' '.join(by_kind[kind])};\n"
                       f"{location('/', answer)}  }}\n")
load = f"load_module {echo_module};\n" if delay_ms else ""
conf = f"""{load}daemon off;
worker_processes {workers};
worker_rlimit_nofile 20000;
pid {web}/nginx.pid;
error_log {web}/error.log warn;
events {{ worker_connections 20000; multi_accept on; }}
http {{
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_timeout 30s;
  keepalive_requests 10000;
  server_tokens off;
  types {{ text/html html; }}
  default_type application/octet-stream;
  server_names_hash_max_size 65536;
  server_names_hash_bucket_size 128;
  client_body_temp_path {web}/tmp/body;
  proxy_temp_path {web}/tmp/proxy;
  fastcgi_temp_path {web}/tmp/fastcgi;
  uwsgi_temp_path {web}/tmp/uwsgi;
  scgi_temp_path {web}/tmp/scgi;
  ssl_certificate {web}/site.pem;
  ssl_certificate_key {web}/site.key;
  ssl_protocols TLSv1.2 TLSv1.3;
  upstream simweb {{ server 127.0.0.1:{simweb_port}; }}
  server {{
    listen 127.0.0.1:{status_port};
    location = /status {{ stub_status; }}
  }}
{"".join(servers)}}}
"""
open(os.path.join(web, "nginx.conf"), "w").write(conf)
PY

nginx -t -q -c "$WEB_DIR/nginx.conf" -p "$WEB_DIR" -e "$WEB_DIR/error.log" \
  || { cat "$WEB_DIR/error.log"; exit 1; }
nginx -c "$WEB_DIR/nginx.conf" -p "$WEB_DIR" -e "$WEB_DIR/error.log" &
NGINX_PID=$!
for _ in $(seq 300); do
  curl -sf "http://127.0.0.1:$STATUS_PORT/status" > /dev/null && break
  sleep 0.1
done
# The counts at start: the polls above are nginx's requests too, not the crawler's.
curl -sf "http://127.0.0.1:$STATUS_PORT/status" > "$WEB_DIR/status-start.txt" \
  || { echo "nginx did not start"; cat "$WEB_DIR/error.log"; exit 1; }

