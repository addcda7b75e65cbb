//! The `tegami` command line: the bot, the offline console, and the engine's tools (`legal`,
//! `perft`, `status`, `fen`, `rules`). The subcommands and their output are a contract checked
//! from outside (see `../shared/design.md`): keep them exactly.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use tegami::engine::notation::{self, code, fen, input, Notation};
use tegami::engine::{Game, Position, Variant, VariantId};

#[derive(Parser)]
#[command(
    name = "tegami",
    version,
    about = "Correspondence shogi-family games for Discord"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every legal move code after the moves, one per line, sorted bytewise (with --notation:
    /// `CODE<TAB>WRITTEN FORM`).
    Legal {
        #[command(flatten)]
        game: GameArgs,
        /// Also write each move in this notation: japanese, western or usi.
        #[arg(long)]
        notation: Option<String>,
    },
    /// The perft node count (the last line is the bare number).
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// Plies to count.
        #[arg(long)]
        depth: u32,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
        /// Print the time taken and nodes per second before the count.
        #[arg(long)]
        time: bool,
    },
    /// `ongoing`, `win <side> <reason>` or `draw <reason>`.
    Status(GameArgs),
    /// The position string after the moves.
    Fen(GameArgs),
    /// Writes the board image (PNG) of the position after the moves.
    Render {
        #[command(flatten)]
        game: GameArgs,
        /// Piece style: kanji or international.
        #[arg(long, default_value = "kanji")]
        style: String,
        /// The side at the bottom (black, white; red, blue). Default: the first player.
        #[arg(long)]
        viewer: Option<String>,
        /// The name shown for the player who moves first (default: the side's name).
        #[arg(long)]
        first: Option<String>,
        /// The name shown for the player who moves second.
        #[arg(long)]
        second: Option<String>,
        /// Marks a piece and where it can go, as the move picker does: its square (`4i`), or
        /// a kind in hand with `*` (`P*`) for the squares it can be dropped on.
        #[arg(long)]
        marks: Option<String>,
        /// The PNG file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Writes an animated GIF of the game, one frame a move.
    Replay {
        #[command(flatten)]
        game: GameArgs,
        /// Piece style: kanji or international.
        #[arg(long, default_value = "kanji")]
        style: String,
        /// The GIF file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Runs the Discord bot (token from DISCORD_TOKEN or the config file).
    Run {
        /// The configuration file (see config.example.toml).
        #[arg(long)]
        config: Option<std::path::PathBuf>,
        /// The SQLite database file (wins over the config's `database`; default tegami.db).
        #[arg(long)]
        db: Option<std::path::PathBuf>,
        /// Run only these gateway shards, both ends included (`0-3`, or one: `2`); with
        /// `--total-shards`. Several processes with disjoint ranges serve one bot.
        #[arg(long, value_name = "A-B")]
        shards: Option<String>,
        /// How many shards the bot has in all.
        #[arg(long, value_name = "N")]
        total_shards: Option<u32>,
    },
    /// An offline session in the terminal: lines like `@alice challenge @bob palace`.
    Console {
        /// The SQLite database file (created if missing).
        #[arg(long, default_value = "tegami.db")]
        db: std::path::PathBuf,
        /// Where board pictures are written.
        #[arg(long, default_value = "tegami-images")]
        out: std::path::PathBuf,
    },
    /// The computer player's move: UCI-style `info` lines, then `bestmove CODE` (`bestmove
    /// none` when the game is over).
    Bestmove {
        #[command(flatten)]
        game: GameArgs,
        /// Strength, 1 (beginner) to 5 (full search, 1 s a move; the default).
        #[arg(long)]
        level: Option<u8>,
        /// Search this many plies deep (drops the level's clock).
        #[arg(long)]
        depth: Option<u32>,
        /// Search this many nodes (drops the level's clock).
        #[arg(long)]
        nodes: Option<u64>,
        /// Think this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Seed of the lower levels' noise: the same seed gives the same move.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = tegami::engine::search::DEFAULT_TT_MB)]
        hash: usize,
        /// Threads of a search on the clock (0: one per core). A search to a depth or node
        /// count uses one, so that it is reproducible.
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Changes a setting of the search, as NAME=VALUE (repeatable), to try a change in one
        /// position; the names are those of `SearchParams` in `src/engine/search/pvs.rs`.
        #[arg(long, value_name = "NAME=VALUE")]
        search: Vec<String>,
    },
    /// Writes the evaluation chart of a game (PNG) and prints the three biggest swings.
    Analyse {
        #[command(flatten)]
        game: GameArgs,
        /// Nodes searched in each position.
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// The PNG file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// A game's pieces, their letters and the notation.
    Rules {
        /// Variant id: shogi, judkins, cannon, palace, shanghai.
        variant: String,
        /// A piece, by letter (S, +R, Ln, GC) or name (silver, lion).
        piece: Option<String>,
        /// With a piece: also write a diagram of its moves to this PNG file. With --page: the
        /// start position with its zones marked.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Print the game's rules page instead, as `/rules` shows it (English, Western
        /// notation): how to play, for a newcomer.
        #[arg(long, conflicts_with = "piece")]
        page: bool,
    },
    /// The slash commands the bot registers with Discord, one line each (with --markdown: the
    /// full reference, every option and choice in English and Japanese).
    Commands {
        /// Write the reference as Markdown (the book's `reference/commands.md`).
        #[arg(long)]
        markdown: bool,
    },
    /// The operator's database tools: copy, backup, check.
    Db {
        #[command(subcommand)]
        command: DbCommand,
    },
}

/// `tegami db …` (see src/ops/). A database is a SQLite file or a `postgres://` URL.
#[derive(Subcommand)]
enum DbCommand {
    /// Copies a whole database into an empty one (SQLite to PostgreSQL or back), verifies the
    /// copy (rows and a digest of every table, every game's moves) and prints the counts.
    Copy {
        /// The database copied: a SQLite file or a postgres:// URL. No bot may be running on it.
        #[arg(long, value_name = "FILE_OR_URL")]
        from: String,
        /// The empty database written (a missing SQLite file is created).
        #[arg(long, value_name = "FILE_OR_URL")]
        to: String,
    },
    /// An online backup of a SQLite database, safe while the bot runs (PostgreSQL: says how to
    /// call pg_dump).
    Backup {
        /// The database backed up.
        #[arg(long, value_name = "FILE")]
        db: String,
        /// The new file written (never overwritten).
        #[arg(long, value_name = "FILE")]
        to: std::path::PathBuf,
    },
    /// Integrity, migrations applied, counts. Reads only. Exit status 1 if a problem is found.
    Check {
        /// The database checked (default: DATABASE_URL if set, else tegami.db).
        #[arg(long, value_name = "FILE_OR_URL")]
        db: Option<String>,
    },
}

#[derive(Args)]
struct GameArgs {
    /// Variant id: shogi, judkins, cannon, palace, shanghai.
    #[arg(long)]
    variant: String,
    /// Moves played from the start (or from --position), separated by spaces: move codes,
    /// human notation or Japanese notation (`76歩`, `同　歩`); `declare` (Shogi) declares the
    /// entering king.
    #[arg(long, default_value = "")]
    moves: String,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Start from a handicap position (e.g. rook, two, lance).
    #[arg(long)]
    handicap: Option<String>,
    /// Start from a named setup (Shanghai Palace Chess: original, smith).
    #[arg(long)]
    setup: Option<String>,
}

/// Writes to standard output; a closed pipe (`tegami legal ... | head`) ends the program
/// quietly instead of panicking.
fn emit(text: std::fmt::Arguments, newline: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let r = out.write_fmt(text).and_then(|_| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = r {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("tegami: cannot write the output: {e}");
        std::process::exit(1);
    }
}

macro_rules! outln {
    ($($arg:tt)*) => { emit(format_args!($($arg)*), true) };
}

macro_rules! out {
    ($($arg:tt)*) => { emit(format_args!($($arg)*), false) };
}

/// A user error: printed on stderr, exit status 2.
struct UserError(String);

fn variant_of(s: &str) -> Result<&'static Variant, UserError> {
    VariantId::parse(s).map(Variant::get).ok_or_else(|| {
        let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
        UserError(format!(
            "unknown variant '{s}': known variants are {}",
            known.join(", ")
        ))
    })
}

fn build_game(a: &GameArgs) -> Result<Game, UserError> {
    let v = variant_of(&a.variant)?;
    let start = match (&a.position, &a.handicap, &a.setup) {
        (None, None, None) => Position::start(v.id()),
        (Some(p), None, None) => {
            fen::parse(v, p).map_err(|e| UserError(format!("invalid --position '{p}': {e}")))?
        }
        (None, Some(h), None) => tegami::engine::handicap_position(v.id(), h).ok_or_else(|| {
            let names: Vec<&str> = v.spec.handicaps.iter().map(|h| h.name).collect();
            UserError(if names.is_empty() {
                format!("{} has no handicaps", v.id())
            } else {
                format!(
                    "unknown handicap '{h}' for {}: known handicaps are {}",
                    v.id(),
                    names.join(", ")
                )
            })
        })?,
        (None, None, Some(name)) => {
            tegami::engine::setup_position(v.id(), name).ok_or_else(|| {
                let names: Vec<&str> = v.spec.setups.iter().map(|s| s.name).collect();
                UserError(if names.is_empty() {
                    format!("{} has no named setups", v.id())
                } else {
                    format!(
                        "unknown setup '{name}' for {}: known setups are {}",
                        v.id(),
                        names.join(", ")
                    )
                })
            })?
        }
        _ => {
            return Err(UserError(
                "give only one of --position, --handicap and --setup".into(),
            ))
        }
    };
    play_moves(v, Game::new(start), &a.moves)
}

/// The moves of `--moves`, split at spaces, except that a Japanese `同` (or a bare `▲`/`△`)
/// keeps the piece written after its space: `同　歩` is one move.
fn move_texts(moves: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for t in moves.split_whitespace() {
        if open {
            if let Some(prev) = out.last_mut() {
                prev.push_str(t);
            }
        } else {
            out.push(t.to_string());
        }
        let bare = out
            .last()
            .map_or("", |s| s.trim_start_matches(['▲', '△', '☗', '☖']));
        open = bare.is_empty() || bare == "同";
    }
    out
}

fn play_moves(v: &'static Variant, mut game: Game, moves: &str) -> Result<Game, UserError> {
    for (i, text) in move_texts(moves).iter().enumerate() {
        let text = text.as_str();
        if let Some(o) = game.outcome() {
            return Err(UserError(format!(
                "move {} '{text}': the game is already over ({})",
                i + 1,
                o.describe(v)
            )));
        }
        // Shogi's entering-king declaration ends the game when it holds.
        if text.eq_ignore_ascii_case("declare") {
            game.declare()
                .map_err(|e| UserError(format!("move {} '{text}' is refused: {e}", i + 1)))?;
            continue;
        }
        let last = game.moves().last().map(|m| m.to());
        let m = input::parse_move_after(game.position(), text, last)
            .map_err(|e| UserError(format!("move {} '{text}' is illegal: {e}", i + 1)))?;
        game.play(m).map_err(|e| {
            UserError(format!(
                "move {} '{text}' is illegal: {}",
                i + 1,
                e.message(v)
            ))
        })?;
    }
    Ok(game)
}

fn run(cli: Cli) -> Result<ExitCode, UserError> {
    match cli.command {
        Command::Legal { game, notation } => {
            let g = build_game(&game)?;
            let v = g.variant();
            let legal = g.legal_moves();
            let mut codes: Vec<String> = legal.iter().map(|&m| code::write(v, m)).collect();
            match notation {
                None => {
                    codes.sort();
                    for c in codes {
                        outln!("{c}");
                    }
                }
                Some(word) => {
                    let n = Notation::parse(&word).ok_or_else(|| {
                        UserError(format!(
                            "unknown notation '{word}': give japanese, western or usi"
                        ))
                    })?;
                    let last = g.moves().last().map(|m| m.to());
                    let forms = notation::written_all(g.position(), &legal, n, last);
                    let mut lines: Vec<(String, String)> = codes.into_iter().zip(forms).collect();
                    lines.sort();
                    for (c, w) in lines {
                        outln!("{c}\t{w}");
                    }
                }
            }
        }
        Command::Perft {
            game,
            depth,
            divide,
            time,
        } => {
            let g = build_game(&game)?;
            let v = g.variant();
            let t0 = Instant::now();
            let total = if divide {
                let mut lines = Vec::new();
                let mut total = 0;
                for m in g.legal_moves() {
                    let mut child = g.clone();
                    child.play(m).map_err(|e| UserError(e.message(v)))?;
                    let n = if depth == 0 {
                        0
                    } else {
                        child.perft(depth - 1)
                    };
                    lines.push((code::write(v, m), n));
                    total += n;
                }
                lines.sort();
                for (c, n) in lines {
                    outln!("{c} {n}");
                }
                total
            } else {
                g.perft(depth)
            };
            if time {
                let secs = t0.elapsed().as_secs_f64();
                outln!(
                    "time {:.3} s, {:.2} M nodes/s",
                    secs,
                    total as f64 / secs.max(1e-9) / 1e6
                );
            }
            outln!("{total}");
        }
        Command::Status(a) => {
            let g = build_game(&a)?;
            match g.outcome() {
                None => outln!("ongoing"),
                Some(o) => outln!("{}", o.describe(g.variant())),
            }
        }
        Command::Fen(a) => {
            let g = build_game(&a)?;
            outln!("{}", fen::write(g.position()));
        }
        Command::Bestmove {
            game,
            level,
            depth,
            nodes,
            movetime,
            seed,
            hash,
            threads,
            search,
        } => bestmove(
            &game, level, depth, nodes, movetime, seed, hash, threads, &search,
        )?,
        Command::Analyse { game, nodes, out } => analyse(&game, nodes, &out)?,
        Command::Db { command } => return Ok(db_command(command)),
        Command::Run {
            config,
            db,
            shards,
            total_shards,
        } => {
            let shards = tegami::discord::Shards::parse(shards.as_deref(), total_shards)
                .map_err(UserError)?;
            run_bot(config.as_deref(), db.as_deref(), shards)?
        }
        Command::Commands { markdown } => {
            if markdown {
                print!("{}", tegami::discord::reference::markdown());
            } else {
                print!("{}", tegami::discord::reference::plain());
            }
        }
        Command::Console { db, out } => {
            sqlite_folder(&db)?;
            // Held for the session: `tegami db copy` refuses the file meanwhile.
            let _in_use = tegami::ops::hold_shared(&db).map_err(UserError)?;
            let store = tegami::store::SqliteStore::open(&db).map_err(|e| {
                UserError(format!("cannot open the database {}: {e}", db.display()))
            })?;
            let clock = std::sync::Arc::new(tegami::console::ConsoleClock::new());
            let service = tegami::service::Service::new(
                std::sync::Arc::new(store),
                clock.clone(),
                tegami::service::Config::default(),
            );
            let mut console = tegami::console::Console::new(service, clock, out);
            let stdin = std::io::stdin();
            match console.run(
                stdin.lock(),
                std::io::stdout(),
                tegami::console::interactive(),
            ) {
                // The reader of our output went away (`| head`): nothing more to say.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                r => r.map_err(|e| UserError(format!("console: {e}")))?,
            }
        }
        Command::Rules {
            variant,
            piece,
            out,
            page,
        } => {
            let v = variant_of(&variant)?;
            if page {
                let (lang, notation) = (
                    tegami::i18n::Lang::En,
                    tegami::engine::notation::Notation::Western,
                );
                outln!("{}", tegami::service::learn::lesson(lang, v, notation));
                if let Some(path) = out {
                    let (board, _) = tegami::service::learn::pictures(
                        lang,
                        v,
                        notation,
                        tegami::render::PieceStyle::Kanji,
                    )
                    .map_err(|e| UserError(format!("cannot draw the board: {e}")))?;
                    write_file(&path, &board)?;
                    outln!("board: {}", path.display());
                }
            } else {
                match piece {
                    None => {
                        if out.is_some() {
                            return Err(UserError(
                                "--out draws a piece's diagram: name the piece too".into(),
                            ));
                        }
                        out!("{}", tegami::engine::variants::describe(v))
                    }
                    Some(p) => {
                        let kind = tegami::service::find_kind(v, &p).ok_or_else(|| {
                            UserError(format!(
                                "'{p}' is not a piece of {}: `tegami rules {}` lists them",
                                v.spec.name,
                                v.id()
                            ))
                        })?;
                        out!("{}", tegami::engine::variants::describe_piece(v, kind));
                        if let Some(path) = out {
                            let png = tegami::service::piece_diagram(
                                v,
                                kind,
                                tegami::render::PieceStyle::Kanji,
                            )
                            .map_err(|e| UserError(format!("cannot draw the diagram: {e}")))?;
                            write_file(&path, &png)?;
                            outln!("diagram: {}", path.display());
                        }
                    }
                }
            }
        }
        Command::Render {
            game,
            style,
            viewer,
            first,
            second,
            marks,
            out,
        } => {
            let g = build_game(&game)?;
            let v = g.variant();
            let style = tegami::render::PieceStyle::parse(&style).ok_or_else(|| {
                UserError(format!("unknown style '{style}': kanji or international"))
            })?;
            let viewer = match viewer {
                None => tegami::engine::Color::Black,
                Some(s) => v.parse_side(&s).ok_or_else(|| {
                    UserError(format!(
                        "unknown side '{s}': {} or {}",
                        v.side_name(tegami::engine::Color::Black),
                        v.side_name(tegami::engine::Color::White)
                    ))
                })?,
            };
            let (selected, targets) = match marks.as_deref() {
                None => (None, Vec::new()),
                Some(m) => tegami::render::picked_marks(g.position(), &g.legal_moves(), m)
                    .ok_or_else(|| {
                        UserError(format!(
                            "--marks '{m}': not a square of this game nor a piece in hand with * (4i, P*)"
                        ))
                    })?,
            };
            let opts = tegami::render::RenderOptions {
                last_move: g.moves().last().copied(),
                viewer,
                style,
                names: [first, second].map(|n| n.filter(|n| !n.trim().is_empty())),
                selected,
                targets,
                show_turn: !g.is_over(),
                caption: g.outcome().map(|o| tegami::render::describe_outcome(v, o)),
                ..Default::default()
            };
            let png = tegami::render::render_png(g.position(), &opts)
                .map_err(|e| UserError(format!("cannot draw the board: {e}")))?;
            write_file(&out, &png)?;
        }
        Command::Replay { game, style, out } => {
            let g = build_game(&game)?;
            let style = tegami::render::PieceStyle::parse(&style).ok_or_else(|| {
                UserError(format!("unknown style '{style}': kanji or international"))
            })?;
            let opts = tegami::render::GifOptions {
                board: tegami::render::RenderOptions {
                    style,
                    ..Default::default()
                },
                ..Default::default()
            };
            let gif = tegami::render::render_gif(&g, &opts)
                .map_err(|e| UserError(format!("cannot draw the replay: {e}")))?;
            write_file(&out, &gif)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `tegami bestmove`: one `info` line per completed iteration, then `bestmove`.
#[allow(clippy::too_many_arguments)]
fn bestmove(
    game: &GameArgs,
    level: Option<u8>,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    seed: u64,
    hash: usize,
    threads: usize,
    search: &[String],
) -> Result<(), UserError> {
    use tegami::engine::search::{Limits, SearchParams, Searcher, LEVELS};
    if threads > 256 {
        return Err(UserError(
            "--threads must be at most 256 (0: one per core)".into(),
        ));
    }
    if let Some(l) = level {
        if !LEVELS.contains(&l) {
            return Err(UserError(format!(
                "--level {l}: levels go from {} to {}",
                LEVELS.start(),
                LEVELS.end()
            )));
        }
    }
    if depth == Some(0) {
        return Err(UserError("--depth must be at least 1".into()));
    }
    if nodes == Some(0) {
        return Err(UserError("--nodes must be at least 1".into()));
    }
    if movetime == Some(0) {
        return Err(UserError(
            "--movetime must be at least 1 (milliseconds)".into(),
        ));
    }
    if hash == 0 || hash > 4096 {
        return Err(UserError("--hash must be between 1 and 4096 (MiB)".into()));
    }
    let g = build_game(game)?;
    let v = g.variant();
    let mut params = SearchParams::of(v.id());
    for setting in search {
        params.set_from(setting).map_err(UserError)?;
    }
    let limits = Limits {
        level,
        depth,
        nodes,
        movetime: movetime.map(std::time::Duration::from_millis),
        seed,
        stop: None,
        threads,
    };
    let mut searcher = Searcher::new(hash);
    if !search.is_empty() {
        searcher = searcher.with_search_params(params);
    }
    let result = searcher.think(&g, &limits, |info| {
        let pv: Vec<String> = info.pv.iter().map(|&m| code::write(v, m)).collect();
        outln!(
            "info depth {} score {} nodes {} nps {} pv {}",
            info.depth,
            info.score.uci(),
            info.nodes,
            info.nps(),
            pv.join(" ")
        );
    });
    if result.declare {
        outln!("info string declare wins: the entering-king declaration holds");
    }
    match result.best {
        Some(m) => outln!("bestmove {}", code::write(v, m)),
        None => outln!("bestmove none"),
    }
    Ok(())
}

/// `tegami analyse`: the chart to a file, the biggest swings on standard output.
fn analyse(game: &GameArgs, nodes: u64, out: &std::path::Path) -> Result<(), UserError> {
    use tegami::render::chart::{eval_chart_png, ChartOptions};
    if nodes == 0 {
        return Err(UserError("--nodes must be at least 1".into()));
    }
    let g = build_game(game)?;
    let v = g.variant();
    let a = tegami::engine::search::analyse(&g, nodes);
    let side = |c| {
        let s = v.side_name(c);
        let mut cs = s.chars();
        cs.next()
            .map(|f| f.to_uppercase().chain(cs).collect::<String>())
            .unwrap_or_default()
    };
    let opts = ChartOptions {
        title: format!("{}: evaluation", v.spec.name),
        first: side(tegami::engine::Color::Black),
        second: side(tegami::engine::Color::White),
        ..ChartOptions::default()
    };
    let png = eval_chart_png(&a.evals, &opts).map_err(|e| UserError(e.to_string()))?;
    write_file(out, &png)?;
    for line in tegami::service::swing_lines(&g, &a, 3) {
        outln!("{line}");
    }
    Ok(())
}

/// A SQLite database whose folder is missing (or is a file) is refused saying so, before its
/// lock file beside it is tried: "its lock file …: No such file or directory" would not tell
/// an operator that the folder is what is missing.
fn sqlite_folder(db: &std::path::Path) -> Result<(), UserError> {
    match tegami::store::SqliteStore::folder_problem(db) {
        Some(problem) => Err(UserError(format!(
            "cannot open the database {}: {problem}",
            db.display()
        ))),
        None => Ok(()),
    }
}

/// `tegami run`: a configuration or database problem is a one-line error and exit status 2; a
/// failed Discord connection exit status 1; SIGINT/SIGTERM a clean stop with status 0.
fn run_bot(
    config: Option<&std::path::Path>,
    db: Option<&std::path::Path>,
    shards: Option<tegami::discord::Shards>,
) -> Result<(), UserError> {
    use std::sync::Arc;
    use tegami::discord::{BotConfig, ProcessEnv};

    let mut cfg = BotConfig::load(config, db, &ProcessEnv).map_err(|e| UserError(e.to_string()))?;
    cfg.shards = shards;
    let filter = match std::env::var("RUST_LOG") {
        Ok(f) if !f.is_empty() => tracing_subscriber::EnvFilter::try_new(&f)
            .map_err(|e| UserError(format!("RUST_LOG '{f}' is not a log filter: {e}")))?,
        _ => tracing_subscriber::EnvFilter::try_new(&cfg.log).map_err(|e| {
            UserError(format!(
                "log '{}' in the config is not a log filter: {e}",
                cfg.log
            ))
        })?,
    };
    match cfg.log_format {
        // Colours only on a terminal: a log written to a file or a pipe carries no escape codes.
        tegami::discord::LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        // One JSON object a line, for a log collector: the event's fields under `fields`, the
        // spans it happened in under `spans`.
        tegami::discord::LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_current_span(false)
            .init(),
    }
    let mut held_lock = None;
    let store: Arc<dyn tegami::store::Store> = match &cfg.database_url {
        // The URL may hold a password: the message does not repeat it.
        Some(url) => Arc::new(
            tegami::store::PgStore::open(url)
                .map_err(|e| UserError(format!("cannot open the PostgreSQL database: {e}")))?,
        ),
        None => {
            let path = &cfg.database;
            sqlite_folder(path)?;
            // Held while the bot runs: `tegami db copy` refuses the file meanwhile (and a bot
            // does not start while a copy works on it).
            let in_use = tegami::ops::hold_shared(path).map_err(UserError)?;
            held_lock = Some(in_use);
            let store = tegami::store::SqliteStore::open(path).map_err(|e| {
                UserError(format!("cannot open the database {}: {e}", path.display()))
            })?;
            // Opening an existing, up-to-date database writes nothing: check it may be written.
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(|e| {
                    UserError(format!("cannot write the database {}: {e}", path.display()))
                })?;
            Arc::new(store)
        }
    };
    // Test switch: the bot's clock starts at the time given and runs on from there (as the
    // console's `tick`): end-to-end tests reach a deadline or a player's digest hour.
    let clock: Arc<dyn tegami::service::Clock> = match std::env::var(tegami::service::FAULT_CLOCK) {
        Ok(t) if !t.is_empty() => {
            let at =
                time::OffsetDateTime::parse(&t, &time::format_description::well_known::Rfc3339)
                    .map_err(|e| {
                        UserError(format!(
                            "{}='{t}' is not an RFC 3339 time: {e}",
                            tegami::service::FAULT_CLOCK
                        ))
                    })?;
            let clock = tegami::console::ConsoleClock::new();
            clock.set(at.unix_timestamp());
            tracing::warn!(
                "test switch {}: the clock starts at {t}",
                tegami::service::FAULT_CLOCK
            );
            Arc::new(clock)
        }
        _ => Arc::new(tegami::service::SystemClock),
    };
    let service = Arc::new(tegami::service::Service::new(
        store,
        clock,
        tegami::service::Config {
            // Discord renders markdown: names are escaped to show as typed.
            markdown: true,
            ..tegami::service::Config::default()
        },
    ));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UserError(format!("cannot start the async runtime: {e}")))?;
    let result = runtime.block_on(tegami::discord::run(cfg, service));
    // Commands in flight have finished; dropping the runtime and the service closes the
    // database.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    drop(held_lock);
    match result {
        Ok(()) => Ok(()),
        Err(tegami::discord::RunError::Setup(m)) => Err(UserError(m)),
        Err(tegami::discord::RunError::Discord(m)) => {
            eprintln!("tegami: {m}");
            std::process::exit(1);
        }
    }
}

/// `tegami db …`: its report on stdout, an error on stderr; the exit status says which (0 done
/// and well, 1 failed or a problem found, 2 refused with nothing changed).
fn db_command(command: DbCommand) -> ExitCode {
    use tegami::ops::{self, Location, OpsError};
    let failed = |e: OpsError| {
        eprintln!("tegami: {e}");
        ExitCode::from(e.status())
    };
    match command {
        DbCommand::Copy { from, to } => {
            let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
            match ops::copy::copy(&Location::parse(&from), &Location::parse(&to), progress) {
                Ok(report) => {
                    outln!("{}", report.render().trim_end());
                    if report.verified() {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    }
                }
                Err(e) => failed(e),
            }
        }
        DbCommand::Backup { db, to } => match ops::backup::backup(&Location::parse(&db), &to) {
            Ok(report) => {
                outln!("{}", report.render().trim_end());
                ExitCode::SUCCESS
            }
            Err(e) => failed(e),
        },
        DbCommand::Check { db } => {
            let db = db
                .or_else(|| std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()))
                .unwrap_or_else(|| "tegami.db".to_string());
            match ops::check::check(&Location::parse(&db)) {
                Ok(report) => {
                    outln!("{}", report.render().trim_end());
                    if report.ok() {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    }
                }
                Err(e) => failed(e),
            }
        }
    }
}

fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), UserError> {
    std::fs::write(path, bytes)
        .map_err(|e| UserError(format!("cannot write {}: {e}", path.display())))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(UserError(msg)) => {
            eprintln!("tegami: {msg}");
            ExitCode::from(2)
        }
    }
}
