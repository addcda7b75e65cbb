//! The bot in Japanese (issue 21): the slash commands registered with their Japanese names and
//! descriptions (every command, option and choice, within Discord's rules, which the fake
//! checks), and a player whose Discord client is Japanese answered in Japanese (the settings,
//! the adapter's own refusals, the pointer to an announcement, the resignation's
//! confirmation), while an English client sees the English of before. A language chosen with
//! `/settings language` wins over the client's.

use serde_json::json;

use super::*;

/// The English base names and the Japanese names Japanese clients see, for a few commands.
const JAPANESE_NAMES: &[(&str, &str)] = &[
    ("challenge", "挑戦"),
    ("move", "指す"),
    ("board", "盤面"),
    ("resign", "投了"),
    ("settings", "設定"),
];

/// The commands as registered: every command, option and choice has its Japanese words, the
/// English base names unchanged.
fn check_registration(fake: &FakeDiscord) {
    let registered = fake.registered_commands();
    assert!(registered.len() >= 26, "every command is registered");
    for c in &registered {
        let name = c["name"].as_str().expect("a name");
        assert!(name.is_ascii(), "/{name}: the base name stays English");
        let ja = c["name_localizations"]["ja"].as_str();
        assert!(
            ja.is_some_and(|n| !n.is_ascii()),
            "/{name}: a Japanese name: {c}"
        );
        assert!(
            c["description_localizations"]["ja"].as_str().is_some(),
            "/{name}: a Japanese description"
        );
        for o in c["options"].as_array().into_iter().flatten() {
            let oname = o["name"].as_str().expect("an option name");
            assert!(
                oname.is_ascii(),
                "/{name} {oname}: the base name stays English"
            );
            assert!(
                o["name_localizations"]["ja"].as_str().is_some()
                    && o["description_localizations"]["ja"].as_str().is_some(),
                "/{name} {oname}: Japanese name and description: {o}"
            );
            for ch in o["choices"].as_array().into_iter().flatten() {
                assert!(
                    ch["name_localizations"]["ja"].as_str().is_some(),
                    "/{name} {oname}: a Japanese label for {ch}"
                );
            }
        }
    }
    for (en, ja) in JAPANESE_NAMES {
        let c = registered
            .iter()
            .find(|c| c["name"] == *en)
            .unwrap_or_else(|| panic!("/{en} registered"));
        assert_eq!(c["name_localizations"]["ja"], *ja, "/{en}");
    }
    let color = fake
        .registered_option("challenge", "color")
        .expect("/challenge color");
    let black = color["choices"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["value"] == "black"))
        .expect("the black choice");
    assert_eq!(black["name"], "black");
    assert_eq!(black["name_localizations"]["ja"], "先手");
}

/// Whether a text has Japanese in it (kana or kanji).
fn japanese(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}'))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_japanese_client_sees_japanese_commands_and_answers_an_english_one_english() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let hanako = FakeUser::new(2_000_000_000_000_000_301, "hanako").with_locale("ja");
    let alice = FakeUser::new(2_000_000_000_000_000_302, "alice");
    let carol = FakeUser::new(2_000_000_000_000_000_303, "carol").with_locale("ja");
    let dave = FakeUser::new(2_000_000_000_000_000_304, "dave").with_locale("en-GB");
    for u in [&hanako, &alice, &carol, &dave] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands") && c.ok()
    })
    .await;
    check_registration(&fake);

    // The settings (the core's words, chosen by the client's locale).
    let r = slash(&fake, CHANNEL_ID, &hanako, "settings", json!([]), &[]).await;
    assert!(content(&r).contains("現在の設定"), "{}", content(&r));
    let r = slash(&fake, CHANNEL_ID, &alice, "settings", json!([]), &[]).await;
    assert!(content(&r).starts_with("Your settings:"), "{}", content(&r));
    assert!(!japanese(&content(&r)), "{}", content(&r));

    // The adapter's own refusals of an option, before the core sees the command.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &hanako,
        "vacation",
        json!([opt_int("days", 400)]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "✗ 400 日は選べません: 休暇は 1〜14 日です");
    let r = slash(
        &fake,
        CHANNEL_ID,
        &hanako,
        "board",
        json!([opt_int("ply", -1)]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "✗ -1 は手数ではありません");
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "vacation",
        json!([opt_int("days", 400)]),
        &[],
    )
    .await;
    assert_eq!(content(&r), "✗ 400 days: a vacation is 1 to 14 days");
    assert_private_refusal(&fake, &r, "a vacation is 1 to 14 days");

    // A language chosen with /settings wins over the client's, both ways.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &carol,
        "settings",
        json!([opt_str("language", "en")]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let r = slash(
        &fake,
        CHANNEL_ID,
        &carol,
        "vacation",
        json!([opt_int("days", 400)]),
        &[],
    )
    .await;
    assert_eq!(content(&r), "✗ 400 days: a vacation is 1 to 14 days");
    let r = slash(
        &fake,
        CHANNEL_ID,
        &dave,
        "settings",
        json!([opt_str("language", "ja")]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let r = slash(
        &fake,
        CHANNEL_ID,
        &dave,
        "vacation",
        json!([opt_int("days", 400)]),
        &[],
    )
    .await;
    assert_eq!(content(&r), "✗ 400 日は選べません: 休暇は 1〜14 日です");

    // A game: Alice (English) challenges Hanako (Japanese), who accepts; the game gets its
    // thread.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "challenge",
        json!([
            opt_user("opponent", &hanako),
            opt_str("game", "shogi"),
            opt_str("color", "black")
        ]),
        &[&hanako],
    )
    .await;
    let challenge = number_after(&content(&r), "Challenge #");
    let r = slash(
        &fake,
        CHANNEL_ID,
        &hanako,
        "accept",
        json!([opt_int("challenge", challenge)]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let thread = fake
        .wait_for("the game's thread", STEP, |c| {
            c.ok() && c.method == "POST" && c.path.ends_with("/threads")
        })
        .await;
    let thread_id = thread
        .response
        .as_ref()
        .and_then(|t| t["id"].as_str())
        .expect("the thread's id")
        .to_string();

    // Moves sent in the channel are announced in the thread: each sender is told where, in
    // their language.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_str("move", "7g7f")]),
        &[],
    )
    .await;
    assert!(
        content(&r).contains(&format!("(posted in <#{thread_id}>)")),
        "{}",
        content(&r)
    );
    let r = slash(
        &fake,
        CHANNEL_ID,
        &hanako,
        "move",
        json!([opt_str("move", "3c3d")]),
        &[],
    )
    .await;
    assert!(
        content(&r).contains(&format!("（<#{thread_id}> に投稿しました）")),
        "{}",
        content(&r)
    );

    // Resigning asks first, in the sender's language; the button too.
    let r = slash(&fake, CHANNEL_ID, &alice, "resign", json!([]), &[]).await;
    assert!(
        content(&r).contains("? Your opponent wins; this cannot be undone."),
        "{}",
        content(&r)
    );
    button(&r, "Confirm resignation");
    let r = slash(&fake, CHANNEL_ID, &hanako, "resign", json!([]), &[]).await;
    assert!(content(&r).contains("を投了しますか？"), "{}", content(&r));
    assert!(japanese(&content(&r)));
    let done = click(&fake, &hanako, &r, "投了する").await;
    assert!(!content(&done).starts_with('✗'), "{}", content(&done));

    assert!(fake.problems().is_empty(), "{:?}", fake.problems());
    assert_eq!(bot.terminate().code(), Some(0));
}
