"""The child processes that read and draw documents nobody here wrote: the import's readers
(``importing/sandbox.py`` runs ``importing/extract.py`` once a file) and the renderers' fork server
(``renderers.py``). They start one way and limit themselves one way.

``command(module, *args)`` runs ``module.main()`` under ``python -I`` (no user site-packages, no
``PYTHON*`` variables), with ``app`` importable from ``ROOT`` (the directory that holds it, passed as
``sys.argv[1]``; ``args`` follow it). The caller gives the child no environment, or only what drawing
needs, and ``ROOT`` as its working directory. ``limit_self`` is a child's first step: an address-space cap,
a CPU-time cap (a soft limit a second before the hard one, so SIGXCPU comes first) and, for a reader, no
file written.
"""
from __future__ import annotations

import resource
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])


def command(module: str, *args: str) -> list[str]:
    run = f"import sys; sys.path.insert(0, sys.argv[1]); from {module} import main; main()"
    return [sys.executable, "-I", "-c", run, ROOT, *args]


def limit_self(memory_bytes: int, cpu_seconds: int | None = None, *, writes_files: bool = True) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    if cpu_seconds is not None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    if not writes_files:
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
