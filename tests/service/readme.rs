//! Every example of the README and of the book's pages (`docs/src/**/*.md`), run wherever it
//! stands: the console sessions (fed to the real `tegami console`, their replies checked line by
//! line, in order), the command-line examples (each `$ tegami ...` line run, its output
//! compared), the start positions of the table (`tegami fen`), the move examples of *Writing
//! moves* and of *Language and notation*, and the prefix commands.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The README and every page of the book, in a fixed order (the README first).
pub fn documents() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut stack = vec![root.join("docs/src")];
    let mut pages = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/src") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    assert!(pages.len() >= 20, "the book's pages ({})", pages.len());
    files.extend(pages);
    files
        .into_iter()
        .map(|f| {
            let text =
                std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f, text)
        })
        .collect()
}

/// The README and the book, one text.
fn readme() -> String {
    documents()
        .into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The section under the heading `title` (at any level) of whichever document has it, up to the
/// next heading of the same or a higher level.
fn section(title: &str) -> String {
    for (_, text) in documents() {
        let lines: Vec<&str> = text.lines().collect();
        let heading = |l: &str| -> Option<(usize, String)> {
            let level = l.chars().take_while(|&c| c == '#').count();
            (level > 0 && l[level..].starts_with(' ')).then(|| (level, l[level + 1..].to_string()))
        };
        let mut in_code = false;
        for (i, l) in lines.iter().enumerate() {
            if l.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            if in_code {
                continue;
            }
            let Some((level, text)) = heading(l) else {
                continue;
            };
            if !text.starts_with(title) {
                continue;
            }
            let mut out = Vec::new();
            let mut code = false;
            for l in &lines[i + 1..] {
                if l.trim_start().starts_with("```") {
                    code = !code;
                }
                if !code && heading(l).is_some_and(|(k, _)| k <= level) {
                    break;
                }
                out.push(*l);
            }
            return out.join("\n");
        }
    }
    panic!("no section {title:?} in the README or the book");
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
    assert!(ran >= 3, "the command-line examples were not found ({ran})");
}

#[test]
fn the_console_sessions_of_the_readme_replay_as_shown() {
    let sessions: Vec<Vec<String>> = blocks(&readme())
        .into_iter()
        .filter(|b| b.first().is_some_and(|l| l.ends_with("-- console")))
        .collect();
    // The README's, the console page's, and the Japanese one of *Language and notation*, among
    // others.
    assert!(
        sessions.len() >= 3,
        "the console sessions ({})",
        sessions.len()
    );
    for block in sessions {
        replay(&block);
    }
}

/// Feeds a README console session to the real `tegami console` and checks its lines, in order.
fn replay(block: &[String]) {
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

/// Every move example of the README's *Writing moves*, in a position where it can be played:
/// (game, position, as written, the move code it must be read as).
const MOVE_EXAMPLES: &[(&str, &str, &str, &str)] = &[
    ("shogi", START, "7g7f", "7g7f"),
    ("shogi", "4k4/9/7P1/9/9/9/9/9/4K4 b - 1", "2c2b+", "2c2b+"),
    ("shogi", "4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5e", "P*5e"),
    ("shogi", START, "P-7f", "7g7f"),
    ("shogi", "4k4/9/9/9/9/2p6/2P6/9/4K4 b - 1", "Px7f", "7g7f"),
    ("shogi", "4k4/9/9/9/1N7/9/9/9/4K4 b - 1", "N-7c=", "8e7c"),
    ("shogi", "4k4/9/9/9/7+R1/9/9/9/4K4 b - 1", "+R-2b", "2e2b"),
    ("shogi", START, "G6i-5h", "6i5h"),
    ("shogi", "4k4/9/9/9/9/9/9/9/4K4 b S 1", "S*5e", "S*5e"),
    ("shogi", START, "P-76", "7g7f"),
    ("shogi", START, "7776", "7g7f"),
    ("shogi", START, "p-7f", "7g7f"),
    ("palace", LION, "Ln5ex5d-5c", "5e5d5c"),
    ("palace", LION, "5e5d5c", "5e5d5c"),
    ("palace", LION, "5e5d5e", "5e5d5e"),
    ("palace", LION, "5e5e", "5e5e"),
    ("palace", CASTLE, "K-7i", "5i7i"),
    ("palace", CASTLE, "5i7i", "5i7i"),
    ("shanghai", KNIGHTS, "Ne2-f4", "e2f4"),
    ("shanghai", KNIGHT, "Nf4", "e2f4"),
    ("shanghai", CANNON, "Cxe7", "e3e7"),
    ("shanghai", PAWNS, "e4", "e3e4"),
    ("shanghai", PAWNS, "dxe5", "d4e5"),
    ("shanghai", PAWNS, "c9=Q", "c8c9q"),
    ("shanghai", PAWNS, "c8c9q", "c8c9q"),
    ("shanghai", DROP, "S*e5", "S*e5"),
    ("shanghai", PAWNS, "Fh5+", "h4h5+"),
];

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
// Palace Shogi: Black's lion on 5e before White's footsoldier on 5d (5c empty); castling with
// the lance of 9i (a pawn between the kings, which may not face each other).
const LION: &str = "4k4/9/9/4p4/4+Q4/9/4+P4/9/4K4 b - 1 - -";
const CASTLE: &str = "4k4/9/9/9/9/9/4+P4/9/L3K4 b - 1 9i -";
// Shanghai Palace Chess (ranks 9..1 from the top): kings on d1 and f9.
const KNIGHTS: &str = "5k3/9/9/9/9/9/9/4N1N2/3K5 b - 1";
const KNIGHT: &str = "5k3/9/9/9/9/9/9/4N4/3K5 b - 1";
const CANNON: &str = "5k3/9/4p4/9/4Z4/9/4C4/9/3K5 b - 1";
const PAWNS: &str = "5k3/2P6/9/9/4p4/3P3F1/4P4/9/3K5 b - 1";
const DROP: &str = "5k3/9/9/9/9/9/9/9/3K5 b S 1";

/// Examples in the section that are not moves: squares, piece letters and names.
const NOT_MOVES: &[&str] = &[
    "7g",
    "GC SC CC IC",
    "U A C I",
    "Ln",
    "a1",
    "i9",
    "N",
    "H",
    "B",
    "D",
    "R",
    "T",
    "P",
    "Z",
    "F",
];

#[test]
fn every_move_example_of_the_readme_is_read_as_said() {
    let section = section("Writing moves");
    // Every backticked example of the section is checked here.
    for example in section.split('`').skip(1).step_by(2) {
        assert!(
            NOT_MOVES.contains(&example) || MOVE_EXAMPLES.iter().any(|e| e.2 == example),
            "README example `{example}` is not checked"
        );
    }
    for &(game, position, written, expected) in MOVE_EXAMPLES {
        let id = tegami::engine::VariantId::parse(game).expect("a game");
        let v = tegami::engine::Variant::get(id);
        let pos = tegami::engine::notation::fen::parse(v, position)
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        let m = tegami::engine::notation::input::parse_move(&pos, written)
            .unwrap_or_else(|e| panic!("{game} `{written}` refused in {position}: {e}"));
        assert_eq!(
            tegami::engine::notation::code::write(v, m),
            expected,
            "{game} `{written}`"
        );
    }
    // The cannons' names and letters name the same pieces.
    let cannon = tegami::engine::Variant::get(tegami::engine::VariantId::Cannon);
    for (human, letter) in [("GC", "U"), ("SC", "A"), ("CC", "C"), ("IC", "I")] {
        assert_eq!(
            cannon.kind_by_human(human),
            cannon.kind_by_code(letter),
            "{human} and {letter}"
        );
        assert!(cannon.kind_by_human(human).is_some(), "{human}");
    }
}

#[test]
fn the_prefix_command_examples_of_the_readme_are_commands() {
    let text = readme();
    let mut seen = 0;
    for example in text.split('`').skip(1).step_by(2) {
        let Some(line) = example
            .strip_prefix('!')
            .or_else(|| example.strip_prefix("@alice /"))
        else {
            continue;
        };
        if line.is_empty() {
            continue;
        }
        tegami::service::parse_command(line)
            .unwrap_or_else(|e| panic!("README example `{example}` is no command: {e}"));
        seen += 1;
    }
    assert!(seen >= 4, "the README's prefix examples ({seen})");
}

/// Every Japanese move of the README's *Language and notation*, in a position where it can be
/// played: (game, position, moves played before, as written, the move code it must be read as).
/// A form that begins with ▲ or △ is also how Tegami writes that move.
const JAPANESE_EXAMPLES: &[(&str, &str, &str, &str, &str)] = &[
    ("shogi", START, "", "▲７六歩", "7g7f"),
    ("shogi", START, "", "76歩", "7g7f"),
    ("shogi", START, "", "７六歩", "7g7f"),
    ("shogi", START, "", "7六歩", "7g7f"),
    ("shogi", START, "", "▲５八金右", "4i5h"),
    ("shogi", START, "", "58金右", "4i5h"),
    (
        "shogi",
        START,
        "2g2f 8c8d 2f2e 8d8e 2e2d",
        "△同　歩",
        "2c2d",
    ),
    ("shogi", START, "2g2f 8c8d 2f2e 8d8e 2e2d", "同歩", "2c2d"),
    (
        "shogi",
        "4k4/9/9/9/9/9/9/1B7/4K4 b B 1",
        "",
        "▲５五角打",
        "B*5e",
    ),
    (
        "shogi",
        "4k4/9/9/9/9/9/9/1B7/4K4 b B 1",
        "",
        "55角打",
        "B*5e",
    ),
    ("shogi", START, "7g7f 3c3d", "22角成", "8h2b+"),
    ("shogi", START, "7g7f 3c3d", "22角不成", "8h2b"),
    ("palace", LION, "", "▲５四獅・５三", "5e5d5c"),
    ("palace", LION, "", "▲５四獅居喰い", "5e5d5e"),
    ("palace", LION, "", "▲５五獅じっと", "5e5e"),
    ("palace", CASTLE, "", "▲７九玉キャスリング", "5i7i"),
];

/// Examples of the section that are not moves: piece names, refusals, settings.
const JAPANESE_NOT_MOVES: &[&str] = &[
    "金砲",
    "獅",
    "后",
    "５八金: 左か右か",
    "５八金: 左か右か、書き分けてください",
];

#[test]
fn every_japanese_move_example_of_the_readme_is_read_and_written_as_said() {
    use tegami::engine::notation::{code, fen, input, written, Notation};
    let section = section("Language and notation");
    let mut seen = 0;
    for example in section.split('`').skip(1).step_by(2) {
        if example.is_ascii() || example.contains('\n') {
            continue;
        }
        assert!(
            JAPANESE_NOT_MOVES.contains(&example)
                || JAPANESE_EXAMPLES.iter().any(|e| e.3 == example),
            "README example `{example}` is not checked"
        );
        seen += 1;
    }
    assert!(seen >= 15, "the section's Japanese examples ({seen})");
    for &(game, position, before, typed, expected) in JAPANESE_EXAMPLES {
        let id = tegami::engine::VariantId::parse(game).expect("a game");
        let v = tegami::engine::Variant::get(id);
        let start = fen::parse(v, position).unwrap_or_else(|e| panic!("{position}: {e}"));
        let mut game_so_far = tegami::engine::Game::new(start);
        for c in before.split_whitespace() {
            let m = input::parse_move(game_so_far.position(), c).expect("a move before");
            game_so_far.play(m).expect("legal");
        }
        let last = game_so_far.moves().last().map(|m| m.to());
        let pos = game_so_far.position();
        let m = input::parse_move_after(pos, typed, last)
            .unwrap_or_else(|e| panic!("{game} `{typed}` refused: {e}"));
        assert_eq!(code::write(v, m), expected, "{game} `{typed}`");
        if typed.starts_with(['▲', '△']) {
            assert_eq!(
                written(pos, m, Notation::Japanese, last),
                typed,
                "{game} {expected}"
            );
        }
    }
}
