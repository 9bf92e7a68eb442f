"""Section names set in a margin column beside their sections, a short word stacked over another ("教育" /
"背景", a timeline's labels in circles), which a PDF may draw after the whole page's body.

``place(blocks)`` joins two such lines, one right under the other at the same left edge, into one
heading when together they name a section (``words.section_of``) and neither line's text has a digit,
then puts the heading (or such a pair a PDF line's wrapping joined already, when drawn after body lines
right of it and below it) in reading order: before the first line of the body on its page that stands
right of it and no higher than its top.
"""
from __future__ import annotations

from dataclasses import replace

from app.importing import words
from app.importing.columns import ALIGN
from app.importing.layout import Block, Fragment, is_cjk

MAX_CHARS = 4     # characters of each stacked half ("教育", "背景")


def _short(block: Block) -> bool:
    text = block.text
    return (not block.extra.get("para") and len(block.cells) == 1 and not block.bullet and 0 < len(text) <= MAX_CHARS
            and not any(char.isdigit() for char in text))


def _stacked(upper: Block, lower: Block) -> str | None:
    """The section name two lines make together, when ``lower`` stands right under ``upper``."""
    if upper.page != lower.page or abs(upper.x0 - lower.x0) > ALIGN or not (_short(upper) and _short(lower)):
        return None
    if not 0.5 * upper.size <= lower.top - upper.top <= 1.6 * max(upper.size, 1.0):
        return None
    joined = upper.text + ("" if is_cjk(upper.text[-1]) and is_cjk(lower.text[0]) else " ") + lower.text
    return joined if words.section_of(joined) else None


def _right_below(body: Block, heading: Block) -> bool:
    """Whether ``body`` stands right of ``heading`` and below its top: drawn before it, yet after it."""
    return body.page == heading.page and body.x0 > heading.x1 + ALIGN and body.top > heading.top + heading.size


def place(blocks: list[Block]) -> list[Block]:
    """``blocks`` with stacked margin headings joined and moved to where their sections start."""
    headings: list[Block] = []
    rest: list[Block] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        joined = _stacked(block, blocks[index + 1]) if index + 1 < len(blocks) else None
        if joined is None:
            rest.append(block)
            index += 1
            continue
        first = block.fragments[0]
        headings.append(replace(block, cells=[[Fragment(joined, first.bold, first.italic, first.colour, first.size,
                                                        blocks[index + 1].x1)]],
                                x1=max(block.x1, blocks[index + 1].x1), bottom=blocks[index + 1].bottom,
                                extra=dict(block.extra)))
        index += 2
    for position, block in reversed(list(enumerate(rest))):   # the two lines joined already as a wrapped one
        if len(block.cells) == 1 and not block.bullet and len(block.text) <= 2 * MAX_CHARS \
                and block.extra.get("last_base", 0) > block.extra.get("base", 0) and words.section_of(block.text) \
                and any(_right_below(other, block) for other in rest[:position]):
            headings.append(rest.pop(position))
    for heading in headings:
        beside = [i for i, b in enumerate(rest) if b.page == heading.page and b.x0 > heading.x1 - ALIGN
                  and b.top >= heading.top - heading.size / 2]
        at = min(beside, key=lambda i: (rest[i].top, i)) if beside else len(rest)
        rest.insert(at, heading)
    return rest
