//! What a newcomer runs first: the README's opening commands and install step, the demo's
//! closing hint, and `scripts/setup.sh` on a Debian image with python3 but no pip (run with
//! stand-ins for python3 and apt-get, so nothing is installed here).

use std::path::Path;
use std::process::Command;

use super::test_files::top;

fn read(path: &str) -> String {
    std::fs::read_to_string(top().join(path)).unwrap()
}

/// The commands (not comments) of the README's first code block.
fn first_commands(readme: &str) -> Vec<String> {
    let block = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_readme_opens_with_the_demo_and_the_test_suite_then_the_install() {
    use std::os::unix::fs::PermissionsExt as _;
    let readme = read("README.md");
    assert_eq!(
        first_commands(&readme),
        ["scripts/demo.sh", "scripts/test.sh"]
    );
    for script in ["scripts/demo.sh", "scripts/test.sh"] {
        let mode = std::fs::metadata(top().join(script))
            .unwrap()
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "{script} is not executable");
    }
    let install = readme
        .find("cargo install --locked --path crawler")
        .expect("the install step");
    let usage = readme.find("## Usage").unwrap();
    assert!(install < usage, "install before the commands that need it");
    let crawler: toml::Table = toml::from_str(&read("crawler/Cargo.toml")).unwrap();
    assert_eq!(crawler["bin"][0]["name"].as_str(), Some("mcpcensus"));
}

#[test]
fn the_demos_last_line_names_the_binary_it_ran() {
    let demo = read("scripts/demo.sh");
    let bin = demo
        .lines()
        .find_map(|l| l.strip_prefix("bin="))
        .expect("the demo names its binary once");
    assert_eq!(bin, "\"$release/mcpcensus\"");
    let start = read("scripts/simweb-start.sh");
    assert!(
        start.contains("cargo build --release") && start.contains("-p mcpcensus "),
        "the sourced script builds the release binary"
    );
    assert!(
        start.contains("release=${CARGO_TARGET_DIR:-$top/target}/release"),
        "where cargo puts it"
    );
    assert!(demo.contains("\"$bin\" crawl"), "the demo crawls with it");
    let last = demo.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert!(
        last.starts_with("echo ") && last.contains("$bin export"),
        "{last}"
    );
}

/// The demo's settings that differ from a real crawl's are said on screen, before the crawl.
#[test]
fn the_demo_says_it_waits_less_than_a_real_crawl() {
    let demo = read("scripts/demo.sh");
    let crawl = demo.find("\"$bin\" crawl").unwrap();
    let said = demo
        .find("echo \"demo: second looks after 2 s")
        .expect("said on screen");
    assert!(said < crawl);
    assert!(demo[crawl..].contains("--second-look-delay 2s"));
}

/// The web started by `scripts/simweb-start.sh` writes into the work folder until it ends, so
/// the folder is removed only after the web has ended: here a stand-in web that writes its
/// last file a moment after its input closes, as simweb writes its request count.
#[test]
fn the_simulated_web_has_ended_before_its_folder_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let release = dir.path().join("release");
    std::fs::create_dir(&release).unwrap();
    let ended = dir.path().join("ended");
    script(
        &release.join("simweb"),
        &format!(
            "mkdir -p \"$1\" && touch \"$1/ready\"\n\
             cat > /dev/null\n\
             sleep 0.3\n\
             echo 7 > \"$1/requests.txt\" && touch {ended}",
            ended = ended.display()
        ),
    );
    let work = dir.path().join("work");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -euo pipefail; source {}; echo \"$work\" > {}",
            top().join("scripts/simweb-start.sh").display(),
            work.display()
        ))
        .env("BENCH_NO_BUILD", "1")
        .env("CARGO_TARGET_DIR", dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(ended.exists(), "the script ended before the web: {stderr}");
    let work = std::fs::read_to_string(&work).unwrap();
    assert!(!Path::new(work.trim()).exists(), "{work} is left");
}

/// Writes an executable shell script.
fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn setup_installs_pip_where_python3_has_none() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = dir.path().join("log");
    let pip = dir.path().join("pip-installed");
    // python3 without pip until apt-get installs python3-pip; no module imports.
    script(
        &bin.join("python3"),
        &format!(
            "case \"$1 $2\" in\n\
             '-m pip') [ -f {pip} ] || exit 1; echo \"pip $*\" >> {log}; exit 0;;\n\
             esac\nexit 1",
            pip = pip.display(),
            log = log.display()
        ),
    );
    script(
        &bin.join("apt-get"),
        &format!(
            "echo \"apt-get $*\" >> {log}\n\
             case \" $* \" in *' python3-pip '*) touch {pip};; esac",
            pip = pip.display(),
            log = log.display()
        ),
    );
    script(&bin.join("sudo"), "exec \"$@\"");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = Command::new("bash")
        .arg(top().join("scripts/setup.sh"))
        .arg("bench")
        .env("PATH", path)
        .output()
        .unwrap();
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}\n{log}",
        String::from_utf8_lossy(&out.stderr)
    );
    let install = log
        .lines()
        .position(|l| l.starts_with("apt-get install") && l.contains(" python3-pip"))
        .unwrap_or_else(|| panic!("python3-pip was not installed:\n{log}"));
    let pip = log
        .lines()
        .position(|l| l.starts_with("pip -m pip install"))
        .unwrap_or_else(|| panic!("pip was not used:\n{log}"));
    assert!(install < pip, "{log}");
}
