//! The engine's test binary: the five games' rules, notation, perft, the search, the pictures,
//! the league's pairings and the translations. One binary for all of them, so that `cargo test`
//! links serenity, tokio and the image stack once instead of once a file (issue 52).

mod common;

mod i18n;
mod league;
mod notation;
mod notation_japanese;
mod perft;
mod properties;
mod render;
mod rules_cannon;
mod rules_judkins;
mod rules_palace;
mod rules_shanghai;
mod rules_shogi;
mod search;
