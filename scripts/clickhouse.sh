#!/usr/bin/env bash
# A ClickHouse server on loopback with its own data directory, for tests and demos.
#   scripts/clickhouse.sh install        installs Debian's clickhouse-server/-client when missing
#   scripts/clickhouse.sh start [DIR]    starts a server in DIR (default: a new temp dir) and
#                                        prints its HTTP URL; DIR/pid, DIR/url, DIR/log/ are kept
#   scripts/clickhouse.sh stop DIR       stops the server started in DIR (by its PID; SIGTERM,
#                                        then SIGKILL after 10 s)
#   scripts/clickhouse.sh kill DIR       kills it at once (SIGKILL): a crash, for outage tests
#   scripts/clickhouse.sh start-cluster DIR [NAME]
#                                        starts two servers (DIR/shard1, DIR/shard2) configured as
#                                        one two-shard cluster NAME (default mcpcensus) and prints
#                                        both HTTP URLs, one a line; inserts into Distributed
#                                        tables are synchronous there (see docs/clickhouse.md)
#   scripts/clickhouse.sh stop-cluster DIR
# Ports: free ones are picked (override with CLICKHOUSE_HTTP_PORT / CLICKHOUSE_TCP_PORT).
# CLICKHOUSE_EXTRA_CONFIG / CLICKHOUSE_EXTRA_PROFILE: XML added to the server's config / its
# default profile (e.g. a query log), used by `start`.
# Debian ships ClickHouse 18.16; the config's root tag is <yandex>. See docs/clickhouse.md.
set -euo pipefail
SERVER=/usr/sbin/clickhouse-server
# Besides `default` (no password), every server has this user with this password: the e2e
# tests of credentials and TLS (tests/tests/e2e/clickhouse_tls.rs) log in as it.
AUTH_USER=mcpcensus_auth
AUTH_PASSWORD=census-test-Secret-7q2w

die() { echo "clickhouse.sh: $*" >&2; exit 1; }

install() {
  if [ -x "$SERVER" ]; then return 0; fi
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  # The post-install script may fail to start a system service (no systemd here): harmless,
  # we run the binary ourselves.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clickhouse-server clickhouse-client \
    || [ -x "$SERVER" ] || die "installing clickhouse-server failed"
  [ -x "$SERVER" ] || die "$SERVER missing after install"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

write_config() {
  local dir=$1 http=$2 tcp=$3 extra=${4:-} profile_extra=${5:-}
  mkdir -p "$dir/etc" "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas" "$dir/log"
  cat > "$dir/etc/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>$dir/log/server.log</log>
    <errorlog>$dir/log/error.log</errorlog>
    <size>100M</size>
    <count>2</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>268435456</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
  <!-- Idle HTTP connections are closed after this; shutdown waits for open ones. -->
  <keep_alive_timeout>2</keep_alive_timeout>
$extra
</yandex>
XML
  # One loopback-only user of the default profile and quota: NAME PASSWORD.
  user_xml() {
    printf '    <%s>\n      <password>%s</password>\n      <networks>\n        <ip>127.0.0.1</ip>\n        <ip>::1</ip>\n      </networks>\n      <profile>default</profile>\n      <quota>default</quota>\n    </%s>' "$1" "$2" "$1"
  }
  cat > "$dir/etc/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles>
    <default>
      <max_memory_usage>4000000000</max_memory_usage>
$profile_extra
    </default>
  </profiles>
  <users>
$(user_xml default '')
    <!-- A user with a password, for the tests of credentials (and their redaction) over TLS. -->
$(user_xml "$AUTH_USER" "$AUTH_PASSWORD")
  </users>
  <quotas>
    <default>
      <interval>
        <duration>3600</duration>
        <queries>0</queries>
        <errors>0</errors>
        <result_rows>0</result_rows>
        <read_rows>0</read_rows>
        <execution_time>0</execution_time>
      </interval>
    </default>
  </quotas>
</yandex>
XML
}

start() {
  [ -x "$SERVER" ] || die "no $SERVER: run scripts/clickhouse.sh install"
  local dir=${1:-}
  [ -n "$dir" ] || dir=$(mktemp -d /tmp/mcpcensus-clickhouse.XXXXXX)
  mkdir -p "$dir"; dir=$(cd "$dir" && pwd)
  if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
    cat "$dir/url"; return 0
  fi
  local http tcp
  # Ports of an earlier start in this dir are kept, so a restarted server has the same URL.
  if [ -f "$dir/ports" ]; then read -r http tcp < "$dir/ports"; else
    http=${CLICKHOUSE_HTTP_PORT:-$(free_port)}; tcp=${CLICKHOUSE_TCP_PORT:-$(free_port)}
    echo "$http $tcp" > "$dir/ports"
  fi
  write_config "$dir" "$http" "$tcp" "${CLICKHOUSE_EXTRA_CONFIG:-}" "${CLICKHOUSE_EXTRA_PROFILE:-}"
  "$SERVER" --config-file="$dir/etc/config.xml" >"$dir/log/stdout.log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" > "$dir/pid"
  local url="http://127.0.0.1:$http"
  echo "$url" > "$dir/url"
  for _ in $(seq 1 300); do
    if curl -fsS "$url/ping" >/dev/null 2>&1; then echo "$url"; return 0; fi
    kill -0 "$pid" 2>/dev/null || { tail -20 "$dir/log/error.log" "$dir/log/stdout.log" >&2 || true; die "server exited; see $dir/log"; }
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  die "server did not answer $url/ping within 30 s; see $dir/log"
}

stop() {
  local dir=${1:?usage: clickhouse.sh stop DIR}
  [ -f "$dir/pid" ] || return 0
  local pid; pid=$(cat "$dir/pid")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/pid"
}

kill_now() {
  local dir=${1:?usage: clickhouse.sh kill DIR}
  [ -f "$dir/pid" ] || return 0
  local pid; pid=$(cat "$dir/pid")
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$dir/pid"
}

# Two servers on loopback as one cluster of two shards (one replica each). The shards' TCP
# ports are picked first because both configs name both servers.
start_cluster() {
  local dir=${1:?usage: clickhouse.sh start-cluster DIR [NAME]} name=${2:-mcpcensus}
  mkdir -p "$dir/shard1" "$dir/shard2"; dir=$(cd "$dir" && pwd)
  local i shards=""
  for i in 1 2; do
    if [ ! -f "$dir/shard$i/ports" ]; then echo "$(free_port) $(free_port)" > "$dir/shard$i/ports"; fi
    local http tcp; read -r http tcp < "$dir/shard$i/ports"
    shards="$shards<shard><replica><host>127.0.0.1</host><port>$tcp</port></replica></shard>"
  done
  # Synchronous inserts into Distributed tables: a batch the sink reports inserted is on its
  # shard, so a report right after the crawl sees every row.
  for i in 1 2; do
    CLICKHOUSE_EXTRA_CONFIG="<remote_servers><$name>$shards</$name></remote_servers>" \
    CLICKHOUSE_EXTRA_PROFILE="<insert_distributed_sync>1</insert_distributed_sync>" \
      start "$dir/shard$i" >/dev/null
  done
  cat "$dir/shard1/url" "$dir/shard2/url"
}

stop_cluster() {
  local dir=${1:?usage: clickhouse.sh stop-cluster DIR}
  stop "$dir/shard1"; stop "$dir/shard2"
}

case "${1:-}" in
  install) install ;;
  start) start "${2:-}" ;;
  stop) stop "${2:-}" ;;
  kill) kill_now "${2:-}" ;;
  start-cluster) start_cluster "${2:-}" "${3:-}" ;;
  stop-cluster) stop_cluster "${2:-}" ;;
  *) die "usage: $0 install | start [DIR] | stop DIR | kill DIR | start-cluster DIR [NAME] | stop-cluster DIR" ;;
esac
