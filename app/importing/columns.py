"""The columns of a page: how far right each line's column reaches (``right_edges``), which tells a
line that wraps from one that ends short (``layout.py``)."""
from __future__ import annotations

import bisect
from typing import Protocol


class Block(Protocol):
    """What of a ``layout.Block`` the columns read: where it stands, and its notes."""
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    extra: dict

ALIGN = 3.0          # points two left edges may differ and still be one column's
BAND = 1.5           # lines above and below a line where another column's text tells that it stands in a column
PEER = 12.0          # points two lines' left edges may differ and still tell each other's column width
MAX_LINE = 80.0      # points a line may be high (for the band search)


def right_edges(raw: list[Block]) -> list[float | None]:
    """For each block, the right edge of its column.

    In a single column: the farthest right end among the blocks of the page that start within a
    few points of where it starts (or of its text). Beside another column (text standing to its
    right at about its height): the same among the lines of the page that have the other column's
    text right beside them, level with them, and end before it. So the last line of a paragraph
    across both columns (a profile above them) does not count, and a narrow sidebar's edge comes
    from its longest lines anywhere on the page, not from the nearest short items."""
    pages: dict[int, list[Block]] = {}
    for block in raw:
        pages.setdefault(block.page, []).append(block)
    ends_at: dict[tuple[int, int], list[float]] = {}          # (page, left edge) -> right ends, sorted
    level_ends_at: dict[tuple[int, int], list[float]] = {}    # the same, of lines level with another column
    tops: dict[int, list[float]] = {}
    for number, page in pages.items():
        page.sort(key=lambda b: b.top)
        tops[number] = [b.top for b in page]
        for block in page:
            ends_at.setdefault((number, round(block.x0)), []).append(block.x1)
            if _beside(page, tops[number], block, 0.0) is not None:
                level_ends_at.setdefault((number, round(block.x0)), []).append(block.x1)
    for ends in (*ends_at.values(), *level_ends_at.values()):
        ends.sort()
    edges: list[float | None] = []
    for block in raw:
        beside = _beside(pages[block.page], tops[block.page], block, BAND * max(block.bottom - block.top, 1.0))
        if beside is not None:
            block.extra["beside"] = True
        table = ends_at if beside is None else level_ends_at
        edge = block.x1
        for start in {round(block.x0), round(block.extra.get("text_x0", block.x0))}:
            for x0 in range(start - int(PEER), start + int(PEER) + 1):
                ends = table.get((block.page, x0))
                if not ends:
                    continue
                if beside is None:
                    edge = max(edge, ends[-1])
                else:
                    below = bisect.bisect_left(ends, beside)
                    if below:
                        edge = max(edge, ends[below - 1])
        edges.append(edge)
    return edges


def _beside(page: list[Block], tops: list[float], block: Block, reach: float) -> float | None:
    """Where the nearest text to the right of ``block`` starts, within ``reach`` points above or
    below it; None when there is none (always for a DOCX paragraph, which has no place on a page:
    every one has top 0, so looking would compare each with all)."""
    if block.extra.get("para"):
        return None
    return min((other.x0 for other in _band(page, tops, block.top - reach, block.bottom + reach)
                if other.x0 > block.x1 + ALIGN and other.top < block.bottom + reach
                and other.bottom > block.top - reach), default=None)


def _band(page: list[Block], tops: list[float], top: float, bottom: float) -> list[Block]:
    """The blocks of a page (sorted by top; ``tops`` are theirs) that reach into ``top``..``bottom``."""
    index = bisect.bisect_left(tops, top - MAX_LINE)
    found = []
    for other in page[index:]:
        if other.top > bottom:
            break
        if other.bottom >= top:
            found.append(other)
    return found
