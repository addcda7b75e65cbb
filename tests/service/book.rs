//! The book under `docs/` and the README stay true to the binary and to themselves: the slash
//! command reference is what `tegami commands --markdown` prints, every picture they name
//! exists, every relative link resolves, and every page is in the book's SUMMARY.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::readme::documents;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_command_reference_of_the_book_is_what_the_binary_registers() {
    let out = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .args(["commands", "--markdown"])
        .output()
        .expect("run tegami commands --markdown");
    assert!(out.status.success(), "{out:?}");
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    let page = root().join("docs/src/reference/commands.md");
    let book = std::fs::read_to_string(&page).expect("docs/src/reference/commands.md");
    if printed != book {
        let first = printed
            .lines()
            .zip(book.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(printed.lines().count().min(book.lines().count()));
        panic!(
            "docs/src/reference/commands.md differs from `tegami commands --markdown` from line {}:\n  \
             binary: {:?}\n  book:   {:?}\nmake it again with `cargo run --release -- commands \
             --markdown > docs/src/reference/commands.md`",
            first + 1,
            printed.lines().nth(first),
            book.lines().nth(first)
        );
    }
    // The reference names every command the bot has, sub-commands and Japanese included.
    for name in [
        "## `/challenge`",
        "## `/move`",
        "### `/league create`",
        "### `/conditional add`",
        "日本語: `/",
        "Choices of `game`: `shogi` (",
    ] {
        assert!(book.contains(name), "the reference lacks {name:?}");
    }
}

/// Markdown without its fenced code blocks and inline code spans (links there are examples).
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop `code spans` (an odd backtick count leaves the rest of the line as it is).
        let parts: Vec<&str> = line.split('`').collect();
        for (i, p) in parts.iter().enumerate() {
            if i.is_multiple_of(2) || (i == parts.len() - 1 && parts.len().is_multiple_of(2)) {
                out.push_str(p);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of a text's links and pictures: `[..](TARGET)`, `![..](TARGET)`, `src="TARGET"`
/// and `href="TARGET"`; each with whether it is a picture.
fn targets(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let text = prose(text);
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(k) = text[i..].find("](") {
        let start = i + k + 2;
        let end = text[start..]
            .find([')', ' '])
            .map_or(text.len(), |e| start + e);
        // A picture when the bracket it closes opened with `![`.
        let open = text[..i + k].rfind('[');
        let picture = open.is_some_and(|o| o > 0 && bytes[o - 1] == b'!');
        out.push((text[start..end].to_string(), picture));
        i = end;
    }
    for (attr, picture) in [("src=\"", true), ("href=\"", false)] {
        let mut i = 0;
        while let Some(k) = text[i..].find(attr) {
            let start = i + k + attr.len();
            let end = text[start..].find('"').map_or(text.len(), |e| start + e);
            out.push((text[start..end].to_string(), picture));
            i = end;
        }
    }
    out
}

fn external(target: &str) -> bool {
    target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:")
}

#[test]
fn every_picture_and_relative_link_of_the_readme_and_the_book_resolves() {
    let mut broken = Vec::new();
    let mut pictures = 0;
    let mut links = 0;
    for (file, text) in documents() {
        let dir = file.parent().expect("a folder");
        for (target, picture) in targets(&text) {
            if external(&target) || target.starts_with('#') || target.is_empty() {
                continue;
            }
            let path = target.split('#').next().expect("a path");
            let resolved: PathBuf = dir.join(path);
            let ok = if picture {
                resolved.is_file()
            } else {
                resolved.exists()
            };
            if !ok {
                broken.push(format!(
                    "{}: {} {target}",
                    file.strip_prefix(root()).unwrap_or(&file).display(),
                    if picture { "picture" } else { "link" }
                ));
            }
            if picture {
                pictures += 1;
            } else {
                links += 1;
            }
        }
    }
    assert!(
        broken.is_empty(),
        "broken pictures or links:\n{}",
        broken.join("\n")
    );
    // The README's strip of the five boards, the league and the chart, and the games' pages.
    assert!(pictures >= 15, "pictures named: {pictures}");
    assert!(links >= 50, "relative links: {links}");
}

#[test]
fn every_picture_of_the_book_is_made_by_the_script_and_named_by_a_page() {
    let script =
        std::fs::read_to_string(root().join("docs/make-images")).expect("docs/make-images");
    let all: String = documents().into_iter().map(|(_, t)| t).collect();
    let mut seen = 0;
    for entry in std::fs::read_dir(root().join("docs/src/images")).expect("docs/src/images") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy().to_string();
        let stem = name.trim_end_matches(".png");
        // Written by the script as `$OUT/NAME.png` (a board: `board NAME ...`).
        assert!(
            script.contains(&format!("$OUT/{name}")) || script.contains(&format!("board {stem} ")),
            "docs/src/images/{name} is not made by docs/make-images"
        );
        assert!(
            all.contains(&format!("images/{name}")),
            "docs/src/images/{name} is named by no page"
        );
        seen += 1;
    }
    assert!(seen >= 8, "pictures in docs/src/images: {seen}");
}

#[test]
fn every_page_of_the_book_is_in_its_summary() {
    let src = root().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("SUMMARY.md");
    let listed: Vec<String> = targets(&summary).into_iter().map(|(t, _)| t).collect();
    for (file, _) in documents() {
        let Ok(page) = file.strip_prefix(&src) else {
            continue; // the README
        };
        let page = page.to_string_lossy().replace('\\', "/");
        if page == "SUMMARY.md" {
            continue;
        }
        assert!(
            listed.contains(&page),
            "docs/src/{page} is not in SUMMARY.md"
        );
    }
    for page in &listed {
        assert!(src.join(page).is_file(), "SUMMARY.md names {page}");
    }
}
