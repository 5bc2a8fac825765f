//! Serves a simulated web on loopback for demos and benchmarks.
//!
//! usage: simweb DIR [SITES] [IPS] [MIX] [DELAY_MS]
//!
//! Starts SITES generated sites spread over IPS loopback addresses 127.0.10.x: with MIX
//! `tenth` (the default) one in ten an MCP server, plus the demo sites; with `realistic` 97%
//! plain, 2% with a server card and an MCP server, 1% answering 401, 429, 503 or a redirect;
//! with `plain` or `servers` only the realistic mix's plain or card + MCP server sites;
//! with `hostile-catalog` SITES copies of the hostile catalog site (ten catalogs at the size
//! cap of incomplete entries: `hostile::incomplete_catalogs`);
//! with `shapes` the real web's shapes in their published shares (`mcpcensus_simweb::shapes`:
//! redirects to `www` and back, soft 404s, bot walls, slow sites, TLS resets, …), writing
//! DIR/mcp_hosts.txt (the inputs with an MCP server behind them) as well;
//! with `fair` SITES plain sites on one address (127.0.10.1, a hosting platform) listed first,
//! then SITES plain sites each on an address of its own (127.1.x.y), writing DIR/own.txt (the
//! latter alone) as well (IPS is not used).
//! Every answer waits DELAY_MS first (default 0). Writes DIR/list.txt (the crawl input),
//! DIR/ca.pem, DIR/dns.txt (the DNS server's address), DIR/kinds.txt (sites per kind),
//! DIR/sites.txt (each generated site's name, address and kind) and finally DIR/ready, then
//! serves until its standard input closes, and writes DIR/requests.txt (requests the sites
//! answered) on the way out.

use std::path::PathBuf;
use std::time::Duration;

use mcpcensus_simweb::mix::{self, Kind, Mix};
use mcpcensus_simweb::shapes;
use mcpcensus_simweb::{demo, Config, RecordLimits, SimWeb};

#[tokio::main]
async fn main() {
    if let Err(e) = run().await {
        eprintln!("simweb: {e}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    const USAGE: &str = "usage: simweb DIR [SITES] [IPS] [MIX] [DELAY_MS]";
    // `--help` or another flag is not a folder to write the web into.
    let dir = PathBuf::from(args.next().filter(|a| !a.starts_with('-')).ok_or(USAGE)?);
    let sites: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(0);
    let ips: u64 = args
        .next()
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(50)
        .clamp(1, 250);
    let mix_arg = args.next();
    let shaped = mix_arg.as_deref() == Some("shapes");
    let hostile_catalog = mix_arg.as_deref() == Some("hostile-catalog");
    let fair = mix_arg.as_deref() == Some("fair");
    let mix: Mix = match mix_arg {
        Some(name) if !shaped && !hostile_catalog && !fair => name.parse()?,
        _ if hostile_catalog || fair => Mix::Plain,
        _ => Mix::Tenth,
    };
    let delay_ms: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(0);
    std::fs::create_dir_all(&dir)?;
    let config = Config {
        max_connections: 65_536,
        answer_delay: Duration::from_millis(delay_ms),
        // Benchmarks read counts only; keeping every request of a million sites would cost
        // the web gigabytes.
        record: RecordLimits {
            per_host: 16,
            max_hosts: 1_000,
            body_cap: 4096,
            body_budget: 16 * 1024 * 1024,
        },
        ..Config::default()
    };
    let mut builder = SimWeb::builder().config(config);
    if mix == Mix::Tenth && !shaped && !hostile_catalog {
        builder = builder
            .sites(demo::demo_sites())
            .dns_rules(demo::demo_dns_rules());
    }
    let web = builder.start().await?;
    let mut list: Vec<String> = Vec::new();
    if shaped {
        write_shapes(&web, &dir, sites, ips, &mut list)?;
    } else if fair {
        write_fair(&web, &dir, sites, &mut list)?;
    } else if mix == Mix::Tenth {
        list.extend(demo::DEMO_SITES.iter().map(|(name, _)| web.input(name)));
        list.extend(
            demo::DEMO_DNS_FAULTS
                .iter()
                .map(|(name, _)| format!("{name}:{}", web.port())),
        );
    }
    let mut kinds = [0u64; Kind::ALL.len()];
    if hostile_catalog {
        for i in 0..sites {
            let name = format!("catalog{i}.bench.test");
            let ip = [127, 0, 10, (i % ips) as u8 + 1];
            let site = mcpcensus_simweb::hostile::incomplete_catalogs(&name)
                .ip(std::net::Ipv4Addr::from(ip));
            web.add_site(site)?;
            list.push(web.input(&name));
        }
    }
    // Each generated site's name, address and kind, for a web served by other software
    // (scripts/nginx-web-start.sh) to hold the same sites.
    let mut site_kinds = String::new();
    for i in (0..sites).filter(|_| !shaped && !hostile_catalog && !fair) {
        let name = format!("site{i}.bench.test");
        let ip = std::net::Ipv4Addr::new(127, 0, 10, (i % ips) as u8 + 1);
        web.add_site(mix::site(mix, i, &name, ip, web.port()))?;
        let kind = mix::kind(mix, i);
        kinds[kind as usize] += 1;
        site_kinds.push_str(&format!("{name} {ip} {}\n", kind.name()));
        list.push(web.input(&name));
    }
    std::fs::write(dir.join("sites.txt"), site_kinds)?;
    std::fs::write(dir.join("list.txt"), list.join("\n") + "\n")?;
    let counts: String = Kind::ALL
        .iter()
        .map(|kind| format!("{} {}\n", kind.name(), kinds[*kind as usize]))
        .collect();
    if fair {
        std::fs::write(dir.join("kinds.txt"), format!("plain {}\n", list.len()))?;
    } else if !shaped {
        std::fs::write(dir.join("kinds.txt"), counts)?;
    }
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
    std::fs::write(
        dir.join("requests.txt"),
        format!("{}\n", web.total_requests()),
    )?;
    web.shutdown().await;
    Ok(())
}

/// The `shapes` mix: SITES shaped inputs spread over IPS addresses; DIR/kinds.txt counts the
/// shapes (and `mcp`, the inputs with a server behind), DIR/mcp_hosts.txt names those inputs.
fn write_shapes(
    web: &SimWeb,
    dir: &std::path::Path,
    sites: u64,
    ips: u64,
    list: &mut Vec<String>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut counts = std::collections::BTreeMap::<String, u64>::new();
    let mut with_server = Vec::new();
    for (i, shaped) in shapes::mix(sites as usize, 0).into_iter().enumerate() {
        let ip = std::net::Ipv4Addr::new(127, 0, 10, (i as u64 % ips) as u8 + 1);
        for site in shaped.sites {
            web.add_site(site.ip(ip))?;
        }
        *counts.entry(format!("{:?}", shaped.shape)).or_default() += 1;
        if shaped.server.is_some() {
            with_server.push(shaped.input.clone());
        }
        list.push(web.input(&shaped.input));
    }
    counts.insert("mcp".to_owned(), with_server.len() as u64);
    let text: String = counts.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
    std::fs::write(dir.join("kinds.txt"), text)?;
    std::fs::write(dir.join("mcp_hosts.txt"), with_server.join("\n") + "\n")?;
    Ok(())
}

/// The `fair` mix: SITES plain sites on one address, then SITES plain sites on addresses of
/// their own; DIR/own.txt lists the latter alone (to crawl them without the shared ones).
fn write_fair(
    web: &SimWeb,
    dir: &std::path::Path,
    sites: u64,
    list: &mut Vec<String>,
) -> Result<(), Box<dyn std::error::Error>> {
    // 127.1.0.1 to 127.1.255.250: room for 64,000 addresses of their own.
    if sites > 64_000 {
        return Err("the fair mix holds at most 64,000 sites of each kind".into());
    }
    for i in 0..sites {
        let name = format!("shared{i}.bench.test");
        let ip = std::net::Ipv4Addr::new(127, 0, 10, 1);
        web.add_site(mix::site(Mix::Plain, i, &name, ip, web.port()))?;
        list.push(web.input(&name));
    }
    let mut own = Vec::new();
    for i in 0..sites {
        let name = format!("own{i}.bench.test");
        let ip = std::net::Ipv4Addr::new(127, 1, (i / 250) as u8, (i % 250) as u8 + 1);
        web.add_site(mix::site(Mix::Plain, i, &name, ip, web.port()))?;
        own.push(web.input(&name));
    }
    std::fs::write(dir.join("own.txt"), own.join("\n") + "\n")?;
    list.extend(own);
    Ok(())
}
