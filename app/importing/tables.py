"""Tables with a header row ("School | Period | Degree", "公司 | 职位 | 时间", "Zeitraum | Arbeitgeber |
Position"): one record a row, each column read as its header names it, instead of guessing a title from an
employer by their words and order.

A header row is a line of at least two cells, each of them nothing but a column's name in one of some
ten languages, naming at least two different things. Each cell of a line has a place (``Block.extra
["cell_at"]``): its left edge on a PDF page, its column's number in a DOCX table. The rows below the header
are the lines whose cells fall under its columns: a line with text in the first column starts a row, a
line without (a cell's second paragraph, a PDF cell's wrapped line) adds to the row above, column by
column. The table ends at a line that is neither (a heading, a paragraph across the page).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.importing import dates
from app.importing.entries import filled
from app.importing.layout import Block

# What a column holds, by its header's words (casefolded, a colon and anything in brackets aside).
COLUMNS: dict[str, tuple[str, ...]] = {
    "org": ("company", "employer", "organisation", "organization", "firm", "company name", "name of employer",
            "school", "university", "institution", "college", "institute", "school/university",
            "educational institution",
            "公司", "单位", "工作单位", "公司名称", "就职公司", "学校", "院校", "毕业院校", "学校名称", "就读学校",
            "arbeitgeber", "firma", "unternehmen", "schule", "hochschule", "universität", "bildungseinrichtung",
            "einrichtung", "institution", "entreprise", "société", "employeur", "école", "établissement",
            "université", "empresa", "empregador", "escuela", "universidad", "institución", "instituição",
            "escola", "universidade", "azienda", "datore di lavoro", "scuola", "università", "istituto",
            "werkgever", "bedrijf", "organisatie", "opleidingsinstituut", "会社", "会社名", "勤務先", "学校名",
            "компания", "организация", "работодатель", "учебное заведение", "вуз", "место работы"),
    "title": ("position", "title", "job title", "role", "designation", "job", "post", "degree", "qualification",
              "diploma", "level", "职位", "职务", "岗位", "担任职务", "学历", "学位", "funktion", "stelle",
              "abschluss", "poste", "fonction", "diplôme", "cargo", "puesto", "título", "titulación", "grado",
              "grau", "ruolo", "titolo", "titolo di studio", "functie", "diploma", "職種", "役職", "職位", "学位",
              "должность", "степень", "квалификация"),
    "area": ("major", "field", "subject", "field of study", "discipline", "specialization", "specialisation",
             "programme", "program", "course", "专业", "所学专业", "fach", "fachrichtung", "studiengang",
             "studienfach", "spécialité", "filière", "carrera", "especialidad", "curso", "corso", "studierichting",
             "専攻", "学部", "специальность", "направление"),
    "place": ("location", "place", "city", "地点", "城市", "工作地点", "ort", "lieu", "ville", "ubicación",
              "lugar", "ciudad", "local", "cidade", "luogo", "città", "plaats", "勤務地", "所在地", "город",
              "место"),
    "dates": ("period", "dates", "date", "time", "duration", "years", "year", "from - to", "from-to", "from – to",
              "时间", "起止时间", "时间段", "日期", "年份", "期间", "在校时间", "工作时间", "zeitraum", "zeit", "datum",
              "jahr", "période", "durée", "année", "periodo", "período", "fecha", "fechas", "data", "datas",
              "periode", "jaar", "期間", "年月", "在籍期間", "период", "годы", "даты", "год", "срок"),
    "start": ("from", "start", "start date", "since", "von", "ab", "de", "du", "desde", "início", "dal",
              "开始时间", "入学时间", "起始时间", "开始", "入社", "入学", "с", "начало"),
    "end": ("to", "end", "end date", "until", "bis", "à", "au", "hasta", "fim", "al", "结束时间", "毕业时间",
            "结束", "退社", "卒業", "по", "окончание"),
    "score": ("gpa", "grade", "grades", "result", "results", "成绩", "绩点", "note", "mention", "nota", "voto",
              "cijfer", "評価", "оценка"),
    "text": ("description", "responsibilities", "duties", "details", "achievements", "tasks", "activities",
             "工作内容", "主要职责", "职责", "描述", "工作描述", "项目描述", "aufgaben", "beschreibung",
             "tätigkeiten", "tätigkeit", "missions", "responsabilités", "descripción", "funciones",
             "responsabilidades", "descrição", "atividades", "mansioni", "descrizione", "taken", "beschrijving",
             "業務内容", "職務内容", "内容", "обязанности", "описание"),
    "name": ("project", "project name", "name", "项目", "项目名称", "projekt", "projet", "proyecto", "projeto",
             "progetto", "project", "プロジェクト", "проект", "название"),
}
_ROLE = {label.casefold(): role for role, labels in COLUMNS.items() for label in labels}
_BRACKETS = re.compile(r"\s*[(（\[].*?[)）\]]\s*")
SLACK = 6.0   # points a PDF cell may start left of its column's header


def _role(text: str) -> str | None:
    label = " ".join(_BRACKETS.sub(" ", text).strip().rstrip(":：").casefold().split())
    if label in _ROLE:
        return _ROLE[label]
    alternatives = {_ROLE.get(part.strip()) for part in re.split(r"\s*[/|]\s*", label) if part.strip()}
    return alternatives.pop() if len(alternatives) == 1 else None   # "Dates / Period"


def header_roles(texts: list[str]) -> list[str] | None:
    """What each column of a table holds, when ``texts`` (a line's cells) are a header row; else None."""
    if len(texts) < 2:
        return None
    found = [_role(text) for text in texts]
    if None in found or len(set(found)) < 2 or len(set(found)) < len(found) - 1:
        return None
    return found


@dataclass
class Table:
    roles: list[str]
    places: list[float]                     # each column's place (``cell_at``)
    header: Block
    rows: list[dict[str, list[Block | str]]] = field(default_factory=list)

    def column(self, place: float) -> int:
        slack = 0.0 if "row" in self.header.extra else SLACK     # a DOCX cell's place is its column's number
        return max([i for i, at in enumerate(self.places) if at - slack <= place] or [0])


def split(blocks: list[Block]) -> tuple[list[Table], list[Block]]:
    """A section's tables with a header row (each with at least one row), and its blocks outside them (a
    header row with no row under it among them)."""
    tables: list[Table] = []
    rest: list[Block] = []
    table: Table | None = None
    for block in blocks:
        if table is not None and _adds(table, block):
            continue
        roles = header_roles(block.texts) if not block.bullet and "cell_at" in block.extra else None
        table = Table(roles, _places(block), block) if roles is not None else None
        tables += [table] if table is not None else []
        rest.append(block)
    headers = {id(t.header) for t in tables if t.rows}
    return [t for t in tables if t.rows], [b for b in rest if id(b) not in headers]


def _places(block: Block) -> list[float]:
    return list(block.extra["cell_at"])


def _adds(table: Table, block: Block) -> bool:
    """Add ``block`` to ``table`` as a row or a row's continuation; False when it is no part of it: a
    paragraph outside a DOCX table, a PDF line across the columns, cells out of the columns' order."""
    places = block.extra.get("cell_at")
    if places is None or len(places) != len(block.cells):
        return False
    columns = [table.column(at) for at in places]
    if columns != sorted(set(columns)):
        return False
    if "row" in block.extra:            # a DOCX table's line: its row's first line, or a cell's next paragraph
        starts = block.extra["row"]
    else:                               # a PDF line: a row starts with cells in the first column and another
        last = len(table.places) - 1
        if len(columns) == 1 and columns[0] < last and block.x1 > table.places[columns[0] + 1] + SLACK:
            return False                # a line running across the next column: the table has ended
        starts = columns[0] == 0 and len(columns) > 1
    if starts:
        table.rows.append({})
    elif not table.rows:
        return False
    row = table.rows[-1]
    for column, text in zip(columns, block.texts):
        role = table.roles[column]
        row.setdefault(role, []).append(block if role == "text" and len(columns) == 1 else text)
    return True


def record(row: dict[str, list], key: str) -> tuple[dict, str]:
    """A row of a table in the section ``key`` as its record, and what to ask about its dates ("no_dates",
    "year_only" or "")."""
    def text(role: str) -> str:
        return " ".join(t for t in row.get(role, []) if isinstance(t, str))

    period = _period(text("dates"), text("start"), text("end"))
    start, end = (period.start, period.end) if period else ("", "")
    note = "no_dates" if period is None else "year_only" if period.year_only else ""
    lines = [t if isinstance(t, str) else t.text for t in row.get("text", []) if isinstance(t, str) or not t.bullet]
    bullets = [t.text for t in row.get("text", []) if not isinstance(t, str) and t.bullet]
    about = "\n".join(line for line in lines if line)
    if key == "workExperience":
        found = filled({}, position=text("title"), company=text("org") or text("name"), location=text("place"),
                       startDate=start, endDate=end, description=about, highlights=bullets)
    elif key == "education":
        found = filled({}, school=text("org") or text("name"), degree=text("title"), area=text("area"),
                       score=text("score"), startDate=start, endDate=end, courses=bullets)
    elif key == "volunteer":
        found = filled({}, organization=text("org") or text("name"), position=text("title"), startDate=start,
                       endDate=end, summary=about, highlights=bullets)
    else:   # projects
        found = filled({}, name=text("name") or text("title") or text("org"), startDate=start, endDate=end,
                       description=about, highlights=bullets)
    return found, note if found else ""


SECTIONS = ("workExperience", "education", "volunteer", "projects")   # the sections whose tables are read so


def _period(both: str, start: str, end: str) -> dates.Period | None:
    if both:
        return dates.find_period(both)
    begun = dates.find_period(start) if start else None
    if begun is None:
        return dates.find_period(end) if end else None
    first = begun.end if begun.single else begun.start
    closed = dates.closing(first, end) if end else None
    return closed or dates.Period(first, begun.end if not begun.single else "", begun.present, begun.span, False,
                                  begun.year_only)
