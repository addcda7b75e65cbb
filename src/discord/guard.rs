//! The per-user rate limit, and the gate a shutdown closes: no new commands, then wait until
//! the ones in flight have finished, the computer's moves under way among them (from their
//! search to their announcement: [`Gate::enter_owned`]). What arrives meanwhile is answered
//! that the bot is restarting.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// At most `max` commands per user in any `window`; the excess is dropped.
pub struct RateLimiter {
    max: usize,
    window: Duration,
    seen: Mutex<HashMap<u64, VecDeque<Instant>>>,
}

/// What the limiter says of one more command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// Over the limit: say so (once per window).
    Refuse,
    /// Over the limit and already told: stay quiet.
    Drop,
}

impl RateLimiter {
    pub fn new(max: usize, window: Duration) -> RateLimiter {
        RateLimiter {
            max,
            window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a command of `user` now.
    pub fn check(&self, user: u64) -> Verdict {
        self.check_at(user, Instant::now())
    }

    fn check_at(&self, user: u64, now: Instant) -> Verdict {
        let mut seen = match self.seen.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        if seen.len() > 10_000 {
            // Forget users whose window has passed, so the map stays small.
            let window = self.window;
            seen.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        let q = seen.entry(user).or_default();
        while q
            .front()
            .is_some_and(|t| now.duration_since(*t) >= self.window)
        {
            q.pop_front();
        }
        if q.len() < self.max {
            q.push_back(now);
            return Verdict::Allow;
        }
        // Refusals are counted too (up to twice the limit), so a user who keeps hammering is
        // told once and then ignored until the window passes.
        if q.len() == self.max {
            q.push_back(now);
            Verdict::Refuse
        } else {
            Verdict::Drop
        }
    }
}

/// Counts the commands in flight; once closed, admits none.
pub struct Gate {
    closed: AtomicBool,
    running: AtomicUsize,
    idle: Notify,
}

/// A command in flight; dropping it lets the gate drain.
pub struct Pass<'a>(&'a Gate);

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// A piece of work in flight that outlives the call that let it in: the computer's move, from
/// the thread that plays it to the announcement that tells it. Dropping it lets the gate drain.
pub struct OwnedPass(Arc<Gate>);

impl Drop for OwnedPass {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Gate {
    pub fn new() -> Gate {
        Gate {
            closed: AtomicBool::new(false),
            running: AtomicUsize::new(0),
            idle: Notify::new(),
        }
    }

    /// Admits a command, unless the gate is closed.
    pub fn enter(&self) -> Option<Pass<'_>> {
        self.running.fetch_add(1, Ordering::SeqCst);
        let pass = Pass(self);
        if self.closed.load(Ordering::SeqCst) {
            return None;
        }
        Some(pass)
    }

    /// [`Gate::enter`], for work handed from thread to task: the shutdown waits until it is
    /// dropped.
    pub fn enter_owned(self: &Arc<Self>) -> Option<OwnedPass> {
        self.running.fetch_add(1, Ordering::SeqCst);
        let pass = OwnedPass(self.clone());
        if self.closed.load(Ordering::SeqCst) {
            return None;
        }
        Some(pass)
    }

    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Waits until no command is in flight (or the timeout passes: `false`).
    pub async fn drained(&self, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let idle = self.idle.notified();
            if self.running.load(Ordering::SeqCst) == 0 {
                return true;
            }
            if tokio::time::timeout_at(deadline, idle).await.is_err() {
                return self.running.load(Ordering::SeqCst) == 0;
            }
        }
    }
}

impl Default for Gate {
    fn default() -> Self {
        Gate::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_commands_in_ten_seconds_then_one_refusal_then_silence() {
        let l = RateLimiter::new(8, Duration::from_secs(10));
        let t0 = Instant::now();
        for i in 0..8 {
            assert_eq!(l.check_at(1, t0 + Duration::from_millis(i)), Verdict::Allow);
        }
        assert_eq!(
            l.check_at(1, t0 + Duration::from_millis(9)),
            Verdict::Refuse
        );
        assert_eq!(l.check_at(1, t0 + Duration::from_millis(10)), Verdict::Drop);
        // Another user is not affected.
        assert_eq!(l.check_at(2, t0), Verdict::Allow);
        // Once the window has passed, the user may go on.
        assert_eq!(l.check_at(1, t0 + Duration::from_secs(11)), Verdict::Allow);
    }

    #[tokio::test]
    async fn a_closed_gate_admits_nothing_and_drains_when_the_last_command_ends() {
        let g = Gate::new();
        let pass = g.enter().expect("open gate admits");
        g.close();
        assert!(g.enter().is_none());
        assert!(
            !g.drained(Duration::from_millis(20)).await,
            "one command in flight"
        );
        drop(pass);
        assert!(g.drained(Duration::from_millis(20)).await);
    }

    #[tokio::test]
    async fn an_owned_pass_holds_the_drain_until_it_is_dropped_elsewhere() {
        let g = Arc::new(Gate::new());
        let pass = g.enter_owned().expect("open gate admits");
        g.close();
        assert!(
            g.enter_owned().is_none(),
            "a closed gate admits no more work"
        );
        assert!(
            !g.drained(Duration::from_millis(20)).await,
            "work in flight"
        );
        // Handed to another thread and dropped there, as the announcer does.
        std::thread::spawn(move || drop(pass))
            .join()
            .expect("thread");
        assert!(g.drained(Duration::from_millis(20)).await);
    }
}
