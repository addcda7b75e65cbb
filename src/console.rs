//! `tegami console`: the whole game offline, several users simulated from one terminal. Each
//! line is `@user command args` (a leading `/` or `!` before the command is fine); replies are
//! printed (after the lines a slow command says while it waits, such as an analysis queued
//! behind others), board pictures written under the output folder with their paths printed.
//!
//! This adapter talks to the command core only.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use crate::i18n::Lang;
use crate::service::{self, Clock, Place, Reply, Request, Service, User, Via};
use crate::t;

/// The computer's name at the console: `@alice challenge @tegami palace level=3`.
pub const COMPUTER: &str = "tegami";

/// The system clock moved by `tick`: what the console says "now" is.
pub struct ConsoleClock {
    offset: AtomicI64,
}

impl ConsoleClock {
    pub fn new() -> ConsoleClock {
        ConsoleClock {
            offset: AtomicI64::new(0),
        }
    }

    /// Makes "now" the given time (the clock then runs on from there).
    pub fn set(&self, t: i64) {
        self.offset
            .store(t - service::SystemClock.now(), Ordering::SeqCst);
    }
}

impl Default for ConsoleClock {
    fn default() -> Self {
        ConsoleClock::new()
    }
}

impl Clock for ConsoleClock {
    fn now(&self) -> i64 {
        service::SystemClock.now() + self.offset.load(Ordering::SeqCst)
    }
}

/// A console session.
pub struct Console {
    service: Service,
    clock: Arc<ConsoleClock>,
    out: PathBuf,
    images: usize,
    /// The language of the console's own words: the last speaker's (`@alice ...`), so that
    /// `help` and `tick` without a user speak as the session does. English at first.
    lang: Lang,
    /// Games whose computer search panicked, with the panics in a row: tried again before the
    /// next line, as the bot's worker queues them again (given up after
    /// [`service::PANICS_IN_A_ROW`] until `tick` looks for the computer's due moves again).
    failed: Vec<(i64, u32)>,
}

impl Console {
    pub fn new(service: Service, clock: Arc<ConsoleClock>, out: impl AsRef<Path>) -> Console {
        service.set_computer(User::new(COMPUTER, COMPUTER));
        Console {
            service,
            clock,
            out: out.as_ref().to_path_buf(),
            images: 0,
            lang: Lang::En,
            failed: Vec::new(),
        }
    }

    /// Runs the session over `input`, writing to `output`, until the input ends or `quit`.
    pub fn run(
        &mut self,
        input: impl BufRead,
        mut output: impl Write,
        interactive: bool,
    ) -> std::io::Result<()> {
        if interactive {
            writeln!(output, "{}", t!(self.lang, "console-banner"))?;
        }
        // Moves of the computer that a stop interrupted.
        match self.service.computer_games_due() {
            Ok(games) => {
                for g in games {
                    writeln!(output, "{}", self.computer_turn(g))?;
                }
            }
            Err(e) => writeln!(
                output,
                "✗ {}",
                t!(
                    self.lang,
                    "console-computer-games-failed",
                    error = e.to_string()
                )
            )?,
        }
        if interactive {
            write!(output, "> ")?;
            output.flush()?;
        }
        for line in input.lines() {
            let line = line?;
            let line = line.trim();
            if matches!(line, "quit" | "exit") {
                break;
            }
            if !line.is_empty() && !line.starts_with('#') {
                let text = self.line(line);
                writeln!(output, "{text}")?;
            }
            if interactive {
                write!(output, "> ")?;
                output.flush()?;
            }
        }
        Ok(())
    }

    /// Answers one line (after the computer's moves whose search failed before, tried again).
    pub fn line(&mut self, line: &str) -> String {
        let mut text = self.retry_failed();
        text.push_str(&self.answer(line));
        text
    }

    /// The computer's moves whose search panicked, tried again (each line before it answers).
    fn retry_failed(&mut self) -> String {
        let mut out = String::new();
        for (game, _) in self.failed.clone() {
            let said = self.computer_turn(game);
            if !said.is_empty() {
                out.push_str(&said);
                out.push('\n');
            }
        }
        out
    }

    /// Answers one line.
    fn answer(&mut self, line: &str) -> String {
        let (user, rest) = match line.strip_prefix('@') {
            Some(r) => match r.split_once(char::is_whitespace) {
                Some((u, rest)) => (Some(u.to_string()), rest.trim()),
                None => {
                    let lang = self.service.voice_of(r).lang;
                    return format!("✗ {}", t!(lang, "console-says-nothing", user = r));
                }
            },
            None => (None, line),
        };
        let word = rest
            .trim_start_matches(['/', '!'])
            .split_whitespace()
            .next()
            .unwrap_or("");
        if user.is_none() {
            return match word {
                "help" => {
                    let words: Vec<&str> = rest.split_whitespace().skip(1).collect();
                    let topic = (!words.is_empty()).then(|| words.join(" "));
                    let mut text = service::help_in(
                        self.lang,
                        service::catalog::Form::Typed,
                        topic.as_deref(),
                    )
                    .text;
                    if topic.is_none() {
                        text.push('\n');
                        text.push_str(&t!(self.lang, "console-help-extra"));
                    }
                    text
                }
                "tick" => self.tick(rest),
                _ => format!("✗ {}", t!(self.lang, "console-no-user")),
            };
        }
        let user = user.expect("checked above");
        // The speaker's language (their setting, else the one kept from before): also the
        // console's own words from here on.
        self.lang = self.service.voice_of(&user).lang;
        let command = match service::parse_command(rest) {
            Ok(c) => c,
            Err(e) => return format!("✗ {}", e.msg().render(self.lang)),
        };
        let req = Request {
            user: User::new(user.clone(), user.clone()),
            // Everyone at the console manages its pretend server.
            place: Place {
                guild: Some("console".into()),
                channel: Some("console".into()),
                admin: true,
                locale: None,
            },
            command,
        };
        // What a slow command says while it waits (an analysis queued), on lines of its own
        // before the reply.
        let progress = std::sync::Mutex::new(Vec::<String>::new());
        let reply = self.service.handle_with(&req, &|p| {
            progress
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("… {p}"));
        });
        let think = reply.think;
        let mut text = progress
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_iter()
            .map(|p| p + "\n")
            .collect::<String>();
        // A command may have changed the language (`settings language=ja`).
        self.lang = self.service.voice_of(&user).lang;
        text.push_str(&self.reply_text(reply));
        // The computer answers at once (the bot does it on its worker threads).
        if let Some(game) = think {
            text.push('\n');
            text.push_str(&self.computer_turn(game));
        }
        text
    }

    /// The computer's move in a game, as `@tegami` would have typed it. A search that panics
    /// is caught as the bot's worker catches it: said, the game kept as it is (still the
    /// computer's move), and tried again before the next line.
    fn computer_turn(&mut self, game: i64) -> String {
        let service = &self.service;
        let thought =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| service.computer_move(game)));
        let result = match thought {
            Ok(r) => {
                self.failed.retain(|(g, _)| *g != game);
                r
            }
            Err(panic) => return self.search_panicked(game, panic),
        };
        match result {
            Ok(Some(reply)) => format!("@{COMPUTER}: {}", self.reply_text(reply)),
            Ok(None) => String::new(),
            Err(e) => format!(
                "✗ {}",
                t!(
                    self.lang,
                    "console-computer-failed",
                    id = game,
                    error = e.to_string()
                )
            ),
        }
    }

    /// What a panicked search of the computer's move in `game` leaves: the game to try again
    /// (or given up after [`service::PANICS_IN_A_ROW`] in a row), and the words saying so.
    fn search_panicked(&mut self, game: i64, panic: Box<dyn std::any::Any + Send>) -> String {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let count = match self.failed.iter_mut().find(|(g, _)| *g == game) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.failed.push((game, 1));
                1
            }
        };
        if count >= service::PANICS_IN_A_ROW {
            self.failed.retain(|(g, _)| *g != game);
            return format!(
                "✗ {}",
                t!(
                    self.lang,
                    "console-computer-given-up",
                    id = game,
                    count = count,
                    error = why
                )
            );
        }
        format!(
            "✗ {}",
            t!(
                self.lang,
                "console-computer-panicked",
                id = game,
                error = why
            )
        )
    }

    /// The computer's moves due (a re-scan, as the bot's sweep makes one): those given up
    /// after their searches failed are tried again.
    fn computer_games_again(&mut self) -> String {
        let mut out = String::new();
        if let Ok(games) = self.service.computer_games_due() {
            for g in games {
                if self.failed.iter().any(|(f, _)| *f == g) {
                    // Tried before this line already.
                    continue;
                }
                let said = self.computer_turn(g);
                if !said.is_empty() {
                    out.push('\n');
                    out.push_str(&said);
                }
            }
        }
        out
    }

    fn tick(&mut self, rest: &str) -> String {
        let arg = rest.split_whitespace().nth(1);
        if let Some(t) = arg {
            match time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339) {
                Ok(dt) => self.clock.set(dt.unix_timestamp()),
                Err(_) => return format!("✗ {}", t!(self.lang, "console-bad-time", time = t)),
            }
        }
        let lang = self.lang;
        let now = self.clock.now();
        let mut out = t!(lang, "console-clock", time = service::format_time(now));
        match self.service.sweep(now) {
            Ok(s) => {
                out.push_str(&t!(
                    lang,
                    "console-sweep",
                    timeouts = s.timeouts.len(),
                    reminders = s.reminders.len(),
                    expired = s.expired.len(),
                    digests = s.digests.len()
                ));
                for (_, n) in &s.notices {
                    let how = via_words(self.service.voice_of(&n.user).lang, n.via, true);
                    out.push_str(&format!("\n  → {} ({how}): {}", to_whom(lang, n), n.text));
                }
                let ids: Vec<i64> = s.notices.iter().map(|(id, _)| *id).collect();
                if let Err(e) = self.service.mark_sent(&ids) {
                    out.push_str(&format!(
                        "\n✗ {}",
                        t!(lang, "console-mark-failed", error = e.to_string())
                    ));
                }
            }
            Err(e) => out.push_str(&format!(
                "\n✗ {}",
                t!(lang, "console-sweep-failed", error = e.to_string())
            )),
        }
        out.push_str(&self.computer_games_again());
        out
    }

    fn reply_text(&mut self, reply: Reply) -> String {
        let mut out = String::new();
        if reply.error {
            out.push_str("✗ ");
        }
        out.push_str(&reply.text);
        let lang = self.lang;
        for file in &reply.attachments {
            let what = if file.is_image() {
                t!(lang, "console-image")
            } else {
                t!(lang, "console-file")
            };
            match self.save(&file.name, &file.data) {
                Ok(path) => out.push_str(&format!("\n  [{what}: {}]", path.display())),
                Err(e) => out.push_str(&format!(
                    "\n  [{}]",
                    t!(
                        lang,
                        "console-not-saved",
                        what = what,
                        error = e.to_string()
                    )
                )),
            }
        }
        // The move picker: each menu with the commands its options stand for, then its buttons
        // (`pick GAME CHOICE...` steps on; the last one is a `move`).
        if let Some(p) = &reply.picker {
            use crate::service::picker::PickAction;
            let step = |path: &[String]| {
                let mut c = format!("pick {}", p.game);
                for t in path {
                    c.push(' ');
                    c.push_str(t);
                }
                c
            };
            for m in &p.menus {
                let o: Vec<String> = m
                    .options
                    .iter()
                    .map(|o| {
                        let mut path = m.path.clone();
                        path.push(o.token.clone());
                        format!("[{}: {}]", o.label, step(&path))
                    })
                    .collect();
                out.push_str(&format!("\n  {}: {}", m.placeholder, o.join(" ")));
            }
            let b: Vec<String> = p
                .choices
                .iter()
                .chain(&p.nav)
                .filter_map(|b| {
                    let command = match &b.action {
                        PickAction::Go { path, .. } => step(path),
                        PickAction::Fresh => step(&[]),
                        PickAction::Play { code } => format!("move {} {code}", p.game),
                        PickAction::Cancel => return None,
                    };
                    Some(format!("[{}: {command}]", b.label))
                })
                .collect();
            if !b.is_empty() {
                out.push_str(&format!(
                    "\n  {}",
                    t!(lang, "console-buttons", buttons = b.join(" "))
                ));
            }
        }
        if !reply.buttons.is_empty() {
            let b: Vec<String> = reply
                .buttons
                .iter()
                .map(|b| format!("[{}: {}]", b.label, b.command))
                .collect();
            out.push_str(&format!(
                "\n  {}",
                t!(lang, "console-buttons", buttons = b.join(" "))
            ));
        }
        for n in &reply.notify {
            // Said to its recipient: in their language (a post: announced in its home).
            let posted = n.via == Via::Post;
            let how = via_words(self.service.voice_of(&n.user).lang, n.via, posted);
            out.push_str(&format!("\n  → {} ({how}): {}", to_whom(lang, n), n.text));
        }
        // Shown here, so delivered: the outbox keeps them no longer.
        let ids: Vec<i64> = reply
            .notify
            .iter()
            .chain(&reply.post)
            .filter_map(|n| n.id)
            .collect();
        if !ids.is_empty() {
            if let Err(e) = self.service.mark_sent(&ids) {
                out.push_str(&format!(
                    "\n✗ {}",
                    t!(lang, "console-mark-failed", error = e.to_string())
                ));
            }
        }
        out
    }

    fn save(&mut self, name: &str, png: &[u8]) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.out)?;
        self.images += 1;
        let path = self.out.join(name);
        std::fs::write(&path, png)?;
        Ok(path)
    }
}

/// How a notice goes, in words: `mention`, `direct message`, `announcement` (a post among a
/// reply's notices is shown as a mention, as the bot sends it).
/// Who a notice goes to: `@user`, or the home of a league's or a game's announcement.
fn to_whom(lang: Lang, n: &service::Notice) -> String {
    match (n.via, n.league, n.game) {
        (Via::Post, Some(id), _) => t!(lang, "console-league-home", id = id),
        (Via::Post, None, Some(id)) => t!(lang, "console-game-home", id = id),
        _ => format!("@{}", n.user),
    }
}

fn via_words(lang: Lang, via: Via, posts: bool) -> String {
    match via {
        Via::Mention => t!(lang, "console-via-mention"),
        Via::Post if !posts => t!(lang, "console-via-mention"),
        Via::Post => t!(lang, "console-via-post"),
        Via::Dm => t!(lang, "console-via-dm"),
    }
}

/// Whether standard input is a terminal (then the console prompts).
pub fn interactive() -> bool {
    std::io::stdin().is_terminal()
}
