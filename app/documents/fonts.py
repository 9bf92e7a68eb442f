"""The fallback fonts of the PDF export, built once per machine from their PyPI packages.

The templates draw Latin text in the PDF's built-in fonts (Helvetica, Times,
Courier), which cover Windows-1252 only. Text those fonts cannot draw is set run
by run (``scripts.py``) in a fallback, in the weight of the text around it:
CJK runs in Noto Sans CJK; other words (Polish, Czech, Vietnamese, Greek,
Cyrillic...) in Noto Sans, or Noto Serif in a serif template. All are Google's
Noto fonts under the SIL Open Font License 1.1. Scripts beyond these (Arabic,
Devanagari, Thai...) have no fallback yet.

Where the fonts come from. PyPI packages pinned in requirements.txt:
``cvttf-NotoSansCJK-Regular`` and ``cvttf-NotoSansCJK-Bold`` (despite their name,
OpenType files with PostScript (CFF) outlines and 65,535 glyphs of the TC cut,
which covers simplified and traditional ideographs, kana and Hangul), and
``fontpkg-noto-sans`` / ``fontpkg-noto-serif`` (variable TrueType fonts).
ReportLab embeds static TrueType outlines only, so a set-up step (``make
install``, a PaaS's build command, or ``python -m
app.documents.fonts``) builds each face in ``FACES`` into
``PDF_FONT_DIR``: a static instance at its weight (variable fonts), the glyphs of
the blocks in ``UNICODES`` (fontTools' subsetter; about 41,000 for CJK), and
CFF outlines converted to quadratic ones by xhtml2pdf's own converter
(``xhtml2pdf.opentype``, within a thousandth of an em). That takes a minute or
two of CPU, which is why it is done once and not per process; faces build in
parallel.

``PDF_FONT_DIR`` (``app.config.pdf_font_dir``) defaults to ``<sys.prefix>/share/resume-fonts``:
inside the virtual environment, so a PaaS build keeps it in the slug with the
packages it was built from. A file is rebuilt when its source changes: the stamp
beside it names the source's SHA-256 (its content, not its modification time,
which differs in every environment pip installs it into, so that another
environment may use the same built files). If the
set-up step was skipped, ``flask worker`` builds them in a child process while its
job lanes already run (``start_building``: mail and webhooks never wait for them),
and the first PDF that needs them waits for that build, or builds them itself in
another process (under a file lock, so concurrent processes build once) and logs
a warning.
"""
from __future__ import annotations

import fcntl
import functools
import hashlib
import io
import json
import logging
import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from app.config import pdf_font_dir

log = logging.getLogger(__name__)

CJK = "Noto Sans CJK"
SANS = "Noto Sans"
SERIF = "Noto Serif"


@dataclass(frozen=True)
class Face:
    family: str      # the family documents name
    file: str        # the built TrueType file's name in PDF_FONT_DIR
    package: str     # the PyPI package's import name
    source: str      # the font file inside it
    bold: bool

    @property
    def variable(self) -> bool:  # Noto Sans/Serif ship as variable fonts: an instance is cut
        return self.source.endswith("].ttf")


FACES = (
    Face(CJK, "NotoSansCJK-Regular.ttf", "cvttf_NotoSansCJK_Regular", "NotoSansCJKtc-Regular.otf", bold=False),
    Face(CJK, "NotoSansCJK-Bold.ttf", "cvttf_NotoSansCJK_Bold", "NotoSansCJKtc-Bold.otf", bold=True),
    Face(SANS, "NotoSans-Regular.ttf", "fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf", bold=False),
    Face(SANS, "NotoSans-Bold.ttf", "fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf", bold=True),
    Face(SERIF, "NotoSerif-Regular.ttf", "fontpkg_noto_serif", "files/NotoSerif[wdth,wght].ttf", bold=False),
    Face(SERIF, "NotoSerif-Bold.ttf", "fontpkg_noto_serif", "files/NotoSerif[wdth,wght].ttf", bold=True),
)

# The blocks kept: what a resume in any language the fallback serves may hold.
UNICODES = frozenset(
    code
    for start, end in (
        (0x0020, 0x024F),  # Latin, Latin-1, Latin Extended-A/B
        (0x0370, 0x03FF),  # Greek
        (0x0400, 0x052F),  # Cyrillic
        (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese)
        (0x2000, 0x206F),  # General Punctuation
        (0x20A0, 0x20CF),  # currency
        (0x2100, 0x218F),  # letterlike, number forms
        (0x2190, 0x21FF),  # arrows
        (0x2460, 0x24FF),  # enclosed alphanumerics (①)
        (0x2500, 0x27BF),  # box drawing, shapes, symbols, dingbats
        (0x2E80, 0x2FDF),  # CJK radicals, Kangxi radicals
        (0x3000, 0x30FF),  # CJK symbols and punctuation, hiragana, katakana
        (0x3100, 0x31FF),  # bopomofo, Hangul compatibility jamo, katakana extension
        (0x3200, 0x33FF),  # enclosed CJK letters, CJK compatibility
        (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
        (0x4E00, 0x9FFF),  # CJK Unified Ideographs
        (0xAC00, 0xD7A3),  # Hangul syllables
        (0xF900, 0xFAFF),  # CJK compatibility ideographs
        (0xFE30, 0xFE4F),  # CJK compatibility forms
        (0xFF00, 0xFFEF),  # halfwidth and fullwidth forms
    )
    for code in range(start, end + 1)
)


def font_dir() -> Path:
    return pdf_font_dir()


def _source(face: Face) -> Path:
    return Path(str(resources.files(face.package) / face.source))


@functools.lru_cache(maxsize=None)
def _digest(path: str, size: int, mtime_ns: int) -> str:
    """The SHA-256 of a source file, read once per process while its size and time stay the same."""
    sha = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def _stamp(face: Face) -> str:
    source = _source(face)
    stat = source.stat()
    return json.dumps({"source": f"{face.package}/{face.source}",
                       "sha256": _digest(str(source), stat.st_size, stat.st_mtime_ns),
                       "blocks": len(UNICODES)}, sort_keys=True)


def _stamp_path(directory: Path, face: Face) -> Path:
    return directory / f"{face.file}.source.json"


def is_built(face: Face, directory: Path | None = None) -> bool:
    directory = directory or font_dir()
    stamp = _stamp_path(directory, face)
    try:
        return (directory / face.file).is_file() and stamp.read_text() == _stamp(face)
    except OSError:
        return False


def _build_face(face: Face, directory: Path) -> str:
    """Subset and convert one face into ``directory`` (atomically); runs in a worker process."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    from xhtml2pdf.opentype import to_truetype

    font = TTFont(str(_source(face)), recalcTimestamp=False)
    if face.variable:  # a static instance at the weight: ReportLab draws a variable font's default only
        from fontTools.varLib import instancer
        font = instancer.instantiateVariableFont(font, {"wght": 700 if face.bold else 400, "wdth": 100})
    options = subset.Options()
    options.layout_features = []   # ReportLab sets text glyph by glyph: no GSUB/GPOS needed
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=UNICODES)
    subsetter.subset(font)
    subsetted = io.BytesIO()
    font.save(subsetted)
    data = to_truetype(subsetted.getvalue())
    target = directory / face.file
    partial = target.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(data)
    os.replace(partial, target)
    _stamp_path(directory, face).write_text(_stamp(face))
    return face.file


def build(directory: Path | None = None, force: bool = False) -> list[str]:
    """Build the faces not built yet (all with ``force``); returns the files built."""
    directory = directory or font_dir()
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building waits here, then finds them built
        todo = [face for face in FACES if force or not is_built(face, directory)]
        if not todo:
            return []
        with ProcessPoolExecutor(max_workers=min(len(todo), os.cpu_count() or 1)) as pool:
            return list(pool.map(_build_face, todo, [directory] * len(todo)))


def ensure_built() -> Path:
    """The directory of the built faces, building them first if the set-up step did not."""
    directory = font_dir()
    if not all(is_built(face, directory) for face in FACES):
        log.warning("PDF fonts were not built by the set-up step; building them now in %s "
                    "(about a minute)", directory)
        build(directory)
    return directory


class Builder:
    """The build in a child process of its own (``start_building``), stopped with its owner."""

    def __init__(self, process: subprocess.Popen):
        self.process = process

    def stop(self) -> None:
        """End the build and its pool's processes (its own process group); the fonts it finished stay."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=10)


def start_building() -> Builder | None:
    """Build the faces not built yet in a child process, and return at once (None when all are built).

    ``flask worker`` calls this at start, so that no job lane waits for the fonts: a PDF that needs
    them waits at ``ensure_built``, on the build's file lock, and nothing else does.
    """
    directory = font_dir()
    if all(is_built(face, directory) for face in FACES):
        return None
    log.warning("PDF fonts were not built by the set-up step; building them in %s beside the job lanes "
                "(a PDF export that needs them waits for them)", directory)
    return Builder(subprocess.Popen([sys.executable, "-m", "app.documents.fonts"], start_new_session=True,
                                    cwd=Path(__file__).resolve().parents[2], stdout=subprocess.DEVNULL))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    force = "--force" in argv
    directory = font_dir()
    built = build(directory, force=force)
    print(f"PDF fonts in {directory}: " + (f"built {', '.join(built)}" if built else "already built"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
