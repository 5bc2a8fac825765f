//! `mcpcensus export --format parquet|csv -o DIR` after a crawl: the three tables and
//! `export.json`, which carries the run's manifest with its provenance (build, public suffix
//! list, input checksums) and settings.

use std::path::Path;
use std::process::ExitCode;

use crate::report::crawl_two_runs;
use crate::util::mcpcensus;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_exports_carry_the_runs_provenance_and_settings() {
    let runs = crawl_two_runs().await;
    let list = runs.crawl.path("list.txt");
    for format in ["parquet", "csv"] {
        let dir = runs.crawl.path(format);
        let argv = [
            "export", "--from", &runs.out, "--format", format, "-o", &dir,
        ];
        assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
        for table in ["sites", "tools", "findings"] {
            let file = Path::new(&dir).join(format!("{table}.{format}"));
            assert!(file.metadata().unwrap().len() > 0, "{}", file.display());
        }
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(Path::new(&dir).join("export.json")).unwrap())
                .unwrap();
        assert_eq!(meta["rows"][format!("sites.{format}")], 4, "{meta}");
        let run = &meta["run"];
        let p = &run["provenance"];
        assert!(p["mcpcensus_version"]
            .as_str()
            .unwrap()
            .starts_with("mcpcensus "));
        assert!(p["public_suffix_list"]
            .as_str()
            .unwrap()
            .starts_with("psl crate "));
        let input = &p["inputs"][0];
        assert_eq!(input["input"], list.as_str());
        assert_eq!(input["bytes"], std::fs::metadata(&list).unwrap().len());
        assert_eq!(input["xxh3_64"].as_str().unwrap().len(), 16);
        assert_eq!(run["config"]["net"]["per_host_burst"], 20, "the settings");
    }
    // A folder format without a folder is an error, not output on the terminal.
    let argv = ["export", "--from", &runs.out, "--format", "csv"];
    assert!(mcpcensus(&argv).await.is_err());
}
