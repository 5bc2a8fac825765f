//! Politeness on a paused clock: rates, pauses after 429/503, the connection cap, eviction.

use std::net::IpAddr;
use std::num::{NonZeroU32, NonZeroUsize};
use std::time::Duration;

use tokio::time::Instant;

use crate::net::{NetOptions, Throttle};

fn options() -> NetOptions {
    NetOptions {
        throttle_jitter: Duration::ZERO,
        ..NetOptions::default()
    }
}

fn ip(last: u8) -> IpAddr {
    IpAddr::from([93, 184, 216, last])
}

fn ms(elapsed: Duration) -> u128 {
    elapsed.as_millis()
}

#[tokio::test(start_paused = true)]
async fn per_host_rate_allows_the_burst_then_two_per_second() {
    let throttle = Throttle::new(&options()).expect("throttle");
    let start = Instant::now();
    let mut times = Vec::new();
    for _ in 0..10 {
        throttle.acquire("example.com", ip(1), None).await;
        times.push(ms(start.elapsed()));
    }
    assert_eq!(times, [0, 0, 0, 0, 500, 1000, 1500, 2000, 2500, 3000]);
    // Another host is not held back by the first.
    let other = Instant::now();
    throttle.acquire("example.org", ip(2), None).await;
    assert_eq!(ms(other.elapsed()), 0);
}

#[tokio::test(start_paused = true)]
async fn per_ip_rate_spans_hosts_sharing_an_address() {
    let opts = NetOptions {
        per_ip_rps: 10.0,
        per_ip_burst: NonZeroU32::new(5).expect("non-zero"),
        ..options()
    };
    let throttle = Throttle::new(&opts).expect("throttle");
    let start = Instant::now();
    for i in 0..15 {
        throttle
            .acquire(&format!("site{i}.example"), ip(1), None)
            .await;
    }
    // 5 at once, then one every 100 ms.
    assert_eq!(ms(start.elapsed()), 1000);
}

#[tokio::test(start_paused = true)]
async fn jitter_stays_within_its_bound() {
    let opts = NetOptions {
        per_host_rps: 1.0,
        per_host_burst: NonZeroU32::new(1).expect("non-zero"),
        throttle_jitter: Duration::from_millis(200),
        ..options()
    };
    let throttle = Throttle::new(&opts).expect("throttle");
    throttle.acquire("example.com", ip(1), None).await;
    let start = Instant::now();
    throttle.acquire("example.com", ip(1), None).await;
    let waited = ms(start.elapsed());
    // The jitter, then at most one step of the wait grid (50 ms).
    assert!((1000..=1250).contains(&waited), "waited {waited} ms");
}

#[tokio::test(start_paused = true)]
async fn waits_end_on_the_grid_so_turns_due_together_share_a_wake_up() {
    let opts = NetOptions {
        per_host_rps: 2.0,
        per_host_burst: NonZeroU32::new(1).expect("non-zero"),
        throttle_jitter: Duration::from_millis(200),
        ..options()
    };
    let throttle = std::sync::Arc::new(Throttle::new(&opts).expect("throttle"));
    let start = Instant::now();
    let mut sites = tokio::task::JoinSet::new();
    for i in 0..20u8 {
        let throttle = throttle.clone();
        sites.spawn(async move {
            let host = format!("site{i}.example");
            throttle.acquire(&host, ip(i), None).await;
            throttle.acquire(&host, ip(i), None).await;
            ms(start.elapsed())
        });
    }
    let mut turns = Vec::new();
    while let Some(done) = sites.join_next().await {
        turns.push(done.expect("site"));
    }
    // Each second turn is due at 500 ms plus a random jitter of up to 200 ms; it is taken on
    // the next point of the 50 ms grid, so twenty turns fall on at most five wake-ups.
    for turn in &turns {
        assert!((500..=750).contains(turn), "turn at {turn} ms");
        assert_eq!(turn % 50, 0, "turn at {turn} ms is off the grid: {turns:?}");
    }
    turns.sort_unstable();
    turns.dedup();
    assert!(turns.len() <= 5, "{turns:?}");
}

#[tokio::test(start_paused = true)]
async fn a_fast_rate_keeps_a_grid_finer_than_its_spacing() {
    // 100 requests a second with no burst: a 50 ms grid would cut it to 20; the grid's step
    // is at most an eighth of the spacing (1.25 ms), and 10 ms turns lie on it.
    let opts = NetOptions {
        per_host_rps: 100.0,
        per_host_burst: NonZeroU32::new(1).expect("non-zero"),
        ..options()
    };
    let throttle = Throttle::new(&opts).expect("throttle");
    let start = Instant::now();
    let mut times = Vec::new();
    for _ in 0..5 {
        throttle.acquire("example.com", ip(1), None).await;
        times.push(ms(start.elapsed()));
    }
    assert_eq!(times, [0, 10, 20, 30, 40]);
}

#[tokio::test(start_paused = true)]
async fn slow_down_pauses_the_host_for_retry_after_capped() {
    let throttle = Throttle::new(&options()).expect("throttle");

    throttle.slow_down("busy.example", Some(Duration::from_secs(3)));
    let start = Instant::now();
    throttle.acquire("busy.example", ip(1), None).await;
    assert_eq!(ms(start.elapsed()), 3000);

    // Without Retry-After: the default pause.
    throttle.slow_down("busy.example", None);
    let start = Instant::now();
    throttle.acquire("busy.example", ip(1), None).await;
    assert_eq!(start.elapsed(), options().slow_down);

    // An absurd Retry-After is capped.
    throttle.slow_down("busy.example", Some(Duration::from_secs(86_400)));
    let start = Instant::now();
    throttle.acquire("busy.example", ip(1), None).await;
    assert_eq!(start.elapsed(), options().slow_down_max);

    // Other hosts are not paused.
    throttle.slow_down("busy.example", Some(Duration::from_secs(30)));
    let start = Instant::now();
    throttle.acquire("calm.example", ip(1), None).await;
    assert_eq!(ms(start.elapsed()), 0);
}

#[tokio::test(start_paused = true)]
async fn connection_cap_holds_per_ip() {
    let opts = NetOptions {
        per_ip_connections: NonZeroUsize::new(2).expect("non-zero"),
        ..options()
    };
    let throttle = Throttle::new(&opts).expect("throttle");
    let first = throttle.connection_permit(ip(1)).await.expect("permit");
    let _second = throttle.connection_permit(ip(1)).await.expect("permit");
    // A third to the same address waits...
    let third = tokio::time::timeout(Duration::from_secs(60), throttle.connection_permit(ip(1)));
    assert!(third.await.is_err(), "third connection should wait");
    // ...while another address is free.
    let _other = throttle.connection_permit(ip(2)).await.expect("permit");
    // Closing one connection frees a slot.
    drop(first);
    let third = tokio::time::timeout(Duration::from_secs(1), throttle.connection_permit(ip(1)));
    assert!(third.await.expect("slot freed").is_some());
}

#[tokio::test(start_paused = true)]
async fn sweep_evicts_idle_state() {
    let throttle = Throttle::new(&options()).expect("throttle");
    for i in 0..50u8 {
        throttle
            .acquire(&format!("site{i}.example"), ip(i), None)
            .await;
    }
    let held = throttle.connection_permit(ip(1)).await.expect("permit");
    let released = throttle.connection_permit(ip(2)).await.expect("permit");
    drop(released);
    throttle.slow_down("busy.example", Some(Duration::from_secs(1)));
    let stats = throttle.stats();
    assert_eq!((stats.hosts, stats.ips), (50, 50));
    assert_eq!((stats.connection_ips, stats.slowed_hosts), (2, 1));

    tokio::time::advance(Duration::from_secs(5)).await;
    throttle.sweep();
    let stats = throttle.stats();
    assert_eq!((stats.hosts, stats.ips), (0, 0));
    // The address with a live connection keeps its semaphore; the idle one is gone.
    assert_eq!(stats.connection_ips, 1);
    assert_eq!(stats.slowed_hosts, 0);
    drop(held);
    throttle.sweep();
    assert_eq!(throttle.stats().connection_ips, 0);
}

#[tokio::test(start_paused = true)]
async fn sweeps_run_by_themselves_on_the_interval() {
    let throttle = Throttle::new(&options()).expect("throttle");
    for i in 0..20u8 {
        throttle
            .acquire(&format!("site{i}.example"), ip(i), None)
            .await;
    }
    assert_eq!(throttle.stats().hosts, 20);
    tokio::time::advance(options().throttle_sweep_interval + Duration::from_secs(1)).await;
    throttle.acquire("late.example", ip(200), None).await;
    assert_eq!(throttle.stats().hosts, 1);
}
