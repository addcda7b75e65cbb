//! Fairy-Stockfish spoken to over USI, for the benches that play it (`versus`) or learn from
//! its searches (`distil`).

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use tegami::engine::notation::{code, fen};
use tegami::engine::{Game, IllegalMove, Move, Position, VariantId};

/// How long Fairy-Stockfish may take to answer anything but a search (loading a network can
/// take a few seconds).
pub const ANSWER_TIME: Duration = Duration::from_secs(30);

/// Fairy-Stockfish's name of a game (its `USI_Variant` value).
pub fn fsf_variant(id: VariantId) -> Option<&'static str> {
    match id {
        VariantId::Shogi => Some("shogi"),
        VariantId::Judkins => Some("judkins"),
        _ => None,
    }
}

/// A move as Fairy-Stockfish writes it. Tegami's move codes of Shogi and Judkins Shogi are
/// USI's, as Fairy-Stockfish's are in USI mode (files from the right, ranks from the top,
/// `P*5e`, `8h2b+`): no conversion (checked move by move, see `Fsf::check`).
pub fn to_fsf(pos: &Position, m: Move) -> String {
    code::write(pos.variant(), m)
}

/// A move of Fairy-Stockfish, read in Tegami's position (`None`: not a move code of the game).
pub fn from_fsf(pos: &Position, s: &str) -> Option<Move> {
    code::parse(pos, s)
}

/// A Fairy-Stockfish process spoken to over USI.
pub struct Fsf {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name of its variant option (`USI_Variant` in USI mode) and the values it offers.
    pub variant_option: String,
    pub variants: Vec<String>,
    pub name: String,
}

impl Fsf {
    /// Starts the engine and reads its options (`usi` … `usiok`).
    pub fn start(path: &str) -> Result<Fsf> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("cannot start Fairy-Stockfish at {path}"))?;
        let stdin = child.stdin.take().context("the engine's standard input")?;
        let stdout = child
            .stdout
            .take()
            .context("the engine's standard output")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Fsf {
            child,
            stdin,
            lines,
            variant_option: String::new(),
            variants: Vec::new(),
            name: path.to_string(),
        };
        e.send("usi")?;
        for line in e.until("usiok", ANSWER_TIME)? {
            if let Some(name) = line.strip_prefix("id name ") {
                e.name = name.trim().to_string();
            }
            // `option name USI_Variant type combo default shogi var 3check var 5check …`
            let Some(rest) = line.strip_prefix("option name ") else {
                continue;
            };
            let Some((name, spec)) = rest.split_once(" type combo ") else {
                continue;
            };
            if name.ends_with("_Variant") {
                e.variant_option = name.to_string();
                let words: Vec<&str> = spec.split_whitespace().collect();
                e.variants = words
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect();
            }
        }
        if e.variant_option.is_empty() {
            bail!("{path} offers no variant option: not Fairy-Stockfish?");
        }
        Ok(e)
    }

    pub fn send(&mut self, cmd: &str) -> Result<()> {
        writeln!(self.stdin, "{cmd}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("cannot send `{cmd}` to Fairy-Stockfish (did it exit?)"))
    }

    /// The lines it writes up to the first that starts with `prefix`, that one included.
    pub fn until(&mut self, prefix: &str, within: Duration) -> Result<Vec<String>> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    bail!("Fairy-Stockfish wrote no `{prefix}` within {within:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    bail!("Fairy-Stockfish exited while Tegami waited for `{prefix}`")
                }
            }
        }
    }

    pub fn ready(&mut self) -> Result<()> {
        self.send("isready")?;
        self.until("readyok", ANSWER_TIME).map(drop)
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<()> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Sets its variant, checking it has it.
    pub fn set_variant(&mut self, name: &str) -> Result<()> {
        if !self.variants.iter().any(|v| v == name) {
            bail!(
                "{} has no variant `{name}` (it has {})",
                self.name,
                self.variants.join(" ")
            );
        }
        let option = self.variant_option.clone();
        self.set_option(&option, name)?;
        self.ready()
    }

    /// Sets the position: the start and the game's moves.
    pub fn position(&mut self, g: &Game) -> Result<()> {
        let mut pos = g.start().clone();
        let mut cmd = String::from("position startpos");
        if !g.moves().is_empty() {
            cmd.push_str(" moves");
        }
        for &m in g.moves() {
            cmd.push(' ');
            cmd.push_str(&to_fsf(&pos, m));
            pos.make(m);
        }
        self.send(&cmd)
    }

    /// Checks that its position (set by `position`) is Tegami's: the same SFEN (board, side,
    /// hands; an error otherwise) and the same legal moves (returned as a warning otherwise).
    pub fn check(&mut self, g: &Game) -> Result<Option<String>> {
        let pos = g.position();
        self.send("go perft 1")?;
        let mut theirs = BTreeSet::new();
        for line in self.until("Nodes searched", ANSWER_TIME)? {
            if let Some((m, n)) = line.split_once(": ") {
                if !m.contains(' ') && n.trim().parse::<u64>().is_ok() {
                    theirs.insert(m.to_string());
                }
            }
        }
        self.send("d")?;
        let lines = self.until("Sfen: ", ANSWER_TIME)?;
        self.ready()?;
        let sfen = lines
            .last()
            .and_then(|l| l.strip_prefix("Sfen: "))
            .context("the SFEN line of `d`")?
            .trim();
        let ours = fen::write(pos);
        let same = match fen::parse(pos.variant(), sfen) {
            Ok(p) => first_fields(&fen::write(&p)) == first_fields(&ours),
            Err(_) => false,
        };
        if !same {
            bail!("Fairy-Stockfish's position is {sfen}, Tegami's is {ours}");
        }
        let mine: BTreeSet<String> = g.legal_moves().iter().map(|&m| to_fsf(pos, m)).collect();
        // Fairy-Stockfish generates a pawn drop that mates (its perft counts it) and only its
        // search refuses it, scoring it as a loss: not a difference of rules.
        theirs.retain(|t| {
            mine.contains(t)
                || !from_fsf(pos, t).is_some_and(|m| {
                    matches!(g.check_move(m), Err(IllegalMove::PawnDropMate { .. }))
                })
        });
        if theirs == mine {
            return Ok(None);
        }
        let only = |a: &BTreeSet<String>, b: &BTreeSet<String>| {
            a.difference(b).cloned().collect::<Vec<_>>().join(" ")
        };
        Ok(Some(format!(
            "legal moves differ in {ours}: only Tegami's: [{}]; only Fairy-Stockfish's: [{}]",
            only(&mine, &theirs),
            only(&theirs, &mine)
        )))
    }

    /// Its move in the position set (`resign`, `win` or a move code).
    pub fn go(&mut self, movetime_ms: u64) -> Result<String> {
        self.send(&format!("go movetime {movetime_ms}"))?;
        let within = Duration::from_millis(movetime_ms) + ANSWER_TIME;
        let lines = self.until("bestmove", within)?;
        let last = lines.last().context("a bestmove line")?;
        last.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .with_context(|| format!("a bestmove without a move: `{last}`"))
    }
}

/// What a search said: its move and the last score it gave (`None` for a mate score).
pub struct Searched {
    pub best: String,
    pub score_cp: Option<i32>,
}

impl Fsf {
    /// Its move and score after a search of `nodes` nodes in the position set.
    pub fn go_nodes(&mut self, nodes: u64) -> Result<Searched> {
        self.send(&format!("go nodes {nodes}"))?;
        let lines = self.until("bestmove", ANSWER_TIME)?;
        let last = lines.last().context("a bestmove line")?;
        let best = last
            .split_whitespace()
            .nth(1)
            .map(str::to_string)
            .with_context(|| format!("a bestmove without a move: `{last}`"))?;
        // `info depth 8 … score cp 15 nodes …`, or `score mate -3`; a bound still counts.
        let mut score_cp = None;
        for line in lines.iter().filter(|l| l.starts_with("info ")) {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = words.iter().position(|&w| w == "score") {
                score_cp = match (words.get(i + 1), words.get(i + 2)) {
                    (Some(&"cp"), Some(v)) => v.parse().ok(),
                    _ => None,
                };
            }
        }
        Ok(Searched { best, score_cp })
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Board, side and hands of a position string.
fn first_fields(s: &str) -> Vec<&str> {
    s.split_whitespace().take(3).collect()
}
