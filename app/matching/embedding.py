"""Semantic similarity of two texts from WordLlama's static embeddings (``wordllama`` on PyPI).

The model (token embeddings averaged, 256 dimensions, about 16 MB) ships inside the package, runs
on the CPU with numpy and needs no torch: it is loaded from the package's own directory with
downloads disabled, once per process, on first use (a lock keeps two threads from loading it
twice). When it cannot be loaded the analysis goes on without it (``similarity`` answers None).
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path

log = logging.getLogger(__name__)

MAX_CHARS = 10_000  # more text does not change an average much, and costs time
_lock = threading.Lock()
_model = None
_failed = False


def model():
    """The process's WordLlama model, or None when it cannot be loaded (logged once)."""
    global _model, _failed
    if _model is not None or _failed:
        return _model
    with _lock:
        if _model is None and not _failed:
            try:
                import wordllama
                from wordllama import WordLlama

                _model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
            except Exception as exc:  # noqa: BLE001 - a missing or broken package must not break scoring
                log.warning("wordllama could not be loaded, analyses go without semantic similarity: %s", exc)
                _failed = True
    return _model


def similarity(first: str, second: str) -> float | None:
    """Cosine similarity of the two texts' embeddings (about 0 for unrelated texts, 1 for the same),
    or None without the model."""
    loaded = model()
    if loaded is None or not first.strip() or not second.strip():
        return None
    return float(loaded.similarity(first[:MAX_CHARS], second[:MAX_CHARS]))
