//! The crawler as a child process, for tests that signal or kill it: this test binary runs
//! itself again with only [`child_process_entry`] selected, which then behaves as the
//! `mcpcensus` binary (same runtime, signal handling and exit codes).

use std::process::{Child, Command, ExitCode, Stdio};

/// Set only in the child: the JSON argv it runs.
const CHILD_ARGV_ENV: &str = "MCPCENSUS_E2E_CHILD_ARGV";

/// In the parent a no-op; in a child started by [`spawn_crawler`], the crawler itself.
#[test]
fn child_process_entry() {
    let Ok(json) = std::env::var(CHILD_ARGV_ENV) else {
        return;
    };
    let argv: Vec<String> = serde_json::from_str(&json).unwrap();
    let code = mcpcensus::cli::process::run_argv(argv);
    std::process::exit(exit_number(code));
}

/// `ExitCode` hides its number; this finds it.
fn exit_number(code: ExitCode) -> i32 {
    (0..=255u8)
        .find(|n| ExitCode::from(*n) == code)
        .map_or(1, i32::from)
}

/// How to start the child.
#[derive(Default)]
pub struct ChildOptions {
    /// Soft and hard open-files limit, set with `prlimit` (and, for root, without the
    /// capability to raise it again, so the limit holds as it would for a service).
    pub nofile: Option<u64>,
    /// Standard output captured (read it with [`wait_output`]) instead of discarded.
    pub capture_stdout: bool,
    /// Variables set in the child's environment.
    pub env: Vec<(String, String)>,
}

/// Starts `mcpcensus ARGS...` as a child process (stderr captured, stdout discarded).
pub fn spawn_crawler(args: &[String], options: &ChildOptions) -> Child {
    let exe = std::env::current_exe().unwrap();
    let mut argv = vec!["mcpcensus".to_owned()];
    argv.extend(args.iter().cloned());
    let mut cmd = match options.nofile {
        Some(n) => {
            let mut c = Command::new("prlimit");
            c.arg(format!("--nofile={n}:{n}"));
            if is_root() {
                c.args(["setpriv", "--bounding-set=-sys_resource", "--"]);
            }
            c.arg(&exe);
            c
        }
        None => Command::new(&exe),
    };
    cmd.args([
        "child::child_process_entry",
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ])
    .env(CHILD_ARGV_ENV, serde_json::to_string(&argv).unwrap())
    .envs(options.env.iter().map(|(k, v)| (k, v)))
    .stdin(Stdio::null())
    .stdout(if options.capture_stdout {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stderr(Stdio::piped());
    cmd.spawn().unwrap()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// Sends `signal` (e.g. "TERM") to the child.
pub fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for the child with a deadline; its exit code and stderr.
pub async fn wait(child: Child, deadline: std::time::Duration) -> (Option<i32>, String) {
    let out = wait_output(child, deadline).await;
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Waits for the child with a deadline; its status and what it wrote.
pub async fn wait_output(child: Child, deadline: std::time::Duration) -> std::process::Output {
    tokio::time::timeout(
        deadline,
        tokio::task::spawn_blocking(move || child.wait_with_output()),
    )
    .await
    .expect("the crawler did not exit in time")
    .unwrap()
    .unwrap()
}
