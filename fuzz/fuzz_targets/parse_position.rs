//! Any bytes, read as a position string of every game: no panic; a refusal has a message; an
//! accepted position writes a string that reads back as the same position, hash included.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tegami::engine::notation::fen;
use tegami::engine::{Variant, VariantId};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for &id in VariantId::ALL {
        let v = Variant::get(id);
        match fen::parse(v, &text) {
            Ok(pos) => {
                let written = fen::write(&pos);
                let back = match fen::parse(v, &written) {
                    Ok(p) => p,
                    Err(e) => panic!("{id}: {written:?} was written but is refused: {e}"),
                };
                assert!(
                    back == pos,
                    "{id}: {written:?} reads back as another position"
                );
                assert_eq!(fen::write(&back), written, "{id}");
                assert_eq!(back.hash(), pos.hash(), "{id}: {written:?}");
                // The engine can work from it.
                let _ = pos.legal_moves();
            }
            Err(e) => assert!(!e.to_string().is_empty(), "{id}: empty message"),
        }
    }
});
