//! Long work: the computer's searches, analyses and replays, bounded for the whole process
//! (issue 49, points 15 and 20).
//!
//! Such work runs on the places of one [`Pool`]: by default the cores but one
//! ([`default_long_limit`]), so that a core is always left to the commands of every other
//! player, however many games the computer thinks about and however many analyses are asked.
//! Each job is single-threaded (the computer searches on one thread in the bot, an analysis
//! too), so the places are the cores it may use.
//!
//! - **First come, first served**, but the computer first: its moves are short (a second at
//!   most, at level 5) and a player waits for each, so its tickets go ahead of the players'
//!   analyses and replays (not of each other).
//! - **Bounded queue.** A player may have [`MAX_LONG_PER_USER`] long requests queued or running
//!   at once, and at most [`MAX_LONG_WAITING`] requests of players wait in all; beyond either,
//!   a request is refused at once with a clear message ([`Busy`]) instead of waiting an hour.
//! - **No thread held while queued.** A transport on an async runtime takes a [`Ticket`] (the
//!   checks above), awaits [`Ticket::ready`] on the runtime, and only then runs the command on a
//!   blocking thread, with the place bound to that thread ([`AnalysisSlot::bind`]); the command
//!   then finds its place there instead of queueing again. A ticket dropped while it waits (the
//!   interaction's token expired, the task was cancelled) leaves the queue.
//! - Synchronous callers (the console, tests) wait on the thread with [`Ticket::wait`], told
//!   their place in the queue as it changes.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Long requests (analyses, replays) one player may have queued or running at once.
pub const MAX_LONG_PER_USER: usize = 2;

/// Long requests of players that may wait for a place in all; the computer's moves do not
/// count (they are bounded by its own queue).
pub const MAX_LONG_WAITING: usize = 16;

/// Test switch: `TEGAMI_FAULT_LONG_PAUSED=1` hands out no place of the long work in this
/// process, so that requests stay queued for as long as a test looks at them (the computer's
/// moves too). For tests only.
pub const FAULT_LONG_PAUSED: &str = "TEGAMI_FAULT_LONG_PAUSED";

/// How many long jobs may run at once by default: the cores but one (for the commands), at
/// least one.
pub fn default_long_limit() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// Why a long request was refused at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// The player already has [`MAX_LONG_PER_USER`] long requests queued or running.
    Yours(usize),
    /// [`MAX_LONG_WAITING`] requests already wait.
    Full(usize),
}

/// A bounded number of places for long work, handed out in order (see the module's doc).
pub struct Pool {
    state: Mutex<State>,
    /// Wakes the threads that wait ([`Ticket::wait`]).
    turn: Condvar,
    /// Wakes the tasks that wait ([`Ticket::ready`]).
    freed: tokio::sync::Notify,
}

struct State {
    limit: usize,
    /// No place is handed out (the test switch [`FAULT_LONG_PAUSED`]).
    paused: bool,
    running: usize,
    next_ticket: u64,
    /// The requests waiting, in the order they will run.
    waiting: VecDeque<Waiter>,
    /// Long requests queued or running, by player.
    by_user: HashMap<String, usize>,
}

struct Waiter {
    ticket: u64,
    /// The computer's: ahead of the players'.
    first: bool,
}

impl Pool {
    /// A pool of `limit` places (at least one).
    pub fn new(limit: usize) -> Arc<Pool> {
        Arc::new(Pool {
            state: Mutex::new(State {
                limit: limit.max(1),
                paused: std::env::var_os(FAULT_LONG_PAUSED).is_some_and(|v| v == "1"),
                running: 0,
                next_ticket: 0,
                waiting: VecDeque::new(),
                by_user: HashMap::new(),
            }),
            turn: Condvar::new(),
            freed: tokio::sync::Notify::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes every waiter, threads and tasks: a place was freed or the queue moved.
    fn wake(&self) {
        self.turn.notify_all();
        self.freed.notify_waiters();
    }

    /// Changes the number of places (at least one); a larger pool lets waiters in at once.
    pub fn set_limit(&self, limit: usize) {
        self.lock().limit = limit.max(1);
        self.wake();
    }

    /// (running, waiting) now.
    pub fn load(&self) -> (usize, usize) {
        let st = self.lock();
        (st.running, st.waiting.len())
    }

    /// A place in the queue for a player's long request (`user`), refused at once beyond the
    /// caps; `None`: the computer's, which goes ahead of the players' and is never refused.
    pub fn enter(self: &Arc<Pool>, user: Option<&str>) -> Result<Ticket, Busy> {
        let mut st = self.lock();
        if let Some(u) = user {
            let mine = st.by_user.get(u).copied().unwrap_or(0);
            if mine >= MAX_LONG_PER_USER {
                return Err(Busy::Yours(mine));
            }
            let players = st.waiting.iter().filter(|w| !w.first).count();
            if players >= MAX_LONG_WAITING {
                return Err(Busy::Full(players));
            }
            *st.by_user.entry(u.to_string()).or_default() += 1;
        }
        let ticket = st.next_ticket;
        st.next_ticket += 1;
        let first = user.is_none();
        let at = if first {
            st.waiting.iter().take_while(|w| w.first).count()
        } else {
            st.waiting.len()
        };
        st.waiting.insert(at, Waiter { ticket, first });
        drop(st);
        // A ticket put ahead moves those behind back: they are told.
        if first {
            self.wake();
        }
        Ok(Ticket {
            pool: self.clone(),
            ticket,
            user: user.map(str::to_string),
            armed: true,
        })
    }

    /// Gives back a player's count (a request left the queue or ended).
    fn forget(st: &mut State, user: &Option<String>) {
        if let Some(u) = user {
            if let Some(n) = st.by_user.get_mut(u) {
                *n -= 1;
                if *n == 0 {
                    st.by_user.remove(u);
                }
            }
        }
    }
}

/// A request's place in the queue ([`Pool::enter`]); it leaves the queue when dropped before
/// it got a place.
pub struct Ticket {
    pool: Arc<Pool>,
    ticket: u64,
    user: Option<String>,
    armed: bool,
}

impl Ticket {
    /// The place in the queue (1: next) if still waiting for a place, or the place itself.
    fn try_take(&mut self) -> Result<AnalysisSlot, usize> {
        let mut st = self.pool.lock();
        let place = st
            .waiting
            .iter()
            .position(|w| w.ticket == self.ticket)
            .map_or(1, |i| i + 1);
        if place == 1 && st.running < st.limit && !st.paused {
            st.waiting.pop_front();
            st.running += 1;
            self.armed = false;
            drop(st);
            // Those behind move up.
            self.pool.wake();
            return Ok(AnalysisSlot {
                pool: self.pool.clone(),
                user: self.user.take(),
            });
        }
        Err(place)
    }

    /// Waits on this thread for a place, calling `told` with the place in the queue (1: next)
    /// when waiting starts and whenever it changes.
    pub fn wait(mut self, told: impl Fn(usize)) -> AnalysisSlot {
        let mut shown = 0;
        loop {
            let place = match self.try_take() {
                Ok(slot) => return slot,
                Err(place) => place,
            };
            if place != shown {
                shown = place;
                told(place);
                continue;
            }
            let st = self.pool.lock();
            // Looked at again under the lock: a change between the two is not missed.
            let now = st
                .waiting
                .iter()
                .position(|w| w.ticket == self.ticket)
                .map_or(1, |i| i + 1);
            if now == place && !(place == 1 && st.running < st.limit && !st.paused) {
                drop(self.pool.turn.wait(st).unwrap_or_else(|e| e.into_inner()));
            }
        }
    }

    /// Waits on the async runtime for a place, holding no thread meanwhile.
    pub async fn ready(mut self) -> AnalysisSlot {
        let pool = self.pool.clone();
        loop {
            let notified = pool.freed.notified();
            tokio::pin!(notified);
            // Registered before looking, so a place freed between the look and the wait wakes
            // this task.
            notified.as_mut().enable();
            if let Ok(slot) = self.try_take() {
                return slot;
            }
            notified.await;
        }
    }

    /// [`Ticket::ready`], calling `told` with the place in the queue (1: next) when waiting
    /// starts and whenever it changes, as [`Ticket::wait`] does.
    pub async fn ready_telling(mut self, mut told: impl FnMut(usize)) -> AnalysisSlot {
        let pool = self.pool.clone();
        let mut shown = 0;
        loop {
            let notified = pool.freed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            match self.try_take() {
                Ok(slot) => return slot,
                Err(place) if place != shown => {
                    shown = place;
                    told(place);
                }
                Err(_) => {}
            }
            notified.await;
        }
    }

    /// This ticket's place in the queue now (1: next).
    pub fn place(&self) -> usize {
        self.pool
            .lock()
            .waiting
            .iter()
            .position(|w| w.ticket == self.ticket)
            .map_or(1, |i| i + 1)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.armed {
            let mut st = self.pool.lock();
            st.waiting.retain(|w| w.ticket != self.ticket);
            Pool::forget(&mut st, &self.user);
            drop(st);
            self.pool.wake();
        }
    }
}

/// A place in the pool of long work, given back when dropped.
pub struct AnalysisSlot {
    pool: Arc<Pool>,
    user: Option<String>,
}

thread_local! {
    /// The place a transport took for the command this thread runs ([`AnalysisSlot::bind`]).
    static BOUND: RefCell<Option<AnalysisSlot>> = const { RefCell::new(None) };
}

impl AnalysisSlot {
    /// Binds the place to this thread for the command it is about to run: the command's long
    /// work takes it ([`take_bound`]) instead of queueing again. Given back when the returned
    /// guard drops, if the command did not take it.
    pub fn bind(self) -> Bound {
        BOUND.with(|b| *b.borrow_mut() = Some(self));
        Bound(())
    }
}

/// The binding of a place to a thread ([`AnalysisSlot::bind`]).
pub struct Bound(());

impl Drop for Bound {
    fn drop(&mut self) {
        BOUND.with(|b| b.borrow_mut().take());
    }
}

/// The place bound to this thread, if a transport took one for the command it runs.
pub fn take_bound() -> Option<AnalysisSlot> {
    BOUND.with(|b| b.borrow_mut().take())
}

impl Drop for AnalysisSlot {
    fn drop(&mut self) {
        let mut st = self.pool.lock();
        st.running = st.running.saturating_sub(1);
        Pool::forget(&mut st, &self.user);
        drop(st);
        self.pool.wake();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_serves_in_order_and_tells_each_its_place() {
        let pool = Pool::new(1);
        let held = pool.enter(Some("c")).unwrap().wait(|_| panic!("free"));
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|s| {
            for name in ["a", "b"] {
                let tx = tx.clone();
                let pool = &pool;
                s.spawn(move || {
                    let told = Mutex::new(tx.clone());
                    let slot = pool
                        .enter(Some(name))
                        .unwrap()
                        .wait(|p| told.lock().unwrap().send(format!("{name}{p}")).unwrap());
                    tx.send(format!("{name} runs")).unwrap();
                    drop(slot);
                });
                // Each is queued before the next comes.
                let got = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
                assert_eq!(got, if name == "a" { "a1" } else { "b2" });
            }
            drop(held);
        });
        let rest: Vec<String> = rx.try_iter().collect();
        let runs: Vec<&String> = rest.iter().filter(|m| m.ends_with("runs")).collect();
        assert_eq!(runs, ["a runs", "b runs"], "{rest:?}");
        // b is told "b1" only if it still waits once a runs (it may run at once).
        assert!(
            rest.iter().all(|m| m.ends_with("runs") || m == "b1"),
            "{rest:?}"
        );
        assert_eq!(pool.load(), (0, 0));
    }

    #[test]
    fn the_computer_goes_ahead_of_the_players_and_the_queue_is_bounded() {
        let pool = Pool::new(1);
        let held = pool.enter(Some("alice")).unwrap().wait(|_| {});
        let a2 = pool.enter(Some("alice")).unwrap();
        // Alice has two: a third is refused, whatever the queue.
        assert_eq!(pool.enter(Some("alice")).err(), Some(Busy::Yours(2)));
        let b = pool.enter(Some("bob")).unwrap();
        let c = pool.enter(None).unwrap();
        let c2 = pool.enter(None).unwrap();
        assert_eq!((c.place(), c2.place(), a2.place(), b.place()), (1, 2, 3, 4));
        // A ticket given up leaves the queue and frees its player's count.
        drop(a2);
        assert_eq!(b.place(), 3);
        let a3 = pool.enter(Some("alice")).unwrap();
        assert_eq!(a3.place(), 4);
        drop(held);
        let c = c.wait(|_| {});
        assert_eq!(pool.load(), (1, 3));
        drop((c, c2, b, a3));
        assert_eq!(pool.load(), (0, 0));
        // Everybody's counts are back to zero.
        assert!(pool.lock().by_user.is_empty());
    }

    #[test]
    fn the_players_waiting_in_all_are_capped() {
        let pool = Pool::new(1);
        let _held = pool.enter(None).unwrap().wait(|_| {});
        let tickets: Vec<Ticket> = (0..MAX_LONG_WAITING)
            .map(|i| pool.enter(Some(&format!("p{i}"))).unwrap())
            .collect();
        assert_eq!(
            pool.enter(Some("late")).err(),
            Some(Busy::Full(MAX_LONG_WAITING))
        );
        // The computer is never refused.
        assert!(pool.enter(None).is_ok());
        drop(tickets);
        assert!(pool.enter(Some("late")).is_ok());
    }

    #[test]
    fn a_task_waits_for_a_place_without_a_thread_and_leaves_when_cancelled() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let pool = Pool::new(1);
            let held = pool.enter(Some("alice")).unwrap().wait(|_| {});
            // A cancelled wait (an expired interaction) leaves the queue.
            let t = pool.enter(Some("bob")).unwrap();
            let gave_up =
                tokio::time::timeout(std::time::Duration::from_millis(1), t.ready()).await;
            assert!(gave_up.is_err());
            assert_eq!(pool.load(), (1, 0));
            // A waiting task gets the place as soon as it is freed, told its place meanwhile.
            let t = pool.enter(Some("bob")).unwrap();
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
            let waiter = tokio::spawn(t.ready_telling(move |p| tx.send(p).unwrap()));
            assert_eq!(rx.recv().await, Some(1));
            assert_eq!(pool.load(), (1, 1));
            // The computer goes ahead: bob is told he moved back.
            let c = pool.enter(None).unwrap();
            assert_eq!(rx.recv().await, Some(2));
            drop(c);
            assert_eq!(rx.recv().await, Some(1));
            drop(held);
            let slot = waiter.await.unwrap();
            assert_eq!(pool.load(), (1, 0));
            // Bound to a thread, the place is taken by the command, or given back.
            let guard = slot.bind();
            let taken = take_bound();
            assert!(taken.is_some());
            drop(guard);
            assert_eq!(pool.load(), (1, 0), "taken: held by the command");
            drop(taken);
            assert_eq!(pool.load(), (0, 0));
            let guard = pool.enter(None).unwrap().wait(|_| {}).bind();
            drop(guard);
            assert_eq!(pool.load(), (0, 0), "not taken: given back with the guard");
        });
    }
}
