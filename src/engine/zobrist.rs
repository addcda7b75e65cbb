//! Zobrist keys for position hashing (repetition detection). Generated at compile time from a
//! fixed seed, so hashes are the same on every run and machine.

use crate::engine::piece::{CODES, NUM_KINDS};
use crate::engine::square::CELLS;

/// Largest count of one kind in one hand that has its own key (counts above share the last).
pub const MAX_HAND: usize = 40;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn board_keys() -> [[u64; CELLS]; CODES] {
    let mut t = [[0u64; CELLS]; CODES];
    let mut state = 0x7465_6761_6D69_0001u64;
    let mut c = 2;
    while c < CODES {
        let mut s = 0;
        while s < CELLS {
            let (ns, v) = splitmix(state);
            state = ns;
            t[c][s] = v;
            s += 1;
        }
        c += 1;
    }
    t
}

const fn hand_keys() -> [[[u64; MAX_HAND + 1]; NUM_KINDS]; 2] {
    let mut t = [[[0u64; MAX_HAND + 1]; NUM_KINDS]; 2];
    let mut state = 0x7465_6761_6D69_0002u64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < NUM_KINDS {
            let mut n = 1; // count 0 hashes to 0
            while n <= MAX_HAND {
                let (ns, v) = splitmix(state);
                state = ns;
                t[c][k][n] = v;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

pub static BOARD: [[u64; CELLS]; CODES] = board_keys();
pub static HAND: [[[u64; MAX_HAND + 1]; NUM_KINDS]; 2] = hand_keys();
/// XORed in when White (the second player) is to move.
pub const SIDE: u64 = 0x5EED_0F7E_6A31_C0DE;

/// The key of `count` pieces of a kind in a hand.
#[inline]
pub fn hand(color: usize, kind: usize, count: u8) -> u64 {
    HAND[color][kind][(count as usize).min(MAX_HAND)]
}

const fn misc_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut state = seed;
    let mut i = 1; // index 0 (no rights, no square) hashes to 0
    while i < N {
        let (ns, v) = splitmix(state);
        state = ns;
        t[i] = v;
        i += 1;
    }
    t
}

/// Keys of the castling-rights mask (Palace Shogi).
pub static CASTLING: [u64; 16] = misc_keys::<16>(0x7465_6761_6D69_0003);
/// Keys of the en-passant square (Palace Shogi); square 0 is "none".
pub static EN_PASSANT: [u64; CELLS] = misc_keys::<CELLS>(0x7465_6761_6D69_0004);
