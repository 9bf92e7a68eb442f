"""Resume exports: each format opened by a real reader; fonts, page, colours, photo, resources."""
from __future__ import annotations

import copy
import http.server
import io
import re
import sys
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

import docx
import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from sqlalchemy import text
from xhtml2pdf import pisa
from xhtml2pdf.config.resources import PERMISSIVE_POLICY

from app import documents
from app.content import sections
from app.documents import templating
from app.documents import (
    ACCENTS,
    DocumentError,
    Options,
    Photo,
    Source,
    pdf as pdf_module,
    render,
)
from app.documents.fonts import cuts, faces, scripts
from tests.support import serving

# No queue, and the migration test's database is a SQLite file of its own: CI runs these in one pass (.ci/run).
pytestmark = pytest.mark.documents

TEMPLATES = templating.load_seed_templates()
TEMPLATE_IDS = [t["name"] for t in TEMPLATES]
SEEDS = Path(__file__).resolve().parents[2] / "migrations" / "seed"

FULL = {
    "personalInfo": {
        "name": "Ada Quill", "email": "ada.quill@example.com", "phone": "+44 20 7946 0958",
        "address": "12 Harbour Lane, Bristol", "summary": "Backend engineer who likes tidy ledgers.",
    },
    "workExperience": [
        {"company": "Gearbox Ltd", "position": "Staff Engineer", "startDate": "2021-03", "endDate": "",
         "description": "Owned the billing platform.\nCut the invoice run to 40 minutes."},
        {"company": "Loomworks", "position": "Developer", "startDate": "2016-09", "endDate": "2021-02",
         "description": "Shipped the reporting engine."},
    ],
    "education": [{"school": "Riverside University", "degree": "MSc Distributed Computing",
                   "startDate": "2014-10", "endDate": "2015-07"}],
    "skills": ["Erlang", "PostgreSQL", "Terraform"],
    "projects": [{"id": "p1", "name": "Tallyho", "description": "A double-entry bookkeeping kit.",
                  "technologies": ["Rustlang", "SQLite"], "url": "https://tallyho.example.org/kit",
                  "startDate": "2019-05", "endDate": "2020-11", "highlights": ["Adopted by 40 shops"]}],
}
# Distinctive words of each section (found in every format, whatever the layout or line breaks).
SECTION_WORDS = {
    "personalInfo": ["Ada Quill", "ada.quill@example.com", "Harbour Lane", "tidy ledgers"],
    "workExperience": ["Gearbox Ltd", "Staff Engineer", "Loomworks", "billing platform", "Sep 2016"],
    "education": ["Riverside University", "Distributed Computing", "Oct 2014"],
    "skills": ["Erlang", "Terraform"],
    "projects": ["Tallyho", "bookkeeping kit", "Rustlang", "Adopted by 40 shops", "May 2019"],
}
CHINESE = copy.deepcopy(FULL)
CHINESE["personalInfo"].update(name="张伟", summary="软件工程师, café, Grüße, Łódź.")
CHINESE["workExperience"][0].update(position="软件工程师", company="Café Müller")
CHINESE_WORDS = ["张伟", "软件工程师", "Café Müller", "Grüße", "Łódź"]
FORMATS = documents.DOCUMENT_FORMATS     # the drawings; "json" is the data (tests/content/test_jsonresume.py)


def source(template: dict, content: dict | None = FULL, visible: dict | None = None, title: str = "My resume"):
    return Source(html_template=template["html_template"], css=template["css_styles"], title=title,
                  content=content, visible=visible or {})


def photo(media_type: str = "image/png", size=(40, 50)) -> Photo:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(out, format="PNG" if media_type == "image/png" else "JPEG")
    return Photo(data=out.getvalue(), media_type=media_type)


def pdf_text(data: bytes) -> str:
    """The text of every page, whitespace (and so where lines break) collapsed to single spaces."""
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def pdf_fonts(data: bytes) -> list:
    return [font.get_object() for page in PdfReader(io.BytesIO(data)).pages
            for font in page["/Resources"]["/Font"].values()]


def pdf_images(data: bytes) -> list:
    images = []
    for page in PdfReader(io.BytesIO(data)).pages:
        xobjects = page["/Resources"].get("/XObject", {})
        images += [x for x in (o.get_object() for o in xobjects.values()) if x["/Subtype"] == "/Image"]
    return images


def pdf_left_edge(data: bytes) -> float:
    """Where the first page's leftmost character starts, in points."""
    page = pypdfium2.PdfDocument(data)[0]
    chars = page.get_textpage()
    return min(chars.get_charbox(i)[0] for i in range(chars.count_chars()) if chars.get_text_range(i, 1).strip())


def docx_text(data: bytes) -> str:
    return "\n".join(p.text for p in docx.Document(io.BytesIO(data)).paragraphs)


def text_of(fmt: str, data: bytes) -> str:
    """What a reader of the document sees as its text, lower-cased (templates upper-case some of it)."""
    if fmt == "pdf":
        return pdf_text(data).lower()
    if fmt == "docx":
        return docx_text(data).lower()
    if fmt == "html":
        return html_text(data.decode("utf-8")).lower()
    return data.decode("utf-8").lower()


class _HtmlReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.styles: list[str] = []
        self._in_body = self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_body |= tag == "body"
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False if tag == "style" else self._in_style

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)
        elif self._in_body:
            self.text.append(data)


def read_html(document: str) -> _HtmlReader:
    reader = _HtmlReader()
    reader.feed(document)
    reader.close()
    return reader


def html_text(document: str) -> str:
    return " ".join(" ".join(read_html(document).text).split())


# --- the interface ---------------------------------------------------------------------------------

def test_formats_media_types_and_options_are_the_contracts():
    assert FORMATS == ("pdf", "docx", "html", "txt")
    assert documents.FORMATS == (*FORMATS, "json")
    assert documents.MEDIA_TYPES == {
        "pdf": "application/pdf",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "html": "text/html; charset=utf-8", "txt": "text/plain; charset=utf-8", "json": "application/json"}
    assert documents.EXTENSIONS == {"pdf": ".pdf", "docx": ".docx", "html": ".html", "txt": ".txt",
                                    "json": ".json"}
    assert documents.PAGE_SIZES == ("A4", "Letter")
    assert documents.MARGINS == ("narrow", "normal", "wide")
    assert documents.COLOR_SCHEMES == ("default", "blue", "green", "gray")
    assert set(ACCENTS) == {"blue", "green", "gray"}
    assert Options() == Options(page_size="A4", margin="normal", color_scheme="default")


@pytest.mark.parametrize(("fmt", "options", "picture"), [
    ("rtf", Options(), None),
    ("pdf", Options(page_size="A3"), None),
    ("docx", Options(margin="tiny"), None),
    ("html", Options(color_scheme="pink"), None),
    ("html", Options(), Photo(data=b"GIF89a", media_type="image/gif")),
])
def test_an_unknown_format_or_option_is_a_caller_bug(fmt, options, picture):
    with pytest.raises(ValueError):
        render(fmt, source(TEMPLATES[0]), options, picture)


# --- every format, every template ------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_full_resume_shows_every_section_in_every_format(template, fmt):
    data = render(fmt, source(template))
    seen = text_of(fmt, data)
    for words in SECTION_WORDS.values():
        for word in words:
            assert word.lower() in seen, word


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
@pytest.mark.parametrize("content", [None, {}, {"personalInfo": {}, "workExperience": [], "education": [],
                                                "skills": [], "projects": []}])
def test_empty_resume_renders_in_every_format(template, fmt, content):
    data = render(fmt, source(template, content, title="Blank slate"))
    seen = text_of(fmt, data)
    assert "blank slate" in seen  # the title stands in for the missing name
    for heading in ("experience", "education", "skills", "projects", "present"):
        assert heading not in seen


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("section", SECTION_WORDS)  # the sections FULL has (issue 15's: test_sections*.py)
@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_hidden_section_is_absent_from_every_format(template, section, fmt):
    visible = {s: s != section for s in sections.SECTIONS}
    seen = text_of(fmt, render(fmt, source(template, visible=visible)))
    for word in SECTION_WORDS[section]:
        assert word.lower() not in seen, word
    for other, words in SECTION_WORDS.items():
        if other != section:
            for word in words:
                assert word.lower() in seen, word


# --- PDF -----------------------------------------------------------------------------------------

def fonts_of_text(data: bytes, wanted: str) -> set[str]:
    """The names of the fonts each occurrence of ``wanted`` in the text layer is drawn in (pdfium)."""
    names = set()
    wanted = "".join(wanted.split())
    for page in pypdfium2.PdfDocument(data):
        text = page.get_textpage()
        chars = [(i, text.get_text_range(i, 1)) for i in range(text.count_chars())]
        chars = [(i, c) for i, c in chars if c and not c.isspace()]
        seen = "".join(c for _, c in chars)
        start = seen.find(wanted)
        while start >= 0:
            for index, _ in chars[start:start + len(wanted)]:
                buffer = bytes(256)
                flags = pypdfium2.raw.c_int()
                length = pypdfium2.raw.FPDFText_GetFontInfo(text.raw, index, buffer, len(buffer), flags)
                names.add(buffer[:max(0, length - 1)].decode("utf-8", "replace"))
            start = seen.find(wanted, start + 1)
    return names


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_pdf_draws_chinese_in_noto_sans_cjk_and_keeps_latin_in_the_templates_fonts(template):
    data = render("pdf", source(template, CHINESE))
    seen = pdf_text(data)
    for word in CHINESE_WORDS:
        assert word in seen, word
    embedded = [f["/BaseFont"] for f in pdf_fonts(data) if "/FontDescriptor" in f]
    assert embedded and all("Noto" in name for name in embedded), embedded
    # CJK characters in the fallback face; the Latin e-mail address in a built-in face of the template.
    assert all("NotoSansCJK" in name for name in fonts_of_text(data, "王小明"))
    latin = fonts_of_text(data, "ada.quill@example.com")
    assert latin and not any("NotoSansCJK" in name for name in latin), latin


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_chinese_takes_the_weight_of_the_latin_text_in_its_place(template):
    content = copy.deepcopy(FULL)
    content["personalInfo"]["name"] = "张伟"
    content["workExperience"][0]["position"] = "首席工程师"
    latin = render("pdf", source(template, FULL))
    chinese = render("pdf", source(template, content))
    for latin_text, chinese_text in (("Ada Quill", "张伟"), ("Staff Engineer", "首席工程师")):
        latin_bold = any("Bold" in name for name in fonts_of_text(latin, latin_text))
        faces = fonts_of_text(chinese, chinese_text)
        assert faces and all("NotoSansCJK" in name for name in faces), faces
        assert all(("Bold" in name) == latin_bold for name in faces), (latin_text, latin_bold, faces)


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_pdf_of_windows_1252_text_keeps_the_templates_fonts(template):
    content = copy.deepcopy(FULL)
    content["personalInfo"]["name"] = "Zoë Brontë – café €"
    data = render("pdf", source(template, content))
    assert "Zoë Brontë – café €" in pdf_text(data)
    drawn_in = fonts_of_text(data, "Zoë Brontë – café €")
    assert drawn_in and not any("Noto" in name for name in drawn_in), drawn_in  # the built-in faces draw them
    if not scripts.mark_runs(documents.html_document(source(template), Options(), None))[1].kinds:
        # a template with no text of its own beyond Windows-1252 embeds nothing
        assert not [f for f in pdf_fonts(data) if "/FontDescriptor" in f]


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_a_polish_word_is_set_whole_in_a_latin_fallback_of_the_templates_kind(template):
    content = copy.deepcopy(FULL)
    content["skills"].append("Łukasz toolkit")
    data = render("pdf", source(template, content))
    assert "Łukasz" in pdf_text(data)
    serif = faces.serif_template(documents.html_document(source(template), Options(), None))
    drawn_in = fonts_of_text(data, "Łukasz")
    assert drawn_in and all(("NotoSerif" if serif else "NotoSans-") in name for name in drawn_in), drawn_in
    assert not any("Noto" in name for name in fonts_of_text(data, "Terraform"))


def test_fallback_faces_are_not_kept_by_the_process_after_their_document():
    """Each document's faces are cut to it: kept registered, they would pile up in a long-lived worker."""
    def registered() -> list[str]:
        return sorted(n for n in pdfmetrics.getRegisteredFontNames() if "noto" in n.lower())

    before = registered()
    render("pdf", source(TEMPLATES[0], CHINESE))
    render("pdf", source(TEMPLATES[1], CHINESE))
    assert registered() == before


@pytest.mark.parametrize(("page_size", "box"), [("A4", (595.28, 841.89)), ("Letter", (612.0, 792.0))])
@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_pdf_page_size_follows_the_option(template, page_size, box):
    reader = PdfReader(io.BytesIO(render("pdf", source(template), Options(page_size=page_size))))
    for page in reader.pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == box


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_pdf_margins_follow_the_option(template):
    narrow, normal, wide = (pdf_left_edge(render("pdf", source(template), Options(margin=m)))
                            for m in ("narrow", "normal", "wide"))
    mm = 72 / 25.4
    assert narrow < normal < wide
    assert wide - narrow == pytest.approx((25 - 10) * mm, abs=1)


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_pdf_text_is_selectable_and_dates_read_as_in_the_html(template):
    seen = pdf_text(render("pdf", source(template))).lower()
    assert "mar 2021 – present" in seen and "sep 2016 – feb 2021" in seen


def test_a_template_xhtml2pdf_cannot_lay_out_raises_document_error():
    # page-break-inside: avoid inside a table cell makes xhtml2pdf crash in its build (the reason
    # templates_v2 dropped it from Meridian).
    broken = {"html_template": '<table><tr><td><div style="page-break-inside: avoid"><table><tr><td>x'
                               "</td></tr></table></div></td></tr></table>", "css_styles": ""}
    with pytest.raises(DocumentError):
        render("pdf", source(broken))


@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_a_broken_template_raises_document_error(fmt):
    with pytest.raises(DocumentError):
        render(fmt, source({"html_template": "{% if %}", "css_styles": ""}))


# --- resources the PDF renderer may read ---------------------------------------------------------

@pytest.mark.parametrize(("uri", "allowed"), [
    ("{cut}", True),
    ("{dir}/{cut}", True),
    ("file://{dir}/{cut}", True),
    ("data:image/png;base64,iVBORw0KGgo=", True),
    ("data:image/jpeg;base64,/9j/4AAQ", True),
    ("http://127.0.0.1:8000/x.png", False),
    ("https://example.com/font.ttf", False),
    ("//example.com/font.ttf", False),
    ("file:///etc/passwd", False),
    ("/etc/passwd", False),
    ("../../../../../../etc/passwd", False),
    ("fonts/../../../../config.py", False),
    ("file://example.com/{cut}", False),
    ("NotoSansCJKSC-Regular-0000000000.ttf", False),  # a cut that does not exist
    ("data:text/html;base64,PHNjcmlwdD4=", False),
    ("data:image/svg+xml,%3Csvg%3E", False),
    ("data:image/png,raw", False),
    ("ftp://example.com/x", False),
    ("", False),
])
def test_link_callback_allows_only_the_font_cuts_and_image_data(uri, allowed):
    cut = cuts.cut(cuts.face(cuts.SANS, False), frozenset(map(ord, "Łódź")))
    uri = uri.replace("{cut}", cut.name).replace("{dir}", str(cut.parent))
    answer = pdf_module.link_callback(uri, None)
    if not allowed:
        assert answer == pdf_module.REFUSED
    elif uri.startswith("data:"):
        assert answer == uri
    else:
        assert answer == str(cut)


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.requests.append(self.path)
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def http_server():
    """A real HTTP server on loopback; yields its base URL and the paths it was asked for."""
    handler = type("Handler", (_Recorder,), {"requests": []})
    with serving(http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler.requests


def greedy_template(base: str) -> dict:
    """A template that asks for a resource in every way xhtml2pdf knows."""
    return {
        "html_template": (
            f'<link rel="stylesheet" href="{base}/link.css"><p class="p">{{{{ content.personalInfo.name }}}}</p>'
            f'<img src="{base}/img.png"><img src="{base.replace("http:", "")}/relative.png">'
            f'<div style="background-image: url({base}/inline.png)">x</div>'
        ),
        "css_styles": (
            f"@import url({base}/import.css);\n"
            f'@font-face {{ font-family: "Remote"; src: url({base}/font.ttf); }}\n'
            f'.p {{ font-family: "Remote"; background-image: url({base}/bg.png); }}\n'
        ),
    }


def test_pdf_export_makes_no_request_for_a_template_pointing_at_a_server(http_server):
    base, requests = http_server
    data = render("pdf", source(greedy_template(base)))
    assert "Ada Quill" in pdf_text(data)
    assert requests == []


def test_link_callback_alone_keeps_the_renderer_off_the_network(http_server):
    base, requests = http_server
    html = documents.html_document(source(greedy_template(base)), Options(), None)
    pisa.CreatePDF(html, dest=io.BytesIO(), resource_policy=PERMISSIVE_POLICY)
    assert requests, "without the callback and with no policy the server is reached"
    requests.clear()
    pisa.CreatePDF(html, dest=io.BytesIO(), resource_policy=PERMISSIVE_POLICY,
                   link_callback=pdf_module.link_callback)
    assert requests == []


_OPENED: list[str] | None = None


def _audit(event, args):
    if event == "open" and _OPENED is not None and args and isinstance(args[0], (str, bytes, Path)):
        _OPENED.append(str(args[0]))


sys.addaudithook(_audit)  # audit hooks cannot be removed: this one only records while opened_files() runs


@contextmanager
def opened_files():
    global _OPENED
    _OPENED = []
    try:
        yield _OPENED
    finally:
        _OPENED = None


def test_pdf_export_does_not_read_local_files_a_template_names(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(photo().data)
    template = {"html_template": (f'<p>{{{{ title }}}}</p><img src="{secret.as_uri()}"><img src="{secret}">'
                                  '<img src="file:///etc/passwd"><img src="/etc/passwd">'),
                "css_styles": f"@import url({secret.as_uri()});\n"
                              f'@font-face {{ font-family: "Leak"; src: url("{secret}"); }}\n'}
    with opened_files() as opened:
        data = render("pdf", source(template))
    assert "My resume" in pdf_text(data)
    assert not [p for p in opened if p.endswith(("secret.png", "passwd"))]
    assert pdf_images(data) == []
    # The same markup with nothing refusing it does read the file: the check above is not vacuous.
    html = documents.html_document(source(template), Options(), None)
    with opened_files() as opened:
        pisa.CreatePDF(html, dest=io.BytesIO(), resource_policy=PERMISSIVE_POLICY)
    assert [p for p in opened if p.endswith("secret.png")]


# --- DOCX ----------------------------------------------------------------------------------------

def test_docx_has_headings_paragraphs_and_bullet_lists():
    document = docx.Document(io.BytesIO(render("docx", source(TEMPLATES[0]))))
    styled = [(p.style.name, p.text) for p in document.paragraphs]
    assert ("Title", "Ada Quill") in styled
    headings = [t for s, t in styled if s == "Heading 1"]
    assert headings == ["Profile", "Experience", "Education", "Skills", "Projects"]   # the default sectionOrder
    assert ("Heading 2", "Staff Engineer — Gearbox Ltd") in styled
    assert ("Normal", "Mar 2021 – Present") in styled
    bullets = [t for s, t in styled if s == "List Bullet"]
    assert bullets == ["Owned the billing platform.", "Cut the invoice run to 40 minutes.",
                       "Shipped the reporting engine.", "Adopted by 40 shops"]
    assert len(document.inline_shapes) == 0


def test_docx_shows_chinese_with_an_east_asian_font_named():
    data = render("docx", source(TEMPLATES[0], CHINESE))
    seen = docx_text(data)
    for word in CHINESE_WORDS:
        assert word in seen, word
    document = docx.Document(io.BytesIO(data))
    for name in ("Normal", "Title", "Heading 1", "Heading 2", "List Bullet"):
        fonts = document.styles[name].element.rPr.rFonts
        assert fonts.get(docx.oxml.ns.qn("w:eastAsia")), name
        assert fonts.get(docx.oxml.ns.qn("w:eastAsiaTheme")) is None, name


@pytest.mark.parametrize(("page_size", "mm"), [("A4", (210, 297)), ("Letter", (215.9, 279.4))])
def test_docx_page_size_and_margins_follow_the_options(page_size, mm):
    sections = {}
    for margin in documents.MARGINS:
        data = render("docx", source(TEMPLATES[0]), Options(page_size=page_size, margin=margin))
        sections[margin] = docx.Document(io.BytesIO(data)).sections[0]
    for section in sections.values():
        assert (round(section.page_width.mm, 1), round(section.page_height.mm, 1)) == mm
    assert sections["narrow"].left_margin < sections["normal"].left_margin < sections["wide"].left_margin
    assert round(sections["wide"].top_margin.mm) == templating.MARGINS_MM["wide"]


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_colour_scheme_changes_the_accent_of_html_and_docx(template):
    own = templating.template_accent(template["css_styles"]).lstrip("#").upper()
    for scheme in documents.COLOR_SCHEMES:
        html = render("html", source(template), Options(color_scheme=scheme)).decode()
        document = docx.Document(io.BytesIO(render("docx", source(template), Options(color_scheme=scheme))))
        name_run = next(p for p in document.paragraphs if p.style.name == "Title").runs[0]
        heading_run = next(p for p in document.paragraphs if p.style.name == "Heading 1").runs[0]
        expected = ACCENTS[scheme].lstrip("#").upper() if scheme != "default" else own
        assert str(name_run.font.color.rgb) == str(heading_run.font.color.rgb) == expected
        if scheme == "default":
            assert "accent override" not in html
        else:
            assert f".accent-text {{ color: {ACCENTS[scheme]} !important; }}" in html


# --- HTML ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_html_is_a_self_contained_utf8_document(template):
    document = render("html", source(template, CHINESE), Options(page_size="Letter", margin="wide"),
                      photo()).decode("utf-8")
    reader = read_html(document)
    tags = {tag for tag, _ in reader.tags}
    assert not tags & {"link", "script", "iframe", "object", "embed", "base"}
    assert [a["src"][:22] for t, a in reader.tags if t == "img"] == ["data:image/png;base64,"]
    css = "\n".join(reader.styles)
    # the fallback fonts its text needs travel inside it, as data (fonts/web.py): nothing else is named
    assert "@import" not in css and "url(" not in re.sub(r'url\("data:font/ttf;base64,[A-Za-z0-9+/=]+"\)', "", css)
    assert "@page { size: letter; margin: 25mm; }" in css
    assert ('<meta charset="utf-8">') in document
    for word in CHINESE_WORDS:
        assert word in html_text(document)


# --- photo ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("media_type", ["image/png", "image/jpeg"])
@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_photo_is_placed_in_html_pdf_and_docx_when_given(template, media_type):
    picture = photo(media_type)
    uri = picture.data_uri()
    html = render("html", source(template), photo=picture).decode()
    assert [a for t, a in read_html(html).tags if t == "img"] == [{"class": "photo", "src": uri, "alt": ""}]
    images = pdf_images(render("pdf", source(template), photo=picture))
    assert [(int(i["/Width"]), int(i["/Height"])) for i in images] == [(40, 50)]
    document = docx.Document(io.BytesIO(render("docx", source(template), photo=picture)))
    assert len(document.inline_shapes) == 1
    assert render("txt", source(template), photo=picture) == render("txt", source(template))


@pytest.mark.parametrize("template", TEMPLATES, ids=TEMPLATE_IDS)
def test_no_photo_anywhere_when_none_is_given_or_personal_info_is_hidden(template):
    hidden = {"personalInfo": False}
    for picture, visible in ((None, None), (photo(), hidden)):
        assert "<img" not in render("html", source(template, visible=visible), photo=picture).decode()
        assert pdf_images(render("pdf", source(template, visible=visible), photo=picture)) == []
        data = render("docx", source(template, visible=visible), photo=picture)
        assert len(docx.Document(io.BytesIO(data)).inline_shapes) == 0


# --- TXT -----------------------------------------------------------------------------------------

def test_text_is_a_plain_layout_for_an_applicant_tracking_system():
    content = copy.deepcopy(CHINESE)
    content["projects"] = []
    data = render("txt", source(TEMPLATES[0], content))
    assert data.decode("utf-8") == (
        "张伟\n"
        "====\n"
        "ada.quill@example.com | +44 20 7946 0958 | 12 Harbour Lane, Bristol\n"
        "\n"
        "PROFILE\n"
        "-------\n"
        "软件工程师, café, Grüße, Łódź.\n"
        "\n"
        "EXPERIENCE\n"
        "----------\n"
        "软件工程师, Café Müller\n"
        "Mar 2021 – Present\n"
        "- Owned the billing platform.\n"
        "- Cut the invoice run to 40 minutes.\n"
        "\n"
        "Developer, Loomworks\n"
        "Sep 2016 – Feb 2021\n"
        "- Shipped the reporting engine.\n"
        "\n"
        "EDUCATION\n"
        "---------\n"
        "MSc Distributed Computing, Riverside University\n"
        "Oct 2014 – Jul 2015\n"
        "\n"
        "SKILLS\n"
        "------\n"
        "Erlang, PostgreSQL, Terraform\n"
    )


# --- the templates' migration --------------------------------------------------------------------

def _seed_rows(folder: str) -> dict:
    return {t["id"]: (t["html_template"], t["css_styles"]) for t in templating.load_seed_templates(SEEDS / folder)}


def test_migration_updates_the_templates_to_v2_and_back(make_app, tmp_path):
    from flask_migrate import downgrade, upgrade

    from app.extensions import db

    v1, v2 = _seed_rows("templates_v1"), _seed_rows("templates_v2")
    assert set(v1) == set(v2) and all(v1[i] != v2[i] for i in v1)

    def stored():
        rows = db.session.execute(text("SELECT id, html_template, css_styles FROM templates")).all()
        db.session.rollback()
        return {row.id: (row.html_template, row.css_styles) for row in rows}

    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path / 'templates.db'}", REDIS_URL=None)
    with app.app_context():
        upgrade(revision="c5d8e1f2a3b4")  # v3 and its own test follow (test_templates_v3.py)
        assert stored() == v2
        downgrade(revision="b7e2c41d9a53")
        assert stored() == v1
        upgrade(revision="c5d8e1f2a3b4")
        assert stored() == v2
        db.engine.dispose()


def test_photo_slot_is_in_every_v2_template_and_in_no_v1_one():
    assert all("{% if photo %}" not in html for html, _ in _seed_rows("templates_v1").values())
    assert all('<img class="photo" src="{{ photo }}" alt="">' in html and "photo %}" in html
               for html, _ in _seed_rows("templates_v2").values())
    assert all(".photo {" in css for _, css in _seed_rows("templates_v2").values())
