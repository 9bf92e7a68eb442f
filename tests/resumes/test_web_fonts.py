"""The HTML export and the share page carry the fonts their text needs (issue 22 point 4): served by the
app (the share page, from its own route) or inside the file (the HTML export), never from elsewhere."""
from __future__ import annotations

import base64
import io
import re

import pytest
from fontTools.ttLib import TTFont

ARABIC = "مهندس برمجيات في شركة Google"
CHINESE = "软件工程师"
CONTENT = {"personalInfo": {"name": "ليلى حداد", "summary": f"{ARABIC}. {CHINESE}."},
           "workExperience": [{"company": "شركة النجم", "position": "مهندسة", "startDate": "2019-03"}]}


@pytest.fixture
def visitor(app):
    return app.test_client()


def _cmap(data: bytes) -> set[int]:
    return set(TTFont(io.BytesIO(data)).getBestCmap())


def test_the_html_export_holds_its_fonts_as_data(client, owner, create):
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    export = client.post(f"/api/resumes/{resume_id}/export", json={"format": "html"})
    assert export.status_code == 201, export.get_json()
    html = client.get(export.get_json()["data"]["downloadUrl"]).get_data(as_text=True)

    assert '<html lang="ar" dir="rtl">' in html
    faces = dict(re.findall(r'font-family: "([^"]+)"; src: url\("data:font/ttf;base64,([^"]+)"\)', html))
    assert {"Noto Sans Arabic", "Noto Sans CJK SC"} <= set(faces)
    assert {ord(c) for c in "مهندسبرمجيات"} <= _cmap(base64.b64decode(faces["Noto Sans Arabic"]))
    assert {ord(c) for c in CHINESE} <= _cmap(base64.b64decode(faces["Noto Sans CJK SC"]))
    assert '<span class="pdf-arabic">' in html and "http" not in html.split("<body>")[0].replace(
        "http-equiv", "")  # nothing fetched from anywhere


def test_the_share_page_names_its_fonts_on_its_own_route(client, owner, visitor, create):
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    token = client.post(f"/api/resumes/{resume_id}/share", json={}).get_json()["data"]["token"]
    page = visitor.get(f"/share/{token}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'lang="ar" dir="rtl"' in html
    urls = dict(re.findall(r'font-family: "([^"]+)"; src: url\("(/share/[^"]+)"\)', html))
    assert urls["Noto Sans Arabic"].startswith(f"/share/{token}/fonts/")

    font = visitor.get(urls["Noto Sans Arabic"])
    assert font.status_code == 200 and font.mimetype == "font/ttf"
    assert "immutable" in font.headers["Cache-Control"]
    assert {ord(c) for c in "مهندس"} <= _cmap(font.data)
    assert "GSUB" in TTFont(io.BytesIO(font.data))  # a browser joins the letters by the font's rules
    assert visitor.get(f"/share/{token}/fonts/NotoSansArabic-Regular-0000.ttf").status_code == 404
    assert "font-src 'self'" in page.headers["Content-Security-Policy"]


def test_a_protected_shares_fonts_need_its_password(client, owner, visitor, create):
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    token = client.post(f"/api/resumes/{resume_id}/share", json={}).get_json()["data"]["token"]
    url = re.search(r'src: url\("(/share/[^"]+)"\)', visitor.get(f"/share/{token}").get_data(as_text=True)).group(1)
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "open sesame"})
    assert visitor.get(url).status_code == 404
