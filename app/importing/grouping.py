"""A section's lines grouped into entries: a job, a school, a project (``split_into_entries``).

An entry starts at each line in the look of the section's first line that is not a bullet (a Chinese
title measured a little smaller than one with a Latin name in it counts as the same look). A line
that is only a date belongs to the next entry where the section starts with one (dates printed
before each entry) and to the one above otherwise. ``wrapped_dates`` first joins a date that a
narrow margin wrapped over two or three lines.
"""
from __future__ import annotations

from dataclasses import replace

from app.importing import dates
from app.importing.layout import Block, is_cjk


def look(block: Block) -> tuple:
    first = block.fragments[0]
    return (block.signature[0], first.bold, first.italic, first.colour, round(first.size * 2) / 2)


def split_into_entries(blocks: list[Block]) -> list[list[Block]]:
    firsts = [b for b in blocks if not b.bullet]
    if not firsts:
        return [[b] for b in blocks]
    head = look(firsts[0])
    groups: list[list[Block]] = []
    for block in blocks:
        if not groups or (not block.bullet and _same_look(look(block), head, block, firsts[0])):
            groups.append([block])
        else:
            groups[-1].append(block)
    return [part for group in _dates_joined(groups) for part in _titled_parts(group)]


def _titled_parts(group: list[Block]) -> list[list[Block]]:
    """A group cut before each later line that reads as another entry's title: bold, not a list item,
    with a line that is only a date right under it ("Geo Instruments - Project Coordinator" / "06/2018 -
    09/2022"), where the group's own first line had a date line under it too. The first entry may be
    set in a heading's style and the others in bold body type (a DOCX edited by hand)."""
    if len(group) < 4 or not (dates.is_date_text(group[1].text) or dates.find_period(group[0].text)):
        return [group]
    parts = [[group[0]]]
    for index, block in enumerate(group[1:], start=1):
        below = group[index + 1] if index + 1 < len(group) else None
        if below is not None and not block.bullet and block.bold and len(block.text) <= 100 \
                and not dates.find_period(block.text) and dates.is_date_text(below.text) and len(parts[-1]) > 1:
            parts.append([])
        parts[-1].append(block)
    return parts


WRAPPED_DATE = 16   # characters: a piece of a date a narrow margin wrapped ("Sept", "2018–May", "2023")


def wrapped_dates(blocks: list[Block]) -> list[Block]:
    """A date a narrow margin wrapped over two or three lines (moderncv's "Sept" / "2018–May" / "2023")
    as one block: lines of a few characters each, one under the other on a page, that are a date
    together and not each alone (a right-aligned piece may have been taken for a list item)."""
    out: list[Block] = []
    index = 0
    while index < len(blocks):
        for count in (3, 2):
            run = blocks[index:index + count]
            if len(run) == count and _one_wrapped_date(run):
                first = run[0]
                joined = replace(first.fragments[0], text=" ".join(b.text for b in run),
                                 x1=max(f.x1 for b in run for f in b.fragments))
                out.append(replace(first, cells=[[joined]], bottom=run[-1].bottom,
                                   x0=min(b.x0 for b in run), x1=max(b.x1 for b in run), bullet=False))
                index += count
                break
        else:
            out.append(blocks[index])
            index += 1
    return out


def _one_wrapped_date(run: list[Block]) -> bool:
    if any(b.page != run[0].page or len(b.text) > WRAPPED_DATE or b.extra.get("para") for b in run):
        return False
    if any(below.top < above.top or below.top - above.bottom > above.size for above, below in zip(run, run[1:])):
        return False
    if any(dates.is_date_text(b.text) for b in run[:-1]):     # the last may be one: "June" / "2023–present"
        return False
    return dates.is_date_text(" ".join(b.text for b in run))


def _only_a_date(group: list[Block]) -> bool:
    return len(group) == 1 and _dated(group)


def _dated(group: list[Block]) -> bool:
    """A line that is only a date, and the bullets under it."""
    return not group[0].bullet and dates.is_date_text(group[0].text) and all(b.bullet for b in group[1:])


def _same_look(this: tuple, head: tuple, block: Block, first: Block) -> bool:
    """Whether a line starts in the look of the section's first line. A run's size is the largest of the
    runs it joins, so a Chinese title with a Latin name in it ("联合创始人—Nexus AI") measures larger than
    one without ("研究实习生—英伟达研究院"): between two lines that start in Chinese, sizes within
    ``CJK_SIZE_SLACK`` points are one."""
    if this == head:
        return True
    return this[:4] == head[:4] and abs(this[4] - head[4]) <= CJK_SIZE_SLACK \
        and is_cjk(block.text[:1]) and is_cjk(first.text[:1])


CJK_SIZE_SLACK = 1.5


def _dates_joined(groups: list[list[Block]]) -> list[list[Block]]:
    """A line that is only a date, in the look of the entries' first lines, belongs to an entry: the
    next one where the section starts with such a line (dates printed before each entry, as pandoc's
    definition lists have them), else the one before (dates printed under it)."""
    if not any(_dated(group) for group in groups):
        return groups
    forward = _only_a_date(groups[0])
    joined: list[list[Block]] = []
    carried: list[Block] = []
    for group in groups:
        if forward and _only_a_date(group):
            carried += group
            continue
        if not forward and _dated(group) and joined:
            joined[-1] += group         # its dates, and the bullets under them
            continue
        joined.append(carried + group)
        carried = []
    if carried:
        joined.append(carried)
    return joined
