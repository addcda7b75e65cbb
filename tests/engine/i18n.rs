//! The message files: both languages say the same things. Every message of `locales/en-US/` is in
//! `locales/ja/` and the other way round, with the same attributes and the same arguments; every
//! message id the code names exists; every file parses.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use tegami::i18n::{Lang, FILES};

/// A message's shape: its arguments, and per attribute the attribute's arguments.
#[derive(Debug, Default, PartialEq, Eq)]
struct Shape {
    has_value: bool,
    args: BTreeSet<String>,
    attributes: BTreeMap<String, BTreeSet<String>>,
}

fn inline_args(e: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match e {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_args(a, out);
            }
            for a in &arguments.named {
                inline_args(&a.value, out);
            }
        }
        InlineExpression::Placeable { expression } => expression_args(expression, out),
        _ => {}
    }
}

fn expression_args(e: &Expression<&str>, out: &mut BTreeSet<String>) {
    match e {
        Expression::Inline(i) => inline_args(i, out),
        Expression::Select { selector, variants } => {
            inline_args(selector, out);
            for v in variants {
                pattern_args(&v.value, out);
            }
        }
    }
}

fn pattern_args(p: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for el in &p.elements {
        if let PatternElement::Placeable { expression } = el {
            expression_args(expression, out);
        }
    }
}

/// Every message of a language, by id, with the file it is in.
fn messages(lang: Lang) -> BTreeMap<String, (String, Shape)> {
    let mut all = BTreeMap::new();
    for file in FILES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("locales")
            .join(lang.tag())
            .join(format!("{file}.ftl"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let res = fluent_syntax::parser::parse(text.as_str())
            .unwrap_or_else(|(_, errors)| panic!("{}: {errors:?}", path.display()));
        for entry in &res.body {
            match entry {
                Entry::Message(m) => {
                    let mut shape = Shape {
                        has_value: m.value.is_some(),
                        ..Shape::default()
                    };
                    if let Some(v) = &m.value {
                        pattern_args(v, &mut shape.args);
                    }
                    for a in &m.attributes {
                        let mut args = BTreeSet::new();
                        pattern_args(&a.value, &mut args);
                        shape.attributes.insert(a.id.name.to_string(), args);
                    }
                    let before = all.insert(m.id.name.to_string(), (file.to_string(), shape));
                    assert!(
                        before.is_none(),
                        "{}: message {} is defined twice",
                        lang.tag(),
                        m.id.name
                    );
                }
                Entry::Junk { content } => {
                    panic!("{}: unreadable text: {content}", path.display())
                }
                _ => {}
            }
        }
    }
    all
}

#[test]
fn every_message_exists_in_both_languages_with_the_same_arguments() {
    let en = messages(Lang::En);
    let ja = messages(Lang::Ja);
    assert!(en.len() > 50, "only {} English messages", en.len());
    let mut problems = vec![];
    for (id, (file, shape)) in &en {
        match ja.get(id) {
            None => problems.push(format!("{id} ({file}.ftl) has no Japanese")),
            Some((ja_file, ja_shape)) => {
                if ja_file != file {
                    problems.push(format!("{id}: en-US/{file}.ftl but ja/{ja_file}.ftl"));
                }
                if ja_shape != shape {
                    problems.push(format!("{id}: en-US {shape:?} but ja {ja_shape:?}"));
                }
            }
        }
    }
    for id in ja.keys().filter(|id| !en.contains_key(*id)) {
        problems.push(format!("{id} is Japanese only"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The message ids the code names: string literals of the form `area-words` whose first word
/// is the first word of some message id (so a typo in an id the code uses is caught, and other
/// kebab-case strings such as `entering-king` are not taken for ids).
fn ids_in_code(prefixes: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read source");
            for (i, piece) in text.split('"').enumerate() {
                // Odd pieces are inside quotes (near enough: ids never contain quotes).
                if i % 2 == 0 {
                    continue;
                }
                let is_id = piece.contains('-')
                    && piece
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && !piece.starts_with('-')
                    && !piece.ends_with('-');
                let Some(first) = piece.split('-').next() else {
                    continue;
                };
                if is_id && prefixes.contains(first) {
                    found.insert(piece.to_string(), path.display().to_string());
                }
            }
        }
    }
    found
}

#[test]
fn every_message_the_code_names_exists() {
    let en = messages(Lang::En);
    // Areas whose first word is also an ordinary word of kebab-case strings in the code are
    // still checked: a literal that looks like an id of an area and is not a message is
    // either a typo or should not look like one.
    let prefixes: BTreeSet<String> = en
        .keys()
        .filter_map(|id| id.split('-').next())
        .map(String::from)
        .collect();
    let used = ids_in_code(&prefixes);
    assert!(!used.is_empty());
    let missing: Vec<String> = used
        .iter()
        .filter(|(id, _)| !en.contains_key(*id) && !ALLOWED_NON_IDS.contains(&id.as_str()))
        .map(|(id, file)| format!("{id} (in {file})"))
        .collect();
    assert!(
        missing.is_empty(),
        "no such message: {}",
        missing.join(", ")
    );
}

/// Kebab-case strings of the code that share a first word with message ids but are not ids
/// (the engine's reason words, setting values, Discord names).
const ALLOWED_NON_IDS: &[&str] = &[];
