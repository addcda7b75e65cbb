#!/usr/bin/env python3
"""Makes the two font subsets the board renderer (src/render/) embeds.

- NotoSerifCJKjp-Bold-subset.otf: Noto Serif CJK JP Bold (SIL OFL 1.1, see OFL-NotoSerifCJK.txt)
  cut down to the characters written on pieces (every `PieceKind::kanji()` of the catalogue in
  src/engine/piece.rs, read from the source so a new kind is picked up by running this again,
  plus the second player's king 王 and the Xiangqi characters of Blue's pieces), and the Latin,
  Greek and Cyrillic letters, digits and punctuation used for coordinates, hand counts, the
  international style's letters and player names.
- DejaVuSans-Bold-chess.ttf: DejaVu Sans Bold (Bitstream Vera licence, DejaVu changes in the
  public domain, see LICENSE-DejaVu.txt) cut down to the twelve chess figures U+2654..U+265F.

Needs Debian's fonts-noto-cjk and fonts-dejavu-core and PyPI's fonttools:

    apt-get install -y fonts-noto-cjk fonts-dejavu-core
    pip install fonttools
    python3 assets/fonts/make-subset.py

The output is deterministic for a given input font and fonttools version.
"""

import pathlib
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
NOTO_TTC = pathlib.Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
NOTO_FACE = "Noto Serif CJK JP"
DEJAVU = pathlib.Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

# Characters drawn that are not a kind's `kanji()`: the second player's king (王, the first
# player's is 玉), the traditional characters of the second side's Xiangqi pieces (將 士 象 砲 卒),
# and the 成 that the catalogue writes before promoted cannons.
EXTRA_CJK = "王將士象砲卒成"

# Text in Latin (and Greek and Cyrillic, for player names): printable ASCII, Latin-1,
# Latin Extended-A, Greek, Cyrillic, a few punctuation marks (· – — ’ “ ” … • × ▲ ▼).
TEXT_RANGES = [
    (0x20, 0x7E),
    (0xA0, 0xFF),
    (0x100, 0x17F),
    (0x391, 0x3C9),
    (0x400, 0x45F),
]
TEXT_EXTRA = "·–—‘’“”…•×"

CHESS = [chr(c) for c in range(0x2654, 0x2660)]


def piece_kanji() -> str:
    src = (ROOT / "src/engine/piece.rs").read_text(encoding="utf-8")
    block = src[src.index("kinds! {") :]
    block = block[: block.index("\n}")]
    found = re.findall(r'=\s*"[^"]*",\s*"([^"]*)"\s*;', block)
    if not found:
        sys.exit("no kanji found in src/engine/piece.rs")
    return "".join(found)


def subset_font(font: TTFont, text: str, out: pathlib.Path) -> None:
    options = subset.Options()
    options.layout_features = ["kern", "vert", "vrt2"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    options.notdef_outline = True
    options.glyph_names = False
    options.hinting = False
    options.desubroutinize = True
    options.drop_tables += ["FFTM"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.recalcTimestamp = False  # keep the source's dates: the same input gives the same bytes
    font.save(out)


def main() -> None:
    cjk = sorted(set(c for c in piece_kanji() + EXTRA_CJK if ord(c) > 0x2000))
    text = "".join(chr(c) for lo, hi in TEXT_RANGES for c in range(lo, hi + 1)) + TEXT_EXTRA
    faces = [f for f in TTCollection(str(NOTO_TTC)).fonts if f["name"].getDebugName(1) == NOTO_FACE]
    if not faces:
        sys.exit(f"{NOTO_FACE} not found in {NOTO_TTC}")
    out = HERE / "NotoSerifCJKjp-Bold-subset.otf"
    subset_font(faces[0], "".join(cjk) + text, out)
    print(f"{out.name}: {len(cjk)} CJK characters ({''.join(cjk)}), {out.stat().st_size} bytes")

    out = HERE / "DejaVuSans-Bold-chess.ttf"
    subset_font(TTFont(str(DEJAVU)), "".join(CHESS), out)
    print(f"{out.name}: {len(CHESS)} chess figures, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
