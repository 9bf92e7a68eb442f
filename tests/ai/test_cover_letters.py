"""Cover letters exported like resumes: POST /api/resumes/<id>/cover-letter/export (PDF, DOCX, TXT)."""
import io
from urllib.parse import urlsplit

import docx
import pytest
from pypdf import PdfReader
from sqlalchemy import select

from app.events.models import Event
from app.resumes.models import Export
from app.users.models import User

INFO = {"name": "Ada Lovelace", "email": "ada@example.com", "phone": "+44 20 7946 0000", "address": "London",
        "summary": ""}
TEXT = "Dear hiring team,\n\nI am applying for the role.\nI build payment APIs.\n\n我熟悉分布式系统。\n\nKind regards,\nAda"


@pytest.fixture
def resume_id(client, owner):
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    response = client.post("/api/resumes", json={"title": "Backend (2026)", "templateId": template,
                                                 "contentJson": {"personalInfo": INFO}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def export_letter(client, resume_id, fmt, text=TEXT):
    return client.post(f"/api/resumes/{resume_id}/cover-letter/export", json={"text": text, "format": fmt})


def download(client, data) -> bytes:
    parts = urlsplit(data["downloadUrl"])
    response = client.get(f"{parts.path}?{parts.query}")
    assert response.status_code == 200
    return response.data


def test_a_txt_letter_has_the_name_contacts_date_and_paragraphs(client, owner, resume_id, query):
    response = export_letter(client, resume_id, "txt")
    assert response.status_code == 201, response.get_json()
    data = response.get_json()["data"]
    assert data["filename"] == "Cover_letter_Backend_2026.txt" and data["format"] == "txt"
    text = download(client, data).decode()
    lines = text.split("\n")
    assert lines[0] == "Ada Lovelace" and lines[1] == "ada@example.com | +44 20 7946 0000 | London"
    assert lines[3].split()[-1].isdigit()  # the date, e.g. "26 November 2026"
    assert "Dear hiring team,\n\nI am applying for the role.\nI build payment APIs.\n\n我熟悉分布式系统。" in text
    # Stored and counted like an export, but the resume was not exported: no resume.exported event.
    assert query(lambda s: s.get(User, owner["id"]).storage_used) == data["fileSize"]
    assert query(lambda s: s.scalar(select(Export.format))) == "txt"
    assert query(lambda s: s.scalars(select(Event.type)).all()).count("resume.exported") == 0


def test_a_pdf_letter_holds_its_text_chinese_included(client, resume_id):
    response = export_letter(client, resume_id, "pdf")
    assert response.status_code == 201, response.get_json()
    pdf = download(client, response.get_json()["data"])
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for part in ("Ada Lovelace", "ada@example.com", "Dear hiring team,", "I build payment APIs.", "我熟悉分布式系统"):
        assert part in text


def test_a_docx_letter_has_one_paragraph_per_paragraph(client, resume_id, owner):
    client.put("/api/account", json={"preferences": {"language": "zh-cn"}})
    response = export_letter(client, resume_id, "docx")
    assert response.status_code == 201, response.get_json()
    paragraphs = [p.text for p in docx.Document(io.BytesIO(download(client, response.get_json()["data"]))).paragraphs]
    assert paragraphs[0] == "Ada Lovelace" and "年" in paragraphs[2]
    assert paragraphs[3:] == ["Dear hiring team,", "I am applying for the role.\nI build payment APIs.",
                              "我熟悉分布式系统。", "Kind regards,\nAda"]


@pytest.mark.parametrize("body, field", [({"format": "txt"}, "text"), ({"text": "Hi", "format": "html"}, "format"),
                                         ({"text": " \n\n  ", "format": "txt"}, "text"),
                                         ({"text": "x" * 10_001, "format": "txt"}, "text")])
def test_bad_bodies_name_the_field(client, resume_id, body, field):
    response = client.post(f"/api/resumes/{resume_id}/cover-letter/export", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_a_full_storage_refuses_the_letter(client, owner, resume_id, query):
    def fill(session):
        session.get(User, owner["id"]).storage_used = 10 * 1024 * 1024  # the FREE plan's 10 MiB
        session.commit()

    query(fill)
    response = export_letter(client, resume_id, "txt")
    assert response.status_code == 429 and response.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert query(lambda s: s.query(Export).count()) == 0
