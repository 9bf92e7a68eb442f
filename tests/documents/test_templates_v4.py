"""Templates v4: every template renders every section of issue 15's model, in the resume's order.

The layout matrix (``test_layout.py``) checks the shipped templates on the samples, whose long forms
carry every section in the default order. Here: a resume's ``sectionOrder`` orders the sections (a
two-column design keeps each section in its column and orders each column), in the HTML and in the
PDF's text layer; custom sections each show their own title, in list order, at their key's place;
skill groups come before the plain skills; the template contract; and the migration that ships v4.
"""
from __future__ import annotations

import copy
import html
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.documents import layout, samples
from tests.documents.test_layout import _expected_order, _listed

from app.content import normalise, sections
from app.documents import templating
from app.documents import Options, Source, html_document, render

SEEDS = Path(__file__).resolve().parents[2] / "migrations" / "seed"
TEMPLATES = {t["name"]: t for t in templating.load_seed_templates()}
# The sidebar's sections of the two-column designs; the others are in the main column.
SIDEBAR = {"Meridian": {"skills"}, "Atlas": {"skills"}}
LONG = samples.SAMPLES[("en", "long")]
REVERSED = list(reversed(sections.BODY_SECTIONS))
V3, V4 = "c1d2e3f4a5b6", "d4e5f6a7b8c9"  # V3: the revision before v4 (templates still at v3)


def html_of(name: str, content: dict, visible: dict | None = None) -> str:
    template = TEMPLATES[name]
    return templating.render_document(html_template=template["html_template"], css=template["css_styles"],
                                      title="Resume", content=content, visible=visible or {})


def _unique(groups: dict[str, list[str]], group: str) -> list[str]:
    """The group's strings that no other group's strings contain."""
    others = [layout.key(s) for other, strings in groups.items() if other != group for s in strings]
    return [s for s in groups[group] if not any(layout.key(s) in o for o in others)]


def body_order(html: str, content: dict) -> list[str]:
    """The body sections in the order the HTML shows them (by the first of their unique strings)."""
    groups = samples.section_strings(content)
    text_key = layout.key(html.split("<body>", 1)[1])
    first = {}
    for group in sections.BODY_SECTIONS:
        found = [text_key.find(layout.key(s)) for s in _unique(groups, group)]
        found = [position for position in found if position >= 0]
        if found:
            first[group] = min(found)
    return sorted(first, key=first.get)


def expected_order(name: str, order: list[str]) -> list[str]:
    """``order`` as the design shows it: one column in order; two columns, the sidebar's sections first."""
    side = SIDEBAR.get(name, set())
    return [key for key in order if key in side] + [key for key in order if key not in side]


# --- the order of the sections ---------------------------------------------------------------------

@pytest.mark.parametrize("order", [list(sections.BODY_SECTIONS), REVERSED,
                                   ["publications", "skills", "customSections", "workExperience"]],
                         ids=["default", "reversed", "partial"])
@pytest.mark.parametrize("name", TEMPLATES)
def test_the_sections_come_in_the_resumes_order(name, order):
    content = {**LONG, "sectionOrder": order}
    shown = body_order(html_of(name, content), content)
    assert shown == expected_order(name, normalise.section_order(content))


@pytest.mark.parametrize("name", TEMPLATES)
def test_without_a_section_order_the_sections_come_in_the_default_order(name):
    content = {k: v for k, v in LONG.items() if k != "sectionOrder"}
    assert body_order(html_of(name, content), content) == expected_order(name, list(sections.BODY_SECTIONS))


@pytest.mark.documents
@pytest.mark.parametrize("name", TEMPLATES)
def test_the_pdf_reads_the_sections_in_the_resumes_order(name):
    content = {**LONG, "sectionOrder": REVERSED}
    template = TEMPLATES[name]
    source = Source(template["html_template"], template["css_styles"], "Resume", content, {})
    doc = layout.read(render("pdf", source, Options()))
    groups = samples.section_strings(content)
    expected = _expected_order(html_document(source, Options(), None), groups)
    assert expected == ["personal", "summary", *expected_order(name, REVERSED)]
    problems = layout.order_problems(doc, groups, expected)
    assert not problems, f"reading order: {_listed(problems)}"
    assert not layout.missing_strings(doc, samples.content_strings(content))


# --- what each section shows -----------------------------------------------------------------------

@pytest.mark.parametrize("name", TEMPLATES)
def test_each_custom_section_shows_its_own_title_in_list_order(name):
    content = {"customSections": [
        {"id": "a", "title": "Speaking engagements", "items": [{"title": "Keeping ledgers honest"}]},
        {"id": "b", "title": "Unfinished business", "items": []},
        {"id": "c", "title": "Patent filings", "items": [{"title": "Self-balancing ledger", "date": "2021-01"}]}],
        "languages": [{"language": "Welsh"}], "sectionOrder": ["languages", "customSections"]}
    body = html_of(name, content).split("<body>", 1)[1]
    positions = [body.find(s) for s in ("Welsh", "Speaking engagements", "Keeping ledgers honest",
                                        "Patent filings", "Self-balancing ledger")]
    assert -1 not in positions and positions == sorted(positions)
    assert "Jan 2021" in body
    assert "Unfinished business" not in body  # a custom section without items prints nothing


@pytest.mark.parametrize("name", TEMPLATES)
def test_skill_groups_come_first_in_the_skills_section(name):
    content = {"skillGroups": [{"name": "Databases", "level": "Seasoned", "keywords": ["Cassandra", "Druid"]}],
               "skills": ["Erlang"]}
    body = html_of(name, content).split("<body>", 1)[1]
    positions = [body.find(s) for s in ("Databases", "Seasoned", "Cassandra", "Druid", "Erlang")]
    assert -1 not in positions and positions == sorted(positions)
    assert body.count("Skills") == 1
    # Skill groups alone make a skills section; hidden, neither shows.
    assert "Cassandra" in html_of(name, {"skillGroups": content["skillGroups"]})
    assert "Cassandra" not in html_of(name, content, {"skills": False})
    assert "Erlang" not in html_of(name, content, {"skills": False})


@pytest.mark.parametrize("name", TEMPLATES)
def test_an_old_resume_renders_as_it_did_apart_from_the_default_order(name):
    old = {k: v for k, v in samples.SAMPLES[("en", "short")].items() if k != "languages"}
    old["workExperience"] = [{k: v for k, v in job.items() if k != "location"} for job in old["workExperience"]]
    body = html.unescape(html_of(name, old).split("<body>", 1)[1])
    for string in samples.content_strings(old):
        assert layout.key(string) in layout.key(body), string
    for heading in ("Languages", "Certificates", "Awards", "Publications", "Interests", "References"):
        assert heading not in body


@pytest.mark.parametrize("name", TEMPLATES)
def test_only_web_urls_of_the_new_fields_become_links(name):
    content = copy.deepcopy(LONG)
    content["certificates"][0]["url"] = "javascript:alert(1)"
    content["personalInfo"]["profiles"][0]["url"] = "ftp://example.org/me"
    document = html_of(name, content)
    assert "javascript:alert(1)" in document and 'href="javascript' not in document
    assert 'href="ftp:' not in document


# --- the template contract and the migration -------------------------------------------------------

def test_v4_templates_keep_the_template_contract():
    v3 = {t["id"]: t for t in templating.load_seed_templates(SEEDS / "templates_v3")}
    v4 = templating.load_seed_templates(SEEDS / "templates_v4")
    assert [t["id"] for t in v4] == list(v3) and templating.SEED_DIR == SEEDS / "templates_v6"
    for t in v4:
        html, css = t["html_template"], t["css_styles"]
        assert (html, css) != (v3[t["id"]]["html_template"], v3[t["id"]]["css_styles"])
        assert '<img class="photo" src="{{ photo }}" alt="">' in html and ".photo {" in css
        assert all(f".{cls} {{" in css for cls in ("accent-text", "accent-bg", "accent-border"))
        assert templating.template_accent(css) == templating.template_accent(v3[t["id"]]["css_styles"])
        assert "for key in shown" in html or "shown | select" in html  # follows the resume's order
        if t["name"] != "Jinghua":  # Jinghua's headings are Chinese; the others keep the built-in fonts
            html.encode("cp1252"), css.encode("cp1252")


def _seed_rows(folder: str) -> dict:
    return {t["id"]: (t["name"], t["html_template"], t["css_styles"])
            for t in templating.load_seed_templates(SEEDS / folder)}


def test_migration_brings_every_template_to_v4_and_back(make_app, tmp_path):
    from flask_migrate import downgrade, upgrade

    from app.extensions import db

    v3, v4 = _seed_rows("templates_v3"), _seed_rows("templates_v4")
    assert set(v3) == set(v4) and all(v3[i] != v4[i] for i in v3)

    def stored():
        rows = db.session.execute(text("SELECT id, name, html_template, css_styles FROM templates")).all()
        db.session.rollback()
        return {row.id: (row.name, row.html_template, row.css_styles) for row in rows}

    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'templates.db'}", REDIS_URL=None)
    with app.app_context():
        upgrade(revision=V4)
        assert stored() == v4
        downgrade(revision=V3)
        assert stored() == v3
        upgrade(revision=V4)
        assert stored() == v4
        db.engine.dispose()
