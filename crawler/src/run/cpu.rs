//! The process's CPU use against the cores it may use, for admission control: a crawler using
//! (nearly) all of them cannot take more sites without slowing those it has, whatever the
//! runtime's lag says yet.
//!
//! Read from `/proc/self/stat` (user + system time of all threads); elsewhere there is no
//! reading and the signal is simply absent.

use std::time::Duration;

use tokio::time::Instant;

/// Linux's clock tick for `/proc` times (`sysconf(_SC_CLK_TCK)`, 100 on every Linux port).
const TICKS_PER_SEC: f64 = 100.0;
/// The shortest span a reading is taken over: clock ticks are 10 ms, so shorter spans are
/// too coarse to tell 80% from 100%.
pub const WINDOW: Duration = Duration::from_millis(500);

/// CPU time used so far by this process, or `None` where it cannot be read.
pub(super) fn used() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after its `)` are fixed.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let mut fields = rest.split(' ');
    // After the name: state is field 3, utime field 14, stime field 15.
    let utime: f64 = fields.nth(11)?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    Some(Duration::from_secs_f64((utime + stime) / TICKS_PER_SEC))
}

/// Share of the cores used between readings.
#[derive(Debug)]
pub struct CpuGauge {
    cores: f64,
    last: Option<(Instant, Duration)>,
    share: Option<f64>,
}

impl CpuGauge {
    pub fn new() -> CpuGauge {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        CpuGauge {
            cores: cores as f64,
            last: used().map(|u| (Instant::now(), u)),
            share: None,
        }
    }

    /// The share of the cores (0 to 1) used over the last window, refreshed when a window
    /// has passed; `None` without a reading.
    pub fn sample(&mut self) -> Option<f64> {
        let now = Instant::now();
        if let Some((at, before)) = self.last {
            let span = now.duration_since(at);
            if span >= WINDOW {
                let after = used()?;
                let busy = after.saturating_sub(before).as_secs_f64();
                self.share = Some((busy / (span.as_secs_f64() * self.cores)).min(1.0));
                self.last = Some((now, after));
            }
        }
        self.share
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_busy_thread_shows_in_the_share_of_the_cores() {
        let mut gauge = CpuGauge::new();
        if used().is_none() {
            return; // not Linux: no reading, nothing to check
        }
        let started = std::time::Instant::now();
        while started.elapsed() < WINDOW + Duration::from_millis(100) {
            std::hint::spin_loop();
        }
        let share = gauge.sample().expect("a reading after a window");
        // A core was busy the whole time; a shared machine gives it only part of one.
        assert!(
            share > 0.0 && share <= 1.0,
            "{share} of {} cores",
            gauge.cores
        );
    }
}
