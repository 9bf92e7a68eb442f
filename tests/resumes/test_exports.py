"""POST /api/resumes/<id>/export: a job renders, the file is stored, a signed address serves it."""
import io
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, urlsplit

import docx
import pytest
from PIL import Image
from pypdf import PdfReader

from tests.conftest import drain_jobs
from tests.support import serving, wait_until

from app.events.models import Event
from app.resumes.models import Export, Resume, Template
from app.users.models import User

CONTENT = {
    "personalInfo": {"name": "Zoë Łukasz 张伟", "email": "zoe@example.com", "phone": "+86 10 1234 5678",
                     "address": "北京", "summary": "Backend engineer. 软件工程师，十年经验。"},
    "workExperience": [{"company": "Café Nord", "position": "Engineer", "startDate": "2020-01", "endDate": "",
                        "description": "Built Flask APIs."}],
    "education": [{"school": "清华大学", "degree": "BSc", "startDate": "2012-09", "endDate": "2016-06"}],
    "skills": ["Python", "PostgreSQL"],
    "projects": [],
}


@pytest.fixture
def resume(owner, create):
    response = create(title="Backend Engineer (2024)", contentJson=CONTENT)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


@pytest.fixture
def export(client, resume):
    """POST an export of the resume: ``export(format, **options)`` returns the response."""

    def do_export(fmt="pdf", **options):
        return client.post(f"/api/resumes/{resume}/export", json={"format": fmt, "options": options})

    return do_export


def download(client, url):
    parts = urlsplit(url)
    return client.get(f"{parts.path}?{parts.query}")


def stored_files(app) -> list[Path]:
    return [p for p in Path(app.config["STORAGE_DIR"]).rglob("*") if p.is_file()]


def storage_used(query, user_id) -> int:
    return query(lambda session: session.get(User, user_id).storage_used)


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


# Each format, opened by a real reader ------------------------------------------
def test_a_pdf_export_is_stored_and_served_with_its_text(app, client, owner, export, query):
    response = export("pdf")
    assert response.status_code == 201, response.get_json()
    result = response.get_json()["data"]
    assert list(result) == ["downloadUrl", "filename", "format", "fileSize", "expiresAt", "undrawnCharacters"]
    assert result["undrawnCharacters"] == []
    assert result["downloadUrl"].startswith(app.config["STORAGE_URL"] + "/")
    assert result["filename"] == "Backend_Engineer_2024.pdf" and result["format"] == "pdf"
    expires = datetime.fromisoformat(result["expiresAt"].replace("Z", "+00:00"))
    assert abs(expires - datetime.now(timezone.utc) - timedelta(hours=24)) < timedelta(minutes=1)

    file = download(client, result["downloadUrl"])
    assert file.status_code == 200 and file.mimetype == "application/pdf"
    assert file.headers["Content-Disposition"] == 'attachment; filename=Backend_Engineer_2024.pdf'
    assert len(file.data) == result["fileSize"] == storage_used(query, owner["id"])
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(file.data)).pages)
    for expected in ("Zoë", "Łukasz", "张伟", "软件工程师", "Café Nord", "清华大学"):
        assert expected in text


@pytest.mark.parametrize(("title", "filename"), [
    ("高级工程师 简历", "高级工程师_简历.txt"),
    ("Résumé — Zoë Łukasz", "Résumé_Zoë_Łukasz.txt"),
    ("مهندس برمجيات", "مهندس_برمجيات.txt"),
    ("वरिष्ठ अभियंता", "वरिष्ठ_अभियंता.txt"),        # vowel signs and the virama stay with their letters
    ("../../etc/passwd", "etc_passwd.txt"),
    ("???", "resume.txt"),
])
def test_a_download_is_named_after_the_title_in_its_own_script(client, owner, create, title, filename):
    resume = create(title=title).get_json()["data"]["id"]
    result = client.post(f"/api/resumes/{resume}/export", json={"format": "txt"}).get_json()["data"]
    assert result["filename"] == filename
    file = download(client, result["downloadUrl"])
    assert file.status_code == 200
    # RFC 6266: the name as UTF-8 in filename*, with a plain ASCII fallback for old clients.
    disposition = file.headers["Content-Disposition"]
    if filename.isascii():
        assert disposition == f"attachment; filename={filename}"
    else:
        assert f"filename*=UTF-8''{quote(filename)}" in disposition
        assert disposition.split("filename=")[1].split(";")[0].isascii()


def test_a_docx_export_has_real_headings_paragraphs_and_chinese_text(client, export):
    result = export("docx").get_json()["data"]
    file = download(client, result["downloadUrl"])
    assert file.mimetype == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    document = docx.Document(io.BytesIO(file.data))
    styles = {p.style.name for p in document.paragraphs}
    assert any(name.startswith("Heading") for name in styles)
    text = "\n".join(p.text for p in document.paragraphs)
    assert "张伟" in text and "Café Nord" in text and "清华大学" in text


def test_an_html_export_is_a_self_contained_document(client, export):
    result = export("html").get_json()["data"]
    assert result["filename"].endswith(".html")
    file = download(client, result["downloadUrl"])
    assert file.mimetype == "text/html"
    parser = _Text()
    parser.feed(file.data.decode("utf-8"))
    assert "张伟" in "".join(parser.text)
    assert not [tag for tag, attrs in parser.tags if tag in ("link", "script")]
    assert not [attrs for tag, attrs in parser.tags if tag == "img" and not attrs.get("src", "").startswith("data:")]


def test_a_txt_export_is_readable_plain_text(client, export):
    file = download(client, export("txt").get_json()["data"]["downloadUrl"])
    assert file.mimetype == "text/plain"
    text = file.data.decode("utf-8")
    assert "Zoë Łukasz 张伟" in text and "Café Nord" in text and "<" not in text


@pytest.mark.parametrize("fmt,content_type", [("html", "text/html; charset=utf-8"),
                                              ("txt", "text/plain; charset=utf-8")])
def test_a_text_download_names_its_charset_once(client, export, fmt, content_type):
    file = download(client, export(fmt).get_json()["data"]["downloadUrl"])
    assert file.headers["Content-Type"] == content_type


def test_hidden_sections_are_left_out_of_the_export(client, resume, export):
    client.put(f"/api/resumes/{resume}", json={"sectionsVisibility": {"education": False}})
    text = download(client, export("txt").get_json()["data"]["downloadUrl"]).data.decode()
    assert "清华大学" not in text and "Café Nord" in text


def test_page_size_reaches_the_pdf(client, export):
    letter = download(client, export("pdf", pageSize="Letter").get_json()["data"]["downloadUrl"])
    box = PdfReader(io.BytesIO(letter.data)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    a4 = download(client, export("pdf").get_json()["data"]["downloadUrl"])
    box = PdfReader(io.BytesIO(a4.data)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)


# Options ------------------------------------------------------------------------
@pytest.mark.parametrize("body,field", [
    ({}, "format"),
    ({"format": "odt"}, "format"),
    ({"format": 1}, "format"),
    ({"format": "pdf", "options": {"pageSize": "A5"}}, "options.pageSize"),
    ({"format": "pdf", "options": {"margin": "huge"}}, "options.margin"),
    ({"format": "pdf", "options": {"colorScheme": "purple"}}, "options.colorScheme"),
    ({"format": "pdf", "options": {"includePhoto": "yes"}}, "options.includePhoto"),
    ({"format": "pdf", "options": {"fontSize": 12}}, "options.fontSize"),
    ({"format": "pdf", "options": []}, "options"),
    ({"format": "pdf", "extra": True}, "extra"),
])
def test_invalid_export_bodies_name_the_field(app, client, resume, body, field):
    response = client.post(f"/api/resumes/{resume}/export", json=body)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR" and response.get_json()["details"]["field"] == field
    assert stored_files(app) == []


# Who may export -------------------------------------------------------------------
def test_exporting_a_deleted_resume_is_not_found(client, resume, export):
    client.delete(f"/api/resumes/{resume}")
    response = export("pdf")
    assert response.status_code == 404 and response.get_json()["code"] == "RESUME_NOT_FOUND"
    assert response.get_json()["details"] == {"resumeId": resume}


def test_another_users_resume_cannot_be_exported(app, resume, make_user):
    other = app.test_client()
    user = make_user()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    response = other.post(f"/api/resumes/{resume}/export", json={"format": "pdf"})
    assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"


def test_anonymous_exports_are_refused(app, resume):
    response = app.test_client().post(f"/api/resumes/{resume}/export", json={"format": "pdf"})
    assert response.status_code == 401


# Storage quota ------------------------------------------------------------------
def _set_storage_used(query, user_id, used):
    def update(session):
        session.get(User, user_id).storage_used = used
        session.commit()

    query(update)


def test_a_full_storage_refuses_the_export_before_rendering(app, owner, export, query):
    _set_storage_used(query, owner["id"], 10 * 1024 * 1024)  # the FREE plan's 10 MiB
    response = export("pdf")
    assert response.status_code == 429 and response.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert response.get_json()["details"] == {"limit": 10485760, "resource": "storage"}
    assert stored_files(app) == [] and query(lambda s: s.query(Export).count()) == 0


def test_an_export_that_would_pass_the_limit_is_refused_and_not_kept(app, owner, export, query):
    _set_storage_used(query, owner["id"], 10 * 1024 * 1024 - 100)
    response = export("pdf")
    assert response.status_code == 429 and response.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert stored_files(app) == [] and storage_used(query, owner["id"]) == 10 * 1024 * 1024 - 100


def test_exports_add_up_in_storage_used(owner, export, query):
    sizes = [export(fmt).get_json()["data"]["fileSize"] for fmt in ("txt", "html")]
    assert storage_used(query, owner["id"]) == sum(sizes)


# Download addresses ----------------------------------------------------------------
def test_a_tampered_download_address_is_refused_with_403(client, export):
    url = export("txt").get_json()["data"]["downloadUrl"]
    tampered = url[:-3] + ("AAA" if not url.endswith("AAA") else "BBB")
    response = download(client, tampered)
    assert response.status_code == 403 and response.get_json()["code"] == "DOWNLOAD_LINK_INVALID"
    other_key = url.replace("/exports/", "/exports/x", 1)
    assert download(client, other_key).status_code == 403


def test_an_expired_download_address_is_refused_with_410(app, client, export):
    url = export("txt").get_json()["data"]["downloadUrl"]
    app.extensions["clock"].advance(hours=24, seconds=1)
    try:
        response = download(client, url)
    finally:
        app.extensions["clock"].advance(hours=-24, seconds=-1)
    assert response.status_code == 410 and response.get_json()["code"] == "DOWNLOAD_LINK_EXPIRED"


def test_an_address_without_a_token_is_refused(client, export):
    url = export("txt").get_json()["data"]["downloadUrl"]
    assert client.get(urlsplit(url).path).status_code == 403


# The cleanup ---------------------------------------------------------------------
def test_the_scheduled_cleanup_deletes_expired_files_and_frees_the_space(app, owner, export, query):
    export("txt")
    kept = export("html").get_json()["data"]
    assert len(stored_files(app)) == 2

    def expire_the_txt(session):
        session.query(Export).filter_by(format="txt").update(
            {"expires_at": datetime.now(timezone.utc) - timedelta(seconds=1)})
        session.commit()

    query(expire_the_txt)
    jobs = app.extensions["jobs"]
    jobs.connection.delete("periodic:delete-expired-exports")
    with app.app_context():
        jobs.enqueue_due_periodic_jobs()
    wait_until(lambda: [p.suffix for p in stored_files(app)] == [".html"])
    drain_jobs(app)
    assert storage_used(query, owner["id"]) == kept["fileSize"]
    assert query(lambda s: [e.format for e in s.query(Export)]) == ["html"]


def test_periodic_jobs_are_enqueued_once_per_interval(app):
    jobs = app.extensions["jobs"]
    jobs.connection.delete("periodic:delete-expired-exports")
    with app.app_context():
        queue = jobs.queue("exports")
        before = queue.count
        jobs.enqueue_due_periodic_jobs()
        jobs.enqueue_due_periodic_jobs()
    assert jobs.connection.ttl("periodic:delete-expired-exports") > 0
    assert queue.count - before <= 1  # the embedded worker may already have taken it
    drain_jobs(app)


# Failures -------------------------------------------------------------------------
@pytest.fixture
def broken_template(query):
    def add(session):
        template = Template(name="Broken", category="MODERN", tier="basic", html_template="{{ 1 // 0 }}",
                            css_styles="")
        session.add(template)
        session.commit()
        return template.id

    template_id = query(add)
    yield template_id

    def remove(session):
        session.query(Resume).filter_by(template_id=template_id).delete()
        session.query(Template).filter_by(id=template_id).delete()
        session.commit()

    query(remove)


def test_a_render_failure_is_export_failed_and_leaves_nothing(app, client, owner, create, broken_template, query,
                                                              caplog):
    resume_id = create(templateId=broken_template).get_json()["data"]["id"]
    response = client.post(f"/api/resumes/{resume_id}/export", json={"format": "pdf"})
    assert response.status_code == 500
    # Says why and what to do: trying again would fail again (it once said "Try again in a moment").
    assert response.get_json() == {"error": "The resume's template could not draw it (the error is recorded for "
                                            "us). Choose another template, then export again.",
                                   "code": "EXPORT_FAILED"}
    assert stored_files(app) == [] and storage_used(query, owner["id"]) == 0
    assert query(lambda s: s.query(Export).count() + s.query(Event).filter_by(type="resume.exported").count()) == 0
    logged = [r.getMessage() for r in caplog.records if "export of resume" in r.getMessage()]
    assert any(resume_id in line and "ZeroDivisionError" in line for line in logged), logged


def test_a_render_slower_than_the_wait_is_export_failed(make_app, test_env, owner, create, query):
    slow = make_app(EXPORT_WAIT_SECONDS="1")
    resume_id = create().get_json()["data"]["id"]

    def make_it_slow(session):
        template = session.get(Resume, resume_id).template
        session.add(Template(id="0" * 24, name="Slow", category="MODERN", tier="basic", css_styles="",
                             html_template="{% for i in range(100000) %}{% for j in range(100000) %}"
                                           "{% endfor %}{% endfor %}"))
        session.flush()
        session.get(Resume, resume_id).template_id = "0" * 24
        session.commit()
        return template.id

    original = query(make_it_slow)
    try:
        client = slow.test_client()
        client.post("/api/auth/signin", json={"email": owner["email"], "password": owner["password"]})
        response = client.post(f"/api/resumes/{resume_id}/export", json={"format": "html"})
        assert response.status_code == 500 and response.get_json()["code"] == "EXPORT_FAILED"
        assert response.get_json()["error"].startswith("The export took longer than 1 second and was stopped.")
        assert stored_files(slow) == []
    finally:
        drain_jobs(slow)

        def restore(session):
            session.get(Resume, resume_id).template_id = original
            session.query(Template).filter_by(id="0" * 24).delete()
            session.commit()

        query(restore)


# The event ------------------------------------------------------------------------
def test_a_successful_export_records_the_resume_exported_event(owner, resume, export, query):
    result = export("docx").get_json()["data"]
    events = query(lambda s: [(e.type, e.user_id, e.data) for e in s.query(Event).filter_by(type="resume.exported")])
    assert events == [("resume.exported", owner["id"], {
        "resume": {"id": resume, "user_id": owner["id"]},
        "export": {"format": "docx", "filename": result["filename"], "file_size": result["fileSize"],
                   "expires_at": result["expiresAt"]},
    })]


# The photo --------------------------------------------------------------------------
class _Avatar(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self):  # noqa: N802
        type(self).hits += 1
        image = io.BytesIO()
        Image.new("RGB", (40, 40), (200, 30, 30)).save(image, "PNG")
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()
        self.wfile.write(image.getvalue())

    def log_message(self, *args):
        pass


@pytest.fixture
def avatar_server():
    _Avatar.hits = 0
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), _Avatar)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}/me.png"


def _set_avatar(query, user_id, url):
    def update(session):
        session.get(User, user_id).avatar = url
        session.commit()

    query(update)


def test_include_photo_places_the_avatar(client, owner, export, query, avatar_server):
    _set_avatar(query, owner["id"], avatar_server)  # the test settings allow loopback photo addresses
    with_photo = download(client, export("html", includePhoto=True).get_json()["data"]["downloadUrl"]).data
    without = download(client, export("html").get_json()["data"]["downloadUrl"]).data
    assert b'src="data:image/' in with_photo and b'src="data:image/' not in without
    assert _Avatar.hits == 1


def test_a_photo_at_a_private_address_is_not_fetched(make_app, avatar_server):
    from app.resumes.exports import fetch_photo

    strict = make_app(PHOTO_ALLOW_PRIVATE_TARGETS=None)
    with strict.app_context():
        assert fetch_photo(avatar_server) is None
        assert fetch_photo("file:///etc/passwd") is None
        assert fetch_photo("ftp://example.com/me.png") is None
    assert _Avatar.hits == 0


def test_no_avatar_means_no_photo(client, export):
    data = download(client, export("html", includePhoto=True).get_json()["data"]["downloadUrl"]).data
    assert b'src="data:image/' not in data


# Share download ---------------------------------------------------------------------
def test_a_share_that_allows_downloads_offers_the_pdf(app, client, resume):
    token = client.post(f"/api/resumes/{resume}/share", json={"allowDownload": True}).get_json()["data"]["token"]
    visitor = app.test_client()
    page = visitor.get(f"/share/{token}").get_data(as_text=True)
    assert f'href="/share/{token}/download"' in page
    pdf = visitor.get(f"/share/{token}/download")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert pdf.headers["Content-Disposition"] == "attachment; filename=Backend_Engineer_2024.pdf"
    assert "张伟" in PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text()
    assert stored_files(app) == []  # rendered for the visitor, not stored


def test_a_share_without_downloads_has_none(app, client, resume):
    token = client.post(f"/api/resumes/{resume}/share", json={}).get_json()["data"]["token"]
    visitor = app.test_client()
    assert "/download" not in visitor.get(f"/share/{token}").get_data(as_text=True)
    assert visitor.get(f"/share/{token}/download").status_code == 404


def test_a_protected_share_download_needs_the_password_first(app, client, resume):
    token = client.post(f"/api/resumes/{resume}/share", json={"allowDownload": True}).get_json()["data"]["token"]
    client.put(f"/api/resumes/{resume}/share", json={"password": "open sesame"})
    visitor = app.test_client()
    locked = visitor.get(f"/share/{token}/download")
    assert locked.status_code == 303 and locked.headers["Location"].endswith(f"/share/{token}")
    visitor.post(f"/share/{token}", data={"password": "open sesame"})
    assert visitor.get(f"/share/{token}/download").mimetype == "application/pdf"


@pytest.mark.parametrize("fmt", ["pdf", "docx", "html", "txt"])
def test_control_characters_pasted_into_a_resume_do_not_break_an_export(client, owner, create, fmt):
    content = {**CONTENT, "personalInfo": {**CONTENT["personalInfo"], "name": "Ada\x0bLovelace\x01"},
               "skills": ["Py\x02thon"]}
    resume_id = create(title="Title\x07", contentJson=content).get_json()["data"]["id"]
    response = client.post(f"/api/resumes/{resume_id}/export", json={"format": fmt})
    assert response.status_code == 201, response.get_json()
    data = download(client, response.get_json()["data"]["downloadUrl"]).data
    if fmt in ("html", "txt"):
        assert b"\x01" not in data and b"\x0b" not in data


@pytest.mark.parametrize("kind, error, words", [
    ("failed", "app.documents.options.DocumentError: reason=layout: xhtml2pdf failed: LayoutError: too large",
     "a part of the resume is too large for a page"),
    ("failed", "app.documents.options.DocumentError: reason=render: DOCX failed: ValueError", "could not be produced"),
    ("failed", "Work-horse terminated unexpectedly; waitpid returned 9", "stopped before it finished. Try again"),
    ("queue", "", "job queue is not answering"),
])
def test_an_export_failure_says_why_in_words_a_person_can_act_on(kind, error, words):
    from app.queue import JobFailed
    from app.resumes.exports import failure_message
    message, values = failure_message(JobFailed("...", kind, error), "pdf", 30)  # a msgid and its values
    assert words in message % values


def test_a_pdf_export_names_the_characters_it_prints_as_boxes(client, owner, create):
    """Issue 31: a character no font draws is a box, never a failed export, and the export says which."""
    content = {"personalInfo": {"name": "Ada", "summary": "Private \ue123 code and the G clef 𝄞 🚀"}}
    resume_id = create(contentJson=content).get_json()["data"]["id"]
    response = client.post(f"/api/resumes/{resume_id}/export", json={"format": "pdf"})
    assert response.status_code == 201
    assert response.get_json()["data"]["undrawnCharacters"] == [
        {"character": "\ue123", "codePoint": "U+E123", "name": ""},
        {"character": "𝄞", "codePoint": "U+1D11E", "name": "MUSICAL SYMBOL G CLEF"}]
    docx = client.post(f"/api/resumes/{resume_id}/export", json={"format": "docx"})
    assert docx.status_code == 201 and docx.get_json()["data"]["undrawnCharacters"] == []
