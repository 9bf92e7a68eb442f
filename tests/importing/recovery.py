"""How much of a resume an import recovers: the field-recovery score of the import tests.

The fields of a resume are every non-empty string of its ``contentJson`` and every item of its lists
of strings (ids left out: the server assigns them). A string field is recovered when the import has
an equal string at the same place (the same path: section, entry index, field); a list item when
the list at the same path holds an equal item (each item counts once). Strings are compared
whitespace-normalised (runs of white space are one space, spaces beside a CJK character and between two
Thai ones do not count, since a PDF cannot tell where a line broke at one) and case-folded (templates may print text in
capitals). Dates compare as stored (``YYYY-MM``).
"""
from __future__ import annotations

import re
from collections import Counter

_CJK = r"[\u2e80-\u9fff\uff00-\uffef\u3000-\u303f]"
_SPACE_NEAR_CJK = re.compile(rf"(?<={_CJK}) | (?={_CJK})")
_THAI = r"[\u0e00-\u0e7f]"
_SPACE_IN_THAI = re.compile(rf"(?<={_THAI}) (?={_THAI})")


def normalise(text: str) -> str:
    text = " ".join(str(text).replace("\u00a0", " ").split())
    return _SPACE_IN_THAI.sub("", _SPACE_NEAR_CJK.sub("", text)).casefold()


def fields(content, path: tuple = ()) -> list[tuple[tuple, str, bool]]:
    """(path, normalised value, is a list item) for every field of ``content``."""
    found = []
    if isinstance(content, dict):
        for key, value in content.items():
            if key != "id":
                found += fields(value, path + (key,))
    elif isinstance(content, list):
        for index, value in enumerate(content):
            if isinstance(value, str):
                if value.strip():
                    found.append((path, normalise(value), True))
            else:
                found += fields(value, path + (index,))
    elif isinstance(content, str) and content.strip():
        found.append((path, normalise(content), False))
    return found


def _at(content, path: tuple):
    for key in path:
        if isinstance(content, dict):
            content = content.get(key)
        elif isinstance(content, list) and isinstance(key, int) and key < len(content):
            content = content[key]
        else:
            return None
    return content


def score(sample: dict, imported: dict) -> tuple[int, int, list[str]]:
    """(recovered, total, what was missed) of ``sample``'s fields in ``imported``."""
    recovered, total, missed = 0, 0, []
    pools: dict[tuple, Counter] = {}
    for path, value, item in fields(sample):
        total += 1
        if item:
            if path not in pools:
                found = _at(imported, path)
                pools[path] = Counter(normalise(v) for v in found if isinstance(v, str)) if isinstance(found, list) \
                    else Counter()
            if pools[path][value] > 0:
                pools[path][value] -= 1
                recovered += 1
                continue
        else:
            found = _at(imported, path)
            if isinstance(found, str) and normalise(found) == value:
                recovered += 1
                continue
        missed.append(f"{'.'.join(map(str, path))}: {value[:60]!r} (got {str(_at(imported, path))[:60]!r})")
    return recovered, total, missed
