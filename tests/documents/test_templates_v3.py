"""Templates v3: the four shipped layouts read back from their PDFs, and the migration that ships them.

Each check renders a template through the export path and reads the PDF the way a reader (or an
ATS) does: pypdfium2's text, in its order, and its character boxes against the page's content box
(the page less the export's margin). The resumes are long enough to run over pages, carry a dozen
skills, a long URL and e-mail address, and come in English and in mixed Chinese and English.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pypdfium2
import pytest
from sqlalchemy import text

from tests.documents import layout, samples

from app.documents import templating
from app.documents import Options, Source, render

# No queue, and the migration test's database is a SQLite file of its own: CI runs these in one pass (.ci/run).
pytestmark = pytest.mark.documents

SEEDS = Path(__file__).resolve().parents[2] / "migrations" / "seed"
FIXED = ("Horizon", "Heritage", "Meridian", "Canvas")  # the four whose layouts v3 fixes
TEMPLATES = {t["name"]: t for t in templating.load_seed_templates() if t["name"] in FIXED}
MM = 72 / 25.4
SIDEBAR = (0xF1, 0xF4, 0xF8)  # Meridian's sidebar background
SKILLS = ["Python", "Flask", "PostgreSQL", "Redis", "Docker", "Kubernetes", "Terraform",
          "TypeScript", "React", "GraphQL", "Technical writing", "AWS"]
PHONE = "+44 20 7946 0958"
URL = "https://github.com/example-organisation/a-very-long-repository-name-for-the-kit/tree/main/docs"
EMAIL = "margaret.hamilton-wexley.engineering@example-consulting.co.uk"
# Section headings as each template prints them, in the order it shows them: the body sections in the
# default order (templates v4 follow the resume's sectionOrder), Meridian's sidebar (skills) before its main
# column.
HEADINGS = {
    "Horizon": ["Profile", "Experience", "Education", "Skills", "Projects"],
    "Heritage": ["Summary", "Professional Experience", "Education", "Skills", "Selected Projects"],
    "Meridian": ["Profile", "Skills", "Work Experience", "Education", "Projects"],
    "Canvas": ["Experience", "Education", "Skills", "Projects"],
}


def resume(jobs: int = 6, mixed: bool = False) -> dict:
    """A resume of ``jobs`` jobs; each job's first and last duty are unique, to find its ends."""
    duty = ("负责 billing platform 的设计，使用 Python 和 PostgreSQL 支撑每月 2,000,000 张发票。" if mixed
            else "Designed and shipped a billing service handling two million invoices a month.")
    return {
        "personalInfo": {"name": "李娜 Lina Li" if mixed else "Margaret Hamilton", "email": EMAIL, "phone": PHONE,
                         "address": "12 Harbour Lane, Bristol BS1 4RN, United Kingdom",
                         "summary": " ".join([duty] * 3)},
        "workExperience": [
            {"company": f"Company {i}", "position": f"Engineer {i}", "startDate": f"{2021 - 2 * i}-03",
             "endDate": "" if i == 0 else f"{2022 - 2 * i}-02",
             "description": "\n".join([f"Opening duty of role {i}.", duty, duty, f"Closing duty of role {i}."])}
            for i in range(jobs)],
        "education": [{"school": "Riverside University", "degree": "MSc Distributed Computing",
                       "startDate": "2010-09", "endDate": "2014-07"},
                      {"school": "清华大学 Tsinghua University" if mixed else "Kyoto University",
                       "degree": "BSc Computer Science", "startDate": "2006-09", "endDate": "2010-07"}],
        "skills": SKILLS,
        "projects": [{"id": f"p{i}", "name": f"Project {i}", "description": duty, "url": URL,
                      "technologies": ["Rust", "SQLite", "Nix"], "startDate": "2019-05", "endDate": "2020-11",
                      "highlights": [f"Highlight of project {i}."]} for i in range(3)],
    }


@dataclass
class Line:
    page: int
    text: str
    left: float
    right: float
    bottom: float
    top: float


@dataclass
class Pdf:
    size: list[tuple[float, float]]  # each page's width and height, in points
    text: list[str]                    # each page's text, lines ended by "\r\n"
    boxes: list[list[tuple]]           # each page's character boxes (left, bottom, right, top)

    @classmethod
    def read(cls, data: bytes) -> "Pdf":
        doc = pypdfium2.PdfDocument(data)
        size, texts, boxes = [], [], []
        for page in doc:
            chars = page.get_textpage()
            size.append(page.get_size())
            texts.append(chars.get_text_range())  # one character per box, line breaks included
            boxes.append([chars.get_charbox(i) for i in range(chars.count_chars())])
        return cls(size, texts, boxes)

    @property
    def pages(self) -> int:
        return len(self.text)

    def joined(self) -> str:
        """All text with line breaks removed and pdfium's soft-hyphen mark read as the hyphen it is."""
        return "".join(t.replace("\ufffe", "-").replace("\r\n", "") for t in self.text)

    def lines(self, page: int) -> list[Line]:
        out, start, page_text = [], 0, self.text[page]
        for chunk in page_text.split("\r\n"):
            boxes = [self.boxes[page][i] for i in range(start, start + len(chunk)) if page_text[i].strip()]
            if boxes:
                out.append(Line(page, chunk.strip(), min(b[0] for b in boxes), max(b[2] for b in boxes),
                                min(b[1] for b in boxes), max(b[3] for b in boxes)))
            start += len(chunk) + 2
        return out

    def page_of(self, needle: str) -> int:
        found = [p for p, t in enumerate(self.text) if needle in t]
        assert found, needle
        return found[0]

    def outside(self, margin_mm: float) -> list[str]:
        """Characters drawn outside the content box (half a point of slack for glyph overhang)."""
        m, slack, bad = margin_mm * MM, 0.5, []
        for p, ((width, height), boxes) in enumerate(zip(self.size, self.boxes)):
            for i, (left, bottom, right, top) in enumerate(boxes):
                ch = self.text[p][i]
                if ch.strip() and (left < m - slack or right > width - m + slack
                                   or bottom < m - slack or top > height - m + slack):
                    bad.append(f"page {p + 1}: {ch!r} at {left:.1f}..{right:.1f}, {bottom:.1f}..{top:.1f}")
        return bad


def pdf_of(name: str, content: dict, page_size: str = "A4", margin: str = "normal") -> Pdf:
    """The PDF of the shipped template (the newest seed)."""
    t = TEMPLATES[name]
    source = Source(html_template=t["html_template"], css=t["css_styles"], title="Resume", content=content,
                    visible={})
    return Pdf.read(render("pdf", source, Options(page_size=page_size, margin=margin)))


def squash(value: str) -> str:
    return "".join(value.split()).lower()


# --- everything shown, inside the page ---------------------------------------------------------

@pytest.mark.parametrize("mixed", [False, True], ids=["english", "mixed"])
@pytest.mark.parametrize(("page_size", "margin"), [("A4", "normal"), ("Letter", "narrow"), ("A4", "wide")])
@pytest.mark.parametrize("name", FIXED)
def test_every_string_is_in_the_pdf_and_every_glyph_inside_the_content_box(name, page_size, margin, mixed):
    content = resume(mixed=mixed)
    pdf = pdf_of(name, content, page_size, margin)
    assert pdf.pages >= 2
    seen = squash(pdf.joined())
    p = content["personalInfo"]
    strings = [*p.values(), *SKILLS, URL, "Rust", "SQLite", "Nix", "Highlight of project 2.",
               *(s for job in content["workExperience"] for s in (job["company"], job["position"],
                                                                  *job["description"].split("\n"))),
               *(s for school in content["education"] for s in school.values() if "-" not in s)]
    assert [s for s in strings if squash(s) not in seen] == []
    assert pdf.outside(templating.MARGINS_MM[margin]) == []


@pytest.mark.parametrize("page_size", ["A4", "Letter"])
@pytest.mark.parametrize("name", ["Horizon", "Canvas"])
def test_skill_chips_wrap_onto_rows_and_none_is_lost_or_cut(name, page_size):
    content = resume(jobs=1)
    content["skills"] = SKILLS + ["Site reliability engineering", "Kafka", "Airflow", "Linux", "CI/CD"]
    pdf = pdf_of(name, content, page_size)
    page = pdf.page_of("Technical writing")
    chips = [line for line in pdf.lines(page) if any(skill in line.text for skill in ("Python", "AWS", "CI/CD"))]
    assert len({round(line.bottom) for line in chips}) >= 2  # more than one row of chips
    seen = pdf.joined()
    assert all(skill in seen for skill in content["skills"])
    assert pdf.outside(templating.MARGINS_MM["normal"]) == []


@pytest.mark.parametrize("address", ["Bristol", "12 Harbour Lane, Bristol BS1 4RN", "Flat 3, 12 Harbour Lane, Bristol",
                                     "Flat 3, 12 Harbour Lane, Clifton, Bristol BS1 4RN, United Kingdom"])
@pytest.mark.parametrize("name", FIXED)
def test_a_phone_number_never_wraps_in_the_middle(name, address):
    content = resume(jobs=1)
    content["personalInfo"]["address"] = address
    for page_size, margin in (("A4", "narrow"), ("Letter", "wide")):
        pdf = pdf_of(name, content, page_size, margin)
        assert PHONE in pdf.text[0], (page_size, margin)  # on one line: no line break inside it


def test_heritage_summary_is_left_aligned_not_justified():
    content = resume(jobs=1)
    content["personalInfo"]["summary"] = (
        "Backend engineer who likes tidy ledgers, careful migrations and quiet on-call "
        "rotas; twelve years of payment systems, from a first prototype to a platform "
        "that a bank runs on. Mentor, writer of runbooks, reader of query plans. ") * 3
    pdf = pdf_of("Heritage", content)
    lines = [line.text for line in pdf.lines(0)]
    summary = pdf.lines(0)[lines.index("Summary") + 1:lines.index("Professional Experience")]
    rights = [line.right for line in summary[:-1]]  # the last line is short either way
    assert len(rights) >= 4 and max(rights) - min(rights) > 6  # a ragged right edge: not stretched to the margin


# --- pagination ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mixed", [False, True], ids=["english", "mixed"])
@pytest.mark.parametrize("page_size", ["A4", "Letter"])
@pytest.mark.parametrize("name", FIXED)
def test_no_heading_ends_a_column_and_no_entry_is_split(name, page_size, mixed):
    for jobs in (4, 6):
        pdf = pdf_of(name, resume(jobs=jobs, mixed=mixed), page_size)
        headings = {h.lower() for h in HEADINGS[name]}
        for page in range(pdf.pages):
            lines = pdf.lines(page)
            for heading in (line for line in lines if line.text.lower() in headings):
                below = [line for line in lines if line.top < heading.bottom - 1
                         and line.left < heading.right and line.right > heading.left]
                assert below, f"{heading.text!r} ends page {page + 1}"
        for i in range(jobs):
            assert pdf.page_of(f"Opening duty of role {i}.") == pdf.page_of(f"Closing duty of role {i}."), i
            assert pdf.page_of(f"Company {i}") == pdf.page_of(f"Closing duty of role {i}."), i


@pytest.mark.parametrize("name", ["Horizon", "Heritage", "Canvas"])
def test_the_short_last_section_never_stands_alone_on_the_last_page(name):
    # Skills last, as these templates showed it before sectionOrder.
    order = ["workExperience", "projects", "education", "skills"]
    last = "skills"
    for jobs in range(3, 9):
        pdf = pdf_of(name, {**resume(jobs=jobs), "sectionOrder": order})
        if pdf.pages > 1:
            assert pdf.lines(pdf.pages - 1)[0].text.lower() != last, jobs


def test_meridian_sidebar_runs_down_every_page():
    pdf_bytes = render("pdf", Source(html_template=TEMPLATES["Meridian"]["html_template"],
                                     css=TEMPLATES["Meridian"]["css_styles"], title="R", content=resume(jobs=8),
                                     visible={}), Options())
    doc = pypdfium2.PdfDocument(pdf_bytes)
    assert len(doc) >= 3
    m = templating.MARGINS_MM["normal"] * MM
    for n, page in enumerate(doc):
        image = page.render(scale=1).to_pil().convert("RGB")
        width, height = image.size
        points = [(m + 8, m + 8)] if n else []  # page 1 starts with the banner
        if n < len(doc) - 1:  # the last page's sidebar ends with the main column
            points.append((m + 8, height - m - 8))
        for x, y in points:
            pixel = image.getpixel((int(x), int(y)))
            assert max(abs(c - s) for c, s in zip(pixel, SIDEBAR)) < 6, (n + 1, (x, y), pixel)


# --- reading order ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", FIXED)
def test_text_reads_personal_info_first_then_the_sections_as_shown(name):
    pdf = pdf_of(name, resume(jobs=3))
    seen = pdf.joined()
    lowered = seen.lower()
    personal = [seen.index(s) for s in ("Margaret Hamilton", EMAIL, PHONE, "Designed and shipped")]
    headings = [lowered.index(h.lower()) for h in HEADINGS[name] if h not in ("Profile", "Summary")]
    assert max(personal) < min(headings)
    assert headings == sorted(headings)


def test_meridian_does_not_interleave_sidebar_and_main_lines():
    pdf = pdf_of("Meridian", resume(jobs=6))
    side = SKILLS  # templates v4: education moved to the main column (it carries more lines than a sidebar holds)
    main = [f"Opening duty of role {i}." for i in range(6)] + ["Riverside University", "Project 0", "Project 2"]
    for page_text in (t.replace("\r\n", "") for t in pdf.text):
        side_at = [page_text.index(s) for s in side if s in page_text]
        main_at = [page_text.index(s) for s in main if s in page_text]
        if side_at and main_at:
            assert max(side_at) < min(main_at)
    assert all(s in pdf.text[0].replace("\r\n", "") for s in side)  # the sidebar is whole on page 1


# --- the migration ------------------------------------------------------------------------------

V3 = "3f9c2a7d4e61"  # the revision that ships templates_v3 (d4e5f6a7b8c9 ships v4: test_templates_v4.py)


def _seed_rows(folder: str) -> dict:
    return {t["id"]: (t["name"], t["html_template"], t["css_styles"])
            for t in templating.load_seed_templates(SEEDS / folder)}


def test_migration_brings_in_every_v3_template_and_back(make_app, tmp_path):
    from flask_migrate import downgrade, upgrade

    from app.extensions import db

    v2, v3 = _seed_rows("templates_v2"), _seed_rows("templates_v3")
    assert set(v2) <= set(v3) and all(v2[i] != v3[i] for i in v2)
    added = [i for i in v3 if i not in v2]

    def stored():
        rows = db.session.execute(text("SELECT id, name, html_template, css_styles FROM templates")).all()
        db.session.rollback()
        return {row.id: (row.name, row.html_template, row.css_styles) for row in rows}

    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'templates.db'}", REDIS_URL=None)
    with app.app_context():
        upgrade(revision=V3)  # a fresh database gets every template (v4 and its own test follow)
        assert stored() == v3
        downgrade(revision="5b0d7c3e9f21")
        assert stored() == v2
        upgrade(revision=V3)
        assert stored() == v3
        if added:
            # A resume on an added template keeps that template through a downgrade (at its v3 text).
            db.session.execute(text(
                "INSERT INTO users (id, email, name, auth_id, created_at, updated_at, preferences) VALUES "
                "('aaaaaaaaaaaaaaaaaaaaaaaa', 'kept@example.com', 'Kept', 'kept-auth', "
                "'2026-11-23 00:00:00', '2026-11-23 00:00:00', '{}')"))
            db.session.execute(text(
                "INSERT INTO resumes (id, user_id, title, status, template_id, content_json, sections_visibility,"
                " created_at, updated_at) VALUES ('bbbbbbbbbbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaaaaaaaaaa', 'Kept',"
                " 'DRAFT', :template, '{}', '{}', '2026-11-23 00:00:00', '2026-11-23 00:00:00')"),
                {"template": added[0]})
            db.session.commit()
            downgrade(revision="5b0d7c3e9f21")
            assert stored() == {**v2, added[0]: v3[added[0]]}
            upgrade(revision=V3)
            assert stored() == v3
        db.engine.dispose()


def test_v3_templates_keep_the_template_contract():
    v3 = templating.load_seed_templates(SEEDS / "templates_v3")
    for t in (t for t in v3 if t["name"] in FIXED):
        html, css = t["html_template"], t["css_styles"]
        assert '<img class="photo" src="{{ photo }}" alt="">' in html and ".photo {" in css
        assert templating.template_accent(css) is not None
        assert all(f".{cls} {{" in css for cls in ("accent-text", "accent-bg", "accent-border"))
        html.encode("cp1252"), css.encode("cp1252")  # the template's own text keeps the built-in fonts


MERIDIAN_SIDEBAR_MM = 54  # flex: 0 0 54mm in meridian.css
MERIDIAN_SIDEBAR_PADDING_PT = (24 + 20) * 0.75  # its left and right padding (px), which xhtml2pdf adds to the basis


@pytest.mark.parametrize("margin", templating.MARGINS_MM)
@pytest.mark.parametrize("page_size", templating.PAGE_SIZES)
@pytest.mark.parametrize(("lang", "length"), [("en", "long"), ("zh", "long"), ("mixed", "short")])
def test_meridian_keeps_every_glyph_inside_its_column(lang, length, page_size, margin):
    # Without the banner and profile, which span both columns, every glyph is in the sidebar or the main column.
    template = TEMPLATES["Meridian"]
    source = Source(template["html_template"], template["css_styles"], "Resume",
                    samples.SAMPLES[(lang, length)], {"personalInfo": False})
    doc = layout.read(render("pdf", source, Options(page_size=page_size, margin=margin)))
    left, bottom, right, top = layout.content_box(page_size, margin)
    # The sidebar's edge: its basis and padding (the grey ends there; the main column's border starts there).
    gutter = left + MERIDIAN_SIDEBAR_MM * layout.POINTS_PER_MM + MERIDIAN_SIDEBAR_PADDING_PT
    outside = layout.glyphs_outside(doc, [(left, bottom, gutter, top), (gutter, bottom, right, top)])
    assert not outside, f"glyphs across the sidebar's edge at {gutter:.1f} pt: {outside[:5]}"
