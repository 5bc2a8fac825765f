//! The progress display: reads the counters every few seconds and prints what they say (see
//! `status`), as a bar, a plain line or a JSON line.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio_util::sync::CancellationToken;

use super::progress::{Counters, ProgressMode};
use super::second_look::SecondLooks;
use super::status::{Sources, Status};

/// Runs the display until `done` is cancelled; `looks`: the run's second looks, if it makes
/// them.
pub(super) async fn display(
    mode: ProgressMode,
    counters: Arc<Counters>,
    total_bytes: Option<u64>,
    looks: Option<Arc<SecondLooks>>,
    done: CancellationToken,
) {
    let started = Instant::now();
    // A resumed run starts with its earlier records counted: the rate is this process's.
    let done_at_start = counters.done.load(Ordering::Relaxed);
    let cpu_at_start = super::cpu::used();
    let (bar, every, json) = match mode {
        ProgressMode::Quiet => return,
        ProgressMode::Bar => {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            (Some(bar), Duration::from_millis(500), false)
        }
        ProgressMode::Lines { every } => (None, every, false),
        ProgressMode::JsonLines { every } => (None, every, true),
    };
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        tokio::select! {
            _ = done.cancelled() => break,
            _ = tick.tick() => {}
        }
        let status = Status::read(&Sources {
            counters: &counters,
            looks: looks.as_deref(),
            total_bytes,
            done_at_start,
            elapsed: started.elapsed(),
            cpu_used: super::cpu::used()
                .zip(cpu_at_start)
                .map(|(now, then)| now.saturating_sub(then)),
            open_files: open_files(),
        });
        if json {
            eprintln!("{}", json_line(&status));
            continue;
        }
        let line = status.line();
        match &bar {
            Some(bar) => bar.set_message(line),
            None => eprintln!("progress: {line}"),
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// Descriptors this process holds (Linux's `/proc/self/fd`, less the one reading it);
/// `None` elsewhere. A read of a directory of at most the open-files limit's entries, once a
/// progress interval.
fn open_files() -> Option<u64> {
    let entries = std::fs::read_dir("/proc/self/fd").ok()?;
    Some((entries.count() as u64).saturating_sub(1))
}

/// A progress line as JSON, shaped like the JSON log lines (timestamp, level, target).
fn json_line(status: &Status) -> String {
    let mut line = serde_json::json!({
        "timestamp": humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
        "level": "INFO",
        "target": "progress",
    });
    if let (Some(line), serde_json::Value::Object(fields)) =
        (line.as_object_mut(), status.json_fields())
    {
        line.extend(fields);
    }
    line.to_string()
}
