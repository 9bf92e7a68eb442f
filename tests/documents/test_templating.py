"""The resume renderer and the shipped templates: content, visibility, escaping, sandbox."""
from __future__ import annotations

import copy
import re

import pytest

from app.content.sections import SECTIONS
from app.documents.templating import (
    TemplateRenderError,
    load_seed_templates,
    month,
    render_document,
    template_accent,
)

pytestmark = pytest.mark.documents  # no database or queue: CI runs these in one pass (.ci/run)

TEMPLATES = load_seed_templates()
TEMPLATE_IDS = [t["name"] for t in TEMPLATES]

FULL = {
    "personalInfo": {
        "name": "Ada Quill", "email": "ada.quill@example.com", "phone": "+44 20 7946 0958",
        "address": "12 Harbour Lane, Bristol",
        "summary": "Backend engineer who likes tidy ledgers.",
        "label": "Ledger whisperer", "url": "https://adaquill.example.net",
        "profiles": [{"network": "Codeberg", "username": "adaq", "url": "https://codeberg.example.org/adaq"}],
    },
    "workExperience": [
        {"company": "Gearbox Ltd", "position": "Staff Engineer", "startDate": "2021-03",
         "endDate": "", "description": "Owned the billing platform end to end.", "location": "Avonmouth",
         "url": "https://gearbox.example.com", "highlights": ["Cut invoice runs to minutes"]},
        {"company": "Loomworks", "position": "Developer", "startDate": "2016-09",
         "endDate": "2021-02", "description": "Shipped the reporting engine."},
    ],
    "education": [
        {"school": "Riverside University", "degree": "MSc Distributed Computing",
         "startDate": "2014-10", "endDate": "2015-07", "studyType": "Taught master", "area": "Consensus algorithms",
         "score": "Distinction", "courses": ["Queueing theory"]},
    ],
    "skills": ["Erlang", "PostgreSQL", "Terraform"],
    "projects": [
        {"id": "p1", "name": "Tallyho", "description": "A double-entry bookkeeping kit.",
         "technologies": ["Rustlang", "SQLite"], "url": "https://tallyho.example.org/kit",
         "startDate": "2019-05", "endDate": "2020-11", "highlights": ["Adopted by 40 shops"]},
    ],
    "skillGroups": [{"name": "Databases", "level": "Seasoned", "keywords": ["Cassandra"]}],
    "languages": [{"language": "Welsh", "fluency": "Conversational"}],
    "certificates": [{"name": "Certified Ledger Auditor", "issuer": "Guild of Auditors", "date": "2019-02",
                      "url": "https://guild.example.org/cla"}],
    "awards": [{"title": "Golden Abacus", "awarder": "Bristol Tech Week", "date": "2022-06",
                "summary": "For the tidiest ledger."}],
    "volunteer": [{"organization": "Harbour Code Club", "position": "Mentor", "url": "https://codeclub.example.org",
                   "startDate": "2018-04", "endDate": "", "summary": "Teaches Scratch on Saturdays.",
                   "highlights": ["Forty pupils a term"]}],
    "publications": [{"name": "Ledgers in Practice", "publisher": "Quay Press", "releaseDate": "2020-08",
                      "url": "https://quay.example.org/ledgers", "summary": "A field guide to double entry."}],
    "interests": [{"name": "Sea kayaking", "keywords": ["Severn bore"]}],
    "references": [{"name": "Grace Tally", "reference": "Ada keeps every promise she makes."}],
    "customSections": [{"id": "c1", "title": "Patents", "items": [
        {"title": "Self-balancing ledger", "subtitle": "GB 1234567", "date": "2021-01",
         "url": "https://patents.example.org/gb1234567", "description": "A ledger that balances itself."}]}],
}
# Every link of FULL: the only addresses a document may name.
LINKS = {"https://tallyho.example.org/kit", "https://adaquill.example.net", "https://codeberg.example.org/adaq",
         "https://gearbox.example.com", "https://guild.example.org/cla", "https://codeclub.example.org",
         "https://quay.example.org/ledgers", "https://patents.example.org/gb1234567"}

# The strings each section contributes to the document, for presence and absence checks.
SECTION_STRINGS = {
    "personalInfo": ["Ada Quill", "ada.quill@example.com", "+44 20 7946 0958",
                     "12 Harbour Lane, Bristol", "Backend engineer who likes tidy ledgers.", "Ledger whisperer",
                     "https://adaquill.example.net", "Codeberg", "https://codeberg.example.org/adaq"],
    "workExperience": ["Gearbox Ltd", "Staff Engineer", "Mar 2021", "Present",
                       "Owned the billing platform end to end.", "Loomworks", "Developer",
                       "Sep 2016", "Feb 2021", "Shipped the reporting engine.", "Avonmouth",
                       "https://gearbox.example.com", "Cut invoice runs to minutes"],
    "education": ["Riverside University", "MSc Distributed Computing", "Oct 2014", "Jul 2015", "Taught master",
                  "Consensus algorithms", "Distinction", "Queueing theory"],
    "skills": ["Erlang", "Terraform", "Databases", "Seasoned", "Cassandra"],
    "projects": ["Tallyho", "A double-entry bookkeeping kit.", "Rustlang", "SQLite",
                 "https://tallyho.example.org/kit", "May 2019", "Nov 2020", "Adopted by 40 shops"],
    "languages": ["Welsh", "Conversational"],
    "certificates": ["Certified Ledger Auditor", "Guild of Auditors", "Feb 2019", "https://guild.example.org/cla"],
    "awards": ["Golden Abacus", "Bristol Tech Week", "Jun 2022", "For the tidiest ledger."],
    "volunteer": ["Harbour Code Club", "Mentor", "https://codeclub.example.org", "Apr 2018", "Present",
                  "Teaches Scratch on Saturdays.", "Forty pupils a term"],
    "publications": ["Ledgers in Practice", "Quay Press", "Aug 2020", "https://quay.example.org/ledgers",
                     "A field guide to double entry."],
    "interests": ["Sea kayaking", "Severn bore"],
    "references": ["Grace Tally", "Ada keeps every promise she makes."],
    "customSections": ["Patents", "Self-balancing ledger", "GB 1234567", "Jan 2021",
                       "https://patents.example.org/gb1234567", "A ledger that balances itself."],
}
# Headings a template may print for a section; an empty section must print none of them.
HEADINGS = ["Experience", "Education", "Skills", "Projects", "Profile", "Summary", "Contact", "Languages",
            "Certificates", "Certifications", "Awards", "Volunteer", "Volunteering", "Publications", "Interests",
            "References"]

XSS = "<script>alert(1)</script>"


def render(template: dict, content: dict, visible: dict | None = None, **kwargs) -> str:
    return render_document(html_template=template["html_template"], css=template["css_styles"],
                           title=kwargs.pop("title", "My resume"), content=content,
                           visible=visible if visible is not None else {}, **kwargs)


def body_of(document: str) -> str:
    return document.split("<body>", 1)[1]


def test_manifest_ships_four_basic_and_four_premium_templates_of_four_categories():
    assert len(TEMPLATES) == 8
    assert sorted(t["tier"] for t in TEMPLATES) == ["basic"] * 4 + ["premium"] * 4
    categories = {t["category"] for t in TEMPLATES}
    assert len(categories) == 4 and "MODERN" in categories
    assert categories <= {"MODERN", "CLASSIC", "CREATIVE", "PROFESSIONAL", "MINIMAL"}
    for t in TEMPLATES:
        assert re.fullmatch(r"[0-9a-f]{24}", t["id"])
        assert t["html_template"].strip() and t["css_styles"].strip()
    assert len({t["id"] for t in TEMPLATES}) == 8


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_full_resume_shows_every_field_of_every_section(template):
    document = render(template, FULL, title="Platform roles 2024")
    assert document.startswith("<!doctype html>")
    assert '<meta charset="utf-8">' in document
    assert "<title>Platform roles 2024</title>" in document
    assert "<style>" in document and template["css_styles"].strip()[:40] in document
    body = body_of(document)
    for strings in SECTION_STRINGS.values():
        for text in strings:
            assert text in body, text


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
@pytest.mark.parametrize("content", [{}, {"personalInfo": {}, "workExperience": [],
                                          "education": [], "skills": [], "projects": []},
                                     {"personalInfo": {"profiles": []}, "skillGroups": [], "languages": [],
                                      "certificates": [], "awards": [], "volunteer": [], "publications": [],
                                      "interests": [], "references": [],
                                      "customSections": [{"title": "Contact", "items": []}],
                                      "sectionOrder": ["references", "skills"]}],
                         ids=["missing-keys", "empty-sections", "empty-new-sections"])
def test_empty_resume_renders_without_section_headings(template, content):
    document = render(template, content, title="Blank slate")
    assert "<title>Blank slate</title>" in document
    visible_text = re.sub(r"<[^>]+>", " ", body_of(document))
    for heading in HEADINGS:
        assert not re.search(rf"\b{heading}\b", visible_text, re.IGNORECASE), heading
    assert "Present" not in visible_text


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
@pytest.mark.parametrize("section", SECTIONS)
def test_hidden_section_is_absent_and_the_others_stay(template, section):
    visible = {s: s != section for s in SECTIONS}
    body = body_of(render(template, FULL, visible))
    others = {t for s, ts in SECTION_STRINGS.items() if s != section for t in ts}
    for text in SECTION_STRINGS[section]:
        if text not in others:  # a date or word shared with a shown section proves nothing
            assert text not in body, text
    for text in others:
        assert text in body, text


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_html_in_user_content_is_escaped(template):
    content = copy.deepcopy(FULL)
    content["personalInfo"]["name"] = XSS
    content["workExperience"][0]["description"] = XSS
    content["skills"].append(XSS)
    content["projects"][0]["highlights"].append(XSS)
    document = render(template, content, title=XSS)
    assert "<script" not in document
    assert document.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 5


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_only_http_project_urls_become_links(template):
    content = copy.deepcopy(FULL)
    content["projects"].append({"name": "Sneaky", "url": "javascript:alert(1)"})
    document = render(template, content)
    assert 'href="https://tallyho.example.org/kit"' in document
    assert "javascript:alert(1)" in document  # shown as text
    assert not re.search(r"""href\s*=\s*["']?\s*javascript:""", document, re.IGNORECASE)


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_document_is_self_contained_apart_from_the_contents_links(template):
    document = render(template, FULL)
    external = re.findall(r"""(?:src|href)\s*=\s*["']?(https?://[^"'\s>]+)""", document, re.I)
    assert set(external) == LINKS
    assert not re.search(r"url\(|@import|<link|<script|<img|<iframe", document, re.IGNORECASE)


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_accent_override_recolours_the_template(template):
    default = render(template, FULL)
    tinted = render(template, FULL, accent="#0d9488")
    assert "#0d9488" not in default
    assert ".accent-text { color: #0d9488 !important; }" in tinted
    assert 'class="' in tinted and "accent-" in body_of(tinted)
    # the appended rules come after the template's own
    assert tinted.index("#0d9488") > tinted.index(template["css_styles"].strip()[-20:])


@pytest.mark.parametrize("accent", ["red;} body{display:none", "#12345g", "url(x)", "</style>"])
def test_an_accent_that_is_not_a_plain_colour_is_refused(accent):
    with pytest.raises(TemplateRenderError):
        render(TEMPLATES[0], FULL, accent=accent)


@pytest.mark.parametrize("probe", [
    "{{ ''.__class__.__mro__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__ }}",
    "{{ content.__class__.__init__.__globals__ }}",
    "{{ config }}{{ request }}{{ self._TemplateReference__context }}",
])
def test_sandbox_refuses_unsafe_template_code(probe):
    try:
        document = render_document(html_template=f"<p>{probe}</p>", css="", title="t",
                                   content=FULL, visible={})
    except TemplateRenderError:
        return
    body = body_of(document)
    assert "class" not in body and "object" not in body and "os" not in body.split()
    assert "<p></p>" in body


def test_sandbox_refuses_mutating_the_content():
    with pytest.raises(TemplateRenderError):
        render_document(html_template="{{ content.skills.append('x') }}", css="", title="t",
                        content=FULL, visible={})


@pytest.mark.parametrize("broken", ["{% if %}", "{{ content.skills | no_such_filter }}",
                                    "{{ 1 / 0 }}", "{% for x in %}{% endfor %}"])
def test_broken_template_raises_template_render_error(broken):
    with pytest.raises(TemplateRenderError):
        render_document(html_template=broken, css="", title="t", content={}, visible={})


def test_missing_keys_render_empty():
    document = render_document(html_template="[{{ content.nothing.deeper }}][{{ nope }}]",
                               css="", title="t", content={}, visible={})
    assert "[][]" in document


def test_title_is_escaped_and_css_cannot_close_the_style_element():
    document = render_document(html_template="", css="p{} </style><script>x</script>",
                               title="A & B <i>", content={}, visible={})
    assert "<title>A &amp; B &lt;i&gt;</title>" in document
    assert document.count("</style>") == 1


@pytest.mark.parametrize(("value", "shown"), [
    ("2021-03", "Mar 2021"), ("1999-12", "Dec 1999"), ("2021-01", "Jan 2021"),
    ("", ""), (None, ""), ("2021", "2021"), ("2021-13", "2021-13"),
])
def test_month_filter_formats_year_month_dates(value, shown):
    assert month(value) == shown


PHOTO = ("data:image/png;base64,"
         "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_photo_is_shown_in_the_header_as_the_data_uri_given(template):
    body = body_of(render(template, FULL, photo=PHOTO))
    assert body.count("<img") == 1
    assert f'<img class="photo" src="{PHOTO}" alt="">' in body
    assert body.index("<img") < body.index("Gearbox Ltd")  # in the header, before the first section
    assert "<img" not in body_of(render(template, FULL, {"personalInfo": False}, photo=PHOTO))


@pytest.mark.parametrize("photo", [
    "https://example.com/me.png",
    "/etc/passwd",
    "data:text/html;base64,PHNjcmlwdD4=",
    "data:image/svg+xml;base64,PHN2Zz4=",
    "data:image/png,raw-not-base64",
    'data:image/png;base64,AAAA" onerror="alert(1)',
    "data:image/png;base64,",
])
def test_a_photo_that_is_not_inline_png_or_jpeg_data_is_refused(photo):
    with pytest.raises(TemplateRenderError):
        render(TEMPLATES[0], FULL, photo=photo)


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_page_options_follow_the_template_css_as_an_at_page_rule(template):
    document = render(template, FULL, accent="#0d9488", page_size="Letter", margin="narrow")
    rule = "@page { size: letter; margin: 10mm; }"
    assert rule in document
    assert document.index(rule) > document.index(".accent-border { border-color: #0d9488")
    assert "@page { size: A4; margin: 16mm; }" in render(template, FULL, margin="normal")
    assert "page options" not in render(template, FULL)


@pytest.mark.parametrize(("page_size", "margin"), [("A3", None), (None, "huge"), ("letter;}", "wide")])
def test_unknown_page_options_are_refused(page_size, margin):
    with pytest.raises(TemplateRenderError):
        render(TEMPLATES[0], FULL, page_size=page_size, margin=margin)


def test_template_accent_reads_each_templates_own_colour():
    assert [template_accent(t["css_styles"]) for t in TEMPLATES] == [
        "#2563eb", "#7a1f2b", "#0f4c81", "#e4572e", "#1f3a5f", "#2f4f4f", "#b4232a", "#264653"]
    assert template_accent(".accent-text { color: url(x); }") is None
    assert template_accent("p { color: red; }") is None
