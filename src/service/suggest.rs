//! Move suggestions as a player types (Discord's autocomplete of `/move`): the legal moves of
//! the caller's game in the notation players type, filtered by what they typed.
//!
//! Autocomplete must answer within Discord's three seconds, and it is asked again at every
//! key press. So the game is found on the stored rows (no game is replayed to find it), the
//! legal moves are written in one linear pass (`notation::human_all`), and the written list
//! is cached per game and version: the next key press only filters it. A move changes the
//! version, so a cached list is never stale.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::*;
use crate::engine::notation::Notation;

/// One suggestion: what the list shows, and what is put in the option when it is picked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub label: String,
    pub value: String,
}

/// A game's legal moves as (human notation, move code), sorted by notation.
type Written = Arc<Vec<(String, String)>>;

/// How many games' lists are kept; past it the cache starts again (a list is cheap to make
/// once, and only games being played are asked about).
const CACHED_GAMES: usize = 4096;

/// Written move lists per game and notation, with the version they were written for.
#[derive(Default)]
pub(crate) struct Cache(Mutex<HashMap<(i64, Notation), (i64, Written)>>);

impl Cache {
    fn get(&self, game: i64, notation: Notation, version: i64) -> Option<Written> {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&(game, notation))
            .filter(|(v, _)| *v == version)
            .map(|(_, w)| w.clone())
    }

    fn put(&self, game: i64, notation: Notation, version: i64, written: Written) {
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= CACHED_GAMES && !map.contains_key(&(game, notation)) {
            map.clear();
        }
        map.insert((game, notation), (version, written));
    }
}

/// What a player typed, for matching: lower case, without the separators notations differ in.
fn key(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | ' ' | '(' | ')'))
        .flat_map(char::to_lowercase)
        .collect()
}

impl Service {
    /// Up to `limit` legal moves of the caller's game (`game`, else the one a move without a
    /// game number would be played in: see `pick_row`) matching `typed` (moves that start with
    /// it first, then moves that contain it), written in the notation the player chose and
    /// labelled with the move code. Empty when the caller has no such game here or it is not
    /// their turn. Never fails: autocomplete has no way to show an error, so a failure is
    /// logged and answered with no suggestion.
    pub fn suggest_moves(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        typed: &str,
        limit: usize,
    ) -> Vec<Suggestion> {
        match self.try_suggest(user, place, game, typed, limit) {
            Ok(list) => list,
            Err(e) => {
                tracing::warn!(user = %user.id, "no move suggestions: {e}");
                Vec::new()
            }
        }
    }

    fn try_suggest(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<Suggestion>, CoreError> {
        let row = match game {
            Some(id) => self
                .store
                .game(id)?
                .filter(|r| r.status == GameStatus::Active && self.visible(user, place, r)),
            // No game, or several with none standing out: nothing to suggest.
            None => match self.pick_row(user, place) {
                Ok(row) => Some(row),
                Err(CoreError::User(_)) => None,
                Err(e) => return Err(e),
            },
        };
        let Some(row) = row else {
            return Ok(Vec::new());
        };
        if row.to_move.as_deref() != Some(user.id.as_str()) {
            return Ok(Vec::new());
        }
        // The labels in the notation the player chose (`settings notation`), else their
        // language's: whatever the transport, the caller says only who they are (and their
        // client's locale, if it knows it).
        let notation = self
            .voice_of_sender(&user.id, user.locale.as_deref())
            .notation;
        let written = match self.suggestions.get(row.id, notation, row.version) {
            Some(w) => w,
            None => {
                let g = self.load(row.id)?;
                let v = g.variant();
                let last = super::views::last_to(&g.game, g.game.moves().len());
                let mut list: Vec<(String, String)> =
                    super::views::written_moves_in(&g.game, notation, last)
                        .into_iter()
                        .map(|(m, human)| (human, code::write(v, m)))
                        .collect();
                list.sort();
                let w = Arc::new(list);
                // Cached under the version of the replayed game (which a move just made may
                // have moved past the row's): the key says exactly which position it is of.
                self.suggestions
                    .put(g.row.id, notation, g.row.version, w.clone());
                w
            }
        };
        let want = key(typed.trim());
        let want = want.as_str();
        let matches = |starts: bool| {
            written.iter().filter(move |(human, code)| {
                let (h, c) = (key(human), key(code));
                if starts {
                    h.starts_with(want) || c.starts_with(want)
                } else {
                    !(h.starts_with(want) || c.starts_with(want))
                        && (h.contains(want) || c.contains(want))
                }
            })
        };
        Ok(matches(true)
            .chain(matches(false))
            .take(limit)
            .map(|(human, code)| Suggestion {
                label: if human == code {
                    human.clone()
                } else {
                    format!("{human}  ({code})")
                },
                // What is put in the option: the Western form as players type it, else the
                // code, which every reader takes.
                value: if notation == Notation::Western {
                    human.clone()
                } else {
                    code.clone()
                },
            })
            .collect())
    }
}
