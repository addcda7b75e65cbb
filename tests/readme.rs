//! Every example of the README, run: the console session (fed to the real `tegami console`, its
//! replies checked line by line, in order), the command-line examples (each `$ tegami ...` line
//! run, its output compared), and the start positions of the table (`tegami fen`).

use std::io::Write;
use std::process::{Command, Stdio};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// The fenced code blocks of the README, each as its lines.
fn blocks(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(b) => out.push(b),
                None => current = Some(Vec::new()),
            }
        } else if let Some(b) = current.as_mut() {
            b.push(line.to_string());
        }
    }
    out
}

/// Splits a shell command line into words, honouring double quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[test]
fn every_command_line_example_prints_what_the_readme_says() {
    let mut ran = 0;
    for block in blocks(&readme()) {
        if !block.first().is_some_and(|l| l.starts_with("$ tegami ")) {
            continue;
        }
        let mut i = 0;
        while i < block.len() {
            let cmd = block[i].strip_prefix("$ tegami ").expect("a command line");
            let mut expected = Vec::new();
            i += 1;
            while i < block.len() && !block[i].starts_with("$ ") {
                expected.push(block[i].as_str());
                i += 1;
            }
            let out = Command::new(env!("CARGO_BIN_EXE_tegami"))
                .args(words(cmd))
                .output()
                .expect("run tegami");
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(
                printed.trim_end(),
                expected.join("\n").trim_end(),
                "tegami {cmd}"
            );
            // A refusal exits with status 2, anything else with 0.
            let refused = expected.iter().any(|l| l.starts_with("tegami: "));
            assert_eq!(
                out.status.code(),
                Some(if refused { 2 } else { 0 }),
                "tegami {cmd}"
            );
            ran += 1;
        }
    }
    assert!(
        ran >= 3,
        "the README's command-line examples were not found ({ran})"
    );
}

#[test]
fn the_console_session_of_the_readme_replays_as_shown() {
    let block = blocks(&readme())
        .into_iter()
        .find(|b| b.first().is_some_and(|l| l.ends_with("-- console")))
        .expect("the README's console session");
    let inputs: Vec<&str> = block.iter().filter_map(|l| l.strip_prefix("> ")).collect();
    let expected: Vec<&str> = block[1..]
        .iter()
        .filter(|l| !l.starts_with("> ") && l.trim() != "...")
        .map(|l| l.as_str())
        .collect();
    assert!(inputs.len() >= 8 && expected.len() >= 10);
    // The session's clock: the README's first deadline (3 days per move) is 2026-11-25 19:53.
    let script = format!("tick 2026-11-22T19:53:00Z\n{}\n", inputs.join("\n"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .arg("console")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tegami console");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write the session");
    let out = child.wait_with_output().expect("the console runs");
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let printed: Vec<&str> = stdout.lines().map(|l| l.trim_start_matches("> ")).collect();
    let mut at = 0;
    for line in expected {
        match printed[at..]
            .iter()
            .position(|p| p.trim_end() == line.trim_end())
        {
            Some(k) => at += k + 1,
            None => panic!("README line {line:?} not printed (in this order):\n{stdout}"),
        }
    }
    // The pictures it mentions were written.
    assert!(dir.path().join("tegami-images/game-1-move-0.png").is_file());
}

#[test]
fn the_start_positions_of_the_readme_are_the_games_starts() {
    let mut seen = 0;
    for line in readme().lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | game | `position` |
        if cells.len() != 4 || !cells[2].starts_with('`') {
            continue;
        }
        let Some(id) = tegami::engine::VariantId::parse(cells[1]) else {
            continue;
        };
        let position = cells[2].trim_matches('`');
        let start = tegami::engine::Position::start(id);
        assert_eq!(
            tegami::engine::notation::fen::write(&start),
            position,
            "{}",
            cells[1]
        );
        seen += 1;
    }
    assert_eq!(seen, 5, "the README's table of start positions");
}
