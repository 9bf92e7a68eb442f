"""The four templates issue 13 adds (Ledger, Plainsight, Jinghua, Atlas), rendered and read back.

The layout checks every shipped template passes (every string, glyphs inside the content box,
headings kept with their entry, reading order, no split words, page counts) are
``test_layout.py``'s matrix. Here, drawn from their shipped files (``migrations/seed/templates_v4/``)
through the export path and read back with the layout checker: in Atlas no glyph outside its
column, for every language × length × page size × margin; then what each design promises: Ledger's and
Plainsight's plain ATS headings and no tables, Jinghua's
bilingual headings and photo at the top right, Atlas's sidebar on every page; and for all four the
photo slot and hidden sections. Line breaking at CJK punctuation is the PDF renderer's, and is
checked for every shipped template by ``test_layout.py``.
"""
from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader

from tests.documents import layout, samples
from tests.documents.test_layout import _headings, _listed

from app.content import sections
from app.documents import templating
from app.documents import MARGINS, PAGE_SIZES, Options, Photo, Source, html_document, render

pytestmark = pytest.mark.documents  # no database or queue: CI runs these in one pass (.ci/run)

SEED = Path(__file__).resolve().parents[2] / "migrations" / "seed" / "templates_v4"
NEW = {"Ledger": "ledger", "Plainsight": "plainsight", "Jinghua": "jinghua", "Atlas": "atlas"}
TEMPLATES = {name: {"html_template": (SEED / f"{stem}.html").read_text(encoding="utf-8"),
                    "css_styles": (SEED / f"{stem}.css").read_text(encoding="utf-8")}
             for name, stem in NEW.items()}
CASES = [(name, lang, length, size, margin) for name in TEMPLATES for lang in samples.LANGS
         for length in samples.LENGTHS for size in PAGE_SIZES for margin in MARGINS]
CASE_IDS = ["-".join(case) for case in CASES]
ATLAS_SIDEBAR = 0.31  # of the content box's width: .strip and .side in atlas.css
ATLAS_ACCENT = (0x26, 0x46, 0x53)

_RENDERED: dict[tuple, tuple[layout.Document, str]] = {}


def source(name: str, content: dict, visible: dict | None = None) -> Source:
    template = TEMPLATES[name]
    return Source(html_template=template["html_template"], css=template["css_styles"], title="Resume",
                  content=content, visible=visible or {})


def rendered(case: tuple, visible: dict | None = None) -> tuple[layout.Document, str]:
    """The PDF of a parameter set read back, and the HTML it was drawn from; rendered once per run."""
    key = (*case, json.dumps(visible, sort_keys=True))
    if key not in _RENDERED:
        name, lang, length, size, margin = case
        options = Options(page_size=size, margin=margin)
        src = source(name, samples.SAMPLES[(lang, length)], visible)
        _RENDERED[key] = (layout.read(render("pdf", src, options)), html_document(src, options, None))
    return _RENDERED[key]


def photo(size=(90, 120)) -> Photo:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(out, format="PNG")
    return Photo(data=out.getvalue(), media_type="image/png")


def pdf_images(data: bytes) -> list[tuple[int, dict]]:
    """(page number, image XObject) of every picture in the PDF."""
    found = []
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages, start=1):
        for obj in (o.get_object() for o in page["/Resources"].get("/XObject", {}).values()):
            if obj["/Subtype"] == "/Image":
                found.append((number, obj))
    return found


# --- what test_layout.py's matrix does not check ---------------------------------------------------
# (every string, glyphs in the content box, headings, reading order, split words and length are checked
# there for every shipped template, these four included)

@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "Atlas"],
                         ids=[i for i in CASE_IDS if i.startswith("Atlas")])
def test_atlas_keeps_every_glyph_inside_its_column(case):
    # Without the banner, which spans both columns, every glyph is in the sidebar or the main column.
    doc, _ = rendered(case, visible={"personalInfo": False})
    left, bottom, right, top = layout.content_box(*case[3:])
    gutter = left + ATLAS_SIDEBAR * (right - left)
    columns = [(left, bottom, gutter, top), (gutter, bottom, right, top)]
    outside = layout.glyphs_outside(doc, columns)
    assert not outside, f"glyphs across the sidebar's edge at {gutter:.1f} pt: {_listed(outside)}"


# --- what each design promises ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Ledger", "Plainsight"])
def test_ats_designs_use_the_headings_an_ats_expects_and_no_tables(name):
    assert "<table" not in TEMPLATES[name]["html_template"]
    assert "flex" not in TEMPLATES[name]["css_styles"]
    doc, html = rendered((name, "en", "short", "A4", "normal"))
    assert {layout.key(h) for h in _headings(html)} == {"summary", "experience", "education", "skills", "projects"}
    assert len(layout.heading_segments(doc, _headings(html))) == 5
    long_doc, long_html = rendered((name, "en", "long", "A4", "normal"))
    assert _headings(long_html) == ["Summary", "Experience", "Education", "Skills", "Projects", "Languages",
                                    "Certifications", "Awards", "Volunteer Experience", "Publications", "Interests",
                                    "References", "Speaking", "Patents"]
    assert len(layout.heading_segments(long_doc, _headings(long_html))) == 14


def test_jinghua_has_bilingual_headings_and_the_photo_at_the_top_right():
    doc, html = rendered(("Jinghua", "en", "short", "A4", "normal"))
    headings = _headings(html)
    # The body sections in the resume's order (the default order here).
    assert headings == ["个人简介 Summary", "工作经历 Experience", "教育背景 Education", "专业技能 Skills",
                        "项目经历 Projects"]
    data = render("pdf", source("Jinghua", samples.SAMPLES[("zh", "short")]), Options(), photo())
    images = pdf_images(data)
    assert [page for page, _ in images] == [1]
    # The photo is drawn in the top right corner of the content box.
    page = pypdfium2.PdfDocument(data)[0]
    pictures = [obj.get_bounds() for obj in page.get_objects(filter=[pypdfium2.raw.FPDF_PAGEOBJ_IMAGE])]
    left, _, right, top = pictures[0]
    box = layout.content_box("A4", "normal")
    assert right == pytest.approx(box[2], abs=2) and top == pytest.approx(box[3], abs=6)
    assert left > box[0] + 0.7 * (box[2] - box[0])


@pytest.mark.parametrize(("size", "scheme", "colour"), [("A4", "default", ATLAS_ACCENT),
                                                        ("Letter", "green", (0x15, 0x80, 0x3d))])
def test_atlas_draws_its_sidebar_on_every_page_in_the_accent_colour(size, scheme, colour):
    data = render("pdf", source("Atlas", samples.SAMPLES[("en", "long")]), Options(page_size=size, color_scheme=scheme))
    pdf = pypdfium2.PdfDocument(data)
    assert len(pdf) >= 3
    left, bottom, right, top = layout.content_box(size, "normal")
    for page in pdf:
        image = page.render(scale=1).to_pil().convert("RGB")
        # Just inside the sidebar's bottom corner, and just past its edge: coloured, then white.
        x_in, x_out = left + 4, left + ATLAS_SIDEBAR * (right - left) + 4
        y = image.height - (bottom + 4)
        assert image.getpixel((int(x_in), int(y))) == colour
        assert image.getpixel((int(x_out), int(y))) == (255, 255, 255)


# --- every new template: photo, hidden sections, accent, manifest --------------------------------

@pytest.mark.parametrize("name", TEMPLATES)
def test_the_photo_is_shown_when_given_and_only_then(name):
    content = samples.SAMPLES[("en", "short")]
    assert [page for page, _ in pdf_images(render("pdf", source(name, content), Options(), photo()))] == [1]
    assert pdf_images(render("pdf", source(name, content))) == []


def _unique(groups: dict[str, list[str]], group: str) -> list[str]:
    """The group's strings that no other group's strings contain (a skill may also be a project's stack)."""
    others = [layout.key(s) for other, strings in groups.items() if other != group for s in strings]
    return [s for s in groups[group] if not any(layout.key(s) in o for o in others)]


@pytest.mark.parametrize("half", [0, 1], ids=["odd-hidden", "even-hidden"])
@pytest.mark.parametrize("name", TEMPLATES)
def test_hidden_sections_are_left_out_and_the_others_stay(name, half):
    # Every other section hidden, then the rest: each section is seen hidden once and shown once per
    # template, in two renders of the long sample rather than one per section (the short one has no
    # entries in most of issue 15's sections).
    groups = samples.section_strings(samples.SAMPLES[("en", "long")])
    hidden_sections = sections.SECTIONS[half::2]
    hidden = {group for section in hidden_sections
              for group in (["personal", "summary"] if section == "personalInfo" else [section])}
    doc, _ = rendered((name, "en", "long", "A4", "normal"), visible={s: False for s in hidden_sections})
    for group in groups:
        strings = _unique(groups, group)
        if group in hidden:
            assert layout.missing_strings(doc, strings) == strings, f"{group} is hidden but printed"
        else:
            assert layout.missing_strings(doc, strings) == [], f"{group} is shown but missing"


@pytest.mark.parametrize("name", TEMPLATES)
def test_an_empty_resume_shows_the_title_and_no_headings(name):
    data = render("pdf", Source(html_template=TEMPLATES[name]["html_template"], css=TEMPLATES[name]["css_styles"],
                                title="Blank slate", content={}, visible={}))
    text = layout.read(data).key
    assert "blankslate" in text
    for heading in ("summary", "experience", "education", "skills", "projects", "languages", "references",
                    "present"):
        assert heading not in text


@pytest.mark.parametrize("name", TEMPLATES)
def test_an_entry_longer_than_a_page_stays_on_the_pages(name):
    content = copy.deepcopy(samples.SAMPLES[("en", "short")])
    content["workExperience"][1]["description"] = "\n".join(
        f"Line {i} of a job description that goes on and on." for i in range(90))
    doc = layout.read(render("pdf", source(name, content)))
    assert not layout.missing_strings(doc, samples.content_strings(content))
    assert not layout.glyphs_outside(doc, layout.content_box("A4", "normal"))


@pytest.mark.parametrize("name", TEMPLATES)
def test_each_template_sets_its_own_accent_colour(name):
    assert templating.template_accent(TEMPLATES[name]["css_styles"])


def test_the_manifest_lists_the_new_templates_with_their_ids():
    manifest = {item["name"]: item for item in json.loads((SEED / "manifest.json").read_text(encoding="utf-8"))}
    expected = {"Ledger": ("9d72ab44ec9a2794e3710436", "PROFESSIONAL", "basic"),
                "Plainsight": ("8468cc8690129817985af240", "CLASSIC", "basic"),
                "Jinghua": ("77a2a3a2c3c60b316f908c37", "MODERN", "premium"),
                "Atlas": ("dc508cdab73abc05495dcfaf", "CREATIVE", "premium")}
    for name, (template_id, category, tier) in expected.items():
        item = manifest[name]
        assert (item["id"], item["category"], item["tier"]) == (template_id, category, tier)
        assert (item["html"], item["css"]) == (f"{NEW[name]}.html", f"{NEW[name]}.css")
