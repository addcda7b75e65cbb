//! Standings of a league: points, tie-breaks and places, the round-robin crosstable, and the
//! round-robin withdrawal rule. Pure computation; imports nothing of the store, Discord, i18n
//! or engine.
//!
//! Points (in half points): win 2, draw 1, loss 0, a forfeit win 2, a Swiss bye 2 (a
//! round-robin bye is only a round off: 0). Pending and annulled games count nothing. Byes are
//! not games: they are not in `wins`, `draws`, `losses` or `played`.
//!
//! Tie-breaks (FIDE definitions, on the games that count: finished or forfeited, not pending or
//! annulled):
//! - Sonneborn-Berger (round robin): for each game, the opponent's final score times the
//!   fraction of the game won (1 for a win, ½ for a draw); a double round robin counts each
//!   game. It can be a quarter point, so it is given in quarter points
//!   ([`Tiebreak::per_point`] is 4 for it, 2 for the others).
//! - Buchholz (Swiss): the sum of the final scores of the opponents met, a forfeit counting as a
//!   meeting; a bye adds nothing (no virtual opponent).
//! - Buchholz cut 1: Buchholz minus the smallest single opponent's contribution (0 without
//!   opponents).
//! - Head-to-head: among players equal on points and the tie-breaks before it, the points each
//!   scored in the games between them.
//!
//! Order: players still in the league before those who withdrew (or were removed), then points,
//! then the tie-breaks in order, then player index; players equal on all of these but the index
//! share a place.

use super::{Format, Outcome, Played};

/// A tie-break of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    SonnebornBerger,
    Buchholz,
    BuchholzCut1,
    HeadToHead,
}

impl Tiebreak {
    /// The short name shown in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "sb",
            Tiebreak::Buchholz => "buchholz",
            Tiebreak::BuchholzCut1 => "buchholz-cut-1",
            Tiebreak::HeadToHead => "head-to-head",
        }
    }

    /// Units of the value per point: 4 for Sonneborn-Berger (quarter points: half of a drawn
    /// opponent's 1½ is ¾), 2 (half points) for the others.
    pub fn per_point(self) -> u32 {
        match self {
            Tiebreak::SonnebornBerger => 4,
            _ => 2,
        }
    }

    /// The tie-breaks of a format, in order.
    pub fn of(format: Format) -> &'static [Tiebreak] {
        match format {
            Format::RoundRobin | Format::DoubleRoundRobin => &[Tiebreak::SonnebornBerger],
            Format::Swiss => &[
                Tiebreak::Buchholz,
                Tiebreak::BuchholzCut1,
                Tiebreak::HeadToHead,
            ],
        }
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player: usize,
    pub points2: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub played: u32,
    /// The tie-breaks in order, in half points (Sonneborn-Berger in quarter points: see
    /// [`Tiebreak::per_point`]).
    pub tiebreaks: Vec<(Tiebreak, u32)>,
    /// 1-based; equal players (all tie-breaks equal) share it.
    pub place: u32,
}

/// A game that counts: the two players and the half points each scored.
#[derive(Clone, Copy)]
struct Counted {
    a: usize,
    b: usize,
    pa: u32,
    pb: u32,
}

/// The games that count, and the Swiss byes scored, of players inside `0..players`.
fn counted(format: Format, players: usize, games: &[Played]) -> (Vec<Counted>, Vec<u32>) {
    let mut out = Vec::new();
    let mut byes = vec![0u32; players];
    for g in games {
        let a = g.pairing.first;
        if a >= players {
            continue;
        }
        match g.pairing.second {
            None => {
                if format == Format::Swiss && g.outcome == Outcome::Bye {
                    byes[a] += 2;
                }
            }
            Some(b) if b < players && b != a => {
                if let Some((pa, pb)) = g.outcome.points2() {
                    out.push(Counted { a, b, pa, pb });
                }
            }
            Some(_) => {}
        }
    }
    (out, byes)
}

/// The standings, best first. `withdrawn[i]` (default false) marks players who left or were
/// removed: they are listed after everyone still in the league. Games naming players outside
/// `0..players` are ignored.
pub fn standings(
    format: Format,
    players: usize,
    withdrawn: &[bool],
    games: &[Played],
) -> Vec<Standing> {
    let (games, byes) = counted(format, players, games);
    let mut rows: Vec<Standing> = (0..players)
        .map(|player| Standing {
            player,
            points2: byes[player],
            wins: 0,
            draws: 0,
            losses: 0,
            played: 0,
            tiebreaks: Vec::new(),
            place: 0,
        })
        .collect();
    for g in &games {
        for (me, p) in [(g.a, g.pa), (g.b, g.pb)] {
            let row = &mut rows[me];
            row.points2 += p;
            row.played += 1;
            match p {
                2 => row.wins += 1,
                1 => row.draws += 1,
                _ => row.losses += 1,
            }
        }
    }
    let score: Vec<u32> = rows.iter().map(|r| r.points2).collect();
    // Each player's games as (opponent, points scored).
    let mut mine: Vec<Vec<(usize, u32)>> = vec![Vec::new(); players];
    for g in &games {
        mine[g.a].push((g.b, g.pa));
        mine[g.b].push((g.a, g.pb));
    }
    let out = |i: usize| withdrawn.get(i).copied().unwrap_or(false);
    for (i, row) in rows.iter_mut().enumerate() {
        for &tb in Tiebreak::of(format) {
            let value = match tb {
                Tiebreak::SonnebornBerger => mine[i].iter().map(|&(o, p)| p * score[o]).sum(),
                Tiebreak::Buchholz => mine[i].iter().map(|&(o, _)| score[o]).sum(),
                Tiebreak::BuchholzCut1 => {
                    let all: u32 = mine[i].iter().map(|&(o, _)| score[o]).sum();
                    all - mine[i].iter().map(|&(o, _)| score[o]).min().unwrap_or(0)
                }
                // Filled in below, once the players tied before it are known.
                Tiebreak::HeadToHead => 0,
            };
            row.tiebreaks.push((tb, value));
        }
    }
    // Head-to-head: the points scored against the others of one's tie group (equal on
    // withdrawal, points and the tie-breaks before it).
    if let Some(k) = Tiebreak::of(format)
        .iter()
        .position(|&t| t == Tiebreak::HeadToHead)
    {
        let key = |r: &Standing| (out(r.player), r.points2, r.tiebreaks[..k].to_vec());
        let keys: Vec<_> = rows.iter().map(key).collect();
        for i in 0..players {
            let h2h = mine[i]
                .iter()
                .filter(|&&(o, _)| keys[o] == keys[i])
                .map(|&(_, p)| p)
                .sum();
            rows[i].tiebreaks[k].1 = h2h;
        }
    }
    let rank_key = |r: &Standing| {
        (
            out(r.player),
            std::cmp::Reverse(r.points2),
            r.tiebreaks
                .iter()
                .map(|&(_, v)| std::cmp::Reverse(v))
                .collect::<Vec<_>>(),
        )
    };
    rows.sort_by_key(|r| (rank_key(r), r.player));
    for i in 0..rows.len() {
        rows[i].place = if i > 0 && rank_key(&rows[i]) == rank_key(&rows[i - 1]) {
            rows[i - 1].place
        } else {
            i as u32 + 1
        };
    }
    rows
}

/// Round robin crosstable: cell [i][j] = the outcomes of i against j (0, 1 or 2 entries:
/// Some(points2 for i) per game, None pending), for the crosstable picture. Games in round
/// order; annulled games and byes are left out, forfeits show as the points they gave.
pub fn crosstable(players: usize, games: &[Played]) -> Vec<Vec<Vec<Option<u32>>>> {
    let mut cells = vec![vec![Vec::new(); players]; players];
    let mut ordered: Vec<&Played> = games.iter().collect();
    ordered.sort_by_key(|g| g.round);
    for g in ordered {
        let a = g.pairing.first;
        let Some(b) = g.pairing.second else { continue };
        if a >= players || b >= players || a == b || g.outcome == Outcome::Annulled {
            continue;
        }
        let points = g.outcome.points2();
        cells[a][b].push(points.map(|p| p.0));
        cells[b][a].push(points.map(|p| p.1));
    }
    cells
}

/// What happens to the games of a round-robin player who leaves after the start: if they
/// finished fewer than half of their scheduled games, all their games are annulled (results
/// removed for everyone); otherwise their unfinished games are forfeits (the opponent wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    Annul,
    Forfeit,
}

/// The withdrawal rule: annul when `finished * 2 < scheduled` (fewer than half finished), else
/// forfeit. Exactly half finished is a forfeit: the results stand.
pub fn round_robin_withdrawal(finished: u32, scheduled: u32) -> Withdrawal {
    if u64::from(finished) * 2 < u64::from(scheduled) {
        Withdrawal::Annul
    } else {
        Withdrawal::Forfeit
    }
}

/// Applies the withdrawal rule to the round-robin `games` of `player` who leaves: counts their
/// scheduled games (byes are not games; games already annulled are not counted) and finished
/// ones (decided, forfeits included), then either annuls all of their games or turns their
/// pending ones into forfeit wins for the opponents. Returns the rule applied.
pub fn withdraw(player: usize, games: &mut [Played]) -> Withdrawal {
    let theirs = |g: &Played| g.pairing.second.is_some() && g.pairing.involves(player);
    let scheduled = games
        .iter()
        .filter(|g| theirs(g) && g.outcome != Outcome::Annulled)
        .count();
    let finished = games
        .iter()
        .filter(|g| theirs(g) && g.outcome.points2().is_some())
        .count();
    let rule = round_robin_withdrawal(
        u32::try_from(finished).unwrap_or(u32::MAX),
        u32::try_from(scheduled).unwrap_or(u32::MAX),
    );
    for g in games.iter_mut().filter(|g| theirs(g)) {
        g.outcome = match (rule, g.outcome) {
            (Withdrawal::Annul, _) => Outcome::Annulled,
            (Withdrawal::Forfeit, Outcome::Pending) if g.pairing.first == player => {
                Outcome::SecondWinsByForfeit
            }
            (Withdrawal::Forfeit, Outcome::Pending) => Outcome::FirstWinsByForfeit,
            (Withdrawal::Forfeit, other) => other,
        };
    }
    rule
}
