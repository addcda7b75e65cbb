//! Helpers shared by the service integration tests (`service_*.rs`, `console.rs`): a service over
//! a real SQLite file in a temporary folder, requests from text, a seeded random number
//! generator, a "mate-seeking" player, replay of a stored move log with the engine, and a
//! snapshot of the whole database read with a separate read-only connection.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags};
use tegami::engine::notation::{code, fen};
use tegami::engine::{Color, Game, Move, Outcome, Position, Variant, VariantId};
use tegami::service::{
    parse_command, Command, Config, CoreError, ManualClock, Place, Reply, Request, Service, User,
};
use tegami::store::{GameResult, GameRow, GameStatus, GameStore, SqliteStore, Store};

/// 2026-01-01T00:00:00Z: the manual clock's start.
pub const T0: i64 = 1_767_225_600;

/// xorshift64*: a small deterministic random number generator (no dependency, fixed seeds).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Spread the seed (splitmix64) so that small seeds do not start in a poor state.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 1 } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        (self.next_u64() % n as u64) as usize
    }
}

/// Where the commands of these tests are sent: a channel of one server, where everybody may
/// look at every game (in direct messages a user sees their own games only). It is the
/// console's pretend server, so that a console on the same database sees the same games.
pub fn server() -> Place {
    Place {
        guild: Some("console".into()),
        channel: Some("console".into()),
        admin: false,
        locale: None,
    }
}

/// A user whose display name is their id.
pub fn user(id: &str) -> User {
    User::new(id, id)
}

/// A request of `user` from its text form (panics if the text does not parse).
pub fn request(user_id: &str, line: &str) -> Request {
    let command = parse_command(line).unwrap_or_else(|e| panic!("{line:?} does not parse: {e}"));
    Request {
        user: user(user_id),
        place: server(),
        command,
    }
}

/// A service over a fresh SQLite file in a temporary folder, with a manual clock.
pub struct Env {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
    pub store: Arc<SqliteStore>,
    pub clock: Arc<ManualClock>,
    pub service: Service,
}

impl Env {
    pub fn new() -> Env {
        let dir = tempfile::tempdir().expect("temporary folder");
        let path = dir.path().join("tegami.db");
        let store = Arc::new(SqliteStore::open(&path).expect("open the database"));
        let clock = Arc::new(ManualClock::new(T0));
        let service = Service::new(store.clone(), clock.clone(), config());
        Env {
            dir,
            path,
            store,
            clock,
            service,
        }
    }

    /// Runs a command given as a `Command`, returning the error of the core as it is.
    pub fn try_cmd(&self, user_id: &str, command: Command) -> Result<Reply, CoreError> {
        self.service.try_handle(&Request {
            user: user(user_id),
            place: server(),
            command,
        })
    }

    /// Runs a command line through `Service::handle`.
    pub fn send(&self, user_id: &str, line: &str) -> Reply {
        let r = self.service.handle(&request(user_id, line));
        self.posted(&r);
        r
    }

    /// A move's announcement is posted with its reply, as a transport does: marked sent.
    fn posted(&self, r: &Reply) {
        if let Some(id) = r.post.as_ref().and_then(|p| p.id) {
            self.service
                .mark_sent(&[id])
                .expect("mark the announcement sent");
        }
    }

    /// Runs a command that must succeed; returns its reply.
    pub fn ok(&self, user_id: &str, line: &str) -> Reply {
        match self.service.try_handle(&request(user_id, line)) {
            Ok(r) if !r.error => {
                self.posted(&r);
                r
            }
            Ok(r) => panic!("@{user_id} {line}: refused: {}", r.text),
            Err(e) => panic!("@{user_id} {line}: failed: {e:?}"),
        }
    }

    /// Runs a command that must be refused as the user's mistake (never an internal error);
    /// returns the message.
    pub fn refused(&self, user_id: &str, line: &str) -> String {
        self.refused_cmd(user_id, request(user_id, line).command)
    }

    /// `refused` for a command built by hand.
    pub fn refused_cmd(&self, user_id: &str, command: Command) -> String {
        let shown = format!("{command:?}");
        match self.try_cmd(user_id, command) {
            Err(CoreError::User(msg)) | Err(CoreError::Ended(msg, ..)) => {
                // In the sender's language, as the reply would say it.
                let msg = msg.render(self.service.voice_of(user_id).lang);
                assert!(!msg.trim().is_empty(), "@{user_id} {shown}: empty refusal");
                msg
            }
            Err(CoreError::Internal(msg)) => {
                panic!("@{user_id} {shown}: internal error instead of a refusal: {msg}")
            }
            Ok(r) if r.error => r.text,
            Ok(r) => panic!(
                "@{user_id} {shown}: accepted, but should be refused: {}",
                r.text
            ),
        }
    }

    /// `first` challenges `second` (`args`: variant and options, e.g. `shogi days=3`) playing the
    /// first side, and `second` accepts. Returns the game id.
    pub fn start_game(&self, first: &str, second: &str, args: &str) -> i64 {
        let r = self.ok(first, &format!("challenge @{second} {args} black"));
        // (in any language: the first number after a `#` is the challenge's)
        let challenge = number_after(&r.text, "Challenge #")
            .or_else(|| number_after(&r.text, "#"))
            .expect("challenge number");
        let r = self.ok(second, &format!("accept {challenge}"));
        let game = r.game.as_ref().map(|g| g.id).expect("game number");
        let row = self.game(game);
        assert_eq!(row.players, [first.to_string(), second.to_string()]);
        game
    }

    /// A stored game (panics if missing).
    pub fn game(&self, id: i64) -> GameRow {
        self.store
            .game(id)
            .expect("read the game")
            .unwrap_or_else(|| panic!("game {id} is not stored"))
    }

    /// The game replayed from its stored log (see `replay`).
    pub fn replay(&self, id: i64) -> Game {
        replay(self.store.as_ref(), id)
    }

    /// Plays the move `m` of the engine's `game` (the stored game `id`) as `user_id`, through
    /// the command core with its move code, and plays it on `game` too.
    pub fn play(&self, id: i64, user_id: &str, game: &mut Game, m: Move) -> Reply {
        let c = code::write(game.variant(), m);
        let r = self.ok(user_id, &format!("move {id} {c}"));
        game.play(m)
            .unwrap_or_else(|e| panic!("{c} accepted by the service but not by the engine: {e:?}"));
        r
    }

    /// A snapshot of the whole database.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::of(&self.path)
    }
}

/// The core's settings in tests: no pictures.
pub fn config() -> Config {
    Config {
        default_days: 3,
        challenge_days: 7,
        images: false,
        markdown: false,
    }
}

/// The number after `prefix` in `text` (`Game #12 begins` → 12).
pub fn number_after(text: &str, prefix: &str) -> Option<i64> {
    let at = text.find(prefix)? + prefix.len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The player (user id) of a side in a stored game.
pub fn player(row: &GameRow, c: Color) -> &str {
    &row.players[c.index()]
}

/// The start position of a stored game.
pub fn start_of(row: &GameRow) -> Position {
    let v = Variant::get(VariantId::parse(&row.variant).expect("known variant"));
    fen::parse(v, &row.start_position).expect("stored start position parses")
}

/// Replays the stored move log of a game with the engine: every move is legal, plies are
/// consecutive from 1, each move was made by the player whose turn it was, the position stored
/// with each move is the engine's, and the last one is the game's cached position. Returns the
/// replayed game.
pub fn replay(store: &dyn Store, id: i64) -> Game {
    let row = store
        .game(id)
        .expect("read the game")
        .unwrap_or_else(|| panic!("game {id} is not stored"));
    let mut game = Game::new(start_of(&row));
    let v = game.variant();
    let moves = store.moves(id).expect("read the moves");
    for (i, mv) in moves.iter().enumerate() {
        assert_eq!(
            mv.ply as usize,
            i + 1,
            "game {id}: plies are not consecutive"
        );
        let mover = game.position().side_to_move();
        assert_eq!(
            mv.user,
            player(&row, mover),
            "game {id} ply {}: played by the wrong player",
            mv.ply
        );
        let m = code::parse(game.position(), &mv.code)
            .unwrap_or_else(|| panic!("game {id} ply {}: unreadable code {}", mv.ply, mv.code));
        assert_eq!(code::write(v, m), mv.code, "game {id}: code round trip");
        game.play(m)
            .unwrap_or_else(|e| panic!("game {id} ply {}: {} is illegal: {e:?}", mv.ply, mv.code));
        assert_eq!(
            fen::write(game.position()),
            mv.position,
            "game {id} ply {}: stored position after the move",
            mv.ply
        );
    }
    assert_eq!(row.ply as usize, moves.len(), "game {id}: cached ply");
    match row.status {
        GameStatus::Active => assert_eq!(
            row.to_move.as_deref(),
            Some(player(&row, game.position().side_to_move())),
            "game {id}: the stored player to move"
        ),
        GameStatus::Finished => assert_eq!(row.to_move, None, "game {id}: nobody to move"),
    }
    assert_eq!(
        fen::write(game.position()),
        row.position,
        "game {id}: the log does not replay to the cached position"
    );
    game
}

/// The stored result of an engine outcome.
pub fn result_of(o: Outcome) -> (GameResult, &'static str) {
    match o {
        Outcome::Win { winner, reason } => (
            if winner == Color::Black {
                GameResult::First
            } else {
                GameResult::Second
            },
            reason.as_str(),
        ),
        Outcome::Draw { reason } => (GameResult::Draw, reason.as_str()),
    }
}

/// The legal moves of a game that win on the spot for the side to move.
pub fn winning_moves(game: &Game) -> Vec<Move> {
    let me = game.position().side_to_move();
    game.legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut g = game.clone();
            g.play(m).is_ok()
                && matches!(g.outcome(), Some(Outcome::Win { winner, .. }) if winner == me)
        })
        .collect()
}

/// The "mate-seeking" player: a move that wins now if there is one, else a pseudo-random legal
/// move, preferring captures half of the time (so that games end sooner).
pub fn mate_seeking(game: &Game, rng: &mut Rng) -> Move {
    if let Some(&m) = winning_moves(game).first() {
        return m;
    }
    let moves = game.legal_moves();
    assert!(!moves.is_empty(), "no legal move in an ongoing game");
    if rng.below(2) == 0 {
        let pos = game.position();
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Board { to, .. } if pos.piece_at(*to).is_some()))
            .collect();
        if !captures.is_empty() {
            return captures[rng.below(captures.len())];
        }
    }
    moves[rng.below(moves.len())]
}

/// Plays seeded mate-seeking games with the engine alone from `start`, seeds 1, 2, …, until one
/// ends with a win on the board (not a draw) within `max_plies`; returns the seed, its moves and
/// the outcome.
pub fn decisive_game(start: &Position, max_plies: usize) -> (u64, Vec<Move>, Outcome) {
    decisive_game_where(&Game::new(start.clone()), max_plies, |_| true)
}

/// Like `decisive_game`, continuing the game `from`, for a win `want` accepts: the seed, the
/// moves after those of `from`, the outcome.
pub fn decisive_game_where(
    from: &Game,
    max_plies: usize,
    want: impl Fn(Outcome) -> bool,
) -> (u64, Vec<Move>, Outcome) {
    let already = from.moves().len();
    for seed in 1..=300u64 {
        let mut rng = Rng::new(seed);
        let mut g = from.clone();
        while g.outcome().is_none() && g.moves().len() < already + max_plies {
            let m = mate_seeking(&g, &mut rng);
            g.play(m).expect("the player plays legal moves");
        }
        if let Some(o @ Outcome::Win { .. }) = g.outcome() {
            if want(o) {
                return (seed, g.moves()[already..].to_vec(), o);
            }
        }
    }
    panic!("no seed gave the wanted decisive game within {max_plies} plies");
}

/// Every row of every table of the database (games, moves, challenges, offers, users and
/// whatever later migrations add), read with a separate
/// read-only connection: compared before and after a command to prove it changed nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub tables: Vec<(String, Vec<Vec<Value>>)>,
}

impl Snapshot {
    pub fn of(path: &Path) -> Snapshot {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .expect("open the database read-only");
        let names: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                 ORDER BY name",
            )
            .expect("prepare")
            .query_map([], |r| r.get(0))
            .expect("query")
            .collect::<rusqlite::Result<_>>()
            .expect("table names");
        for table in ["users", "games", "moves", "challenges", "offers"] {
            assert!(names.iter().any(|n| n == table), "no table {table}");
        }
        let mut tables = Vec::new();
        for table in names {
            let mut st = conn
                .prepare(&format!("SELECT * FROM \"{table}\""))
                .expect("prepare");
            let n = st.column_count();
            let rows = st
                .query_map([], |r| (0..n).map(|i| r.get::<_, Value>(i)).collect())
                .expect("query")
                .collect::<rusqlite::Result<Vec<Vec<Value>>>>()
                .expect("rows");
            let mut rows: Vec<(String, Vec<Value>)> =
                rows.into_iter().map(|r| (format!("{r:?}"), r)).collect();
            rows.sort_by(|a, b| a.0.cmp(&b.0));
            tables.push((table, rows.into_iter().map(|(_, r)| r).collect()));
        }
        Snapshot { tables }
    }

    /// The rows of one table.
    pub fn rows(&self, table: &str) -> &[Vec<Value>] {
        &self
            .tables
            .iter()
            .find(|(t, _)| t == table)
            .unwrap_or_else(|| panic!("no table {table}"))
            .1
    }

    /// Panics naming the first table that differs.
    pub fn assert_same(&self, after: &Snapshot, what: &str) {
        let names = |s: &Snapshot| s.tables.iter().map(|t| t.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(self), names(after), "{what}: the tables changed");
        for ((t, a), (_, b)) in self.tables.iter().zip(&after.tables) {
            assert_eq!(a, b, "{what}: table {t} changed");
        }
    }
}

/// A channel of server `guild` (its channel is `{guild}-general`).
pub fn in_guild(guild: &str) -> Place {
    Place {
        guild: Some(guild.into()),
        channel: Some(format!("{guild}-general")),
        admin: false,
        locale: None,
    }
}

/// Direct messages with the bot: no server.
pub fn dm() -> Place {
    Place {
        guild: None,
        channel: Some("dm-channel".into()),
        admin: false,
        locale: None,
    }
}

/// A row of the outbox, read with a separate connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxEntry {
    pub id: i64,
    pub user: String,
    pub via: String,
    pub channel: Option<String>,
    pub text: String,
    pub created_at: i64,
    pub sent_at: Option<i64>,
    pub game: Option<i64>,
}

/// Every notice of the outbox, by id: the rows to tell someone something. A move's public
/// announcement (`post`, the reply itself kept until posted) is left out; see `posts`.
pub fn outbox(path: &Path) -> Vec<OutboxEntry> {
    outbox_where(path, "via != 'post'")
}

/// The moves' announcements kept in the outbox (`post` rows), by id.
pub fn posts(path: &Path) -> Vec<OutboxEntry> {
    outbox_where(path, "via = 'post'")
}

fn outbox_where(path: &Path, filter: &str) -> Vec<OutboxEntry> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the database read-only");
    let mut st = conn
        .prepare(&format!(
            "SELECT id, user_id, via, channel, text, created_at, sent_at, game_id FROM outbox
                 WHERE {filter} ORDER BY id"
        ))
        .expect("prepare");
    st.query_map([], |r| {
        Ok(OutboxEntry {
            id: r.get(0)?,
            user: r.get(1)?,
            via: r.get(2)?,
            channel: r.get(3)?,
            text: r.get(4)?,
            created_at: r.get(5)?,
            sent_at: r.get(6)?,
            game: r.get(7)?,
        })
    })
    .expect("query")
    .collect::<rusqlite::Result<Vec<_>>>()
    .expect("outbox rows")
}

/// Watches the database for commits from other connections: SQLite's `PRAGMA data_version`
/// on a connection of its own changes exactly when another connection commits a change. The
/// WAL file's size is watched too (a commit appends to it).
pub struct Watch {
    conn: Connection,
    version: i64,
    wal: PathBuf,
    wal_len: u64,
    snapshot: Snapshot,
}

impl Watch {
    pub fn new(path: &Path) -> Watch {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open the database read-only");
        let version = conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .expect("data_version");
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        let wal = PathBuf::from(wal);
        let wal_len = std::fs::metadata(&wal).map_or(0, |m| m.len());
        Watch {
            conn,
            version,
            wal,
            wal_len,
            snapshot: Snapshot::of(path),
        }
    }

    fn version_now(&self) -> i64 {
        self.conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .expect("data_version")
    }

    /// Whether anything was committed since the watch began.
    pub fn committed(&self) -> bool {
        self.version_now() != self.version
    }

    /// Panics if anything was committed since the watch began: no commit seen by
    /// `data_version`, the WAL file no longer, every row the same.
    pub fn assert_unchanged(&self, path: &Path, what: &str) {
        assert_eq!(
            self.version_now(),
            self.version,
            "{what}: something was committed to the database"
        );
        let wal_len = std::fs::metadata(&self.wal).map_or(0, |m| m.len());
        assert!(
            wal_len <= self.wal_len,
            "{what}: the WAL grew from {} to {wal_len} bytes",
            self.wal_len
        );
        self.snapshot.assert_same(&Snapshot::of(path), what);
    }
}

impl Env {
    /// Starts watching the database for writes (see `Watch`).
    pub fn watch(&self) -> Watch {
        Watch::new(&self.path)
    }

    /// The outbox, every row by id.
    pub fn outbox(&self) -> Vec<OutboxEntry> {
        outbox(&self.path)
    }

    /// Runs a command line sent from `place`, returning the error of the core as it is.
    pub fn try_in(&self, place: &Place, user_id: &str, line: &str) -> Result<Reply, CoreError> {
        let command =
            parse_command(line).unwrap_or_else(|e| panic!("{line:?} does not parse: {e}"));
        self.try_cmd_in(place, user_id, command)
    }

    /// Runs a command sent from `place`.
    pub fn try_cmd_in(
        &self,
        place: &Place,
        user_id: &str,
        command: Command,
    ) -> Result<Reply, CoreError> {
        self.service.try_handle(&Request {
            user: user(user_id),
            place: place.clone(),
            command,
        })
    }

    /// A command line sent from `place` that must succeed.
    pub fn ok_in(&self, place: &Place, user_id: &str, line: &str) -> Reply {
        match self.try_in(place, user_id, line) {
            Ok(r) if !r.error => r,
            Ok(r) => panic!("@{user_id} {line} in {place:?}: refused: {}", r.text),
            Err(e) => panic!("@{user_id} {line} in {place:?}: failed: {e:?}"),
        }
    }

    /// A command sent from `place` that must be refused as the user's mistake; the message.
    pub fn refused_cmd_in(&self, place: &Place, user_id: &str, command: Command) -> String {
        let shown = format!("{command:?}");
        match self.try_cmd_in(place, user_id, command) {
            Err(CoreError::User(msg)) | Err(CoreError::Ended(msg, ..)) => msg.to_string(),
            Err(CoreError::Internal(msg)) => {
                panic!(
                    "@{user_id} {shown} in {place:?}: internal error instead of a refusal: {msg}"
                )
            }
            Ok(r) if r.error => r.text,
            Ok(r) => panic!(
                "@{user_id} {shown} in {place:?}: accepted, but should be refused: {}",
                r.text
            ),
        }
    }

    /// `refused_cmd_in` for a command line.
    pub fn refused_in(&self, place: &Place, user_id: &str, line: &str) -> String {
        let command =
            parse_command(line).unwrap_or_else(|e| panic!("{line:?} does not parse: {e}"));
        self.refused_cmd_in(place, user_id, command)
    }

    /// `start_game` from `place`: `first` challenges `second` there, who accepts there.
    pub fn start_game_in(&self, place: &Place, first: &str, second: &str, args: &str) -> i64 {
        let r = self.ok_in(place, first, &format!("challenge @{second} {args} black"));
        let challenge = number_after(&r.text, "Challenge #").expect("challenge number");
        let r = self.ok_in(place, second, &format!("accept {challenge}"));
        let game = number_after(&r.text, "Game #").expect("game number");
        let row = self.game(game);
        assert_eq!(row.players, [first.to_string(), second.to_string()]);
        assert_eq!(row.guild, place.guild, "game {game}: its server");
        game
    }
}

/// Holds the database's write lock (a `BEGIN IMMEDIATE` transaction left open on a connection
/// of its own) until dropped. Readers go on (WAL); a command that tries to write, even a write
/// that would change nothing, waits for the store's busy timeout and fails.
pub struct WriteLock(Connection);

impl WriteLock {
    pub fn take(path: &Path) -> WriteLock {
        let conn = Connection::open(path).expect("open the database");
        conn.execute_batch("BEGIN IMMEDIATE")
            .expect("take the write lock");
        WriteLock(conn)
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        let _ = self.0.execute_batch("ROLLBACK");
    }
}

/// The words of the commands as typed, from the command table: command and sub-command names,
/// option keys (`round_days`, also split at `_`), choices and yes/no words. Help and usage lines
/// write them in English in every language (the console reads only them).
pub fn typed_words() -> std::collections::BTreeSet<String> {
    use tegami::service::catalog::{Cmd, Typed, Value, COMMANDS};
    let mut words = std::collections::BTreeSet::new();
    let mut add = |w: &str| {
        words.insert(w.to_string());
        for part in w.split(['_', '-', ' ']) {
            words.insert(part.to_string());
        }
    };
    for c in COMMANDS.iter().flat_map(Cmd::with_subs) {
        add(c.name);
        for o in c.options {
            add(o.name);
            if let Value::Choice(list) | Value::Named(_, list) = o.value {
                list.iter().for_each(|w| add(w));
            }
            if let Value::Bool = o.value {
                add("on");
                add("off");
            }
            if let Typed::Words(yes, no) = o.typed {
                add(yes);
                no.iter().for_each(|w| add(w));
            }
        }
    }
    words
}
