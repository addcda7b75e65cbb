//! Outbox ids: chosen by the core before the transaction that stores a notice (so that a
//! command can mark its own notices sent once it delivered them), positive, unique per process,
//! growing with time within a process, and unlikely to collide between processes.
//!
//! An id is the microseconds since [`ID_EPOCH_MICROS`] (2024-01-01) shifted left by 12 bits, plus 12
//! random bits. 51 bits of microseconds last 71 years: ids stay positive until 2095. (The first
//! scheme counted from 1970 and overflowed `i64` in 2041.) Ids made before this scheme are
//! larger than those made after it, so nothing orders notices by id alone: the outbox delivers
//! by `created_at`, then id.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// The origin of ids: 2024-01-01T00:00:00Z, in microseconds since 1970.
pub(crate) const ID_EPOCH_MICROS: i64 = 1_704_067_200_000_000;

/// The id of a notice made at `unix_micros` (microseconds since 1970) with the random bits
/// `random` (only the low 12 are used): never below 1 (a clock before 2024 gives the smallest
/// ids), and larger for a later time whatever the random bits.
pub(crate) fn notice_id_at(unix_micros: i64, random: u64) -> i64 {
    let since = unix_micros.saturating_sub(ID_EPOCH_MICROS).max(0);
    (since.saturating_mul(1 << 12) | (random & 0xfff) as i64).max(1)
}

/// A fresh outbox id: [`notice_id_at`] the system time, with 12 random bits (from the operating
/// system's randomness, through std's hasher keys), and above the last id this process made.
/// Two processes sharing a database collide only if they make a notice in the same microsecond
/// with the same random bits; the insert then fails and the command is refused whole (nothing
/// half done), to be sent again.
pub(crate) fn new_notice_id() -> i64 {
    use std::hash::{BuildHasher, Hasher};
    static LAST: AtomicI64 = AtomicI64::new(0);
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX));
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let fresh = notice_id_at(micros, h.finish());
    let prev = LAST
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| {
            Some(fresh.max(last + 1))
        })
        .unwrap_or(0);
    fresh.max(prev + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Microseconds since 1970 of the first instant of `year` (UTC).
    fn micros_of(year: i32) -> i64 {
        let date = time::Date::from_calendar_date(year, time::Month::January, 1).expect("a date");
        date.midnight().assume_utc().unix_timestamp() * 1_000_000
    }

    #[test]
    fn ids_made_in_2045_are_positive_and_above_those_of_2030() {
        let (y2030, y2045) = (micros_of(2030), micros_of(2045));
        for random in [0, 1, 0xfff, u64::MAX] {
            let (a, b) = (notice_id_at(y2030, random), notice_id_at(y2045, random));
            assert!(a > 0 && b > 0, "{a} {b}");
            assert!(b > a, "2045: {b} > 2030: {a}");
            // The random bits never outweigh a microsecond.
            assert!(notice_id_at(y2030 + 1, 0) > notice_id_at(y2030, random));
        }
        // The old scheme (microseconds since 1970 << 12) overflowed before 2045.
        assert!((y2045 as i128) << 12 > i64::MAX as i128);
    }

    #[test]
    fn ids_last_until_2095_and_are_never_below_one() {
        let last = micros_of(2095) - 1;
        assert!(notice_id_at(last, u64::MAX) > notice_id_at(micros_of(2094), 0));
        assert!(notice_id_at(last, u64::MAX) > 0);
        assert_eq!(notice_id_at(0, 0), 1, "a clock before 2024");
        assert_eq!(notice_id_at(ID_EPOCH_MICROS, 5), 5);
    }

    #[test]
    fn fresh_ids_grow_and_differ() {
        let ids: Vec<i64> = (0..10_000).map(|_| new_notice_id()).collect();
        assert!(ids.windows(2).all(|w| w[1] > w[0]), "strictly growing");
        assert!(ids[0] > 0);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_micros() as i64;
        assert!(
            *ids.last().expect("ids") <= notice_id_at(now, 0xfff) + 10_000,
            "made from the time"
        );
    }
}
