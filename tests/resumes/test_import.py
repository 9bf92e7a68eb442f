"""POST /api/resumes/import: a JSON Resume document (JSON body), or a file (multipart): what a user gets
back, what is stored, the event, and every refusal in the error envelope (hostile files included).

How much of a PDF or DOCX is recovered is measured in test_import_files.py.
"""
from __future__ import annotations

import http.client
import io
import json
import zipfile
from pathlib import Path

import pytest
from docx import Document
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from werkzeug.serving import make_server

from app.errors import STATUS
from app.events.models import Event
from app.importing import sandbox
from app.resumes import imports
from app.resumes.models import Resume
from tests.support import serving

MiB = 1024 * 1024
SAMPLE = json.loads((Path(__file__).parent.parent / "content" / "data" / "jsonresume_sample.json").read_text(
    encoding="utf-8"))
URL = "/api/resumes/import"


def upload(client, data: bytes, filename: str = "resume.pdf", **fields):
    form = {"file": (io.BytesIO(data), filename), **fields}
    return client.post(URL, data=form, content_type="multipart/form-data")


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    body = response.get_json()
    assert set(body) <= {"error", "code", "details"} and body["code"] == code and STATUS[code] == status
    return body


def pdf_of(*lines: str, pages: int = 1) -> bytes:
    out = io.BytesIO()
    drawing = canvas.Canvas(out, pagesize=A4)
    for _ in range(pages):
        for index, line in enumerate(lines):
            drawing.drawString(72, 760 - 18 * index, line)
        drawing.showPage()
    drawing.save()
    return out.getvalue()


def docx_of(*paragraphs: tuple[str, str]) -> bytes:
    document = Document()
    for style, text in paragraphs:
        document.add_paragraph(text, style=style)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


SMALL_RESUME = [("Title", "Grace Hopper"), ("Normal", "grace@example.com | +1 212 555 0100"),
                ("Heading 1", "Experience"), ("Heading 2", "Computer Scientist, US Navy"),
                ("Normal", "Jan 1967 – Aug 1986"), ("Normal", "Led the standardisation of COBOL."),
                ("Heading 1", "Skills"), ("Normal", "COBOL, FLOW-MATIC, Compilers")]


def events(query, kind: str = "resume.created") -> list[tuple[str, dict]]:
    return query(lambda s: [(e.user_id, e.data) for e in s.query(Event).filter_by(type=kind)])


# --- a JSON Resume document in the body --------------------------------------------------------------

def test_a_json_resume_document_becomes_a_draft_with_the_detail_shape_and_its_event(client, owner, query, templates):
    response = client.post(URL, json={"jsonResume": SAMPLE})

    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["success"] is True and body["message"] == "Resume imported."
    data = body["data"]
    assert set(data) == {"resume", "dropped", "report"} and isinstance(data["dropped"], list)
    assert set(data["report"]) == {"source", "fileName", "dropped", "cut", "unsure", "pages", "createdAt"}
    assert data["report"]["source"] == "json" and data["report"]["fileName"] == ""
    assert data["report"]["dropped"] == data["dropped"] and data["report"]["cut"] == []
    resume = data["resume"]
    # Exactly what GET /api/resumes/<id> answers (ResumeDetailSchema).
    assert client.get(f"/api/resumes/{resume['id']}").get_json()["data"] == resume
    assert resume["status"] == "DRAFT" and resume["title"] == SAMPLE["basics"]["name"]
    assert resume["templateId"] == templates["basic"][0]      # the dashboard picker's first basic template
    assert resume["contentJson"]["personalInfo"]["name"] == SAMPLE["basics"]["name"]
    assert resume["contentJson"]["workExperience"][0]["company"] == SAMPLE["work"][0]["name"]
    [(user_id, event)] = events(query)
    assert user_id == owner["id"] and event["resume"]["id"] == resume["id"]
    assert event["resume"]["template_id"] == resume["templateId"] and event["resume"]["title"] == resume["title"]


def test_title_and_template_can_be_chosen(client, owner, templates):
    chosen = templates["basic"][-1]
    response = client.post(URL, json={"jsonResume": SAMPLE, "title": "  Imported from JSON  ", "templateId": chosen})

    resume = response.get_json()["data"]["resume"]
    assert response.status_code == 201 and resume["title"] == "Imported from JSON" and resume["templateId"] == chosen


def test_values_the_content_model_refuses_are_dropped_and_named(client, owner):
    document = {"basics": {"name": "Ada", "url": "not a web address"},
                "work": [{"name": "Analytical Engines Ltd", "startDate": "1843-07", "url": "ftp://example.com"}],
                "skills": [{"keywords": ["x" * 101]}]}

    response = client.post(URL, json={"jsonResume": document})

    data = response.get_json()["data"]
    assert response.status_code == 201
    assert {"basics.url", "work.0.url"} <= set(data["dropped"])
    content = data["resume"]["contentJson"]
    assert content["personalInfo"]["name"] == "Ada"
    assert content["workExperience"][0]["company"] == "Analytical Engines Ltd"
    assert content["personalInfo"].get("url", "") == "" and content["workExperience"][0].get("url", "") == ""


def test_a_document_without_a_name_is_titled_imported_resume(client, owner):
    response = client.post(URL, json={"jsonResume": {"work": [{"name": "Acme"}]}})

    assert response.status_code == 201 and response.get_json()["data"]["resume"]["title"] == "Imported resume"


@pytest.mark.parametrize("body, field", [
    ({}, "jsonResume"),
    ({"jsonResume": []}, "jsonResume"),
    ({"jsonResume": "basics"}, "jsonResume"),
    ({"jsonResume": {"nothing": "known"}}, "jsonResume"),
    ({"jsonResume": SAMPLE, "title": ""}, "title"),
    ({"jsonResume": SAMPLE, "color": "red"}, "color"),
])
def test_bad_bodies_are_400_naming_the_field(client, owner, query, body, field):
    body = refused(client.post(URL, json=body), 400, "VALIDATION_ERROR")

    assert body["details"]["field"] == field
    assert query(lambda s: s.query(Resume).count()) == 0 and events(query) == []


def test_a_premium_template_on_the_free_plan_and_an_unknown_one_are_refused(client, owner, templates, query):
    refused(client.post(URL, json={"jsonResume": SAMPLE, "templateId": templates["premium"][0]}), 400,
            "INVALID_TEMPLATE")
    refused(client.post(URL, json={"jsonResume": SAMPLE, "templateId": "0" * 24}), 400, "INVALID_TEMPLATE")
    assert query(lambda s: s.query(Resume).count()) == 0


def test_an_import_counts_toward_the_plan_limit(client, owner, create, query):
    for _ in range(5):                      # FREE: five resumes
        assert create().status_code == 201

    body = refused(client.post(URL, json={"jsonResume": SAMPLE}), 429, "SUBSCRIPTION_LIMIT_EXCEEDED")
    assert body["details"] == {"limit": 5, "resource": "resumes"}
    body = refused(upload(client, docx_of(*SMALL_RESUME), "cv.docx"), 429, "SUBSCRIPTION_LIMIT_EXCEEDED")
    assert query(lambda s: s.query(Resume).count()) == 5


def test_importing_needs_a_session_or_a_token(client):
    refused(client.post(URL, json={"jsonResume": SAMPLE}), 401, "UNAUTHENTICATED")


def test_a_form_that_is_not_multipart_is_415(client, owner):
    response = client.post(URL, data={"title": "x"}, content_type="application/x-www-form-urlencoded")

    refused(response, 415, "UNSUPPORTED_MEDIA_TYPE")


# --- files ------------------------------------------------------------------------------------------

def test_a_docx_file_becomes_a_resume_with_its_event(client, owner, query):
    response = upload(client, docx_of(*SMALL_RESUME), "grace.docx")

    assert response.status_code == 201, response.get_json()
    data = response.get_json()["data"]
    content = data["resume"]["contentJson"]
    assert data["resume"]["title"] == "Grace Hopper" and data["dropped"] == []
    assert content["personalInfo"]["email"] == "grace@example.com"
    assert content["personalInfo"]["phone"] == "+1 212 555 0100"
    assert content["workExperience"] == [{
        "position": "Computer Scientist", "company": "US Navy", "startDate": "1967-01", "endDate": "1986-08",
        "description": "Led the standardisation of COBOL."}]
    assert content["skills"] == ["COBOL", "FLOW-MATIC", "Compilers"]
    assert client.get(f"/api/resumes/{data['resume']['id']}").get_json()["data"] == data["resume"]
    [(user_id, event)] = events(query)
    assert user_id == owner["id"] and event["resume"]["id"] == data["resume"]["id"]


def test_a_docx_laid_out_in_tables_is_read_cell_by_cell(client, owner):
    """A sidebar and a main column as the two cells of a layout table, and an entry's head as a row
    of short cells (employer | title | dates), as some Word templates lay them out."""
    document = Document()
    document.add_paragraph("Grace Hopper", style="Title")
    layout = document.add_table(rows=1, cols=2)
    side, main = layout.rows[0].cells
    side.paragraphs[0].text = "grace@example.com"
    side.add_paragraph("Skills", style="Heading 1")
    side.add_paragraph("COBOL, Compilers")
    main.paragraphs[0].text = "Experience"
    main.paragraphs[0].style = document.styles["Heading 1"]
    head = main.add_table(rows=1, cols=3)
    for cell, text in zip(head.rows[0].cells, ("US Navy", "Computer Scientist", "Jan 1967 – Aug 1986")):
        cell.paragraphs[0].add_run(text).bold = True
    main.add_paragraph("Led the standardisation of COBOL.")
    out = io.BytesIO()
    document.save(out)

    response = upload(client, out.getvalue(), "tables.docx")

    content = response.get_json()["data"]["resume"]["contentJson"]
    assert response.status_code == 201 and content["personalInfo"]["email"] == "grace@example.com"
    assert content["skills"] == ["COBOL", "Compilers"]
    assert content["workExperience"] == [{
        "company": "US Navy", "position": "Computer Scientist", "startDate": "1967-01", "endDate": "1986-08",
        "description": "Led the standardisation of COBOL."}]


def test_a_pdf_file_becomes_a_resume(client, owner):
    pdf = pdf_of("Grace Hopper", "grace@example.com", "Skills", "COBOL, FLOW-MATIC, Compilers")

    response = upload(client, pdf, "grace.pdf", title="From a PDF")

    resume = response.get_json()["data"]["resume"]
    assert response.status_code == 201 and resume["title"] == "From a PDF"
    assert resume["contentJson"]["personalInfo"]["email"] == "grace@example.com"


def test_a_json_resume_file_is_read_like_the_body(client, owner, templates):
    data = json.dumps({"basics": {"name": "Ada Lovelace"}, "work": [{"name": "Babbage & Co"}]}).encode()

    response = upload(client, data, "ada.json", templateId=templates["basic"][1])

    resume = response.get_json()["data"]["resume"]
    assert response.status_code == 201 and resume["title"] == "Ada Lovelace"
    assert resume["templateId"] == templates["basic"][1]
    assert resume["contentJson"]["workExperience"][0]["company"] == "Babbage & Co"


def test_a_file_without_a_name_in_it_is_titled_by_its_file_name(client, owner):
    data = json.dumps({"work": [{"name": "Babbage & Co"}]}).encode()

    assert upload(client, data, "my-cv.json").get_json()["data"]["resume"]["title"] == "my-cv"


def test_the_file_is_known_by_its_content_not_its_name(client, owner):
    response = upload(client, docx_of(*SMALL_RESUME), "resume.pdf")

    assert response.status_code == 201 and response.get_json()["data"]["resume"]["title"] == "Grace Hopper"


@pytest.mark.parametrize("data, filename", [
    (b"Grace Hopper\nRear Admiral\n", "resume.txt"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512, "resume.doc"),    # old binary Word
    (b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "resume.pdf"),
])
def test_a_file_that_is_not_pdf_docx_or_json_is_415(client, owner, query, data, filename):
    body = refused(upload(client, data, filename), 415, "UNSUPPORTED_MEDIA_TYPE")

    assert body["details"]["field"] == "file" and "application/pdf" in body["details"]["accepted"]
    assert query(lambda s: s.query(Resume).count()) == 0


def test_a_zip_that_is_not_a_docx_is_415(client, owner):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("xl/workbook.xml", "<workbook/>")

    refused(upload(client, archive.getvalue(), "book.docx"), 415, "UNSUPPORTED_MEDIA_TYPE")


def test_missing_and_empty_files_and_unknown_fields_are_400(client, owner):
    response = client.post(URL, data={"title": "No file"}, content_type="multipart/form-data")
    assert refused(response, 400, "VALIDATION_ERROR")["details"]["field"] == "file"
    assert refused(upload(client, b"", "empty.pdf"), 400, "VALIDATION_ERROR")["details"]["field"] == "file"
    body = refused(upload(client, docx_of(*SMALL_RESUME), "cv.docx", colour="red"), 400, "VALIDATION_ERROR")
    assert body["details"]["field"] == "colour"


def unreadable(response, reason: str) -> dict:
    body = refused(response, 422, "IMPORT_UNREADABLE")
    assert body["details"] == {"field": "file", "reason": reason}
    return body


def test_an_encrypted_pdf_is_422(client, owner, query):
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_of("Grace Hopper", "grace@example.com"))))
    writer.encrypt("secret", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)

    body = unreadable(upload(client, out.getvalue()), "encrypted")
    assert "password" in body["error"]
    assert query(lambda s: s.query(Resume).count()) == 0 and events(query) == []


def test_a_pdf_without_text_is_422(client, owner):
    out = io.BytesIO()
    drawing = canvas.Canvas(out, pagesize=A4)
    drawing.rect(72, 72, 300, 500, fill=1)         # a scan has pictures, not text
    drawing.showPage()
    drawing.save()

    unreadable(upload(client, out.getvalue()), "no_text")


def test_a_broken_pdf_and_a_broken_docx_are_422(client, owner):
    unreadable(upload(client, b"%PDF-1.7\n" + b"\x00garbage" * 100), "corrupt")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("word/document.xml", "<not-word/>")
    unreadable(upload(client, archive.getvalue(), "cv.docx"), "corrupt")


def test_a_pdf_longer_than_the_page_limit_is_422(client, owner):
    pdf = pdf_of("Grace Hopper", "grace@example.com", pages=sandbox.MAX_PAGES + 1)

    body = unreadable(upload(client, pdf), "too_many_pages")
    assert str(sandbox.MAX_PAGES) in body["error"]


def test_a_zip_bomb_docx_is_refused_by_its_directory(client, owner):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("[Content_Types].xml", "<Types/>")
        out.writestr("word/document.xml", b"<w:document>" + b" " * (60 * MiB) + b"</w:document>")
    assert len(archive.getvalue()) < MiB      # 60 MiB unpacked from a small upload

    body = unreadable(upload(client, archive.getvalue(), "bomb.docx"), "zip_bomb")
    assert "50 MB" in body["error"]


def test_a_bad_json_file_and_a_json_file_that_is_not_a_json_resume_are_422(client, owner):
    unreadable(upload(client, b'{"basics": ', "cv.json"), "corrupt")
    unreadable(upload(client, b'{"name": "Ada"}', "cv.json"), "not_json_resume")


class CountingStream(io.RawIOBase):
    """A request body that counts what is read of it (zeros, as much as is asked)."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.read_bytes

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.read_bytes

    def readinto(self, buffer) -> int:
        buffer[:] = b"\0" * len(buffer)
        self.read_bytes += len(buffer)
        return len(buffer)


def test_a_50_mb_upload_is_413_before_its_body_is_read(client, owner, query):
    stream = CountingStream()

    response = client.post(URL, input_stream=stream, content_type="multipart/form-data; boundary=x",
                           environ_overrides={"CONTENT_LENGTH": str(50 * MiB)})

    body = refused(response, 413, "CONTENT_TOO_LARGE")
    assert body["details"] == {"field": "file", "limit": imports.MAX_UPLOAD_BYTES}
    assert stream.read_bytes == 0
    assert query(lambda s: s.query(Resume).count()) == 0


def test_a_json_body_keeps_the_apps_one_mib_limit(client, owner):
    response = client.post(URL, data=b'{"jsonResume": {"basics": {"summary": "' + b"x" * (2 * MiB) + b'"}}}',
                           content_type="application/json")

    refused(response, 413, "CONTENT_TOO_LARGE")


def test_a_chunked_upload_over_the_limit_is_413_through_a_real_server(app, make_user):
    user = make_user()
    with serving(make_server("127.0.0.1", 0, app, threaded=True)) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=30)
        connection.request("POST", "/api/auth/signin", body=json.dumps({"email": user["email"],
                                                                        "password": user["password"]}),
                           headers={"Content-Type": "application/json"})
        signed_in = connection.getresponse()
        signed_in.read()
        cookie = next(h for h in signed_in.headers.get_all("Set-Cookie") if h.startswith("sid=")).split(";")[0]
        boundary = "importboundary"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\n"
                f"Content-Type: application/pdf\r\n\r\n").encode() + b"%PDF-1.7 " + b"0" * (11 * MiB)
        chunks = (body[i:i + 64 * 1024] for i in range(0, len(body), 64 * 1024))
        connection.request("POST", URL, body=chunks, encode_chunked=True,
                           headers={"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie})
        response = connection.getresponse()
        status, answer = response.status, json.loads(response.read())
        connection.close()

    assert status == 413 and answer["code"] == "CONTENT_TOO_LARGE"


def test_the_openapi_document_describes_both_bodies(client):
    operation = client.get("/api/openapi.json").get_json()["paths"][URL]["post"]

    content = operation["requestBody"]["content"]
    assert set(content) == {"application/json", "multipart/form-data"}
    assert content["multipart/form-data"]["schema"]["properties"]["file"]["format"] == "binary"
    assert "201" in operation["responses"]


def test_a_file_import_stores_the_language_its_text_is_in(client, owner):
    """Issue 22: the editor then shows it, and the documents print their headings in it."""
    document = Document()
    for line in ("Lena Vogel", "lena@example.com", "Berufserfahrung",
                 "Softwareentwicklerin bei der Zalando SE in Berlin und für die Zahlungen zuständig",
                 "Ausbildung", "Informatik an der Technischen Universität München"):
        document.add_paragraph(line)
    out = io.BytesIO()
    document.save(out)

    resume = upload(client, out.getvalue(), "lebenslauf.docx").get_json()["data"]["resume"]

    assert resume["contentJson"]["language"] == "de"
