#!/usr/bin/env python3
"""Makes the three font subsets the board renderer (src/render/) embeds.

- NotoSansCJKjp-Bold-names.otf: Noto Sans CJK JP Bold (SIL OFL 1.1, see OFL-NotoSansCJK.txt)
  cut to the East Asian characters of players' names: kana, every character of JIS X 0208 (the
  level 1 and 2 kanji), of GB 2312 (the common simplified hanzi) and of Big5 level 1 (the common
  traditional hanzi), all 11,172 Hangul syllables, CJK punctuation and full-width forms. The
  character lists come from Python's own codecs, so the script needs no list files.
- NotoSerifCJKjp-Bold-subset.otf: Noto Serif CJK JP Bold (SIL OFL 1.1, see OFL-NotoSerifCJK.txt)
  cut down to the characters written on pieces (every `PieceKind::kanji()` of the catalogue in
  src/engine/piece.rs, read from the source so a new kind is picked up by running this again,
  plus the second player's king 王 and the Xiangqi characters of Blue's pieces), and the Latin,
  Greek and Cyrillic letters, digits and punctuation used for coordinates, hand counts, the
  international style's letters and player names.
- DejaVuSans-Bold-subset.ttf: DejaVu Sans Bold (Bitstream Vera licence, DejaVu changes in the
  public domain, see LICENSE-DejaVu.txt) cut down to the alphabets of names and text (Latin with
  Vietnamese, Greek, Cyrillic, Armenian, Georgian), punctuation, symbols and the twelve chess
  figures U+2654..U+265F.

All together they must stay within FONTS_BUDGET (4 MB): the script fails when they do not.

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
NOTO_SANS_TTC = pathlib.Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
NOTO_SANS_FACE = "Noto Sans CJK JP"
# The size all the fonts together must stay within (bytes): they are embedded in the binary.
FONTS_BUDGET = 4_000_000
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



# Names, in Noto Sans CJK: the East Asian blocks (besides the codec lists below).
CJK_NAME_RANGES = [
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # katakana extensions
    (0xAC00, 0xD7A3),  # Hangul syllables
    (0xFF01, 0xFFEF),  # full- and half-width forms
]

# Names and every other line of text, in DejaVu Sans Bold: the alphabets written left to right
# without shaping, punctuation and symbols. (Hebrew and Arabic are left out: drawn letter by
# letter from left to right they would be wrong, so they show as the missing-character sign.)
TEXT_RANGES_SANS = [
    (0x20, 0x7E),  # ASCII
    (0xA0, 0x24F),  # Latin-1, Latin Extended-A and -B
    (0x300, 0x36F),  # combining diacritical marks
    (0x370, 0x52F),  # Greek, Cyrillic and its supplement
    (0x530, 0x58F),  # Armenian
    (0x10A0, 0x10FF),  # Georgian
    (0x1E00, 0x1FFF),  # Latin Extended Additional (Vietnamese), Greek Extended
    (0x2010, 0x205E),  # general punctuation
    (0x20A0, 0x20BF),  # currency
    (0x2100, 0x214F),  # letterlike symbols
    (0x2190, 0x21FF),  # arrows
    (0x2500, 0x25FF),  # box drawing, blocks, geometric shapes (the missing-character ◇)
    (0x2600, 0x27BF),  # symbols and dingbats (★ ♪ ✿ ❤), the chess figures among them
]


def double_byte(codec: str, leads: range, trails: list[int]) -> set[str]:
    """Every character a double-byte codec decodes from these lead and trail bytes."""
    out = set()
    for lead in leads:
        for trail in trails:
            try:
                out.add(bytes([lead, trail]).decode(codec))
            except UnicodeDecodeError:
                pass
    return out


def name_characters() -> str:
    euc = list(range(0xA1, 0xFF))
    jis = double_byte("euc_jp", range(0xA1, 0xF5), euc)  # JIS X 0208: levels 1 and 2
    gb = double_byte("gb2312", range(0xA1, 0xF8), euc)  # GB 2312
    big5 = double_byte("big5", range(0xA4, 0xC7), list(range(0x40, 0x7F)) + euc)  # level 1
    ranges = {chr(c) for lo, hi in CJK_NAME_RANGES for c in range(lo, hi + 1)}
    # The codecs' Latin, Greek and Cyrillic letters come from DejaVu Sans.
    return "".join(sorted(c for c in jis | gb | big5 | ranges if ord(c) >= 0x2E80))


def piece_kanji() -> str:
    src = (ROOT / "src/engine/piece.rs").read_text(encoding="utf-8")
    block = src[src.index("kinds! {") :]
    block = block[: block.index("\n}")]
    found = re.findall(r'=\s*"[^"]*",\s*"([^"]*)"\s*;', block)
    if not found:
        sys.exit("no kanji found in src/engine/piece.rs")
    return "".join(found)


def subset_font(font: TTFont, text: str, out: pathlib.Path, small: bool = False) -> None:
    """`small`: keep the CFF subroutines (a third smaller for thousands of glyphs)."""
    options = subset.Options()
    options.layout_features = [] if small else ["kern", "vert", "vrt2"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    options.notdef_outline = True
    options.glyph_names = False
    options.hinting = False
    options.desubroutinize = not small
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

    faces = [f for f in TTCollection(str(NOTO_SANS_TTC)).fonts if f["name"].getDebugName(1) == NOTO_SANS_FACE]
    if not faces:
        sys.exit(f"{NOTO_SANS_FACE} not found in {NOTO_SANS_TTC}")
    out = HERE / "NotoSansCJKjp-Bold-names.otf"
    names = name_characters()
    subset_font(faces[0], names, out, small=True)
    print(f"{out.name}: {len(names)} characters asked for, {out.stat().st_size} bytes")

    out = HERE / "DejaVuSans-Bold-subset.ttf"
    text = "".join(chr(c) for lo, hi in TEXT_RANGES_SANS for c in range(lo, hi + 1))
    subset_font(TTFont(str(DEJAVU)), text, out)
    print(f"{out.name}: text and the chess figures, {out.stat().st_size} bytes")

    total = sum(f.stat().st_size for f in HERE.iterdir() if f.suffix in (".otf", ".ttf"))
    print(f"all fonts: {total} bytes")
    if total > FONTS_BUDGET:
        sys.exit(f"the fonts are over their budget of {FONTS_BUDGET} bytes")


if __name__ == "__main__":
    main()
