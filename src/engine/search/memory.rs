//! The search's two ways around memory latency, and the project's only `unsafe` code.
//!
//! The search reads three tables far larger than the processor's caches for every node: the
//! transposition table (16 MiB by default), the evaluation cache and the continuation history
//! (several MiB in Shogi). A read that misses the caches costs a trip to memory, and with
//! 4 KiB pages often a page-table walk too; in a Shogi middle game the transposition table's
//! read alone was a tenth of the search's time (`perf`, `tegami bestmove --nodes 3000000`).
//!
//! - [`prefetch`]: as soon as a move is made, the search asks for the child's slots, and
//!   reads them after the work that comes first (the shape sums, the repetition test).
//! - [`huge_vec`]: the large tables ask Linux for huge pages (2 MiB) before they are first
//!   written, so one translation covers 512 times more of them (transparent huge pages are
//!   often given only where asked for, the `madvise` mode).
//!
//! Neither changes what the search computes: the same moves, scores and node counts.

/// Asks the processor to start loading the cache line of `x`, without waiting for it.
/// Elsewhere than on x86-64 it does nothing.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is a hint: it neither reads nor writes memory as the program sees
    // it and never faults (here it is given a valid reference anyway); SSE, which it needs, is
    // part of every x86-64 processor.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(x).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// `n` default values, in memory that Linux is asked to back with huge pages before the
/// values are written. Elsewhere, or when the kernel says no, a plain vector.
pub(crate) fn huge_vec<T: Default>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    advise_huge_pages(v.as_ptr() as usize, n * std::mem::size_of::<T>());
    v.extend(std::iter::repeat_with(T::default).take(n));
    v
}

/// `madvise(MADV_HUGEPAGE)` on the whole pages of `len` bytes from `start`.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(start: usize, len: usize) {
    const PAGE: usize = 4096;
    let first = start.div_ceil(PAGE) * PAGE;
    let end = start + len;
    if end > first {
        // SAFETY: the range lies inside an allocation this module owns and has not handed out
        // yet; MADV_HUGEPAGE only changes how the kernel backs it (it moves no data, and the
        // memory stays valid whatever the answer), and a refusal is harmless.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_vectors_hold_their_default_values() {
        let v: Vec<u64> = huge_vec(3 << 18);
        assert_eq!(v.len(), 3 << 18);
        assert!(v.iter().all(|&x| x == 0));
        let w: Vec<i16> = huge_vec(5);
        assert_eq!(w, [0; 5]);
        prefetch(&v[12345]);
    }

    /// `unsafe_code` is denied crate-wide (Cargo.toml); this module is the one exception.
    #[test]
    fn no_other_file_allows_unsafe_code() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut dirs = vec![src.clone()];
        let mut allowing = Vec::new();
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("src is readable") {
                let p = e.expect("a directory entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&p).expect("a source file");
                    if text.contains(concat!("allow(", "unsafe_code)")) {
                        allowing.push(p.strip_prefix(&src).expect("under src").to_path_buf());
                    }
                }
            }
        }
        assert_eq!(
            allowing,
            [std::path::Path::new("engine/search/memory.rs")],
            "files that allow unsafe code"
        );
    }
}
