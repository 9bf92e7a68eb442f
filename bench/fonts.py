"""Bench of the PDF fonts on a fresh disk: what the first PDF costs with no font prepared beforehand.

    .venv/bin/python bench/fonts.py [--whole]

Each figure comes from a new Python process with an empty ``PDF_FONT_DIR`` (a fresh dyno's disk):

1. Design A, the shipped one: each document's glyphs are cut from the installed font packages when it
   is printed (``app/documents/fonts/cuts.py``). The process imports the app's document library and
   prints a two-page resume mixing Chinese, Arabic and Hindi (the goal of issue 22: the first such
   export within 20 s of the worker's start); then the same resume again (its cuts are on disk) and
   a second resume with characters the first did not have. Wall time, and the process's peak memory.
2. ``--whole``: design B, the former build step, measured on its largest piece: one face (Noto Sans
   CJK Regular) cut to every CJK block at once, as the build made each of its six faces before any
   PDF could use them (their total is in docs/bench.md).

See docs/bench.md for the figures on the 2-core machine.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
started = time.monotonic()
from app import documents
from app.documents.fonts import cuts
from bench.export import CONTENT

def mixed(first, second, third):
    content = json.loads(json.dumps(CONTENT["zh"]))
    content["personalInfo"]["summary"] = " ".join(
        (CONTENT["zh"]["personalInfo"]["summary"], CONTENT["ar"]["personalInfo"]["summary"],
         CONTENT["hi"]["personalInfo"]["summary"]))
    for entry, other in zip(content["workExperience"], CONTENT[first]["workExperience"]):
        entry["description"] += "\n" + other["description"]
    for entry, other in zip(content["projects"], CONTENT[second]["projects"]):
        entry["description"] += " " + other["description"]
    content["education"] = CONTENT[third]["education"]
    return content

def render(content):
    source = documents.Source(title="Bench", content=content, html_template=TEMPLATE["html_template"],
                              css=TEMPLATE["css_styles"], visible={})
    began = time.monotonic()
    data = documents.render("pdf", source, documents.Options())
    return time.monotonic() - began, len(data)

from app.documents import templating
TEMPLATE = templating.load_seed_templates()[0]
imported = time.monotonic() - started
first, size = render(mixed("ar", "hi", "ar"))
ready = time.monotonic() - started
again, _ = render(mixed("ar", "hi", "ar"))
other, _ = render(mixed("hi", "ar", "hi"))
print(json.dumps({"import": imported, "first": first, "first_since_start": ready, "again": again,
                  "other": other, "bytes": size, "cuts": len(list(cuts.font_dir().glob("*.ttf"))),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

WHOLE = r"""
import json, resource, time
from app.documents.fonts import cuts
BLOCKS = [(0x3000, 0x30FF), (0x3100, 0x31FF), (0x3200, 0x33FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
          (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x0020, 0x024F)]
codes = frozenset(code for start, end in BLOCKS for code in range(start, end + 1))
started = time.monotonic()
data = cuts.make_cut(cuts.face(cuts.CJK["TC"], False), codes)
print(json.dumps({"whole_cjk_regular": time.monotonic() - started, "bytes": len(data),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(code: str) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        env = {**os.environ, "PDF_FONT_DIR": directory, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=1800)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--whole", action="store_true", help="also time design B's largest piece")
    args = parser.parse_args(argv)
    cut = child(CHILD)
    print(f"Fonts on a fresh disk, {os.cpu_count()} CPUs, a two-page resume in Chinese, Arabic and Hindi:")
    print(f"  A (cut per document): first PDF {cut['first']:.2f} s of render, {cut['first_since_start']:.2f} s "
          f"after the process started (imports {cut['import']:.2f} s); {cut['cuts']} cuts on disk")
    print(f"    the same resume again {cut['again']:.2f} s; one with other characters {cut['other']:.2f} s; "
          f"peak memory {cut['peak_mb']:.0f} MB")
    if args.whole:
        whole = child(WHOLE)
        print(f"  B (whole faces before any PDF): Noto Sans CJK Regular alone {whole['whole_cjk_regular']:.1f} s, "
              f"{whole['bytes'] / 1e6:.1f} MB, peak memory {whole['peak_mb']:.0f} MB (one of six faces)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
