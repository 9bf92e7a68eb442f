"""PDFs the test files share: each (source, options) is rendered once per test run, whichever file or
pytest-xdist worker asks first.

The layout matrix (``test_layout.py``) and the own-export recovery (``tests/importing/test_recovery.py``)
read the same PDFs: every template with the sample resumes on A4 and Letter, normal margins. A render
is the costly part of both (about a second, three for a long Chinese sample), and ``--dist loadfile``
may put the two files on different workers, so the PDFs are kept as files in the run's temporary
directory (``tmp_path_factory``'s, shared by the workers of one run and removed by pytest's own
rotation), each written once under a lock of its own: a worker asking for a PDF another worker is
drawing waits for it instead of drawing it again. A PDF comes from the app's own ``documents.render``,
as an export's does, so sharing changes nothing a test sees.
"""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
from pathlib import Path

from app.documents import Options, Source, render

_directory: Path | None = None


def use_directory(path: Path) -> None:
    """Where this run keeps its PDFs (tests/conftest.py's session fixture sets it)."""
    global _directory
    path.mkdir(parents=True, exist_ok=True)
    _directory = path


def pdf(source: Source, options: Options) -> bytes:
    """``render("pdf", source, options)``, drawn once per run."""
    if _directory is None:  # a module imported outside a pytest session
        return render("pdf", source, options)
    key = hashlib.sha256(json.dumps([dataclasses.asdict(source), dataclasses.asdict(options)],
                                    sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    path = _directory / f"{key}.pdf"
    with open(_directory / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if path.exists():
            return path.read_bytes()
        data = render("pdf", source, options)
        partial = _directory / f"{key}.{os.getpid()}.part"
        partial.write_bytes(data)
        partial.replace(path)
        return data
