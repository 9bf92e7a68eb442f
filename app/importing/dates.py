"""Dates as resumes print them, back to ``YYYY-MM``.

Ours print ``templating.period``: "Mar 2021 – Present", "Jun 2021 – Aug 2023", or the end alone when
there is no start ("Jun 2023"); a template may upper-case them. Others print "03/2021 - 06/2023",
"2021.03 – 至今", "2021年3月 - 2023年6月", "March 2021 to present". A date without a month ("2019") is
its January, as a JSON Resume import has it (the model stores months), and the period says so
(``year_only``), so the import can ask the user for the month.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.content import vocabulary
from app.importing import lexicon

MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
          "sept": 9, "oct": 10, "nov": 11, "dec": 12, "january": 1, "february": 2, "march": 3, "april": 4,
          "june": 6, "july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
          # Spanish
          "ene": 1, "abr": 4, "ago": 8, "dic": 12, "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5,
          "junio": 6, "julio": 7, "agosto": 8, "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11,
          "diciembre": 12}
# And the months the service prints in each of its languages (``app.content.vocabulary``): "févr. 2019",
# "فبراير 2019", "ม.ค. 2019" (a trailing dot is the pattern's own, optional).
MONTHS.update({name.rstrip(".").lower(): number for names in vocabulary.MONTHS.values()
               for number, name in enumerate(names.split(), start=1)})
for _name, _number in lexicon.MONTHS.items():   # the other languages people write in ("Dezember", "março")
    MONTHS.setdefault(_name, _number)
PRESENT = "|".join(re.escape(word) for word in sorted(
    {"present", "current", "now", "today", "ongoing", "actualidad", "actual", "presente", "hoy", "至今", "现在", "目前",
     "今", *lexicon.PRESENT, *(words["Present"].lower() for words in vocabulary.WORDS.values())},
    key=len, reverse=True))
_MONTH_NAME = "|".join(re.escape(name) for name in sorted(MONTHS, key=len, reverse=True))
_DATE = (rf"(?:(?P<{{p}}mname>{_MONTH_NAME})\.?,?\s+(?:de\s+)?(?P<{{p}}y1>\d{{{{4}}}})"
         rf"|(?P<{{p}}y8>\d{{{{4}}}})-(?P<{{p}}m8>0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])(?!\d)"
         rf"|(?P<{{p}}y2>\d{{{{4}}}})\s*[-/.]\s*(?P<{{p}}m2>0?[1-9]|1[0-2])(?!\d)"
         rf"|(?P<{{p}}a7>\d{{{{1,2}}}})\s*(?P<{{p}}s7>[/.])\s*(?P<{{p}}b7>\d{{{{1,2}}}})\s*(?P={{p}}s7)"
         rf"\s*(?P<{{p}}y7>\d{{{{4}}}})"
         rf"|(?P<{{p}}m3>0?[1-9]|1[0-2])\s*[/.]\s*(?P<{{p}}y3>\d{{{{4}}}})"
         rf"|(?P<{{p}}y4>\d{{{{4}}}})\s*年\s*(?P<{{p}}m4>0?[1-9]|1[0-2])\s*月?"
         rf"|(?P<{{p}}y6>\d{{{{4}}}})\s*년\s*(?P<{{p}}m6>0?[1-9]|1[0-2])\s*월"
         rf"|(?P<{{p}}y5>(?:19|20)\d{{{{2}}}})(?!\s*[-/.年]\s*(?:0?[1-9]|1[0-2])(?!\d)))")
START = _DATE.format(p="s_")
END = _DATE.format(p="e_")
_SEPARATOR = r"\s*(?:–|—|-|‐|‑|−|~|～|〜|至|到|" + "|".join(
    re.escape(word) for word in sorted({"to", "until", "till", "a", "hasta", *lexicon.TO}, key=len, reverse=True)
) + r")\s*"
_SINCE = "|".join(re.escape(word) for word in sorted(lexicon.SINCE, key=len, reverse=True))
# A date stands apart from Latin letters, digits and slashes; CJK text may touch it ("工程师2019年11月 –
# 至今负责"), as a PDF's text runs a table's cells together.
_BEFORE = r"(?<![0-9A-Za-z\u00c0-\u024f/])"
_AFTER = r"(?![0-9A-Za-z\u00c0-\u024f/])"
PERIOD = re.compile(rf"{_BEFORE}(?:(?:{_SINCE})\s*)?(?P<start>{START})"
                    rf"(?:{_SEPARATOR}(?:(?P<end>{END})|(?P<present>{PRESENT})))?{_AFTER}", re.IGNORECASE)
MONTH = re.compile(rf"{_BEFORE}{_DATE.format(p='')}{_AFTER}", re.IGNORECASE)


@dataclass(frozen=True)
class Period:
    start: str          # YYYY-MM or ""
    end: str            # YYYY-MM, or "" for present
    present: bool       # an explicit "Present"
    span: tuple[int, int]
    single: bool        # one date, no range
    year_only: bool = False  # a date printed without its month (taken as January)


def _month(match, prefix: str) -> str | None:
    """The ``YYYY-MM`` of a matched date, "YYYY" for a year alone; None when nothing matched."""
    group = match.groupdict()
    name = group.get(f"{prefix}mname")
    if name:
        return f"{int(group[f'{prefix}y1']):04d}-{MONTHS[name.lower()]:02d}"
    if group.get(f"{prefix}y7"):   # a day's date: day first ("31.03.2022", "31/03/2022"), but "03/31/2022"
        first, second = int(group[f"{prefix}a7"]), int(group[f"{prefix}b7"])
        month = first if second > 12 and group[f"{prefix}s7"] == "/" else second
        return f"{int(group[f'{prefix}y7']):04d}-{month:02d}" if 1 <= month <= 12 and first <= 31 else None
    for year, month in (("y8", "m8"), ("y2", "m2"), ("y3", "m3"), ("y4", "m4"), ("y6", "m6")):
        if group.get(f"{prefix}{year}"):
            return f"{int(group[f'{prefix}{year}']):04d}-{int(group[f'{prefix}{month}']):02d}"
    if group.get(f"{prefix}y5"):
        return group[f"{prefix}y5"]
    return None


def _january(date: str) -> str:
    return f"{date}-01" if len(date) == 4 else date


# Two months of one year: "3 - 4/2014", "1.-2.2013" (German tabular CVs).
_MONTHS_OF_A_YEAR = re.compile(r"(?<![\d./])(?P<m1>\d{1,2})\.?\s*[-–—]\s*(?P<m2>\d{1,2})\s*[/.]\s*"
                               r"(?P<y>(?:19|20)\d\d)(?![\d./])")


def find_period(text: str) -> Period | None:
    """The first date or date range in ``text``."""
    found = _find_period(text)
    months = _MONTHS_OF_A_YEAR.search(text)
    if months and 1 <= int(months["m1"]) <= int(months["m2"]) <= 12 \
            and (found is None or months.start() <= found.span[0]):
        year = months["y"]
        return Period(f"{year}-{int(months['m1']):02d}", f"{year}-{int(months['m2']):02d}", False, months.span(), False)
    return found


def _find_period(text: str) -> Period | None:
    for match in PERIOD.finditer(text):
        start = _month(match, "s_")
        if start is None:
            continue
        if match.group("present"):
            return Period(_january(start), "", True, match.span(), False, len(start) == 4)
        if match.group("end"):
            end = _month(match, "e_") or ""
            year_only = len(start) == 4 or len(end) == 4
            if end[:4] < start[:4] or (not year_only and end < start):
                continue
            start, end = _january(start), _january(end)
            return Period(start, max(start, end), False, match.span(), False, year_only)
        since = re.match(rf"(?:{_SINCE})\s*\w", match.group(0), re.IGNORECASE)   # "seit 03/2020", "Seit Februar 2014"
        if len(start) == 4 and not since:
            continue   # a lone year is more likely a number in the text than a date
        if since:      # "seit 03/2020", "depuis 2019": ongoing since then
            return Period(_january(start), "", True, match.span(), False, len(start) == 4)
        return Period("", _january(start), False, match.span(), True, len(start) == 4)
    return None


# What may stand beside a date without being text of its own: "2010-2014 (expected)".
_EXPECTED = re.compile(r"[(（]?\s*(?:expected|anticipated|est\.?|prevista|previsto|预计|预期)\s*[)）]?", re.IGNORECASE)


def is_date_text(text: str) -> bool:
    """Whether ``text`` is nothing but a date or a period (and punctuation around it)."""
    period = find_period(text)
    if period is None:
        return False
    rest = _EXPECTED.sub("", text[:period.span[0]] + text[period.span[1]:])
    return not re.sub(r"[\s|·•,;:()（）\[\]—–-]", "", rest)


def remove(text: str, period: Period) -> str:
    """``text`` without the period and the separators left hanging around it."""
    rest = text[:period.span[0]] + " " + text[period.span[1]:]
    if not _EXPECTED.sub("", rest).strip(" ()（）"):
        return ""
    return re.sub(r"^[\s|·•,;:—–-]+|[\s|·•,;:—–(（-]+$", "", rest).strip()


_DANGLING = re.compile(rf"^{_SEPARATOR}$", re.IGNORECASE)
_PRESENT_ONLY = re.compile(rf"^\s*(?:{PRESENT})\s*$", re.IGNORECASE)


def opens_range(text: str, period: Period) -> bool:
    """Whether ``text`` ends, after the single date ``period`` found in it, with a range's separator
    and nothing else: "2021年6月 –", whose end a narrow column wrapped onto the next line."""
    return period.single and bool(_DANGLING.match(text[period.span[1]:]))


def closing(start: str, text: str) -> Period | None:
    """The range from ``start`` to the date (or "Present") that ``text`` is, when it is nothing else."""
    if _PRESENT_ONLY.match(text):
        return Period(start, "", True, (0, len(text)), False)
    if not is_date_text(text):
        return None
    found = find_period(text)
    if found is None or not found.single:
        return None
    return Period(start, found.end, False, found.span, False, found.year_only)
