"""Issue 15's sections in DOCX and TXT: every string of every section, in the resume's sectionOrder.

Read back as a reader gets them: the DOCX body's paragraphs with python-docx, the TXT as text. A
two-column design keeps its sidebar's sections there (before the main column, each column in
sectionOrder); hidden and empty sections print nothing.
"""
from __future__ import annotations

import copy
import io

import docx
import pytest
from docx.oxml.ns import qn

from tests.documents.every_section import EVERY_SECTION, body_strings, section_strings

from app.content import normalise
from app.documents import templating
from app.documents import Source, render
from app.documents.docx import profiles as docx_profiles

pytestmark = pytest.mark.documents  # no database or queue: CI runs these in one pass (.ci/run)

TEMPLATES = templating.load_seed_templates()
BY_NAME = {t["name"]: t for t in TEMPLATES}
IDS = [t["name"] for t in TEMPLATES]
NEW_SECTIONS = ("languages", "certificates", "awards", "volunteer", "publications", "interests", "references",
                "customSections")


def source(template: dict, content=EVERY_SECTION, visible=None) -> Source:
    return Source(html_template=template["html_template"], css=template["css_styles"], title="My resume",
                  content=content, visible=visible or {})


def read_docx(template: dict, content=EVERY_SECTION, visible=None):
    return docx.Document(io.BytesIO(render("docx", source(template, content, visible))))


def docx_text(template: dict, content=EVERY_SECTION, visible=None) -> str:
    paragraphs = read_docx(template, content, visible).paragraphs
    return "\n".join(p.text for p in paragraphs).replace("\u00a0", " ")


def txt(template: dict, content=EVERY_SECTION, visible=None) -> str:
    return render("txt", source(template, content, visible)).decode("utf-8")


def docx_order(template: dict, sections: list[str]) -> list[str]:
    """The sections in the order the DOCX shows them: a two-column design's sidebar ones first."""
    profile = docx_profiles.profile_for(template["html_template"], template["css_styles"])
    if profile.layout != "columns":
        return sections
    side = [key for key in sections if key in profile.sidebar]
    return side + [key for key in sections if key not in side]


def assert_in_order(text: str, groups: list[tuple[str, list[str]]]) -> None:
    """Every string is in ``text`` (case aside: headings may be capitals), and each group's strings
    all come after the previous group's."""
    text = " ".join(text.lower().split())
    spans = []
    for name, strings in groups:
        positions = {s: text.find(" ".join(s.lower().split())) for s in strings}
        assert [s for s, at in positions.items() if at < 0] == [], (name, text)
        spans.append((name, min(positions.values()), max(positions.values())))
    for (before, _, end), (after, start, _) in zip(spans, spans[1:]):
        assert end < start, f"{before} runs into {after}"


# --- every string, in sectionOrder ----------------------------------------------------------------
@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_every_string_of_every_section_is_in_the_docx_in_section_order(template):
    groups = dict(body_strings(EVERY_SECTION))
    assert list(groups) == EVERY_SECTION["sectionOrder"]          # the sample shows every section
    assert_in_order(docx_text(template), [(key, groups[key]) for key in docx_order(template, list(groups))])


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_every_string_of_every_section_is_in_the_txt_in_section_order(template):
    assert_in_order(txt(template), body_strings(EVERY_SECTION))


@pytest.mark.parametrize("fmt", ["docx", "txt"])
@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_the_header_shows_the_label_website_and_profiles(template, fmt):
    text = docx_text(template) if fmt == "docx" else txt(template)
    personal = EVERY_SECTION["personalInfo"]
    for value in ("Senior Data Engineer", "https://marguerite.example.org", "GitHub", "mfinch",
                  "https://github.example.com/mfinch", "Mastodon", "mfinch@social", personal["email"]):
        assert value in text
    assert text.index("Senior Data Engineer") < text.index("Talks".upper() if fmt == "txt" else "Talks")


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_the_default_order_applies_to_a_resume_without_one(template):
    content = {key: value for key, value in EVERY_SECTION.items() if key != "sectionOrder"}
    default = list(normalise.normalise_content(content)["sectionOrder"])
    groups = dict(body_strings(content))
    assert_in_order(docx_text(template, content), [(key, groups[key]) for key in docx_order(template, default)])
    assert_in_order(txt(template, content), [(key, groups[key]) for key in default])


# --- visibility and empty sections ------------------------------------------------------------------
HIDDEN = {"awards": False, "customSections": False, "skills": False, "interests": False}


@pytest.mark.parametrize("fmt", ["docx", "txt"])
@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_hidden_sections_are_absent(template, fmt):
    text = (docx_text(template, visible=HIDDEN) if fmt == "docx" else txt(template, visible=HIDDEN)).lower()
    for key in HIDDEN:
        for value in section_strings(EVERY_SECTION, key):
            assert value.lower() not in text, (key, value)
    for key in ("languages", "certificates", "volunteer", "publications", "references"):
        for value in section_strings(EVERY_SECTION, key):
            assert value.lower() in text, (key, value)


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_empty_new_sections_print_no_heading(template):
    content = {"personalInfo": {"name": "Only A. Name"}, "languages": [], "awards": [], "skillGroups": [],
               "customSections": [{"id": "c1", "title": "Talks", "items": []}],
               "sectionOrder": ["references", "awards"]}
    headings = [p.text for p in read_docx(template, content).paragraphs if p.style.name.startswith("Heading")]
    assert headings == []
    assert txt(template, content).strip() == "Only A. Name\n============"


# --- the designs keep their look ----------------------------------------------------------------------
def test_each_custom_section_is_a_heading_and_its_items_entries():
    content = copy.deepcopy(EVERY_SECTION)
    content["customSections"].append({"id": "x", "title": "", "items": [{"title": "Untitled item"}]})
    document = read_docx(BY_NAME["Horizon"], content)
    styled = [(p.style.name, p.text) for p in document.paragraphs]
    assert ("Heading 1", "Talks") in styled and ("Heading 2", "Lineage at Scale — PyData Amsterdam") in styled
    assert ("Heading 2", "Untitled item") in styled
    headings = [t for s, t in styled if s == "Heading 1"]
    assert headings == ["Profile", "Talks", "References", "Skills", "Experience", "Interests", "Publications",
                        "Volunteering", "Awards", "Certificates", "Languages", "Projects", "Education"]


def test_horizon_shows_skill_groups_as_labelled_outlined_chips():
    document = read_docx(BY_NAME["Horizon"])
    texts = [p.text for p in document.paragraphs]
    label = texts.index("Databases (Expert)")
    chips = [r for r in document.paragraphs[label + 1].runs if r.text.strip()]
    assert [r.text.strip() for r in chips] == ["PostgreSQL", "ClickHouse"]
    assert all(r._r.rPr.find(qn("w:bdr")) is not None for r in chips)
    plain = [r.text.strip() for r in document.paragraphs[label + 2].runs if r.text.strip()]
    assert plain == ["Kafka\u00a0Streams", "dbt"]


def test_heritage_leads_with_the_organisation_where_it_has_one():
    document = read_docx(BY_NAME["Heritage"])
    heads = [p.text for p in document.paragraphs if p.style.name == "Heading 2"]
    assert "Code Club Amsterdam — https://codeclub.example.nl\tJan 2016 – Dec 2018" in heads   # organisation
    assert "Certified Kafka Developer — https://certs.example.com/kafka\tJun 2020" in heads   # the name leads
    assert "Delft University of Technology\tSep 2012 – Jul 2014" in heads
    texts = [p.text for p in document.paragraphs]
    assert "Databases (Expert): PostgreSQL, ClickHouse" in texts
    assert "Master, Data Systems · Score: 8.4/10" in texts


@pytest.mark.parametrize("name", ["Meridian", "Atlas"])
def test_two_column_designs_keep_the_templates_sidebar_sections(name):
    template = BY_NAME[name]
    side = docx_profiles.template_sidebar(template["html_template"])        # the template's side_keys
    titles = dict(docx_profiles.template_sections(template["html_template"]))
    document = read_docx(template)
    framed = [p for p in document.paragraphs
              if p._p.pPr is not None and p._p.pPr.find(qn("w:framePr")) is not None]
    # The sidebar: the contact block where the design has it, then its sections in the resume's order.
    assert [p.text for p in framed if p.style.name == "Sidebar Heading"] == (
        (["Contact"] if name == "Meridian" else [])
        + [titles[key] for key in EVERY_SECTION["sectionOrder"] if key in side])
    framed_text = "\n".join(p.text for p in framed).replace("\u00a0", " ")
    main_text = "\n".join(p.text for p in document.paragraphs if p not in framed).replace("\u00a0", " ")
    for key in EVERY_SECTION["sectionOrder"]:
        strings = section_strings(EVERY_SECTION, key)
        column = framed_text if key in side else main_text
        assert [s for s in strings if s not in column] == [], key
    # The main column's headings: the other sections in the resume's order (each custom section its own).
    main = [p.text for p in document.paragraphs if p.style.name == "Heading 1"]
    expected = [titles[key] if key != "customSections" else "Talks"
                for key in EVERY_SECTION["sectionOrder"] if key not in side]
    assert main[-len(expected):] == expected


def test_canvas_hangs_the_new_sections_dates_in_its_timeline():
    document = read_docx(BY_NAME["Canvas"])
    heads = [p.text for p in document.paragraphs if p.style.name == "Heading 2"]
    assert "Mar 2022\tData Team of the Year" in heads and "Oct 2021\tBackfills Without Tears" in heads
    assert "May 2023\tLineage at Scale" in heads


# --- TXT's layout of the new sections -----------------------------------------------------------------
def test_txt_lays_out_the_new_sections_plainly():
    content = {key: EVERY_SECTION[key] for key in ("personalInfo", "languages", "certificates", "interests",
                                                   "references", "customSections", "skills", "skillGroups")}
    content = {**content, "personalInfo": {**content["personalInfo"], "summary": ""},
               "sectionOrder": ["skills", "languages", "certificates", "interests", "references", "customSections"]}
    assert txt(TEMPLATES[0], content) == (
        "Marguerite Oyelaran-Finch\n"
        "=========================\n"
        "Senior Data Engineer\n"
        "marguerite@example.org | +31 20 555 0188 | Keizersgracht 212, 1016 DX Amsterdam, NL"
        " | https://marguerite.example.org | GitHub: mfinch (https://github.example.com/mfinch)"
        " | Mastodon: mfinch@social\n"
        "\n"
        "SKILLS\n"
        "------\n"
        "Databases (Expert): PostgreSQL, ClickHouse\n"
        "Kafka Streams, dbt\n"
        "\n"
        "LANGUAGES\n"
        "---------\n"
        "Dutch — Native\n"
        "Yoruba — Conversational\n"
        "\n"
        "CERTIFICATES\n"
        "------------\n"
        "Certified Kafka Developer, Confluent Academy\n"
        "Jun 2020\n"
        "https://certs.example.com/kafka\n"
        "\n"
        "INTERESTS\n"
        "---------\n"
        "Sailing: Dinghies, Tide tables\n"
        "\n"
        "REFERENCES\n"
        "----------\n"
        "Pieter Vandersloot\n"
        "Marguerite made our data boring, in a good way.\n"
        "\n"
        "TALKS\n"
        "-----\n"
        "Lineage at Scale, PyData Amsterdam\n"
        "May 2023\n"
        "https://pydata.example.com/lineage\n"
        "A talk on column-level lineage.\n"
    )


def test_txt_shows_education_details_and_work_highlights():
    text = txt(TEMPLATES[0], {"workExperience": EVERY_SECTION["workExperience"][:1],
                              "education": EVERY_SECTION["education"]})
    assert (
        "EXPERIENCE\n"
        "----------\n"
        "Lead Pipeline Engineer, Tidewater Analytics\n"
        "Apr 2019 – Present\n"
        "Rotterdam\n"
        "https://tidewater.example.com\n"
        "- Ran the ingestion platform.\n"
        "- Cut reprocessing cost by a third\n"
        "\n"
        "EDUCATION\n"
        "---------\n"
        "MSc Computer Science, Delft University of Technology\n"
        "Sep 2012 – Jul 2014\n"
        "Master, Data Systems\n"
        "Score: 8.4/10\n"
        "Courses: Distributed Algorithms, Stream Processing\n"
    ) in text
