"""GET /api/templates/<id>/thumbnail: a PNG of the template's own first page, as a picker shows it."""
from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from app import documents
from app.pictures import thumbnails
from app.resumes.models import Template


@pytest.fixture
def listed(client):
    """The template list's items."""
    response = client.get("/api/templates")
    assert response.status_code == 200
    return response.get_json()["data"]


def path_of(item: dict) -> str:
    return urlsplit(item["thumbnailUrl"]).path


def image_of(response) -> Image.Image:
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG"
    return image.convert("RGB")


def first_page(pdf: bytes, size: tuple[int, int]) -> Image.Image:
    """Page 1 drawn by PDFium at ``size`` (its own rounding of the height may differ by a pixel)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[0]
        image = page.render(scale=size[0] / page.get_width()).to_pil().convert("RGB")
        page.close()
    finally:
        document.close()
    return image.resize(size)


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two same-sized pictures, 0 (same) to 255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_every_template_has_a_png_thumbnail_of_picker_width(app, client, listed):
    for item in listed:
        assert item["thumbnailUrl"] == f"{app.config['BASE_URL']}/api/templates/{item['id']}/thumbnail"
        response = client.get(path_of(item))
        assert response.status_code == 200, item["name"]
        assert response.content_type == "image/png"
        image = image_of(response)
        assert image.size == (thumbnails.WIDTH, round(thumbnails.WIDTH * 297 / 210))  # an A4 page
        # A page with a resume on it: mostly paper, with dark text somewhere.
        darkest, lightest = image.convert("L").getextrema()
        assert darkest < 80 and lightest > 240, item["name"]
        assert response.headers["Cache-Control"] == "public, max-age=86400"
        assert response.headers["ETag"].strip('"')


def test_different_templates_give_different_pictures(client, listed):
    pictures = {item["name"]: image_of(client.get(path_of(item))) for item in listed}
    names = sorted(pictures)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            assert difference(pictures[first], pictures[second]) > 3, (first, second)  # 10.7-23.9 measured


def test_the_thumbnail_is_the_templates_own_first_page_with_the_sample(client, listed, query):
    """Drawn independently here from each stored template: a served picture is the same (up to resampling)
    as its own template's first page, and nearer to it than to any other's. The whole sample is on that
    page (a trailing blank page would not show)."""
    pages = {}
    for item in listed:
        template = query(lambda session: session.get(Template, item["id"]))
        source = documents.Source(html_template=template.html_template, css=template.css_styles,
                                  title=thumbnails.SAMPLE_TITLE, content=thumbnails.SAMPLE, visible={})
        pdf = documents.render("pdf", source)
        text = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split()).lower()
        for words in ("Jordan Ellis", "Northwind Payments", "Cobalt Labs", "University of Washington", "Terraform",
                      "ledgerlite"):
            assert words.lower() in text, (item["name"], words)
        pages[item["id"]] = pdf

    for item in listed:
        served = image_of(client.get(path_of(item)))
        distances = {other: difference(first_page(pdf, served.size), served) for other, pdf in pages.items()}
        assert distances[item["id"]] < 5, item["name"]  # 1.9-2.5 measured; other templates: 10 or more
        assert min(distances, key=distances.get) == item["id"], item["name"]


def test_if_none_match_answers_304_and_a_stale_etag_the_picture(client, listed):
    path = path_of(listed[0])
    first = client.get(path)
    etag = first.headers["ETag"]

    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag and again.headers["Cache-Control"] == "public, max-age=86400"

    stale = client.get(path, headers={"If-None-Match": '"0123456789abcdef"'})
    assert stale.status_code == 200 and stale.data == first.data

    head = client.head(path)
    assert head.status_code == 200 and head.headers["ETag"] == etag and head.content_type == "image/png"


def test_renders_are_the_same_bytes_every_time(client, listed):
    """Every worker process draws the same PNG, so all of them agree on the ETag."""
    path = path_of(listed[0])
    first = client.get(path)
    thumbnails.clear_cache()
    second = client.get(path)
    assert second.data == first.data and second.headers["ETag"] == first.headers["ETag"]


def test_a_burst_on_a_cold_cache_gets_one_picture(app, listed):
    thumbnails.clear_cache()
    paths = [path_of(item) for item in listed] * 3

    def fetch(path):
        response = app.test_client().get(path)
        return path, response.status_code, response.headers["ETag"]

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(fetch, paths))
    assert {status for _, status, _ in answers} == {200}
    for path in set(paths):
        assert len({etag for p, _, etag in answers if p == path}) == 1


def test_an_edited_template_gets_a_new_picture_and_etag(client, listed, query):
    item = listed[0]
    before = client.get(path_of(item))

    def set_css(css):
        def change(session):
            template = session.get(Template, item["id"])
            original, template.css_styles = template.css_styles, css(template.css_styles)
            session.commit()
            return original
        return query(change)

    original = set_css(lambda css: css + "\nbody { background-color: #222222; }")
    try:
        after = client.get(path_of(item), headers={"If-None-Match": before.headers["ETag"]})
        assert after.status_code == 200
        assert after.headers["ETag"] != before.headers["ETag"]
        assert difference(image_of(before), image_of(after)) > 20
    finally:
        set_css(lambda _css: original)
    assert client.get(path_of(item)).data == before.data


@pytest.mark.parametrize("template_id", ["0123456789abcdef01234567", "nope", "x" * 300])
def test_an_unknown_template_is_a_404_in_the_envelope(client, template_id):
    response = client.get(f"/api/templates/{template_id}/thumbnail")
    assert response.status_code == 404
    assert response.get_json() == {"error": "This template does not exist.", "code": "NOT_FOUND",
                                   "details": {"templateId": template_id}}
    assert response.headers["Cache-Control"] == "no-store"


def test_thumbnails_are_public_and_answer_signed_in_and_bearer_requests_too(app, client, owner, listed):
    """Like the list: no sign-in needed; a signed-in user's requests count toward the per-user limit and
    a bearer request toward the plan's API requests, as on any endpoint. Cold renders, each."""
    thumbnails.clear_cache()
    response = client.get(path_of(listed[0]))
    assert response.status_code == 200 and response.content_type == "image/png"
    assert "X-RateLimit-Limit" in response.headers

    thumbnails.clear_cache()
    token = app.test_client().post("/api/auth/token", json={"grant_type": "password", "email": owner["email"],
                                                            "password": owner["password"]}).get_json()
    api = app.test_client()
    response = api.get(path_of(listed[0]), headers={"Authorization": f"Bearer {token['access_token']}"})
    assert response.status_code == 200 and response.content_type == "image/png"
    usage = api.get("/api/account", headers={"Authorization": f"Bearer {token['access_token']}"}).get_json()
    assert usage["data"]["apiRequestsUsed"] == 2
