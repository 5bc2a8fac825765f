#!/usr/bin/env python3
"""The comparison scanner: asyncio + httpx (httpx2) + the official MCP Python SDK, making the
survey's requests for each site: the homepage, the server card, three legacy card paths,
the AI catalog and a GET of /mcp; then, when the card names a streamable-http remote or /mcp
answers 405 with an Allow naming POST, one SDK session (initialize, initialized, tools/list).

usage: sdk_scanner.py LIST CA_PEM CONCURRENCY IPS
Sites `siteN.bench.test:PORT` resolve to 127.0.10.(N % IPS + 1), as the simulated web places
them. Prints `sites=N wall_s=W cpu_s=C mcp_found=M`: the scan's own wall and CPU time, after
the imports (importing the SDK takes seconds of its own).
"""
import asyncio
import resource
import socket
import time
import ssl
import sys

import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

PATHS = [
    "/",
    "/.well-known/mcp/server-card.json",
    "/.well-known/mcp.json",
    "/.well-known/mcp-server-card.json",
    "/.well-known/mcp/server-card",
    "/.well-known/ai-catalog.json",
    "/mcp",
]
UA = "mcpcensus-bench-sdk/0.1"


def install_resolver(ips):
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if isinstance(host, bytes):  # anyio passes IDNA-encoded bytes
            host = host.decode("ascii")
        if isinstance(host, str) and host.endswith(".bench.test") and host.startswith("site"):
            n = int(host[4:].split(".")[0])
            host = f"127.0.10.{n % ips + 1}"
        return real(host, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo


async def scan(origin, ssl_ctx):
    endpoint = None
    async with httpx2.AsyncClient(verify=ssl_ctx, timeout=10.0, headers={"user-agent": UA}) as client:
        for path in PATHS:
            try:
                # Only the head of /mcp is read: an MCP server may answer it with an open
                # event stream.
                async with client.stream("GET", origin + path) as r:
                    if path != "/mcp":
                        await r.aread()
            except httpx2.HTTPError:
                return False
            if path == "/.well-known/mcp/server-card.json" and r.status_code == 200:
                try:
                    for remote in r.json().get("remotes", []):
                        if remote.get("type") == "streamable-http":
                            endpoint = endpoint or remote.get("url")
                except ValueError:
                    pass
            allows_post = r.status_code == 405 and "POST" in r.headers.get("allow", "")
            streams = r.headers.get("content-type", "").startswith("text/event-stream")
            if path == "/mcp" and (allows_post or streams):
                endpoint = endpoint or origin + "/mcp"
        if not endpoint:
            return False
        try:
            async with asyncio.timeout(12):
                async with streamable_http_client(endpoint, http_client=client, terminate_on_close=False) as streams:
                    async with ClientSession(streams[0], streams[1]) as session:
                        await session.initialize()
                        tools = await session.list_tools()
                        return len(tools.tools) > 0
        except Exception:  # noqa: BLE001 (any failure is a lost server here)
            return False


async def main():
    list_path, ca, concurrency, ips = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    install_resolver(ips)
    ssl_ctx = ssl.create_default_context(cafile=ca)
    sites = [line.strip() for line in open(list_path) if line.strip()]
    gate = asyncio.Semaphore(concurrency)
    found = 0

    async def one(site):
        nonlocal found
        async with gate:
            if await scan("https://" + site, ssl_ctx):
                found += 1

    started = time.monotonic()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    await asyncio.gather(*(one(s) for s in sites))
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    print(f"sites={len(sites)} wall_s={wall:.3f} cpu_s={cpu:.3f} mcp_found={found}")


if __name__ == "__main__":
    asyncio.run(main())
