"""GET /api/resumes/<id>/preview: the pages of the very PDF the export stores, as PNG images."""
from __future__ import annotations

import copy
import io
from urllib.parse import parse_qs, urlsplit

import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat

from app.pictures import previews, thumbnails

TWO_PAGES = copy.deepcopy(thumbnails.SAMPLE)
TWO_PAGES["workExperience"] = TWO_PAGES["workExperience"] * 3  # nine jobs: two A4 pages in every template


@pytest.fixture
def resume(owner, create):
    response = create(title="Platform engineer", contentJson=TWO_PAGES)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    previews.clear_cache()
    yield
    previews.clear_cache()


def get_preview(client, resume_id, **options):
    response = client.get(f"/api/resumes/{resume_id}/preview", query_string=options)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def image(client, url) -> Image.Image:
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "image/png"
    return Image.open(io.BytesIO(response.data)).convert("RGB")


def exported_pdf(client, resume_id, **options) -> bytes:
    result = client.post(f"/api/resumes/{resume_id}/export", json={"format": "pdf", "options": options})
    assert result.status_code == 201, result.get_json()
    parts = urlsplit(result.get_json()["data"]["downloadUrl"])
    return client.get(f"{parts.path}?{parts.query}").data


def pdf_pages(pdf: bytes, width: int) -> list[Image.Image]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for index in range(len(document)):
            page = document[index]
            pages.append(page.render(scale=width / page.get_width()).to_pil().convert("RGB"))
            page.close()
        return pages
    finally:
        document.close()


def pdf_texts(pdf: bytes) -> list[str]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [document[index].get_textpage().get_text_bounded().replace("\r\n", "\n").strip()
                for index in range(len(document))]
    finally:
        document.close()


def difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b.resize(a.size))).mean) / 3


def test_the_preview_is_the_pages_of_the_exported_pdf(client, resume):
    preview = get_preview(client, resume)
    assert list(preview) == ["pageCount", "version", "updatedAt", "pages", "undrawnCharacters"]
    assert preview["undrawnCharacters"] == []
    pdf = exported_pdf(client, resume)
    exported = pdf_pages(pdf, previews.WIDTH)
    assert preview["pageCount"] == len(exported) == 2
    # each image's text alternative is its page's text, read from the PDF
    assert [page["text"] for page in preview["pages"]] == pdf_texts(pdf)
    assert preview["pages"][0]["text"].startswith(TWO_PAGES["personalInfo"]["name"])
    assert "Education" in preview["pages"][1]["text"] and "Education" not in preview["pages"][0]["text"]
    shown = [image(client, page["url"]) for page in preview["pages"]]
    for number, (page, picture, drawn) in enumerate(zip(preview["pages"], shown, exported), start=1):
        assert page["number"] == number and picture.size == (page["width"], page["height"])
        assert page["width"] == previews.WIDTH and page["height"] == round(previews.WIDTH * 297 / 210)
        assert difference(picture, drawn) < 1.5, number  # the palette changes ~0.3 of 255 on average
    assert difference(shown[0], shown[1]) > 5  # two different pages, not one drawn twice


def test_each_option_is_the_exports_option(client, resume):
    letter = get_preview(client, resume, pageSize="Letter", colorScheme="green", margin="narrow")
    [first, *_] = letter["pages"]
    assert first["height"] == round(previews.WIDTH * 11 / 8.5)
    exported = pdf_pages(exported_pdf(client, resume, pageSize="Letter", colorScheme="green", margin="narrow"),
                         previews.WIDTH)
    assert letter["pageCount"] == len(exported)
    assert difference(image(client, first["url"]), exported[0]) < 1.5
    query = parse_qs(urlsplit(first["url"]).query)
    assert query["pageSize"] == ["Letter"] and query["colorScheme"] == ["green"] and query["v"] == [letter["version"]]
    assert get_preview(client, resume)["version"] != letter["version"]


def test_one_version_renders_once_and_its_images_are_kept(client, resume):
    first = get_preview(client, resume)
    again = get_preview(client, resume)
    assert again == first
    response = client.get(first["pages"][0]["url"])
    assert response.headers["Cache-Control"] == "private, max-age=86400, immutable"
    assert client.get(first["pages"][0]["url"]).data == response.data


def test_a_save_gives_a_new_version_with_the_new_text(client, resume):
    before = get_preview(client, resume)
    shorter = copy.deepcopy(TWO_PAGES)
    shorter["workExperience"] = shorter["workExperience"][:1]
    assert client.put(f"/api/resumes/{resume}", json={"contentJson": shorter}).status_code == 200
    after = get_preview(client, resume)
    assert after["version"] != before["version"] and after["pageCount"] == 1
    assert after["updatedAt"] > before["updatedAt"]
    # an old tab's address still answers, with the current page, not kept by the browser
    stale = client.get(before["pages"][0]["url"])
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "private, no-store"
    assert stale.data == client.get(after["pages"][0]["url"]).data
    assert client.get(before["pages"][1]["url"]).status_code == 404  # that page is gone


def test_only_the_owner_sees_the_preview(client, resume, make_user, app):
    preview = get_preview(client, resume)
    anonymous = app.test_client()
    assert anonymous.get(f"/api/resumes/{resume}/preview").status_code == 401
    assert anonymous.get(preview["pages"][0]["url"]).status_code == 401
    stranger = make_user()
    other = app.test_client()
    other.post("/api/auth/signin", json={"email": stranger["email"], "password": stranger["password"]})
    for path in (f"/api/resumes/{resume}/preview", preview["pages"][0]["url"]):
        response = other.get(path)
        assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"
    assert client.get("/api/resumes/nope/preview").get_json()["code"] == "RESUME_NOT_FOUND"


@pytest.mark.parametrize("query,field", [({"pageSize": "A0"}, "pageSize"), ({"colorScheme": "pink"}, "colorScheme"),
                                         ({"includePhoto": "maybe"}, "includePhoto"), ({"zoom": "2"}, "zoom")])
def test_bad_options_are_field_errors(client, resume, query, field):
    response = client.get(f"/api/resumes/{resume}/preview", query_string=query)
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == field


def test_a_page_past_the_last_is_not_found(client, resume):
    preview = get_preview(client, resume)
    response = client.get(f"/api/resumes/{resume}/preview/3.png?v={preview['version']}")
    assert response.status_code == 404 and response.get_json()["details"] == {"page": 3}


def test_the_preview_names_the_characters_it_prints_as_boxes(client, owner, create):
    content = {"personalInfo": {"name": "Ada", "summary": "Emoji print 🚀, a private code does not: \ue123"}}
    resume_id = create(contentJson=content).get_json()["data"]["id"]
    assert get_preview(client, resume_id)["undrawnCharacters"] == [
        {"character": "\ue123", "codePoint": "U+E123", "name": ""}]
