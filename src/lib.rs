//! Tegami: correspondence games of Shogi, Judkins Shogi, Cannon Shogi, Palace Shogi and Shanghai
//! Palace Chess, for Discord and the terminal.
//!
//! Layers (data flows one way): `engine` (rules, notation) ← everything else.

pub mod console;
pub mod discord;
pub mod engine;
pub mod i18n;
pub mod league;
pub mod ops;
pub mod render;
pub mod service;
pub mod store;
