//! The bot through the fake Discord (the same fake as the end-to-end test), with the real
//! `tegami run` binary:
//!
//! 1. **Latency under load**: 50 games moving at once, one move every 20 ms across them (50
//!    moves per second, each game moving once a second), by slash command. For each move, the
//!    time from the INTERACTION_CREATE sent to the follow-up with the board PNG received. Prints
//!    p50, p99, max and the moves per second achieved. Target: p99 ≤ 50 ms at 50 moves/s.
//! 2. **Memory**: the bot's resident memory (VmRSS, and the peak VmHWM) with 10,000 stored games
//!    (filled through the command core), after start and after some commands. Target ≤ 100 MB.
//!
//! 3. **No stalls**: while the computer thinks at level 5 (one second a move, its game moved
//!    again each time it answers) and an `/analysis` of a finished 200-ply game runs, two other
//!    players send `/board` and `/move` one after the other. For each, the time from the
//!    INTERACTION_CREATE sent to the follow-up received. Prints p50, p95 and max. Target: p95 <
//!    150 ms and max < 400 ms on 2 cores.
//!
//! 4. **The flood**: three players send `/analysis` of distinct long games at the rate limit
//!    for 60 s while others play. Prints the others' p50, p95 and max, how the analyses were
//!    answered (charts, refused as busy), the bot's peak memory and threads. Target: p95 < 150
//!    ms, memory and threads bounded (`--flood-only`, `--flood-secs N`, `--flood-plies N`).
//!
//! 5. **The picker**: one player points at moves through the move picker (`/move` without a
//!    move, then its menus and buttons, each step an in-place update with its marked board)
//!    while sixteen others play and look at boards. For each step, the time from the
//!    INTERACTION_CREATE sent to the answer received. Prints p50, p95 and max. Target: p95 <
//!    150 ms a step on 2 cores (`--picker-only`, `--picker-steps N`).
//!
//! `cargo bench --bench discord` runs all five; `-- --rounds N` changes the number of moves per
//! game (default 16), `-- --games N` the stored games of part 2 (default 10,000), `-- --plies N`
//! the length of the analysed game of part 3 (default 200).

#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::{
    opt_focused, opt_int, opt_str, opt_user, FakeDiscord, FakeUser, APP_ID, CHANNEL_ID,
};
use serde_json::json;

/// An opening both sides can play in every game (checked against the engine first).
const OPENING: &[&str] = &[
    "P-7f", "P-3d", "P-2f", "P-8d", "P-2e", "P-8e", "G6i-7h", "G4a-3b", "S-4h", "S-7b", "P-5f",
    "P-5d", "K-6h", "K-4b", "P-1f", "P-1d", "P-9f", "P-9d", "S-5g", "S-5c",
];

const STEP: Duration = Duration::from_secs(60);

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn start_bot(fake: &FakeDiscord, db: &Path, log: &Path) -> Child {
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml");
    start_bot_with(fake, db, log, Path::new(config))
}

fn start_bot_with(fake: &FakeDiscord, db: &Path, log: &Path, config: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tegami"))
        .args(["run", "--config"])
        .arg(config)
        .arg("--db")
        .arg(db)
        .env("DISCORD_TOKEN", "bench.token")
        .env("TEGAMI_DISCORD_API", fake.api_base())
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("log file"))
        .spawn()
        .expect("start tegami run")
}

fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// (VmRSS, VmHWM) in MB.
fn memory_of(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    (kb("VmRSS:") / 1024.0, kb("VmHWM:") / 1024.0)
}

/// CPU seconds (user + system) the process has used so far.
fn cpu_of(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may hold spaces) start at `) `.
    let rest = stat.rsplit_once(") ").map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        f.get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// Sends a slash command and waits for its follow-up; returns it.
async fn command(
    fake: &FakeDiscord,
    user: &FakeUser,
    name: &str,
    options: serde_json::Value,
    resolved: &[&FakeUser],
) -> fake_discord::Recorded {
    let (_, token, ev) = fake.slash_command(user, name, options, resolved);
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let hook = format!("/api/v10/webhooks/{APP_ID}/{token}");
    fake.wait_for(name, STEP, |c| c.method == "POST" && c.path == hook)
        .await
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn latency(rounds: usize) {
    let games = 50usize;
    // The opening is legal, move by move.
    let mut g = tegami::engine::Game::new(tegami::engine::Position::start(
        tegami::engine::VariantId::Shogi,
    ));
    for m in OPENING.iter().take(rounds) {
        let mv = tegami::engine::notation::input::parse_move(g.position(), m)
            .unwrap_or_else(|e| panic!("opening move {m}: {e}"));
        g.play(mv).expect("legal opening");
    }
    assert!(rounds <= OPENING.len(), "at most {} rounds", OPENING.len());

    let dir = tempfile::tempdir().expect("temp dir");
    let fake = Arc::new(FakeDiscord::start().await);
    let users: Vec<FakeUser> = (0..games * 2)
        .map(|i| FakeUser::new(3_000_000_000_000_000_000 + i as u64, &format!("player{i}")))
        .collect();
    for u in &users {
        fake.add_user(u);
    }
    let bot = start_bot(
        &fake,
        &dir.path().join("bench.db"),
        &dir.path().join("bot.log"),
    );
    fake.wait_ready(STEP).await;
    fake.wait_for("registration", STEP, |c| c.method == "PUT")
        .await;
    for i in 0..games {
        let (a, b) = (&users[2 * i], &users[2 * i + 1]);
        command(
            &fake,
            a,
            "challenge",
            json!([
                opt_user("opponent", b),
                opt_str("game", "shogi"),
                opt_str("color", "black")
            ]),
            &[b],
        )
        .await;
        let r = command(
            &fake,
            b,
            "accept",
            json!([opt_int("challenge", i as i64 + 1)]),
            &[],
        )
        .await;
        assert!(
            r.content().is_some_and(|c| c.contains("begins")),
            "game {} began: {:?}",
            i + 1,
            r.content()
        );
    }

    // Moves, one every 20 ms; each game moves once a second.
    let cpu0 = cpu_of(bot.id());
    let gap = Duration::from_millis(20);
    let start = Instant::now();
    // One watcher reads each recorded call once (a waiter per move would copy every call,
    // board pictures included, fifty times over and slow the machine the bot runs on): the
    // k-th announcement of a game (a new message with its board) answers its k-th move.
    let expected = rounds * games;
    let arrivals: Arc<std::sync::Mutex<Vec<Vec<Instant>>>> =
        Arc::new(std::sync::Mutex::new(vec![Vec::new(); games]));
    let first_call = fake.call_count();
    let watcher = {
        let (fake, arrivals) = (fake.clone(), arrivals.clone());
        tokio::spawn(async move {
            let seen = std::sync::atomic::AtomicUsize::new(0);
            fake.wait_for_since(first_call, "every move's board", STEP * 4, |c| {
                if !(c.method == "POST"
                    && c.path.ends_with("/messages")
                    && c.files.iter().any(|f| f.filename.ends_with(".png")))
                {
                    return false;
                }
                let game = c.content().and_then(|t| {
                    let rest = t.strip_prefix("Game #")?;
                    rest[..rest.find(':')?].parse::<usize>().ok()
                });
                if let Some(g) = game.filter(|g| (1..=games).contains(g)) {
                    arrivals.lock().expect("arrivals")[g - 1].push(c.at);
                    return seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 == expected;
                }
                false
            })
            .await;
        })
    };
    let mut sent: Vec<Vec<Instant>> = vec![Vec::new(); games];
    for (r, mv) in OPENING.iter().enumerate().take(rounds) {
        for i in 0..games {
            let at = start + gap * (r * games + i) as u32;
            tokio::time::sleep_until(at.into()).await;
            let user = &users[2 * i + r % 2];
            let (_, _, ev) = fake.slash_command_in(
                CHANNEL_ID,
                user,
                "move",
                json!([opt_str("move", mv), opt_int("game", i as i64 + 1)]),
                &[],
            );
            sent[i].push(Instant::now());
            fake.dispatch("INTERACTION_CREATE", ev).await;
        }
    }
    watcher.await.expect("every move answered");
    let arrivals = arrivals.lock().expect("arrivals").clone();
    let mut ms = Vec::new();
    for (s, a) in sent.iter().zip(&arrivals) {
        assert_eq!(s.len(), a.len(), "one announcement per move");
        for (s, a) in s.iter().zip(a) {
            ms.push(a.duration_since(*s).as_secs_f64() * 1000.0);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_of(bot.id()) - cpu0;
    ms.sort_by(|a, b| a.total_cmp(b));
    let all_ok = fake.errors().is_empty();
    assert!(all_ok, "Discord refused calls: {:?}", fake.problems());
    println!(
        "discord: {} moves in {games} games, {:.1} moves/s: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (INTERACTION_CREATE sent -> board PNG received)",
        ms.len(),
        ms.len() as f64 / elapsed,
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        ms.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "discord: the bot used {:.1} ms of CPU per move ({:.1} s for {} moves; the fake and this driver share the machine)",
        cpu * 1000.0 / ms.len() as f64,
        cpu,
        ms.len()
    );

    // Autocomplete of /move for the player to move in each game (nothing typed yet: the
    // longest list), from INTERACTION_CREATE to the choices received.
    let mut ac = Vec::new();
    for i in 0..games {
        let user = &users[2 * i + rounds % 2];
        let (id, token, ev) = fake.autocomplete_in(
            CHANNEL_ID,
            user,
            "move",
            json!([opt_focused("move", 3, ""), opt_int("game", i as i64 + 1)]),
        );
        let sent = Instant::now();
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let callback = format!("/api/v10/interactions/{id}/{token}/callback");
        let rec = fake
            .wait_for("autocomplete choices", STEP, |c| {
                c.method == "POST" && c.path == callback
            })
            .await;
        let n = rec.json.as_ref().map_or(0, |j| {
            j["data"]["choices"].as_array().map_or(0, |c| c.len())
        });
        assert!(n > 0 && n <= 25, "game {}: {n} choices", i + 1);
        ac.push(rec.at.duration_since(sent).as_secs_f64() * 1000.0);
    }
    ac.sort_by(|a, b| a.total_cmp(b));
    println!(
        "discord: /move autocomplete in {} games: p50 {:.1} ms, p99 {:.1} ms (INTERACTION_CREATE sent -> choices received; Discord allows 3000 ms)",
        ac.len(),
        percentile(&ac, 0.5),
        percentile(&ac, 0.99)
    );
    stop(bot);
}

async fn memory(stored: usize) {
    use tegami::service::{parse_command, Request, User};

    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("memory.db");
    let t = Instant::now();
    {
        let (service, place) = core_on(&db);
        let user = |i: usize| {
            let id = 4_000_000_000_000_000_000u64 + i as u64;
            User::new(id.to_string(), format!("stored{i}"))
        };
        let run = |u: User, line: &str| {
            let reply = service.handle(&Request {
                user: u,
                place: place.clone(),
                command: parse_command(line).expect("command"),
            });
            assert!(!reply.error, "{line}: {}", reply.text);
        };
        for i in 0..stored {
            // Each pair plays at most once: a player may challenge the same opponent only
            // so many times a day.
            let (a, b) = (user(i % 400), user(400 + (i + i / 400) % 400));
            run(a.clone(), &format!("challenge <@{}> shogi black", b.id));
            run(b.clone(), &format!("accept {}", i + 1));
            run(a, &format!("move {} 7g7f", i + 1));
            run(b, &format!("move {} 3c3d", i + 1));
        }
    }
    println!(
        "discord: {stored} stored games (2 moves each) written in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, &db, &dir.path().join("bot.log"));
    fake.wait_ready(STEP).await;
    fake.wait_for("registration", STEP, |c| c.method == "PUT")
        .await;
    let (rss0, _) = memory_of(bot.id());
    let someone = FakeUser::new(4_000_000_000_000_000_001, "stored1");
    fake.add_user(&someone);
    for cmd in ["games", "history", "stats"] {
        command(&fake, &someone, cmd, json!([]), &[]).await;
    }
    for g in [1, 2, 3] {
        command(&fake, &someone, "board", json!([opt_int("game", g)]), &[]).await;
    }
    let (rss, hwm) = memory_of(bot.id());
    println!(
        "discord: resident memory with {stored} stored games: {rss0:.1} MB after start, {rss:.1} MB after some commands (peak {hwm:.1} MB)"
    );
    stop(bot);
}

/// A finished Shogi game of `plies` moves between `a` and `b`, stored through the command
/// core: moves chosen by a fixed-seed generator among those that do not end the game, then a
/// resignation. Returns its number.
fn store_long_game(
    service: &tegami::service::Service,
    place: &tegami::service::Place,
    a: &tegami::service::User,
    b: &tegami::service::User,
    plies: usize,
) -> i64 {
    use tegami::engine::notation::code;
    use tegami::service::{parse_command, Request};
    let run = |u: &tegami::service::User, line: &str| {
        let reply = service.handle(&Request {
            user: u.clone(),
            place: place.clone(),
            command: parse_command(line).expect("command"),
        });
        assert!(!reply.error, "{line}: {}", reply.text);
        reply
    };
    run(a, &format!("challenge <@{}> shogi black", b.id));
    let r = run(b, "accept");
    let id = r.game.expect("a game").id;
    let mut game = tegami::engine::Game::new(tegami::engine::Position::start(
        tegami::engine::VariantId::Shogi,
    ));
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for ply in 0..plies {
        let moves: Vec<_> = game
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut next = game.clone();
                next.play(m).is_ok() && next.outcome().is_none()
            })
            .collect();
        assert!(
            !moves.is_empty(),
            "the long game ended by itself at ply {ply}"
        );
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = moves[(seed % moves.len() as u64) as usize];
        let text = code::write(game.variant(), m);
        game.play(m).expect("legal");
        let who = if ply % 2 == 0 { a } else { b };
        run(who, &format!("move {id} {text}"));
    }
    run(a, &format!("resign {id}"));
    id
}

/// The command core on a database file (pictures off), and the fake's default channel: to
/// store games before the bot starts.
fn core_on(db: &Path) -> (tegami::service::Service, tegami::service::Place) {
    use tegami::service::{Config, Place, Service, SystemClock};
    use tegami::store::{Durability, SqliteStore};
    let store = SqliteStore::open_with(db, Durability::Normal).expect("store");
    let service = Service::new(
        Arc::new(store),
        Arc::new(SystemClock),
        Config {
            images: false,
            ..Config::default()
        },
    );
    let place = Place {
        guild: Some(fake_discord::GUILD_ID.to_string()),
        channel: Some(CHANNEL_ID.to_string()),
        admin: false,
        locale: None,
    };
    (service, place)
}

/// The game an answer names (`… Game #12 …`).
fn game_number(r: &fake_discord::Recorded) -> Option<i64> {
    let t = r.content()?;
    let rest = &t[t.find("Game #")? + 6..];
    rest[..rest.find(|c: char| !c.is_ascii_digit())?]
        .parse()
        .ok()
}

/// Sends a slash command and returns the time to its follow-up (ms).
async fn timed(fake: &FakeDiscord, user: &FakeUser, name: &str, options: serde_json::Value) -> f64 {
    let (_, token, ev) = fake.slash_command(user, name, options, &[]);
    let sent = Instant::now();
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let hook = format!("/api/v10/webhooks/{APP_ID}/{token}");
    let rec = fake
        .wait_for(name, STEP, |c| c.method == "POST" && c.path == hook)
        .await;
    rec.at.duration_since(sent).as_secs_f64() * 1000.0
}

/// The players two by two in Shogi games, the first of each pair Black; the games' numbers.
async fn pair_up(fake: &FakeDiscord, players: &[FakeUser]) -> Vec<i64> {
    let mut games = Vec::new();
    for pair in players.chunks(2) {
        command(
            fake,
            &pair[0],
            "challenge",
            json!([
                opt_user("opponent", &pair[1]),
                opt_str("game", "shogi"),
                opt_str("color", "black")
            ]),
            &[&pair[1]],
        )
        .await;
        let r = command(fake, &pair[1], "accept", json!([]), &[]).await;
        games.push(game_number(&r).expect("the players' game began"));
    }
    games
}

/// One round of the other players: one game moves (while its opening lasts), another player
/// looks at a board. The times to each answer (ms).
async fn round_of_others(
    fake: &FakeDiscord,
    players: &[FakeUser],
    games: &[i64],
    r: usize,
) -> Vec<f64> {
    let mut ms = Vec::new();
    let k = r % games.len();
    let ply = r / games.len();
    if ply < OPENING.len() {
        let mover = &players[2 * k + ply % 2];
        ms.push(
            timed(
                fake,
                mover,
                "move",
                json!([opt_str("move", OPENING[ply]), opt_int("game", games[k])]),
            )
            .await,
        );
    }
    let viewer = (r * 5 + 3) % players.len();
    ms.push(
        timed(
            fake,
            &players[viewer],
            "board",
            json!([opt_int("game", games[viewer / 2])]),
        )
        .await,
    );
    ms
}

async fn stall(plies: usize) {
    use tegami::service::User;

    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("stall.db");
    let analysed = {
        let (service, place) = core_on(&db);
        let a = User::new("5000000000000000001", "analyst");
        let b = User::new("5000000000000000002", "sparring");
        store_long_game(&service, &place, &a, &b, plies)
    };
    // The stored game's notices and announcements were delivered long ago.
    rusqlite::Connection::open(&db)
        .and_then(|c| c.execute("UPDATE outbox SET sent_at = 0 WHERE sent_at IS NULL", []))
        .expect("mark the stored game's notices sent");
    let fake = Arc::new(FakeDiscord::start().await);
    let analyst = FakeUser::new(5_000_000_000_000_000_001, "analyst");
    let human = FakeUser::new(5_000_000_000_000_000_003, "human");
    // Sixteen other players in eight games, so that none of them passes the rate limit (8
    // commands in 10 s) however fast the rounds go.
    let players: Vec<FakeUser> = (0..16)
        .map(|i| FakeUser::new(5_000_000_000_000_000_100 + i, &format!("p{i}")))
        .collect();
    for u in [&analyst, &human].into_iter().chain(&players) {
        fake.add_user(u);
    }
    let bot = start_bot(&fake, &db, &dir.path().join("bot.log"));
    fake.wait_ready(STEP).await;
    fake.wait_for("registration", STEP, |c| c.method == "PUT")
        .await;
    let me = FakeUser::new(fake_discord::BOT_USER_ID, fake_discord::BOT_USERNAME);
    // The human against the computer at level 5, the human first; the players in pairs.
    let r = command(
        &fake,
        &human,
        "challenge",
        json!([
            opt_user("opponent", &me),
            opt_str("game", "shogi"),
            opt_str("color", "black"),
            opt_int("level", 5)
        ]),
        &[&me],
    )
    .await;
    let computer_game = game_number(&r).expect("the computer's game began");
    let games = pair_up(&fake, &players).await;

    // The human's moves: edge pawns and quiet moves, legal whatever the computer answers.
    let human_moves = [
        "P-9f", "P-1f", "P-9e", "P-1e", "P-2f", "P-2e", "P-6f", "P-4f",
    ];
    let computer_moved = |since: usize| {
        let fake = fake.clone();
        async move {
            fake.wait_for_since(since, "the computer's move", STEP, |c| {
                c.method == "POST"
                    && c.path.ends_with("/messages")
                    && c.content().is_some_and(|t| {
                        t.starts_with(&format!("Game #{computer_game}: Tegami plays"))
                    })
            })
            .await;
        }
    };
    let mut human_next = 0;
    let mark = fake.call_count();
    timed(
        &fake,
        &human,
        "move",
        json!([
            opt_str("move", human_moves[0]),
            opt_int("game", computer_game)
        ]),
    )
    .await;
    human_next += 1;
    let mut thinking = tokio::spawn(computer_moved(mark));
    // The analysis, not waited for.
    let (_, a_token, ev) = fake.slash_command(
        &analyst,
        "analysis",
        json!([opt_int("game", analysed)]),
        &[],
    );
    let a_sent = Instant::now();
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let a_hook = format!("/api/v10/webhooks/{APP_ID}/{a_token}");
    let analysis_done = || {
        fake.calls().iter().any(|c| {
            c.method == "POST"
                && c.path == a_hook
                && c.files.iter().any(|f| f.filename.ends_with(".png"))
        })
    };
    let mut ms = Vec::new();
    let mut during_search = 0usize;
    let mut r = 0usize;
    while !analysis_done() && ms.len() < 400 {
        // Keep the computer thinking: when it answered, the human moves again.
        if thinking.is_finished() && human_next < human_moves.len() {
            let mark = fake.call_count();
            timed(
                &fake,
                &human,
                "move",
                json!([
                    opt_str("move", human_moves[human_next]),
                    opt_int("game", computer_game)
                ]),
            )
            .await;
            human_next += 1;
            thinking = tokio::spawn(computer_moved(mark));
        }
        let searching = !thinking.is_finished();
        let round = Instant::now();
        // One game moves, another player looks at a board.
        ms.extend(round_of_others(&fake, &players, &games, r).await);
        r += 1;
        tokio::time::sleep_until((round + Duration::from_millis(200)).into()).await;
        if searching {
            during_search += 1;
        }
    }
    let a_wait = fake
        .wait_for("the analysis", STEP * 2, |c| {
            c.method == "POST"
                && c.path == a_hook
                && c.files.iter().any(|f| f.filename.ends_with(".png"))
        })
        .await;
    let a_ms = a_wait.at.duration_since(a_sent).as_secs_f64() * 1000.0;
    ms.sort_by(|a, b| a.total_cmp(b));
    println!(
        "discord stall: {} answers to /board and /move of other players while a {plies}-ply /analysis ran ({:.1} s) and the computer thought at level 5 ({during_search} rounds during a search): p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms (target p95 < 150 ms, max < 400 ms)",
        ms.len(),
        a_ms / 1000.0,
        percentile(&ms, 0.5),
        percentile(&ms, 0.95),
        ms.last().copied().unwrap_or(f64::NAN)
    );
    stop(bot);
}

/// Threads of a process now (`Threads:` of /proc).
fn threads_of(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("Threads:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(f64::NAN)
}

/// Part 4, the flood: three players send `/analysis` of distinct finished games (each of
/// `plies` moves) at the rate limit (one every 1.3 s each, just under 8 in 10 s) for `secs` seconds,
/// while other players move and look at boards. Prints the other players' p50/p95/max, how
/// the analyses were answered (charts, refusals as busy), and the bot's peak memory and
/// threads. Target: p95 < 150 ms, memory and threads bounded.
async fn flood(plies: usize, secs: usize) {
    use tegami::service::User;

    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("flood.db");
    let analysts: Vec<FakeUser> = (0..3)
        .map(|i| FakeUser::new(6_000_000_000_000_000_001 + i, &format!("analyst{i}")))
        .collect();
    // Each analyst's own finished games, more than a minute of requests names: every request
    // names a game not analysed before (nothing is answered from the kept analyses).
    let per_analyst = secs * 4 / 5 + 1;
    let finished: Vec<Vec<i64>> = {
        let (service, place) = core_on(&db);
        // A partner a game: one player may challenge another only 10 times a day.
        analysts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let a = User::new(a.id.to_string(), &a.name);
                (0..per_analyst)
                    .map(|k| {
                        let n = 6_000_000_000_000_001_000 + (i * 1000 + k) as u64;
                        let sparring = User::new(n.to_string(), format!("sparring{i}x{k}"));
                        store_long_game(&service, &place, &a, &sparring, plies)
                    })
                    .collect()
            })
            .collect()
    };
    rusqlite::Connection::open(&db)
        .and_then(|c| c.execute("UPDATE outbox SET sent_at = 0 WHERE sent_at IS NULL", []))
        .expect("mark the stored games' notices sent");
    let fake = Arc::new(FakeDiscord::start().await);
    let players: Vec<FakeUser> = (0..16)
        .map(|i| FakeUser::new(6_000_000_000_000_000_100 + i, &format!("q{i}")))
        .collect();
    for u in analysts.iter().chain(&players) {
        fake.add_user(u);
    }
    let bot = start_bot(&fake, &db, &dir.path().join("bot.log"));
    let pid = bot.id();
    fake.wait_ready(STEP).await;
    fake.wait_for("registration", STEP, |c| c.method == "PUT")
        .await;
    let games = pair_up(&fake, &players).await;
    let (rss0, _) = memory_of(pid);
    let threads0 = threads_of(pid);
    // The analysts, each at the rate limit, none waiting for its answers.
    let start = Instant::now();
    let end = start + Duration::from_secs(secs as u64);
    let mut tokens = Vec::new();
    let senders: Vec<_> = analysts
        .iter()
        .zip(&finished)
        .map(|(a, mine)| {
            let (fake, a, mine) = (fake.clone(), a.clone(), mine.clone());
            tokio::spawn(async move {
                let mut sent = Vec::new();
                for (i, game) in mine.into_iter().enumerate() {
                    let at = start + Duration::from_millis(1300 * i as u64);
                    if at >= end {
                        break;
                    }
                    tokio::time::sleep_until(at.into()).await;
                    let (_, token, ev) =
                        fake.slash_command(&a, "analysis", json!([opt_int("game", game)]), &[]);
                    fake.dispatch("INTERACTION_CREATE", ev).await;
                    sent.push(token);
                }
                sent
            })
        })
        .collect();
    let mut ms = Vec::new();
    let (mut peak_rss, mut peak_threads) = (rss0, threads0);
    let mut r = 0usize;
    while Instant::now() < end {
        let round = Instant::now();
        ms.extend(round_of_others(&fake, &players, &games, r).await);
        let (rss, _) = memory_of(pid);
        peak_rss = peak_rss.max(rss);
        peak_threads = peak_threads.max(threads_of(pid));
        r += 1;
        tokio::time::sleep_until((round + Duration::from_millis(200)).into()).await;
    }
    for s in senders {
        tokens.extend(s.await.expect("an analyst's task"));
    }
    // How each analysis was answered, once the queue has drained (or two minutes passed).
    let answered = |token: &str| {
        let hook = format!("/api/v10/webhooks/{APP_ID}/{token}");
        let calls = fake.calls();
        // Answered at once in the callback (the rate limit): not a follow-up.
        if calls.iter().any(|c| {
            c.method == "POST"
                && c.path.ends_with(&format!("/{token}/callback"))
                && c.json.as_ref().is_some_and(|j| j["type"] == 4)
        }) {
            return Some("limited");
        }
        let mine: Vec<_> = calls
            .iter()
            .filter(|c| c.method == "POST" && c.path == hook)
            .collect();
        if mine
            .iter()
            .any(|c| c.files.iter().any(|f| f.filename.ends_with(".png")))
        {
            Some("chart")
        } else if mine.iter().any(|c| {
            c.content()
                .is_some_and(|t| t.contains("waiting or running") || t.contains("waiting already"))
        }) {
            Some("busy")
        } else if mine.is_empty() {
            None
        } else {
            Some("other")
        }
    };
    let drain = Instant::now() + Duration::from_secs(120);
    while Instant::now() < drain && tokens.iter().any(|t| answered(t).is_none()) {
        let (rss, _) = memory_of(pid);
        peak_rss = peak_rss.max(rss);
        peak_threads = peak_threads.max(threads_of(pid));
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let count = |what: Option<&str>| tokens.iter().filter(|t| answered(t) == what).count();
    let (_, hwm) = memory_of(pid);
    ms.sort_by(|a, b| a.total_cmp(b));
    println!(
        "discord flood: 3 players sent {} /analysis of distinct {plies}-ply games in {secs} s (charts {}, refused as busy {}, turned away by the rate limit {}, other {}, unanswered after 2 min {}); {} answers to other players: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms (target p95 < 150 ms); bot memory {:.0} MB at start, peak {:.0} MB (VmHWM {:.0} MB); threads {} at start, peak {}",
        tokens.len(),
        count(Some("chart")),
        count(Some("busy")),
        count(Some("limited")),
        count(Some("other")),
        count(None),
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.95),
        ms.last().copied().unwrap_or(f64::NAN),
        rss0,
        peak_rss,
        hwm,
        threads0,
        peak_threads
    );
    stop(bot);
}

/// Part 5: the picker's steps while others play (see the header).
async fn picker(steps: usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("picker.db");
    let fake = Arc::new(FakeDiscord::start().await);
    let pointer = FakeUser::new(7_000_000_000_000_000_001, "pointer");
    let partner = FakeUser::new(7_000_000_000_000_000_002, "partner");
    let players: Vec<FakeUser> = (0..16)
        .map(|i| FakeUser::new(7_000_000_000_000_000_100 + i, &format!("q{i}")))
        .collect();
    for u in [&pointer, &partner].into_iter().chain(&players) {
        fake.add_user(u);
    }
    // The pointer clicks far faster than a person (a step as soon as the last is answered):
    // the per-user limit is raised, as it is not what is measured.
    let example =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml"))
            .expect("config.example.toml");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        example.replace("commands_per_10s = 8", "commands_per_10s = 100000"),
    )
    .expect("config");
    let bot = start_bot_with(&fake, &db, &dir.path().join("bot.log"), &config);
    fake.wait_ready(STEP).await;
    fake.wait_for("registration", STEP, |c| c.method == "PUT")
        .await;
    let games = pair_up(&fake, &players).await;
    let mine = pair_up(&fake, &[pointer.clone(), partner.clone()]).await[0];
    // A middle game: both sides' opening played, so that many pieces can move.
    for (i, mv) in OPENING.iter().enumerate() {
        let who = if i % 2 == 0 { &pointer } else { &partner };
        command(
            &fake,
            who,
            "move",
            json!([opt_str("move", mv), opt_int("game", mine)]),
            &[],
        )
        .await;
    }
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let others = {
        let (fake, done, players, games) = (fake.clone(), done.clone(), players.clone(), games);
        tokio::spawn(async move {
            let mut r = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                round_of_others(&fake, &players, &games, r).await;
                r += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    // The picker, opened again and again; each time the first piece, its first square, back
    // twice, the next piece: every click an update with a picture.
    let mut ms: Vec<f64> = Vec::new();
    let components = |m: &serde_json::Value, kind: u64| -> Vec<serde_json::Value> {
        m["components"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
            .filter(|c| c["type"] == kind)
            .collect()
    };
    let mut k = 0usize;
    while ms.len() < steps {
        let (_, token, ev) =
            fake.slash_command(&pointer, "move", json!([opt_int("game", mine)]), &[]);
        let sent = Instant::now();
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let hook = format!("/api/v10/webhooks/{APP_ID}/{token}");
        let opened = fake
            .wait_for("the picker", STEP, |c| c.method == "POST" && c.path == hook)
            .await;
        ms.push(opened.at.duration_since(sent).as_secs_f64() * 1000.0);
        let mut message = opened.message().cloned().expect("the picker");
        for depth in 0..2 {
            let Some(menu) = components(&message, 3).into_iter().next() else {
                break;
            };
            let options = menu["options"].as_array().cloned().unwrap_or_default();
            let value = options[(k + depth) % options.len()]["value"]
                .as_str()
                .expect("value")
                .to_string();
            let (iid, token, ev) = fake.select_menu(
                &pointer,
                menu["custom_id"].as_str().expect("id"),
                &[value.as_str()],
                &message,
            );
            let sent = Instant::now();
            fake.dispatch("INTERACTION_CREATE", ev).await;
            let callback = format!("/api/v10/interactions/{iid}/{token}/callback");
            let r = fake
                .wait_for("a picker step", STEP, |c| {
                    c.method == "POST" && c.path == callback
                })
                .await;
            ms.push(r.at.duration_since(sent).as_secs_f64() * 1000.0);
            message = r.message().cloned().expect("the step");
        }
        k += 1;
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = others.await;
    ms.sort_by(|a, b| a.total_cmp(b));
    println!(
        "picker: {} steps while 16 others play: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms (target p95 < 150 ms)",
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.95),
        ms.last().copied().unwrap_or(f64::NAN)
    );
    stop(bot);
}

fn main() {
    // `cargo bench --no-run` builds this; `cargo test --benches` runs it with `--bench` absent.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        if std::env::args().any(|a| a == "--stall-only") {
            stall(arg("--plies", 200)).await;
            return;
        }
        if std::env::args().any(|a| a == "--picker-only") {
            picker(arg("--picker-steps", 300)).await;
            return;
        }
        if std::env::args().any(|a| a == "--flood-only") {
            flood(arg("--flood-plies", 120), arg("--flood-secs", 60)).await;
            return;
        }
        latency(arg("--rounds", 16)).await;
        memory(arg("--games", 10_000)).await;
        stall(arg("--plies", 200)).await;
        flood(arg("--flood-plies", 120), arg("--flood-secs", 60)).await;
        picker(arg("--picker-steps", 300)).await;
    });
}
