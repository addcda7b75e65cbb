//! The service's test binary: the service, the console, the stores, the records and the README's
//! examples. One binary for all of them, so that `cargo test` links serenity, tokio and the image
//! stack once instead of once a file (issue 52).

mod service_common;

mod book;
mod clocks;
mod conditional;
mod console;
mod console_japanese;
mod correspondence;
mod follow;
mod league_console;
mod learn;
mod picker;
mod readme;
mod records;
mod service_concurrency;
mod service_crash;
mod service_errors;
mod service_faults;
mod service_games;
mod service_japanese_play;
mod service_japanese_views;
mod service_names;
mod service_promises;
mod store_contract;
