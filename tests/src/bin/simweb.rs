//! Serves a simulated web on loopback for demos and benchmarks.
//!
//! usage: simweb DIR [SITES] [IPS]
//!
//! Starts the demo sites plus SITES generated ones (one in ten an MCP server, spread over IPS
//! loopback addresses 127.0.10.x), writes DIR/list.txt (the crawl input), DIR/ca.pem,
//! DIR/dns.txt (the DNS server's address) and finally DIR/ready, then serves until its
//! standard input closes.

use std::path::PathBuf;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{demo, Reply, SimWeb, Site};

#[tokio::main]
async fn main() {
    if let Err(e) = run().await {
        eprintln!("simweb: {e}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: simweb DIR [SITES] [IPS]")?);
    let sites: u32 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(0);
    let ips: u32 = args
        .next()
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(50)
        .clamp(1, 250);
    std::fs::create_dir_all(&dir)?;
    let web = SimWeb::builder()
        .sites(demo::demo_sites())
        .dns_rules(demo::demo_dns_rules())
        .max_connections(65_536)
        .start()
        .await?;
    let mut list: Vec<String> = demo::DEMO_SITES
        .iter()
        .map(|(name, _)| web.input(name))
        .collect();
    list.extend(
        demo::DEMO_DNS_FAULTS
            .iter()
            .map(|(name, _)| format!("{name}:{}", web.port())),
    );
    for i in 0..sites {
        let name = format!("site{i}.bench.test");
        let ip = [127, 0, 10, (i % ips) as u8 + 1];
        let site = if i % 10 == 0 {
            mcp_site(&name).ip(ip)
        } else {
            Site::new(&name)
                .ip(ip)
                .route("/", Reply::html("<html><body>a page</body></html>"))
        };
        web.add_site(site)?;
        list.push(web.input(&name));
    }
    std::fs::write(dir.join("list.txt"), list.join("\n") + "\n")?;
    web.write_ca_pem(dir.join("ca.pem"))?;
    std::fs::write(dir.join("dns.txt"), web.dns_addr().to_string())?;
    std::fs::write(dir.join("ready"), "")?;
    eprintln!(
        "simweb: {} sites on port {}, DNS {}",
        list.len(),
        web.port(),
        web.dns_addr()
    );
    // Serve until standard input closes (the script that started us goes away).
    tokio::task::spawn_blocking(|| {
        let mut sink = Vec::new();
        let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut sink);
    })
    .await?;
    web.shutdown().await;
    Ok(())
}

/// A stateless MCP server at /mcp (TypeScript v2 style), advertised by a Link header.
fn mcp_site(name: &str) -> Site {
    let server = McpServer::ts_v2().tools_named(&["search"]);
    Site::new(name)
        .route(
            "/",
            Reply::html("<html><body>MCP</body></html>").header("link", "</mcp>; rel=\"mcp\""),
        )
        .mcp("/mcp", &server)
}
