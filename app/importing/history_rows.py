"""The dated rows of a Japanese 履歴書 (the JIS form and its kin): under "年 | 月 | 学歴・職歴" each row is a
year, a month and one event ("千葉大学理学部 入学", "株式会社ココナラ 入社", "基本情報技術者試験 合格"), and a
school or a job is the pair of rows that open and close it ("入学" … "卒業", "入社" … "退職").

``take(blocks)`` takes such rows out of the reading (at least ``MIN_ROWS`` of them, so that a date and a
word in running text are left alone) with the form's own lines (the column headings, the "学歴" and
"職歴" markers, "現在に至る" and "以上") and answers the records they make: education, work experience
and certificates, in the form's order. A row closes the latest open record of its kind that has its
name (else the latest open one); "現在に至る" ("to the present") leaves the last job open; a row with no
event word adds to the record above (a transfer, a department).
"""
from __future__ import annotations

import re

from app.importing.layout import Block

MIN_ROWS = 3
_ERAS = {"明治": 1867, "大正": 1911, "昭和": 1925, "平成": 1988, "令和": 2018, "M": 1867, "T": 1911, "S": 1925,
         "H": 1988, "R": 2018}
_ROW = re.compile(r"^(?P<era>明治|大正|昭和|平成|令和|[MTSHR](?=\s*\d))?\s*(?P<year>\d{1,4}|元)\s*年?\s*[.\s/]?\s*"
                  r"(?P<month>\d{1,2})\s*(?:月\s*|\s+)(?P<what>[^\s～~〜–—-].*)$")
_EVENTS = {   # the word that ends a row → (the section it belongs to, whether it opens a record)
    **{word: ("education", True) for word in ("入学", "編入学", "編入", "入校", "進学")},
    **{word: ("education", False) for word in ("卒業見込み", "修了見込み", "卒業予定", "修了予定", "卒業", "修了",
                                               "中途退学", "退学", "中退", "満期退学", "単位取得退学")},
    **{word: ("workExperience", True) for word in ("入社", "入職", "入所", "入庁", "就職", "入行", "入局", "転籍",
                                                    "着任", "就任", "開業", "設立", "入団")},
    **{word: ("workExperience", False) for word in ("退社", "退職", "退所", "退庁", "離職", "退行", "任期満了",
                                                     "契約満了", "退任", "廃業")},
    **{word: ("certificates", False) for word in ("合格", "取得", "登録", "修得", "認定")},
}
_EVENT = re.compile(r"^(?P<name>.*?)\s*(?:を|に)?\s*(?P<event>" + "|".join(sorted(_EVENTS, key=len, reverse=True))
                    + r")\s*[。.]?\s*$")
_MARKERS = {"学歴": "education", "職歴": "workExperience", "免許・資格": "certificates", "資格": "certificates",
            "免許": "certificates", "賞罰": ""}
_PRESENT = re.compile(r"^(?:現在に至る|現在に至ります|現在まで|現職中|在職中)[。.]?$")
_END = re.compile(r"^(?:以上|以 上)$")
_COLUMNS = re.compile(r"^(?:年\s*月\b.*|年|月|学歴\s*・\s*職歴.*)$")   # the form's column headings


def _year(era: str | None, year: str) -> int | None:
    number = 1 if year == "元" else int(year)
    if era:
        return _ERAS[era] + number if number < 100 else None
    return number if 1900 <= number <= 2100 else None


def take(blocks: list[Block]) -> tuple[dict[str, list[dict]], list[Block]]:
    """The records the form's dated rows make, by content key, and the blocks without the form's lines
    (``blocks`` unchanged when there are fewer than ``MIN_ROWS`` rows)."""
    rows = [(block, _ROW.match(block.text)) for block in blocks]
    if sum(1 for _block, row in rows if row and _EVENT.match(row["what"])) < MIN_ROWS:
        return {}, blocks
    found: dict[str, list[dict]] = {}
    opened: list[tuple[str, dict]] = []
    kind = ""
    rest: list[Block] = []
    for block, row in rows:
        text = block.text
        if row is not None and _year(row["era"], row["year"]) and 1 <= int(row["month"]) <= 12:
            date = f"{_year(row['era'], row['year']):04d}-{int(row['month']):02d}"
            kind = _row(found, opened, kind, date, row["what"].strip())
        elif text in _MARKERS:      # "学歴", "職歴": the form's headings, kept as such
            kind = _MARKERS[text] or kind
            block.level = block.level or 1
            rest.append(block)
        elif _PRESENT.match(text) or _END.match(text) or _COLUMNS.match(text):
            continue
        else:
            rest.append(block)
    return {key: records for key, records in found.items() if records}, rest


def _row(found: dict, opened: list, kind: str, date: str, what: str) -> str:
    """Read one dated row into ``found``; the kind of record it was (the section the rows are in)."""
    event = _EVENT.match(what)
    if event is None:    # "技術部に配属": what happened within the record above
        if opened and not re.search(r"\d{4}", what):
            record = opened[-1][1]
            record["description"] = "\n".join(filter(None, [record.get("description", ""), what]))
        return kind
    section, opens = _EVENTS[event["event"]]
    name = event["name"].strip(" 、,")
    if section == "certificates":
        found.setdefault(section, []).append({"name": name or what, "date": date})
        return section
    field = "school" if section == "education" else "company"
    if opens:
        record = {field: name, "startDate": date} if name else {"startDate": date}
        found.setdefault(section, []).append(record)
        opened.append((section, record))
        return section
    mine = [item for item in opened if item[0] == section]
    same = [item for item in mine if name and item[1].get(field) == name]
    if same or mine:
        item = (same or mine)[-1]
        opened.remove(item)
        item[1]["endDate"] = date
        if name and field not in item[1]:
            item[1][field] = name
    elif name:           # closed with no row opening it: "千葉県立船橋高等学校 卒業"
        found.setdefault(section, []).append({field: name, "endDate": date})
    return section
