//! Time zones (issue 23): the zone a player chose (`settings timezone=Asia/Tokyo`, an IANA
//! name), the times shown to them in it, and the local days and hours their daily digest keeps
//! to. Zones come from jiff's own copy of the IANA database, compiled in: the same on every
//! machine, with or without a system zone database.
//!
//! A [`Zone`] is small and copyable (a [`Voice`](super::Voice) carries one): the canonical name
//! of a zone, borrowed from the list of names read once from the database; UTC when none was
//! chosen. Times in public posts stay in UTC ([`format_time`](super::format_time)); a time in a
//! reply or a notice to a player is written in their zone ([`Zone::time`]), with the zone's
//! abbreviation (`JST`, `CET`, or an offset such as `+04` where the zone has none).
//!
//! What a local hour is when a DST change skips or repeats it: a skipped hour (02:00 on the day
//! clocks go forward) is the first instant after the gap (03:00), a repeated one the first of
//! the two (jiff's "compatible" rule, as RFC 5545 calendars do).

use std::sync::LazyLock;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::Timestamp;

/// Every zone name of the database, sorted (the list the `timezone` option completes from).
static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut names: Vec<String> = jiff::tz::db()
        .available()
        .map(|n| n.as_str().to_string())
        .collect();
    names.sort();
    names.dedup();
    names
});

/// The database's names of UTC itself.
const UTC_NAMES: &[&str] = &[
    "UTC",
    "Etc/UTC",
    "Etc/UCT",
    "UCT",
    "Etc/Universal",
    "Universal",
    "Etc/Zulu",
    "Zulu",
];

/// A time zone of the IANA database by its canonical name (`Asia/Tokyo`); UTC by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Zone(Option<&'static str>);

impl Zone {
    /// Coordinated Universal Time: everyone's zone until they choose one.
    pub const UTC: Zone = Zone(None);

    /// The zone a player names, without regard to case (`asia/tokyo` is `Asia/Tokyo`); `UTC`
    /// (and its aliases) is [`Zone::UTC`]. `None` for a name the database does not have.
    pub fn named(name: &str) -> Option<Zone> {
        let name = name.trim();
        if name.is_empty() {
            return None;
        }
        let tz = jiff::tz::db().get(name).ok()?;
        let canonical = tz.iana_name()?;
        if tz == TimeZone::UTC || UTC_NAMES.contains(&canonical) {
            return Some(Zone::UTC);
        }
        let i = NAMES.binary_search_by(|n| n.as_str().cmp(canonical)).ok()?;
        Some(Zone(Some(NAMES[i].as_str())))
    }

    /// The zone's name, as stored and shown: `Asia/Tokyo`, or `UTC`.
    pub fn name(self) -> &'static str {
        self.0.unwrap_or("UTC")
    }

    /// Whether this is UTC (no zone chosen).
    pub fn is_utc(self) -> bool {
        self.0.is_none()
    }

    /// The zone's rules (UTC if the database were to lose a name it gave).
    fn tz(self) -> TimeZone {
        match self.0 {
            None => TimeZone::UTC,
            Some(n) => jiff::tz::db().get(n).unwrap_or(TimeZone::UTC),
        }
    }

    /// A date and time for a reader in this zone: `2026-11-26 04:53 JST`; in UTC exactly
    /// [`format_time`](super::format_time)'s `2026-11-25 19:53 UTC`.
    pub fn time(self, t: i64) -> String {
        if self.is_utc() {
            return super::format_time(t);
        }
        match Timestamp::from_second(t) {
            Ok(ts) => {
                let z = ts.to_zoned_datetime(self.tz());
                format!(
                    "{:04}-{:02}-{:02} {:02}:{:02} {}",
                    z.year(),
                    z.month(),
                    z.day(),
                    z.hour(),
                    z.minute(),
                    z.strftime("%Z")
                )
            }
            Err(_) => t.to_string(),
        }
    }

    /// The local date of the instant `t` (Unix seconds) in this zone.
    pub fn date_of(self, t: i64) -> Option<Date> {
        Timestamp::from_second(t)
            .ok()
            .map(|ts| ts.to_zoned_datetime(self.tz()).date())
    }

    /// The instant `hour`:00 of the local day `date` in this zone (hours 0 to 23; a skipped
    /// hour is the first instant after the gap, a repeated one the first of the two).
    pub fn at_hour(self, date: Date, hour: u8) -> Option<i64> {
        let hour = i8::try_from(hour).ok().filter(|h| (0..24).contains(h))?;
        date.at(hour, 0, 0, 0)
            .to_zoned_datetime(self.tz())
            .ok()
            .map(|z| z.timestamp().as_second())
    }

    /// The first `hour`:00 in this zone strictly after `t`: the next daily digest after one
    /// sent at `t`. A digest sent late (after midnight, for the day before) keeps the next
    /// day's, and one sent after days away plans one digest, not one a day missed.
    pub fn next_hour_after(self, t: i64, hour: u8) -> Option<i64> {
        let mut day = self.date_of(t)?;
        for _ in 0..3 {
            let at = self.at_hour(day, hour)?;
            if at > t {
                return Some(at);
            }
            day = day.tomorrow().ok()?;
        }
        None
    }

    /// The first `hour`:00 in this zone at or after `now` on a local day after that of `last`
    /// (the last digest, if any): the first digest planned when a player sets their hour or
    /// zone. At most one digest a local day, and none at once for an hour already past today.
    pub fn first_hour_from(self, now: i64, last: Option<i64>, hour: u8) -> Option<i64> {
        let mut day = self.date_of(now)?;
        if let Some(after) = last.and_then(|l| self.date_of(l)) {
            while day <= after {
                day = day.tomorrow().ok()?;
            }
        }
        for _ in 0..3 {
            let at = self.at_hour(day, hour)?;
            if at >= now {
                return Some(at);
            }
            day = day.tomorrow().ok()?;
        }
        None
    }
}

/// The zone names that contain `typed` (case and `_`/space aside), the best first: names that
/// start with it, then names whose city starts with it (`tok` finds `Asia/Tokyo`), then the
/// rest; at most `limit`.
pub fn suggest_zones(typed: &str, limit: usize) -> Vec<&'static str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace(' ', "_");
    let want = norm(typed.trim());
    let mut first = Vec::new();
    let mut city = Vec::new();
    let mut rest = Vec::new();
    for n in NAMES.iter() {
        let low = n.to_ascii_lowercase();
        if low.starts_with(&want) {
            first.push(n.as_str());
        } else if low.rsplit('/').next().is_some_and(|c| c.starts_with(&want)) {
            city.push(n.as_str());
        } else if low.contains(&want) {
            rest.push(n.as_str());
        }
    }
    first
        .into_iter()
        .chain(city)
        .chain(rest)
        .take(limit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-25T19:53:00Z.
    const T: i64 = 1_795_636_380;

    #[test]
    fn zones_are_found_by_name_whatever_the_case_and_utc_is_the_default() {
        let tokyo = Zone::named("asia/TOKYO").expect("Asia/Tokyo");
        assert_eq!(tokyo.name(), "Asia/Tokyo");
        assert_eq!(Zone::named("UTC"), Some(Zone::UTC));
        assert_eq!(Zone::named("Etc/UTC"), Some(Zone::UTC));
        assert_eq!(Zone::default(), Zone::UTC);
        assert_eq!(Zone::UTC.name(), "UTC");
        for bad in ["", "Mars/Olympus", "Asia", "JST+9", "../../etc/passwd"] {
            assert_eq!(Zone::named(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn times_are_written_in_the_readers_zone() {
        assert_eq!(Zone::UTC.time(T), "2026-11-25 19:53 UTC");
        assert_eq!(Zone::UTC.time(T), super::super::format_time(T));
        let tokyo = Zone::named("Asia/Tokyo").expect("Asia/Tokyo");
        assert_eq!(tokyo.time(T), "2026-11-26 04:53 JST");
        let paris = Zone::named("Europe/Paris").expect("Europe/Paris");
        assert_eq!(paris.time(T), "2026-11-25 20:53 CET");
        // Summer time: CEST.
        assert_eq!(paris.time(T - 150 * 86_400), "2026-06-28 21:53 CEST");
    }

    #[test]
    fn a_tokyo_hour_of_8_is_23_00_utc_the_day_before() {
        let tokyo = Zone::named("Asia/Tokyo").expect("Asia/Tokyo");
        // 2026-11-25T20:00Z is 05:00 on the 26th in Tokyo: the next 08:00 there is 23:00Z.
        let t = 1_795_636_800;
        let next = tokyo.next_hour_after(t, 8).expect("an hour");
        assert_eq!(Zone::UTC.time(next), "2026-11-25 23:00 UTC");
        // Right at it, the next one is a day later.
        assert_eq!(tokyo.next_hour_after(next, 8), Some(next + 86_400));
        // Chosen at 05:00 there: today's 08:00; with a digest already sent today: tomorrow's.
        assert_eq!(tokyo.first_hour_from(t, None, 8), Some(next));
        assert_eq!(
            tokyo.first_hour_from(t, Some(t - 3600), 8),
            Some(next + 86_400)
        );
        // Chosen at 09:00 there: not at once, tomorrow's.
        assert_eq!(
            tokyo.first_hour_from(next + 3600, None, 8),
            Some(next + 86_400)
        );
    }

    #[test]
    fn an_hour_a_dst_change_skips_is_the_first_instant_after_it() {
        // 2026-03-29 in Paris: 02:00 is skipped (01:59 CET, then 03:00 CEST = 01:00Z).
        let paris = Zone::named("Europe/Paris").expect("Europe/Paris");
        let day = Date::new(2026, 3, 29).expect("a date");
        let at = paris.at_hour(day, 2).expect("an instant");
        assert_eq!(Zone::UTC.time(at), "2026-03-29 01:00 UTC");
        // The day has 23 hours: 08:00 comes 23 hours after the day before's.
        let before = paris.at_hour(day.yesterday().expect("a date"), 8).unwrap();
        assert_eq!(paris.next_hour_after(before, 8), Some(before + 23 * 3600));
    }

    #[test]
    fn zone_names_are_suggested_from_what_is_typed() {
        let s = suggest_zones("tok", 25);
        assert_eq!(s.first(), Some(&"Asia/Tokyo"));
        let s = suggest_zones("america/new", 25);
        assert!(s.contains(&"America/New_York"), "{s:?}");
        assert!(suggest_zones("", 25).len() == 25);
        assert!(suggest_zones("zzzz-nothing", 25).is_empty());
    }
}
