//! Server text in every output a person or a program opens is inert: ten sites of one MCP server
//! (a platform, so its server name reaches the report) whose tool names and server info are a
//! spreadsheet formula, a tag with a script, terminal escape sequences and a bidi override,
//! crawled; then the CSV export, the report's CSV sheets, the Markdown, text and HTML reports
//! and `check --explain` are read byte for byte.

use std::path::Path;

use mcpcensus_simweb::hostile::{
    active_text_site, ACTIVE_SERVER_NAME, ACTIVE_SERVER_VERSION, ACTIVE_TOOL_NAMES,
};
use mcpcensus_simweb::SimWeb;
use mcpcensus_store::inert::{is_active_char, FORMULA_STARTS};
use mcpcensus_store::Outcome;

use crate::util::{mcpcensus, WebCrawl};

/// Sites of the one server: the report's platform threshold.
const SITES: usize = 10;

fn name(i: usize) -> String {
    format!("s{i}.active.test")
}

/// Every cell of a CSV text as a reader sees it (RFC 4180: quotes removed, doubled ones kept).
fn csv_cells(text: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let (mut cell, mut quoted, mut chars) = (String::new(), false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',' | '\n', false) => cells.push(std::mem::take(&mut cell)),
            (c, _) => cell.push(c),
        }
    }
    cells
}

/// No character of `text` but line breaks (and the page's own tabs) acts on a terminal or
/// reorders a line.
fn assert_no_active_chars(what: &str, text: &str) {
    let active: Vec<char> = text
        .chars()
        .filter(|c| !matches!(c, '\n' | '\t') && is_active_char(*c))
        .collect();
    assert!(active.is_empty(), "{what}: {active:?} in\n{text}");
    assert!(!text.contains('\u{1b}'), "{what}: an ESC byte");
    assert!(!text.contains('\u{202e}'), "{what}: a bidi override");
}

async fn report(store: &str, format: &str, out: &str) -> String {
    let args = ["report", "--from", store, "--format", format, "-o", out];
    mcpcensus(&args).await.unwrap();
    std::fs::read_to_string(out).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_text_is_inert_in_csv_markdown_text_html_and_check() {
    let web = SimWeb::builder()
        .sites((0..SITES).map(|i| active_text_site(&name(i))))
        .start()
        .await
        .unwrap();
    let inputs: Vec<String> = (0..SITES).map(|i| web.input(&name(i))).collect();
    let crawl = WebCrawl::new();
    let fast = [
        "--per-ip-rps",
        "200",
        "--per-host-rps",
        "20",
        "--per-host-burst",
        "20",
    ];
    let (_, _, records) = crawl.run(&web, &inputs, true, &fast).await;
    // The records keep what the server sent: the outputs have it to neutralise.
    for r in &records {
        assert_eq!(r.outcome, Outcome::Pass, "{}", r.outcome_reason);
        assert_eq!(r.tool_names, ACTIVE_TOOL_NAMES);
        assert_eq!(r.server_name.as_deref(), Some(ACTIVE_SERVER_NAME));
        assert_eq!(r.server_version.as_deref(), Some(ACTIVE_SERVER_VERSION));
    }
    let store = crawl.path("store");

    // CSV: no cell starts a formula once read; the formula cells carry the guard.
    let dir = crawl.path("csv");
    let args = ["export", "--from", &store, "--format", "csv", "-o", &dir];
    mcpcensus(&args).await.unwrap();
    for table in ["sites", "tools", "findings"] {
        let text = std::fs::read_to_string(Path::new(&dir).join(format!("{table}.csv"))).unwrap();
        for cell in csv_cells(&text) {
            assert!(!cell.starts_with(FORMULA_STARTS), "{table}: {cell:?}");
        }
    }
    let tools = std::fs::read_to_string(Path::new(&dir).join("tools.csv")).unwrap();
    assert!(
        tools.contains(",\"'=HYPERLINK(\"\"https://evil.example/\"\",\"\"click\"\")\","),
        "{tools}"
    );
    let sites = std::fs::read_to_string(Path::new(&dir).join("sites.csv")).unwrap();
    assert!(sites.contains(",\"'@SUM(1+1)<script>"), "{sites}");
    assert!(sites.contains(",\"'-1+1"), "{sites}");

    // The report's CSV sheets: the same guard in every cell of every sheet.
    let sheets = crawl.path("sheets");
    let args = ["report", "--from", &store, "--format", "csv", "-o", &sheets];
    mcpcensus(&args).await.unwrap();
    for entry in std::fs::read_dir(&sheets).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for cell in csv_cells(&text) {
            assert!(!cell.starts_with(FORMULA_STARTS), "{path:?}: {cell:?}");
        }
    }
    let names = std::fs::read_to_string(Path::new(&sheets).join("tool-names.csv")).unwrap();
    assert!(
        names.contains("\n\"'=HYPERLINK(\"\"https://evil.example/\"\",\"\"click\"\")\",10\n"),
        "{names}"
    );
    let platforms = std::fs::read_to_string(Path::new(&sheets).join("platforms.csv")).unwrap();
    assert!(platforms.contains(",\"'@SUM(1+1)<script>"), "{platforms}");

    // Markdown: no tag, no table syntax, no escape sequence of the server's.
    let md = report(&store, "markdown", &crawl.path("report.md")).await;
    assert_no_active_chars("markdown", &md);
    assert!(!md.contains('<'), "markdown has a raw <:\n{md}");
    assert!(
        md.contains("| &lt;img src=x onerror=alert(1)&gt; | 10 |"),
        "{md}"
    );
    assert!(
        md.contains("| =HYPERLINK(\"https://evil.example/\""),
        "{md}"
    );
    let platform = md
        .lines()
        .find(|l| l.contains("@SUM(1+1)"))
        .unwrap_or_else(|| panic!("no platform row:\n{md}"));
    assert!(
        platform.contains("@SUM(1+1)&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{platform}"
    );
    assert!(platform.contains("\\|x\\|"), "{platform}");

    // Text: the escape sequences and the override are shown, not sent to the terminal.
    let text = report(&store, "text", &crawl.path("report.txt")).await;
    assert_no_active_chars("text", &text);
    assert!(
        text.contains("title\\u{1b}]0;pwned\\u{7}clear\\u{1b}[2J"),
        "{text}"
    );
    assert!(text.contains("report\\u{202e}fdp.exe"), "{text}");

    // HTML: escaped as the page always did, the override shown too.
    let html = report(&store, "html", &crawl.path("report.html")).await;
    assert_no_active_chars("html", &html);
    assert!(!html.contains("<img"), "a raw <img in the page");
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the sorting script"
    );
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));

    // `check --explain`: the transcript and the verdict on the terminal.
    let out = crawl.path("check.txt");
    let dns = web.dns_addr().to_string();
    let ca = crawl.path("ca.pem");
    let target = web.input(&name(0));
    let args = [
        "check",
        &target,
        "--explain",
        "-o",
        &out,
        "--resolver",
        &dns,
        "--ca-file",
        &ca,
        "--allow-net",
        "127.0.0.0/8",
        "--quiet",
    ];
    mcpcensus(&args).await.unwrap();
    let check = std::fs::read_to_string(&out).unwrap();
    assert_no_active_chars("check", &check);
    assert!(check.contains("report\\u{202e}fdp.exe"), "{check}");
    web.shutdown().await;
}
