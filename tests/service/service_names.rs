//! Names through the command core: a nickname stays in its server (other servers and direct
//! messages show the global name), markdown in names is escaped where the transport renders it
//! and nowhere else, and pictures get the names raw.
//!
//! Two cores share one SQLite file: `discord` renders markdown (as `tegami run` does), `console`
//! does not. Bob's global name is `Bob_Smith`; in server A his nickname is `*Ace*`.

use std::sync::Arc;

use tegami::service::{
    parse_command, Command, Config, ManualClock, Notice, Place, Reply, Request, Service, User,
    UserRef, Via,
};
use tegami::store::{GameStore, SqliteStore};

/// 2026-01-01T00:00:00Z.
const T0: i64 = 1_767_225_600;
const DAY: i64 = 86_400;

const A: &str = "server-a";
const B: &str = "server-b";

/// Bob as Discord shows him in A (markdown on).
const ACE: &str = "\\*Ace\\*";
/// Bob's global name, markdown on.
const BOB: &str = "Bob\\_Smith";

struct Env {
    _dir: tempfile::TempDir,
    store: Arc<SqliteStore>,
    clock: Arc<ManualClock>,
    discord: Service,
    console: Service,
}

fn config(markdown: bool) -> Config {
    Config {
        images: false,
        markdown,
        ..Config::default()
    }
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().expect("temporary folder");
        let store = Arc::new(SqliteStore::open(dir.path().join("tegami.db")).expect("open"));
        let clock = Arc::new(ManualClock::new(T0));
        Env {
            discord: Service::new(store.clone(), clock.clone(), config(true)),
            console: Service::new(store.clone(), clock.clone(), config(false)),
            _dir: dir,
            store,
            clock,
        }
    }

    /// Runs a command on the markdown core; it must succeed.
    fn ok(&self, user: User, place: Place, line: &str) -> Reply {
        let command = parse_command(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        self.run(&self.discord, user, place, command)
    }

    fn run(&self, service: &Service, user: User, place: Place, command: Command) -> Reply {
        let shown = format!("{command:?}");
        match service.try_handle(&Request {
            user,
            place,
            command,
        }) {
            Ok(r) if !r.error => r,
            Ok(r) => panic!("{shown}: refused: {}", r.text),
            Err(e) => panic!("{shown}: failed: {e:?}"),
        }
    }
}

fn server(g: &str) -> Place {
    Place {
        guild: Some(g.to_string()),
        channel: Some(format!("{g}-channel")),
        admin: false,
        locale: None,
    }
}

fn dm() -> Place {
    Place {
        guild: None,
        channel: Some("dm-channel".into()),
        admin: false,
        locale: None,
    }
}

/// Bob anywhere but A (no nickname).
fn bob() -> User {
    User::new("u1", "Bob_Smith")
}

/// Bob in A.
fn ace() -> User {
    bob().with_nick(Some("*Ace*".into()))
}

fn carol() -> User {
    User::new("u2", "Carol")
}

fn dave() -> User {
    User::new("u3", "Dave")
}

/// A challenge to `opponent` as Discord resolves them (their nickname in the server, if any).
fn challenge(line: &str, opponent: UserRef) -> Command {
    match parse_command(line).expect("a challenge") {
        Command::Challenge {
            variant,
            color,
            days,
            handicap,
            setup,
            rated,
            level,
            clock,
            ..
        } => Command::Challenge {
            opponent: Some(opponent),
            variant,
            color,
            days,
            handicap,
            setup,
            rated,
            level,
            clock,
        },
        other => panic!("not a challenge: {other:?}"),
    }
}

/// The number after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> i64 {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix:?} in {text:?}"))
        + prefix.len();
    text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .expect("a number")
}

/// The one notice of a reply to `user`.
fn notice_to<'a>(r: &'a Reply, user: &str) -> &'a Notice {
    let mine: Vec<&Notice> = r.notify.iter().filter(|n| n.user == user).collect();
    assert_eq!(mine.len(), 1, "one notice to {user}: {:?}", r.notify);
    mine[0]
}

/// Shows Bob as Ace (escaped) and never by his global name.
fn shows_ace(text: &str) {
    assert!(text.contains(ACE), "Bob is \\*Ace\\* here: {text}");
    assert!(!text.contains("Bob"), "not Bob_Smith here: {text}");
}

/// Shows Bob by his global name (escaped) and never by A's nickname.
fn shows_bob(text: &str) {
    assert!(text.contains(BOB), "Bob is Bob\\_Smith here: {text}");
    assert!(!text.contains("Ace"), "A's nickname not here: {text}");
}

/// Carol challenges Bob in A (Bob resolved as a member of A) and Bob accepts as Ace; Bob
/// challenges Carol in B and she accepts. Returns the games (A's, B's).
fn two_games(env: &Env, rated: &str) -> (i64, i64) {
    let bob_in_a = UserRef::named("u1", "Bob_Smith").with_nick(Some("*Ace*".into()));
    let r = env.run(
        &env.discord,
        carol(),
        server(A),
        challenge(&format!("challenge @u1 shogi black {rated}"), bob_in_a),
    );
    shows_ace(&r.text);
    let c = number_after(&r.text, "Challenge #");
    let r = env.ok(ace(), server(A), &format!("accept {c}"));
    shows_ace(&r.text);
    shows_ace(&notice_to(&r, "u2").text);
    let game_a = number_after(&r.text, "Game #");

    let r = env.run(
        &env.discord,
        bob(),
        server(B),
        challenge(
            &format!("challenge @u2 shogi white {rated}"),
            UserRef::named("u2", "Carol").with_nick(None),
        ),
    );
    shows_bob(&r.text);
    shows_bob(&notice_to(&r, "u2").text);
    let c = number_after(&r.text, "Challenge #");
    let r = env.ok(carol(), server(B), &format!("accept {c}"));
    shows_bob(&r.text);
    let game_b = number_after(&r.text, "Game #");
    (game_a, game_b)
}

#[test]
fn a_nickname_shows_in_its_server_only_escaped() {
    let env = Env::new();
    let (a, b) = two_games(&env, "rated");

    // Moves: the announcement in A names Ace, in B Bob; a mention in A names Ace.
    let r = env.ok(carol(), server(A), &format!("move {a} 7g7f"));
    shows_ace(&r.text);
    let r = env.ok(ace(), server(A), &format!("move {a} 3c3d"));
    shows_ace(&r.text);
    let n = notice_to(&r, "u2");
    assert_eq!(n.via, Via::Mention);
    shows_ace(&n.text);
    let r = env.ok(carol(), server(B), &format!("move {b} 7g7f"));
    shows_bob(&r.text);

    // Carol wants direct messages: a notice sent by DM names Bob by his global name, also
    // about A's game; the announcement in A still says Ace.
    env.ok(carol(), dm(), "settings notify=dm");
    env.ok(carol(), server(A), &format!("move {a} 2g2f"));
    let r = env.ok(ace(), server(A), &format!("move {a} 8c8d"));
    shows_ace(&r.text);
    let n = notice_to(&r, "u2");
    assert_eq!(n.via, Via::Dm);
    shows_bob(&n.text);
    // A move sent in direct messages about A's game: the game's server decides.
    env.ok(carol(), server(A), &format!("move {a} 2f2e"));
    let r = env.ok(bob(), dm(), &format!("move {a} 8d8e"));
    shows_ace(&r.text);
    shows_bob(&notice_to(&r, "u2").text);

    // Lists: in A, in B, in direct messages.
    let games_a = env.ok(carol(), server(A), "games").text;
    shows_ace(&games_a);
    let games_b = env.ok(carol(), server(B), "games").text;
    shows_bob(&games_b);
    let games_dm = env.ok(carol(), dm(), "games").text;
    shows_bob(&games_dm);
    assert!(
        games_dm.contains(&format!("#{a}")) && games_dm.contains(&format!("#{b}")),
        "{games_dm}"
    );
    let of_bob = env.run(
        &env.discord,
        carol(),
        server(A),
        Command::Games {
            user: Some(UserRef::id_only("u1")),
        },
    );
    shows_ace(&of_bob.text);
    let board_a = env.ok(carol(), dm(), &format!("board {a}")).text;
    shows_ace(&board_a);
    let board_b = env.ok(carol(), server(B), &format!("board {b}")).text;
    shows_bob(&board_b);

    // The end of a rated game: the announcement, the DM notice, history, stats, leaderboard.
    env.ok(carol(), dm(), "settings notify=mention");
    let r = env.ok(ace(), server(A), &format!("resign {a}"));
    shows_ace(&r.text);
    shows_ace(&notice_to(&r, "u2").text);
    let r = env.ok(carol(), server(B), &format!("resign {b}"));
    shows_bob(&r.text);
    shows_ace(&env.ok(carol(), server(A), "history").text);
    shows_bob(&env.ok(carol(), server(B), "history").text);
    let history_dm = env.ok(carol(), dm(), "history").text;
    shows_bob(&history_dm);
    shows_ace(&env.ok(carol(), server(A), "leaderboard shogi").text);
    shows_bob(&env.ok(carol(), server(B), "leaderboard shogi").text);
    let stats = env.run(
        &env.discord,
        carol(),
        server(A),
        Command::Stats {
            user: Some(UserRef::id_only("u1")),
        },
    );
    shows_ace(&stats.text);
    shows_bob(&env.ok(bob(), dm(), "stats").text);
}

#[test]
fn the_console_shows_names_raw_and_pictures_get_them_raw() {
    let env = Env::new();
    let (a, b) = two_games(&env, "casual");
    let line = |service: &Service, place: Place| {
        env.run(
            service,
            carol(),
            place,
            parse_command("games").expect("games"),
        )
        .text
    };
    let console_a = line(&env.console, server(A));
    assert!(console_a.contains("vs *Ace*"), "{console_a}");
    let console_b = line(&env.console, server(B));
    assert!(console_b.contains("vs Bob_Smith"), "{console_b}");
    let console_dm = line(&env.console, dm());
    assert!(
        console_dm.contains("vs Bob_Smith") && !console_dm.contains("Ace"),
        "{console_dm}"
    );
    // The same list where markdown is rendered: escaped.
    assert!(line(&env.discord, server(A)).contains(&format!("vs {ACE}")));

    // Pictures (and records) get the names of the game's server, raw, even where texts are
    // escaped.
    let row_a = env.store.game(a).expect("read").expect("game A");
    assert_eq!(
        env.discord.picture_names(&row_a),
        [Some("Carol".to_string()), Some("*Ace*".to_string())]
    );
    let row_b = env.store.game(b).expect("read").expect("game B");
    assert_eq!(
        env.discord.picture_names(&row_b),
        [Some("Carol".to_string()), Some("Bob_Smith".to_string())]
    );
    assert_eq!(
        env.discord.thread_title(a).as_deref(),
        Some(format!("Game #{a}: Carol vs *Ace* (Shogi)").as_str())
    );
    let kif = env.ok(carol(), server(A), &format!("export {a} kif")).text;
    assert!(kif.contains("*Ace*") && !kif.contains(ACE), "{kif}");

    // One name function for both: the raw name, and the shown one per transport.
    assert_eq!(env.discord.raw_name("u1", Some(A)), "*Ace*");
    assert_eq!(env.discord.shown_name("u1", Some(A)), ACE);
    assert_eq!(env.console.shown_name("u1", Some(A)), "*Ace*");
    assert_eq!(env.discord.shown_name("u1", Some(B)), BOB);
    assert_eq!(env.discord.shown_name("u1", None), BOB);
    assert_eq!(
        env.discord.shown_name("nobody_known", None),
        "nobody\\_known"
    );
}

#[test]
fn a_nickname_dropped_or_changed_in_its_server_is_followed() {
    let env = Env::new();
    let (a, _) = two_games(&env, "casual");
    // Bob takes another nickname in A: shown from his next command on.
    env.ok(bob().with_nick(Some("Ace_2".into())), server(A), "games");
    let board = env.ok(carol(), server(A), &format!("board {a}")).text;
    assert!(board.contains("Ace\\_2"), "{board}");
    // He drops it: A shows his global name again.
    env.ok(bob(), server(A), "games");
    let board = env.ok(carol(), server(A), &format!("board {a}")).text;
    shows_bob(&board);
    // He renames himself on Discord: everywhere.
    env.ok(User::new("u1", "Robert"), dm(), "games");
    let board = env.ok(carol(), server(A), &format!("board {a}")).text;
    assert!(
        board.contains("Robert") && !board.contains("Bob"),
        "{board}"
    );
}

#[test]
fn the_sweeps_notices_name_the_loser_as_their_reader_sees_them() {
    let env = Env::new();
    // Carol (mentioned) and Dave (by direct message) each play Bob in A; Bob's time runs out
    // in both.
    env.ok(dave(), dm(), "settings notify=dm");
    let mut games = Vec::new();
    for (who, id) in [(carol(), "u2"), (dave(), "u3")] {
        let bob_in_a = UserRef::named("u1", "Bob_Smith").with_nick(Some("*Ace*".into()));
        let r = env.run(
            &env.discord,
            who.clone(),
            server(A),
            challenge("challenge @u1 shogi black", bob_in_a),
        );
        let c = number_after(&r.text, "Challenge #");
        let g = number_after(
            &env.ok(ace(), server(A), &format!("accept {c}")).text,
            "Game #",
        );
        env.ok(who, server(A), &format!("move {g} 7g7f"));
        games.push((g, id));
    }
    env.clock.advance(4 * DAY);
    let sweep = env.discord.sweep(env.discord.now()).expect("sweep");
    assert_eq!(sweep.timeouts.len(), 2, "{sweep:?}");
    for (g, id) in games {
        let n = sweep
            .notices
            .iter()
            .map(|(_, n)| n)
            .find(|n| n.user == id && n.game == Some(g) && n.text.contains("ran out of time"))
            .unwrap_or_else(|| panic!("{id} told of game {g}: {:?}", sweep.notices));
        if id == "u2" {
            assert_eq!(n.via, Via::Mention);
            shows_ace(&n.text);
        } else {
            assert_eq!(n.via, Via::Dm);
            shows_bob(&n.text);
        }
    }
}
