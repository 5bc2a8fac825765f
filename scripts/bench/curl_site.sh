#!/usr/bin/env bash
# One site the way the survey's published reproduction does it, one curl process a request:
# the seven discovery GETs, then initialize, notifications/initialized and tools/list when
# /mcp answers 405 with an Allow naming POST or the card names the endpoint.
# usage: curl_site.sh CA_PEM IPS HOST:PORT   (siteN.bench.test lives on 127.0.10.(N % IPS + 1))
set -u
ca=$1 ips=$2 site=$3
host=${site%%:*} port=${site##*:}
n=${host#site}; n=${n%%.*}
resolve=(--resolve "$host:$port:127.0.10.$((n % ips + 1))" --cacert "$ca")
ua='AgenticWebScore/0.3 (+https://agenticwebscore.com/bot)'
origin="https://$site"
endpoint=
for path in / /.well-known/mcp/server-card.json /.well-known/mcp.json \
  /.well-known/mcp-server-card.json /.well-known/mcp/server-card /.well-known/ai-catalog.json; do
  body=$(curl -sS "${resolve[@]}" -A "$ua" -H 'Accept-Language: en' "$origin$path" 2>/dev/null)
  if [ "$path" = /.well-known/mcp/server-card.json ] && [[ $body == *streamable-http* ]]; then
    endpoint="$origin/mcp"
  fi
done
mcp=$(curl -sS "${resolve[@]}" -o /dev/null -w '%{http_code} allow=%header{allow}' -A "$ua" \
  -H 'Accept-Language: en' -H 'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.7' \
  "$origin/mcp" 2>/dev/null)
[[ $mcp == 405*POST* ]] && endpoint="$origin/mcp"
[ -n "$endpoint" ] || exit 0
post=(-sS "${resolve[@]}" -X POST -A "$ua" -H 'Accept-Language: en' \
  -H 'Accept: application/json, text/event-stream' -H 'Content-Type: application/json')
curl "${post[@]}" -D - -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"AgenticWebScore","version":"0.3"}}}' "$endpoint" > /dev/null 2>&1
curl "${post[@]}" -o /dev/null -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$endpoint" 2>/dev/null
tools=$(curl "${post[@]}" -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}' "$endpoint" 2>/dev/null)
[[ $tools == *'"name"'* ]] && echo found
exit 0
