"""The PDF's fallback fonts: cut, for each document, from the font packages as pip installed them.

The templates draw Latin text in the PDF's built-in fonts (Helvetica, Times,
Courier), which cover Windows-1252 only. Text those fonts cannot draw is set run
by run (``scripts.py``) in a fallback face for its script, in the weight of the
text around it. All are under the SIL Open Font License 1.1 and come from PyPI
packages pinned in requirements.txt:

- Chinese, Japanese, Korean: Noto Sans CJK (``cvttf-NotoSansCJK-Regular`` and
  ``-Bold``: OpenType files with PostScript (CFF) outlines holding every
  region's glyphs). Each region is its own family, ``Noto Sans CJK SC`` / ``TC``
  / ``JP`` / ``KR``: the cut draws the glyphs the font's ``locl`` feature gives
  that region's language system, so 骨 or 直 take the Simplified Chinese shape in
  a Simplified Chinese resume and the Traditional one in a Traditional one;
- other Latin, Greek and Cyrillic words (Polish, Czech, Vietnamese...): Noto
  Sans, or Noto Serif in a serif template (``fontpkg-noto-sans`` / ``-serif``);
- Arabic, Devanagari, Tamil, Thai: Noto Sans Arabic / Devanagari / Tamil /
  Thai; Hebrew: Heebo (``fontpkg-*``). All of these ship as variable TrueType
  fonts;
- the other scripts Noto draws in a face of their own (Bengali, Gujarati, Gurmukhi, Kannada,
  Malayalam, Oriya, Sinhala, Telugu, Khmer, Lao, Myanmar, Armenian, Georgian, Ethiopic), emoji (Noto
  Emoji, monochrome: its ligatures draw ZWJ sequences, flags and keycaps as one glyph) and symbols
  (Noto Sans Symbols): ``manimgx-fonts``, variable TrueType fonts as Noto publishes them;
- the symbols and arrows those lack (Noto Sans Symbols 2) and mathematics (STIX Two Math):
  ``justmytype-western-core``, static TrueType fonts (their bold is the regular face).

No build step. ReportLab embeds static TrueType outlines only, so ``cut`` makes,
for one face and the characters a document draws with it, a small TrueType font:
fontTools' subsetter keeps those glyphs (and, for the scripts that are shaped,
the glyphs their GSUB rules reach, with the GSUB and GPOS tables that
``pdf/shaping.py`` hands to HarfBuzz); a variable font is instanced at the weight;
CFF outlines are converted to quadratic ones by xhtml2pdf's own converter
(``xhtml2pdf.opentype``, within a thousandth of an em). That takes a fraction of
a second for a few dozen characters and about 2 s for 1,000 ideographs (see
docs/bench.md), so a fresh disk prints its first PDF in seconds rather than
after the minutes a whole-font build took. A cut is kept in ``PDF_FONT_DIR``
under a name made of the face and the SHA-256 of its source and characters, so
the next document with the same characters (the export after its preview, the
other processes) reads it instead of cutting again; written atomically, so
processes that race cut it twice at worst and never read half a file. At most
``KEEP`` cuts are kept, the least recently used removed first. If the directory
cannot be written (a read-only slug), a directory under the system's temporary
one is used.
"""
from __future__ import annotations

import functools
import hashlib
import io
import logging
import os
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from app.config import pdf_font_dir
from app.documents.fonts import composites

log = logging.getLogger(__name__)

KEEP = 2000  # cuts kept on disk, the least recently used removed first
CUT_VERSION = 6  # part of a cut's name: raised when make_cut changes what it makes


@dataclass(frozen=True)
class Face:
    family: str        # the family documents name
    package: str       # the PyPI package's import name
    source: str        # the font file inside it
    bold: bool
    region: str = ""   # the OpenType language system whose locl forms the cut draws (CJK)
    shaped: bool = False  # keep GSUB/GPOS: the text is shaped by HarfBuzz (shaping.py)
    right_to_left: bool = False  # its words are drawn as right-to-left tokens (textlayer.py)

    @property
    def variable(self) -> bool:  # the fontpkg packages ship variable fonts: an instance is cut
        return "[" in self.source

    @property
    def stem(self) -> str:
        return self.family.replace(" ", "") + ("-Bold" if self.bold else "-Regular")


def _pair(family: str, package: str, source: str, **kwargs) -> tuple[Face, Face]:
    return (Face(family, package, source, bold=False, **kwargs),
            Face(family, package.replace("Regular", "Bold"), source.replace("Regular", "Bold"), bold=True,
                 **kwargs))


def _single(family: str, package: str, source: str) -> tuple[Face, Face]:
    """A face with one weight: bold text is drawn in it too."""
    return Face(family, package, source, bold=False), Face(family, package, source, bold=True)


_CJK = ("cvttf_NotoSansCJK_Regular", "NotoSansCJKtc-Regular.otf")
# The CJK families, by region: the font's default glyphs are Traditional Chinese (Taiwan).
CJK_REGIONS = {"SC": "ZHS ", "TC": "", "HK": "ZHH ", "JP": "JAN ", "KR": "KOR "}
CJK = {region: f"Noto Sans CJK {region}" for region in CJK_REGIONS}
SANS = "Noto Sans"
SERIF = "Noto Serif"
ARABIC = "Noto Sans Arabic"
HEBREW = "Heebo"
DEVANAGARI = "Noto Sans Devanagari"
TAMIL = "Noto Sans Tamil"
THAI = "Noto Sans Thai"
EMOJI = "Noto Emoji"
SYMBOLS = "Noto Sans Symbols"
SYMBOLS2 = "Noto Sans Symbols 2"
MATH = "STIX Two Math"
# The faces of manimgx-fonts for scripts with no face above: family -> (file, shaped by HarfBuzz).
_MANIMGX = {
    "Noto Sans Bengali": ("NotoSansBengali[wght].ttf", True),
    "Noto Sans Gujarati": ("NotoSansGujarati[wght].ttf", True),
    "Noto Sans Gurmukhi": ("NotoSansGurmukhi[wght].ttf", True),
    "Noto Sans Kannada": ("NotoSansKannada[wght].ttf", True),
    "Noto Sans Malayalam": ("NotoSansMalayalam[wght].ttf", True),
    "Noto Sans Oriya": ("NotoSansOriya[wght].ttf", True),
    "Noto Sans Sinhala": ("NotoSansSinhala[wght].ttf", True),
    "Noto Sans Telugu": ("NotoSansTelugu[wght].ttf", True),
    "Noto Sans Khmer": ("NotoSansKhmer[wght].ttf", True),
    "Noto Sans Lao": ("NotoSansLao[wght].ttf", True),
    "Noto Sans Myanmar": ("NotoSansMyanmar[wght].ttf", True),
    "Noto Sans Armenian": ("NotoSansArmenian[wght].ttf", False),
    "Noto Sans Georgian": ("NotoSansGeorgian[wght].ttf", False),
    "Noto Sans Ethiopic": ("NotoSansEthiopic[wght].ttf", False),
    EMOJI: ("NotoEmoji[wght].ttf", True),
    SYMBOLS: ("NotoSansSymbols[wght].ttf", False),
}
_WESTERN = "justmytype_western_core"

FACES = (
    *(face for region, tag in CJK_REGIONS.items() for face in _pair(CJK[region], *_CJK, region=tag)),
    *_pair(SANS, "fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf"),
    *_pair(SERIF, "fontpkg_noto_serif", "files/NotoSerif[wdth,wght].ttf"),
    *_pair(ARABIC, "fontpkg_noto_sans_arabic", "files/NotoSansArabic[wdth,wght].ttf", shaped=True,
           right_to_left=True),
    *_pair(HEBREW, "fontpkg_heebo", "files/Heebo[wght].ttf", shaped=True, right_to_left=True),
    *_pair(DEVANAGARI, "fontpkg_noto_sans_devanagari", "files/NotoSansDevanagari[wdth,wght].ttf", shaped=True),
    *_pair(TAMIL, "fontpkg_noto_sans_tamil", "files/NotoSansTamil[wdth,wght].ttf", shaped=True),
    *_pair(THAI, "fontpkg_noto_sans_thai", "files/NotoSansThai[wdth,wght].ttf", shaped=True),
    *(face for family, (file, shaped) in _MANIMGX.items()
      for face in _pair(family, "manimgx_fonts", file, shaped=shaped)),
    *_single(SYMBOLS2, _WESTERN, "fonts/ofl/notosanssymbols2/NotoSansSymbols2-Regular.ttf"),
    *_single(MATH, _WESTERN, "fonts/ofl/stixtwomath/STIXTwoMath-Regular.ttf"),
)
FAMILIES = frozenset(face.family for face in FACES)


def face(family: str, bold: bool) -> Face:
    return next(f for f in FACES if f.family == family and f.bold == bold)


def source(face: Face) -> Path:
    return Path(str(resources.files(face.package) / face.source))


@functools.lru_cache(maxsize=None)
def coverage(family: str) -> frozenset[int]:
    """The characters ``family`` has a glyph for (its regular face's character map), read once per
    process: deciding which face draws a character (``characters.py``) asks only for the faces its
    characters reach, so a document in English never reads the CJK font's map."""
    return _coverage(str(source(face(family, False))))


@functools.lru_cache(maxsize=None)
def _coverage(path: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont
    return frozenset(TTFont(path, lazy=True).getBestCmap())


@functools.lru_cache(maxsize=None)
def _digest(path: str, size: int, mtime_ns: int) -> str:
    """The SHA-256 of a source file, read once per process while its size and time stay the same."""
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def _source_digest(face: Face) -> str:
    path = source(face)
    stat = path.stat()
    return _digest(str(path), stat.st_size, stat.st_mtime_ns)


_directories: dict[Path, Path] = {}  # PDF_FONT_DIR -> the directory used for it


def font_dir() -> Path:
    """Where cuts are kept: ``PDF_FONT_DIR``, or a temporary directory when that cannot be written."""
    wanted = pdf_font_dir()
    used = _directories.get(wanted)
    if used is None or not used.is_dir():
        try:
            wanted.mkdir(parents=True, exist_ok=True)
            probe = wanted / f".probe.{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
            used = wanted
        except OSError:
            used = Path(tempfile.gettempdir()) / "resume-fonts"
            used.mkdir(parents=True, exist_ok=True)
            log.warning("PDF_FONT_DIR %s cannot be written; font cuts go to %s", wanted, used)
        _directories[wanted] = used
    return used


def cut_name(face: Face, codes: frozenset[int], layout: bool, words: frozenset[str] = frozenset()) -> str:
    key = hashlib.sha256(f"{CUT_VERSION}|{face.stem}|{face.region}|{layout}|{_source_digest(face)}|".encode()
                         + ",".join(map(str, sorted(codes))).encode()
                         + "\n".join(sorted(words)).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{face.stem}-{key[:20]}.ttf"


def cut(face: Face, codes: frozenset[int], layout: bool | None = None, words: frozenset[str] = frozenset()) -> Path:
    """A TrueType font of ``face`` holding the glyphs of ``codes``, from the disk cache or cut now.
    ``layout``: keep the GSUB and GPOS rules (by default for the faces ``pdf/shaping.py`` shapes; a browser
    needs them for every script that joins or stacks). ``words``: the words the document draws with it:
    for a right-to-left face, each of their letters gets a glyph (``composites.py``); for another shaped
    face, each glyph HarfBuzz sets off the line in them (``composites.add_raised``)."""
    layout = face.shaped if layout is None else layout
    if not face.right_to_left and not (layout and composites.rises(str(source(face)), words)):
        words = frozenset()
    directory = font_dir()
    path = directory / cut_name(face, codes, layout, words)
    try:
        os.utime(path)  # a use: the pruning removes the least recently used first
        return path
    except FileNotFoundError:
        pass
    data = make_cut(face, codes, layout, words)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(data)
    os.replace(partial, path)
    _prune(directory)
    return path


def make_cut(face: Face, codes: frozenset[int], layout: bool | None = None,
             words: frozenset[str] = frozenset()) -> bytes:
    """The cut's bytes (see the module's docstring)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(source(face)), lazy=True, recalcTimestamp=False)
    cmap = font.getBestCmap()
    layout = face.shaped if layout is None else layout
    wanted = sorted(code for code in (_with_decompositions(codes) if layout else codes) if code in cmap)
    options = subset.Options()
    options.layout_features = ["*"] if layout else []
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.glyph_names = False
    subsetter = subset.Subsetter(options)
    forms = _regional_forms(font, face.region) if face.region else {}
    if forms:
        subsetter.populate(unicodes=wanted, glyphs={forms.get(cmap[code], cmap[code]) for code in wanted})
    else:
        subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    if forms:  # each character drawn with its region's form: the cmap points at it
        for table in font["cmap"].tables:
            if table.isUnicode():
                table.cmap = {code: forms.get(glyph, glyph) for code, glyph in table.cmap.items()}
    if face.variable:  # ReportLab draws a variable font's default instance only
        from fontTools.varLib import instancer
        axes = {axis.axisTag: axis.defaultValue for axis in font["fvar"].axes}
        limits = next((axis.minValue, axis.maxValue) for axis in font["fvar"].axes if axis.axisTag == "wght")
        axes["wght"] = min(max(700 if face.bold else 400, limits[0]), limits[1])
        font = instancer.instantiateVariableFont(font, axes)
    _clamp_line_height(font)
    if face.region:
        _name_region(font, face)
    if words and face.right_to_left:
        composites.add(font, words)
    elif words:
        composites.add_raised(font, words)
    out = io.BytesIO()
    font.save(out)
    data = out.getvalue()
    if "CFF " in font:
        from xhtml2pdf.opentype import to_truetype
        data = to_truetype(data)
    return data


def _with_decompositions(codes: frozenset[int]) -> frozenset[int]:
    """``codes`` and the characters each decomposes into. A shaper may draw a character as its parts,
    from the font's character map rather than its layout rules, which the subsetter follows: HarfBuzz
    draws Thai ำ as ํ + า, Tamil ொ as ெ + ா, Devanagari क़ as क + ़. Without the parts in the cut
    they printed as boxes."""
    parts = set(codes)
    for code in codes:
        decomposition = unicodedata.decomposition(chr(code)).split()
        parts.update(int(part, 16) for part in decomposition if not part.startswith("<"))
    return frozenset(parts)


MAX_LINE = 1.6  # ems: the most a face's ascent and descent may take together


def _clamp_line_height(font) -> None:
    """Ascent and descent scaled down to ``MAX_LINE`` ems together where the face declares more.
    xhtml2pdf makes a line as tall as its tallest face's ascent and descent: Noto Sans Arabic declares
    2.1 ems (room for marks stacked on its tallest letters), which spaced every line of an Arabic
    resume half as much again as an English one's and added pages. Its letters and their usual marks
    fit in 1.6; the space between lines (the template's line height) holds the rest."""
    units = font["head"].unitsPerEm
    os2, hhea = font["OS/2"], font["hhea"]
    total = os2.sTypoAscender - os2.sTypoDescender
    if total <= MAX_LINE * units:
        return
    ratio = MAX_LINE * units / total
    os2.sTypoAscender = hhea.ascent = round(os2.sTypoAscender * ratio)
    os2.sTypoDescender = hhea.descent = round(os2.sTypoDescender * ratio)


def _name_region(font, face: Face) -> None:
    """The cut named for the region whose forms it draws: the font ships as Noto Sans CJK TC (its default
    forms are Taiwan's), and a Simplified Chinese PDF that embedded ``NotoSansCJKtc-Regular`` misled any
    tool that reads font names. ``NotoSansCJKsc-Regular`` is Noto's own name for the Simplified face."""
    region = face.family.rsplit(" ", 1)[-1]
    style = "Bold" if face.bold else "Regular"
    names = {1: face.family, 2: style, 3: f"{face.family.replace(' ', '')}-{style}", 4: f"{face.family} {style}",
             6: f"NotoSansCJK{region.lower()}-{style}", 16: face.family, 17: style}
    table = font["name"]
    for record in list(table.names):
        if record.nameID in names:
            table.removeNames(nameID=record.nameID)
    for name_id, text in names.items():
        table.setName(text, name_id, 3, 1, 0x409)


def _regional_forms(font, tag: str) -> dict[str, str]:
    """glyph -> the glyph the ``locl`` feature of the language system ``tag`` substitutes for it."""
    gsub = font["GSUB"].table
    lookups: set[int] = set()
    for script in gsub.ScriptList.ScriptRecord:
        for language in script.Script.LangSysRecord:
            if language.LangSysTag == tag:
                for index in language.LangSys.FeatureIndex:
                    record = gsub.FeatureList.FeatureRecord[index]
                    if record.FeatureTag == "locl":
                        lookups.update(record.Feature.LookupListIndex)
    forms: dict[str, str] = {}
    for index in sorted(lookups):
        lookup = gsub.LookupList.Lookup[index]
        for table in lookup.SubTable:
            table = getattr(table, "ExtSubTable", table)
            forms.update(getattr(table, "mapping", {}) or {})  # single substitutions
    return forms


def _prune(directory: Path) -> None:
    cuts = list(directory.glob("*.ttf"))
    if len(cuts) <= KEEP:
        return

    def last_used(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except FileNotFoundError:
            return 0.0
    for old in sorted(cuts, key=last_used)[: len(cuts) - KEEP]:
        try:
            old.unlink()
        except FileNotFoundError:
            pass


def main(argv: list[str] | None = None) -> int:
    """``python -m app.documents.fonts``: the build step of old, kept so that a platform's build command
    that still names it succeeds. Nothing is built now; it checks that every face's package is
    installed and cuts nothing."""
    missing = [f"{face.package}/{face.source}" for face in FACES if not source(face).is_file()]
    if missing:
        print("PDF font packages missing: " + ", ".join(missing), file=sys.stderr)
        return 1
    print(f"PDF fonts: {len(FACES)} faces installed; each document's glyphs are cut on demand into "
          f"{font_dir()}")
    return 0
