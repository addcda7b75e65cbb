//! Any bytes, read as a move typed by a player in the start position of every game: no panic; a
//! refusal has a message; an accepted move is one of the legal moves and `Game::play` takes it.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tegami::engine::notation::input;
use tegami::engine::{Game, Position, VariantId};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for &id in VariantId::ALL {
        let pos = Position::start(id);
        match input::parse_move(&pos, &text) {
            Ok(m) => {
                assert!(
                    pos.legal_moves().contains(&m),
                    "{id}: {text:?} read as {m:?}, which is not legal"
                );
                let mut game = Game::new(pos);
                assert!(game.play(m).is_ok(), "{id}: {text:?}: play refused {m:?}");
            }
            Err(e) => assert!(
                !e.to_string().is_empty(),
                "{id}: empty message for {text:?}"
            ),
        }
    }
});
