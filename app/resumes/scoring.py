"""atsScore and keywordMatchScore: integers 0..100, or None without a job description.

They come from the analysis engine (``app/ai/analysis.py``): atsScore is the analysis's
overallScore and keywordMatchScore its keywordMatchScore, so the list, the detail and
``POST /api/resumes/<id>/analysis`` agree. docs/scoring.md works an example through.
"""
from __future__ import annotations


def scores(content: dict, description: str | None) -> tuple[int | None, int | None]:
    """(atsScore, keywordMatchScore), both None without a description."""
    from app.ai import engine  # app.ai imports app.resumes.rendering: imported here, when first used

    return engine.scores(content, description)
