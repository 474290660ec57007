//! Watching a long run: periodic progress reports and a way to stop early.
//!
//! The event loop must stay cheap, so it only reads the clock every `CHECK_EVERY` events and calls
//! the monitor when `interval` has passed since the last report. The monitor answers whether to go
//! on; a run told to stop returns what it has so far, marked partial (`SimOutput::stopped`), instead
//! of an error, so an interrupted 10-minute run still shows where it got to.
use std::time::{Duration, Instant};

/// Events between two clock reads (a clock read costs about as much as one event).
pub const CHECK_EVERY: u64 = 1 << 12;

/// Where a run is, as the monitor sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Simulated time reached, ns.
    pub sim_time_ns: f64,
    pub events: u64,
    /// Wall time since the event loop started, s.
    pub wall_s: f64,
    /// Algorithm steps executed so far and the estimated total (one step = one member's send /
    /// wait round of one chunk in one phase); `steps_done / steps_total` drives the ETA.
    pub steps_done: u64,
    pub steps_total: u64,
}

impl Progress {
    /// Fraction of the estimated work done, in [0, 1].
    pub fn fraction(&self) -> f64 {
        if self.steps_total == 0 {
            0.0
        } else {
            (self.steps_done as f64 / self.steps_total as f64).min(1.0)
        }
    }
}

/// Told how a run is going every `interval`; returns false to stop the run (partial result).
pub trait Monitor {
    fn report(&mut self, progress: &Progress) -> bool;
}

/// The monitor of a run nobody watches.
pub struct Unwatched;

impl Monitor for Unwatched {
    fn report(&mut self, _: &Progress) -> bool {
        true
    }
}

/// Rate-limits calls to a monitor: `due` is checked every `CHECK_EVERY` events.
pub struct Ticker {
    start: Instant,
    last: Instant,
    interval: Duration,
}

impl Ticker {
    pub fn new(interval: Duration) -> Self {
        let now = Instant::now();
        Ticker { start: now, last: now, interval }
    }

    /// Wall seconds since the start when a report is due, else None.
    pub fn due(&mut self) -> Option<f64> {
        let now = Instant::now();
        if now.duration_since(self.last) < self.interval {
            return None;
        }
        self.last = now;
        Some(now.duration_since(self.start).as_secs_f64())
    }
}
