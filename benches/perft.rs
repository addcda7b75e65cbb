//! Perft speed: nodes per second from the start position of each game, single-threaded, the
//! last ply counted by generating legal moves. Each bench asserts its node count.
//!
//! `cargo bench --bench perft` prints the time per run and the throughput (items/s = nodes/s).

use divan::counter::ItemsCount;
use divan::Bencher;
use tegami::engine::{perft, Position, VariantId};

fn main() {
    divan::main();
}

fn run(b: Bencher, id: VariantId, depth: u32, nodes: u64) {
    let start = Position::start(id);
    b.counter(ItemsCount::new(nodes)).bench(|| {
        let mut p = start.clone();
        let n = perft(&mut p, depth);
        assert_eq!(n, nodes, "{id} perft {depth}");
        n
    });
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn shogi_depth_5(b: Bencher) {
    run(b, VariantId::Shogi, 5, 19_861_490);
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn judkins_depth_6(b: Bencher) {
    run(b, VariantId::Judkins, 6, 51_190_232);
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn cannon_depth_4(b: Bencher) {
    run(b, VariantId::Cannon, 4, 2_260_427);
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn palace_depth_4(b: Bencher) {
    run(b, VariantId::Palace, 4, 1_141_766);
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn shogi_depth_4(b: Bencher) {
    run(b, VariantId::Shogi, 4, 719_731);
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn shanghai_depth_4(b: Bencher) {
    run(b, VariantId::Shanghai, 4, 51_782);
}
