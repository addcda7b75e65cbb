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

use crate::service::{self, Clock, Place, Reply, Request, Service, User, Via};

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
}

const BANNER: &str = "Tegami console: play offline as several users. Type lines like
  @alice challenge @bob shogi
  @bob accept
  @alice move 7g7f
`help` lists the commands, `quit` ends the session.";

impl Console {
    pub fn new(service: Service, clock: Arc<ConsoleClock>, out: impl AsRef<Path>) -> Console {
        service.set_computer(User::new(COMPUTER, COMPUTER));
        Console {
            service,
            clock,
            out: out.as_ref().to_path_buf(),
            images: 0,
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
            writeln!(output, "{BANNER}")?;
        }
        // Moves of the computer that a stop interrupted.
        match self.service.computer_games_due() {
            Ok(games) => {
                for g in games {
                    writeln!(output, "{}", self.computer_turn(g))?;
                }
            }
            Err(e) => writeln!(output, "✗ cannot read the computer's games: {e}")?,
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

    /// Answers one line.
    pub fn line(&mut self, line: &str) -> String {
        let (user, rest) = match line.strip_prefix('@') {
            Some(r) => match r.split_once(char::is_whitespace) {
                Some((u, rest)) => (Some(u.to_string()), rest.trim()),
                None => {
                    return format!(
                        "✗ @{r} says nothing: write a command after the name, e.g. @{r} games"
                    )
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
                    let topic = rest.split_whitespace().nth(1);
                    let mut text = service::help(topic).text;
                    if topic.is_none() {
                        text.push_str(
                            "\n  tick [TIME] — (console) set the clock to an RFC 3339 time, e.g. tick 2026-12-01T12:00:00Z\n  \
                             quit — end the session\nWrite every command after the user who speaks: @alice games",
                        );
                    }
                    text
                }
                "tick" => self.tick(rest),
                _ => "✗ start the line with the user who speaks, e.g. `@alice challenge @bob shogi` (help lists the commands)".to_string(),
            };
        }
        let user = user.expect("checked above");
        let command = match service::parse_command(rest) {
            Ok(c) => c,
            Err(e) => return format!("✗ {e}"),
        };
        let req = Request {
            user: User::new(user.clone(), user),
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
        text.push_str(&self.reply_text(reply));
        // The computer answers at once (the bot does it on its worker threads).
        if let Some(game) = think {
            text.push('\n');
            text.push_str(&self.computer_turn(game));
        }
        text
    }

    /// The computer's move in a game, as `@tegami` would have typed it.
    fn computer_turn(&mut self, game: i64) -> String {
        match self.service.computer_move(game) {
            Ok(Some(reply)) => format!("@{COMPUTER}: {}", self.reply_text(reply)),
            Ok(None) => String::new(),
            Err(e) => format!("✗ the computer could not move in game #{game}: {e}"),
        }
    }

    fn tick(&mut self, rest: &str) -> String {
        let arg = rest.split_whitespace().nth(1);
        if let Some(t) = arg {
            match time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339) {
                Ok(dt) => self.clock.set(dt.unix_timestamp()),
                Err(_) => {
                    return format!("✗ '{t}' is not an RFC 3339 time such as 2026-12-01T12:00:00Z")
                }
            }
        }
        let now = self.clock.now();
        let mut out = format!("The console's clock reads {}.", service::format_time(now));
        match self.service.sweep(now) {
            Ok(s) => {
                out.push_str(&format!(
                    " Sweep: {} lost on time, {} reminded, {} challenges expired, {} digests.",
                    s.timeouts.len(),
                    s.reminders.len(),
                    s.expired.len(),
                    s.digests.len()
                ));
                for (_, n) in &s.notices {
                    let how = match n.via {
                        Via::Mention => "mention",
                        Via::Dm => "direct message",
                        Via::Post => "announcement",
                    };
                    out.push_str(&format!("\n  → @{} ({how}): {}", n.user, n.text));
                }
                let ids: Vec<i64> = s.notices.iter().map(|(id, _)| *id).collect();
                if let Err(e) = self.service.mark_sent(&ids) {
                    out.push_str(&format!("\n✗ could not mark the notifications sent: {e}"));
                }
            }
            Err(e) => out.push_str(&format!("\n✗ the sweep failed: {e}")),
        }
        out
    }

    fn reply_text(&mut self, reply: Reply) -> String {
        let mut out = String::new();
        if reply.error {
            out.push_str("✗ ");
        }
        out.push_str(&reply.text);
        for file in &reply.attachments {
            let what = if file.is_image() { "image" } else { "file" };
            match self.save(&file.name, &file.data) {
                Ok(path) => out.push_str(&format!("\n  [{what}: {}]", path.display())),
                Err(e) => out.push_str(&format!("\n  [{what} not saved: {e}]")),
            }
        }
        if !reply.buttons.is_empty() {
            let b: Vec<String> = reply
                .buttons
                .iter()
                .map(|b| format!("[{}: {}]", b.label, b.command))
                .collect();
            out.push_str(&format!("\n  buttons: {}", b.join(" ")));
        }
        for n in &reply.notify {
            let how = match n.via {
                Via::Mention | Via::Post => "mention",
                Via::Dm => "direct message",
            };
            out.push_str(&format!("\n  → @{} ({how}): {}", n.user, n.text));
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
                out.push_str(&format!("\n✗ could not mark the notifications sent: {e}"));
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

/// Whether standard input is a terminal (then the console prompts).
pub fn interactive() -> bool {
    std::io::stdin().is_terminal()
}
