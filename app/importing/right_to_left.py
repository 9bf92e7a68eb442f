"""The lines of a PDF page that hold Arabic or Hebrew, in the order they were typed (``pdf_text.py``
reads the page). PDFium gives the letters of each right-to-left word in typed order, but orders the
words, numbers and Latin words of a mixed line by guesses of its own; the functions here put the line
back from where its characters stand."""
from __future__ import annotations

import re
import unicodedata

CELL_GAP = 1.25       # ems of empty space that end a cell (a right-aligned date, a table cell, a chip)


def right_to_left(char: str) -> bool:
    """Whether a character is written right to left (Arabic, Hebrew): PDFium gives them in the order
    they were typed, each left of the one before."""
    return unicodedata.bidirectional(char) in ("R", "AL")


def right_to_left_script(char: str) -> bool:
    """A right-to-left letter, or a sign of those scripts' own (the Arabic comma ، after a Latin word)."""
    return right_to_left(char) or "\u0590" <= char[:1] <= "\u08ff" or "\ufb1d" <= char[:1] <= "\ufefc"


def words_rejoined(rows: list[list[list]]) -> list[list[list]]:
    """The rows with a right-to-left row joined to the one before it where the two stand on one
    baseline, a space apart: PDFium gives the words of a Latin-heavy line left to right ("البريد
    الإلكتروني" after an e-mail: its second word first), which looked like a jump to the next line."""
    joined: list[list[list]] = []
    for row in rows:
        before = joined[-1] if joined else None
        if before and any(right_to_left_script(item[0].text) for item in row):
            first, last = row[0][0], before[-1][0]
            left = min(item[0].x0 for item in before), max(item[0].x1 for item in before)
            right = min(item[0].x0 for item in row), max(item[0].x1 for item in row)
            gap = max(right[0] - left[1], left[0] - right[1])
            if abs(first.baseline - last.baseline) <= max(first.size, last.size) / 2 and \
                    0 <= gap <= CELL_GAP * max(first.em, last.em):
                before.append([first, True, False])
                before.extend(row[1:])
                continue
        joined.append(row)
    return joined


SPACE_GAP = 0.22     # ems between two characters of a right-to-left line that read as a space


def _runs(row: list[list]) -> list[tuple[bool, list]]:
    """A line's items in runs of one direction, in PDFium's order: right-to-left letters with the marks
    on them (in the order they were typed), and the rest."""
    runs: list[tuple[bool, list]] = []
    for item in row:
        text = item[0].text[:1]
        backwards = right_to_left(text) or (bool(runs) and runs[-1][0] and unicodedata.category(text) == "Mn")
        # a right-to-left letter right of the one before it starts a run: the next word, given first
        onwards = not backwards or item[0].x0 <= runs[-1][1][-1][0].x1 + 0.1 * item[0].em if runs else True
        if runs and runs[-1][0] == backwards and onwards:
            runs[-1][1].append(item)
        else:
            runs.append((backwards, [item]))
    return runs


_ISOLATE, _POP = "\u2066", "\u2069"
_SEPARATORS = "•·|｜—"
_SENTENCE_END = ".,;:!?،؛؟"


def _isolated(cell: list) -> list:
    """A cell (characters and " ") with each stretch between separators that holds no right-to-left
    letter but Latin letters or digits isolated (LRI ... PDI), as the templates print an e-mail or a
    phone number in a right-to-left document, so that it keeps its own order."""
    out: list = []
    stretch: list = []

    def close() -> None:
        texts = [item.text for item in stretch if not isinstance(item, str)]
        if any(right_to_left(text[:1]) for text in texts):
            out.extend(_phone_numbers_isolated(stretch))
        elif not any(text[:1].isalnum() for text in texts) or texts[0][:1] in _SENTENCE_END:
            out.extend(stretch)  # ".2021": a sentence's end, laid out right to left
        else:
            out.extend(_isolate(stretch))
        stretch.clear()

    for item in cell:
        if not isinstance(item, str) and item.text in _SEPARATORS:
            close()
            out.append(item)
        else:
            stretch.append(item)
    close()
    return out


def _isolate(stretch: list) -> list:
    """``stretch`` between LRI and PDI, the spaces at its ends outside."""
    start, end = 0, len(stretch)
    while start < end and stretch[start] == " ":
        start += 1
    while end > start and stretch[end - 1] == " ":
        end -= 1
    return [*stretch[:start], _ISOLATE, *stretch[start:end], _POP, *stretch[end:]]


# "+1 555 0100", "050 123 4567": a + and two groups of digits, or three ("2010 - 2012" is not one)
_PHONE = re.compile(r"\+\d[\d().-]*(?: \(?\d[\d().-]*)+|\(?\d[\d().-]*(?: \(?\d[\d().-]*){2,}")


def _phone_numbers_isolated(stretch: list) -> list:
    """A stretch holding right-to-left letters with each phone number in it ("+1 555 0100" after a label)
    isolated: the templates print it as a text of its own, in its own order."""
    text = "".join(item if isinstance(item, str) else item.text[:1] for item in stretch)
    out, at = [], 0
    for match in _PHONE.finditer(text):
        out += [*stretch[at:match.start()], *_isolate(stretch[match.start():match.end()])]
        at = match.end()
    return out + stretch[at:]


def in_logical_order(row: list[list], base: str) -> list[list]:
    """A line holding right-to-left text, in the order it was typed, in cells. PDFium gives the letters of
    each right-to-left word in that order, but orders numbers, Latin words and punctuation among them
    by its own guess (".2021" for "2021." at the end of an Arabic sentence; a Latin-heavy line as if it
    were Latin). So the line is laid out as seen, left to right (each run by where it stands, a
    right-to-left run's letters turned round), cut into cells where a gap of CELL_GAP stands, spaces
    where one of SPACE_GAP does, and each cell read back with the bidirectional algorithm from the
    page's direction (``base``): for the one or two levels of a line of a resume it undoes itself."""
    from xhtml2pdf.bidi import display_order

    # (character, whether a space stands before it: PDFium's inside a run, by the gap between runs)
    seen: list[tuple] = []
    for backwards, items in sorted(_runs(row), key=lambda run: min(item[0].x0 for item in run[1])):
        if backwards:  # typed order turned round: the space PDFium gave before a letter is after it
            flags = [False] + [item[1] for item in reversed(items[1:])]
            seen += [(item[0], flag) for item, flag in zip(reversed(items), flags)]
        else:  # PDFium's space where the character before it is the one before it here, else by the gap
            ordered = sorted(items, key=lambda item: item[0].x0)
            given = {id(after[0]): id(before[0]) for before, after in zip(items, items[1:])}
            seen += [(item[0], item[1] if index and given.get(id(item[0])) == id(ordered[index - 1][0]) else None)
                     for index, item in enumerate(ordered)]
        seen[len(seen) - len(items)] = (seen[len(seen) - len(items)][0], None)  # a run's first: by the gap
    cells: list[list] = [[]]
    for char, space in seen:
        if cells[-1]:
            before = cells[-1][-1]
            distance = char.x0 - before.x1 if char.x0 >= before.x0 else before.x0 - char.x1
            em = max(char.em, before.em)
            if distance > CELL_GAP * em:
                cells.append([])
            elif space or (space is None and distance > SPACE_GAP * em):
                cells[-1].append(" ")
        cells[-1].append(char)
    out: list[list] = []
    for number, cell in enumerate(reversed(cells) if base == "R" else cells):
        cell = _isolated(cell)
        text = "".join(char if isinstance(char, str) else char.text[:1] for char in cell)
        order, _levels = display_order(text, base)
        space, first = False, True
        for index in order:
            char = cell[index]
            if char in (_ISOLATE, _POP):
                continue
            if char == " ":
                space = not first
                continue
            out.append([char, space, number > 0 and first])
            space, first = False, False
    return out
