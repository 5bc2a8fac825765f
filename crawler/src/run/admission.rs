//! Admission control: new sites are taken only while the crawler keeps up with those it has.
//!
//! A site's deadline and its 12 s session measure the server; time a site spends waiting for
//! our own CPU is not the server's. The crawler therefore watches its own lag — how late a
//! timer fires on its runtime, which grows with the number of tasks ready and waiting — and
//! lowers the number of sites it admits while the lag is high, raising it again while it is
//! low. It also watches its CPU: a process using nearly all the cores it may use cannot take
//! more sites without slowing those it has, even before the lag shows it. Sites already in
//! flight (and their sessions) keep running: only new ones wait. `--concurrency` is the
//! ceiling of that number, not a promise.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::cpu::CpuGauge;
use super::progress::{Counters, HELD_CPU, HELD_LAG, HELD_NONE};

/// Lag above which no new site is admitted and the admitted number comes down.
pub const LAG_HIGH: Duration = Duration::from_millis(40);
/// Lag below which the admitted number may grow.
pub const LAG_LOW: Duration = Duration::from_millis(10);
/// Share of the cores used above which no new site is admitted and the number comes down.
pub const CPU_HIGH: f64 = 0.95;
/// Sites admitted at the start, before the lag has been seen (or the ceiling, if lower).
pub const START: usize = 64;
/// The admitted number never goes below this (or the ceiling, if lower).
pub const FLOOR: usize = 16;
/// How often the lag is sampled and the admitted number adjusted.
pub const TICK: Duration = Duration::from_millis(50);
/// How often a held-back site looks again whether it may start.
const RECHECK: Duration = Duration::from_millis(5);

/// The controller's thresholds; [`Default`] is the crawl's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdmissionSettings {
    pub lag_high: Duration,
    pub lag_low: Duration,
    /// Share of the cores (0 to 1) that counts as saturated.
    pub cpu_high: f64,
    pub start: usize,
    pub floor: usize,
    pub tick: Duration,
}

impl Default for AdmissionSettings {
    fn default() -> Self {
        AdmissionSettings {
            lag_high: LAG_HIGH,
            lag_low: LAG_LOW,
            cpu_high: CPU_HIGH,
            start: START,
            floor: FLOOR,
            tick: TICK,
        }
    }
}

/// What the crawler saw of itself over the last tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Load {
    /// The runtime's lag (smoothed).
    pub lag: Duration,
    /// Share of the cores used, when it can be read.
    pub cpu: Option<f64>,
}

impl Load {
    /// Why new sites are held back under this load (`HELD_*`).
    pub fn held(&self, s: &AdmissionSettings) -> u64 {
        if self.lag > s.lag_high {
            HELD_LAG
        } else if self.cpu.is_some_and(|c| c >= s.cpu_high) {
            HELD_CPU
        } else {
            HELD_NONE
        }
    }
}

/// The next admitted number from the last one, the sites in flight and the load seen.
pub fn next_limit(
    s: &AdmissionSettings,
    ceiling: usize,
    limit: usize,
    in_flight: usize,
    load: Load,
) -> usize {
    let floor = s.floor.min(ceiling).max(1);
    if load.held(s) != HELD_NONE {
        // Only while the last cut has taken effect: in-flight sites drain at their own pace.
        if in_flight <= limit {
            return (limit * 3 / 4).max(floor);
        }
        return limit;
    }
    if load.lag < s.lag_low && in_flight + limit / 8 >= limit {
        return (limit + (limit / 8).max(4)).min(ceiling);
    }
    limit.clamp(floor, ceiling)
}

/// Samples the runtime's lag and adjusts `counters.admit_limit` until `done` is cancelled.
pub async fn control(
    settings: AdmissionSettings,
    ceiling: usize,
    counters: Arc<Counters>,
    done: CancellationToken,
) {
    let mut smoothed = Duration::ZERO;
    let mut gauge = CpuGauge::new();
    loop {
        let asked = Instant::now();
        tokio::select! {
            _ = done.cancelled() => return,
            _ = tokio::time::sleep(settings.tick) => {}
        }
        let lag = asked.elapsed().saturating_sub(settings.tick);
        // Quick to react to a rise, slower to believe a fall.
        smoothed = if lag > smoothed {
            lag
        } else {
            (smoothed * 3 + lag) / 4
        };
        let in_flight = counters.in_flight.load(Ordering::Relaxed) as usize;
        let limit = counters.admit_limit.load(Ordering::Relaxed) as usize;
        let load = Load {
            lag: smoothed,
            cpu: gauge.sample(),
        };
        let next = next_limit(&settings, ceiling, limit, in_flight, load);
        counters.admit_limit.store(next as u64, Ordering::Relaxed);
        counters
            .lag_us
            .store(smoothed.as_micros() as u64, Ordering::Relaxed);
        counters
            .lag_peak_us
            .fetch_max(smoothed.as_micros() as u64, Ordering::Relaxed);
        counters
            .held_back_why
            .store(load.held(&settings), Ordering::Relaxed);
    }
}

/// The starting admitted number for this ceiling.
pub fn initial(settings: &AdmissionSettings, ceiling: usize) -> u64 {
    settings.start.min(ceiling).max(1) as u64
}

/// Waits until a new site may start: fewer in flight than admitted and the load not high (or
/// fewer than the floor in flight, so a machine busy with others' work still crawls). The
/// sites waiting their turn on a shared address are bounded by their room (`room`), not here.
/// The time held back is counted.
pub async fn admit(counters: &Counters, floor: usize) {
    let mut held: Option<Instant> = None;
    loop {
        let in_flight = counters.in_flight.load(Ordering::Relaxed);
        let limit = counters.admit_limit.load(Ordering::Relaxed);
        let lagging = counters.held_back_why.load(Ordering::Relaxed) != HELD_NONE;
        if in_flight < limit && (!lagging || in_flight < floor as u64) {
            break;
        }
        held.get_or_insert_with(Instant::now);
        tokio::time::sleep(RECHECK).await;
    }
    if let Some(since) = held {
        counters
            .held_back_ms
            .fetch_add(since.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lag(ms: u64) -> Load {
        Load {
            lag: Duration::from_millis(ms),
            cpu: None,
        }
    }

    #[test]
    fn lag_high_cuts_the_number_once_the_last_cut_took_effect() {
        let s = AdmissionSettings::default();
        assert_eq!(next_limit(&s, 5000, 1000, 900, lag(200)), 750);
        // Still draining from the last cut: no further cut.
        assert_eq!(next_limit(&s, 5000, 750, 900, lag(200)), 750);
        assert_eq!(next_limit(&s, 5000, 16, 10, lag(200)), 16);
    }

    #[test]
    fn low_lag_grows_the_number_only_when_it_is_used_and_never_past_the_ceiling() {
        let s = AdmissionSettings::default();
        assert_eq!(next_limit(&s, 5000, 64, 64, lag(1)), 72);
        // Few in flight: no need for more.
        assert_eq!(next_limit(&s, 5000, 64, 10, lag(1)), 64);
        assert_eq!(next_limit(&s, 100, 98, 98, lag(1)), 100);
        assert_eq!(next_limit(&s, 3, 3, 3, lag(1)), 3);
    }

    #[test]
    fn a_saturated_cpu_cuts_the_number_like_a_high_lag() {
        let s = AdmissionSettings::default();
        let busy = |cpu| Load {
            lag: Duration::from_millis(1),
            cpu: Some(cpu),
        };
        assert_eq!(busy(0.97).held(&s), HELD_CPU);
        assert_eq!(next_limit(&s, 5000, 1000, 900, busy(0.97)), 750);
        // Under the threshold a low lag still lets it grow.
        assert_eq!(busy(0.6).held(&s), HELD_NONE);
        assert_eq!(next_limit(&s, 5000, 64, 64, busy(0.6)), 72);
    }
}
