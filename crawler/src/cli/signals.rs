//! Signals: Ctrl-C (SIGINT), SIGTERM (systemd, `docker stop`, Kubernetes, `timeout`) and SIGHUP
//! all stop intake and let in-flight sites finish within the grace period; a second one of any
//! of them cuts those sites now. The first signal's number sets the exit code (128 + n).

use std::sync::atomic::Ordering;

use tokio::signal::unix::{signal, Signal, SignalKind};

use crate::run::Shutdown;

const SIGHUP: u8 = 1;
const SIGINT: u8 = 2;
const SIGTERM: u8 = 15;

/// Watches for stop signals until the process ends. Returns at once if they cannot be watched
/// (the run then only stops at its end or at `--max-duration`).
pub async fn watch(shutdown: Shutdown, json: bool) {
    let (Ok(term), Ok(hup), Ok(int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
        signal(SignalKind::interrupt()),
    ) else {
        tracing::warn!("cannot watch for signals; Ctrl-C and SIGTERM will end the process at once");
        return;
    };
    let mut signals = Signals { term, hup, int };
    let first = signals.next().await;
    shutdown.signal.store(first, Ordering::Relaxed);
    say(
        json,
        &format!(
            "\nstopping ({}): finishing sites in flight (send it again to cut them)",
            name(first)
        ),
    );
    shutdown.stop.cancel();
    signals.next().await;
    say(json, "cutting the sites in flight");
    shutdown.cut.cancel();
}

struct Signals {
    term: Signal,
    hup: Signal,
    int: Signal,
}

impl Signals {
    async fn next(&mut self) -> u8 {
        tokio::select! {
            _ = self.term.recv() => SIGTERM,
            _ = self.hup.recv() => SIGHUP,
            _ = self.int.recv() => SIGINT,
        }
    }
}

fn name(signal: u8) -> &'static str {
    match signal {
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "Ctrl-C",
    }
}

fn say(json: bool, message: &str) {
    if json {
        eprintln!(
            "{}",
            super::json_line::json_line("WARN", message.trim_start())
        );
    } else {
        eprintln!("{message}");
    }
}
