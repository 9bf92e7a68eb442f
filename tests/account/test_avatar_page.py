"""GET /account/avatar: the person's photo fetched from its address and served from our origin (the page's
CSP allows images from 'self' only), with a real image server on loopback (the test settings allow
loopback photo addresses)."""
from __future__ import annotations

import io
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from PIL import Image

from app.users.models import User
from tests.support import serving


def _image(fmt: str, size=(40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, fmt)
    return out.getvalue()


# Path -> (status, Content-Type the server claims, body).
FILES = {
    "/me.png": (200, "image/png", _image("PNG")),
    "/me.jpg": (200, "image/jpeg", _image("JPEG")),
    "/me.gif": (200, "image/gif", _image("GIF")),
    "/me.webp": (200, "application/octet-stream", _image("WEBP")),  # the type is Pillow's, not the server's
    "/page.html": (200, "text/html", b"<html><body>not a photo</body></html>"),
    "/fake.png": (200, "image/png", b"\x89PNG\r\n\x1a\n but nothing after it"),
    "/icon.bmp": (200, "image/bmp", _image("BMP")),
    "/huge.png": (200, "image/png", _image("PNG", (5000, 5000))),  # 25 megapixels in a small file
}


class _Photos(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self):  # noqa: N802
        type(self).hits += 1
        status, content_type, body = FILES.get(self.path, (404, "text/plain", b"no such photo"))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def photos():
    _Photos.hits = 0
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), _Photos)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def set_avatar(query, owner):
    def run(url):
        def update(session):
            session.get(User, owner["id"]).avatar = url
            session.commit()
        query(update)
    return run


@pytest.mark.parametrize("path, media_type", [("/me.png", "image/png"), ("/me.jpg", "image/jpeg"),
                                              ("/me.gif", "image/gif"), ("/me.webp", "image/webp")])
def test_the_avatar_is_served_from_our_origin(client, photos, set_avatar, path, media_type):
    set_avatar(photos + path)
    response = client.get("/account/avatar?v=1")
    assert response.status_code == 200
    assert response.mimetype == media_type
    assert response.data == FILES[path][2]
    assert response.headers["Cache-Control"] == "private, max-age=300"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_page_shows_the_avatar_with_a_hash_of_its_address(client, photos, set_avatar):
    page = client.get("/account").get_data(as_text=True)
    assert "/account/avatar" not in page  # no avatar: the initial only
    set_avatar(photos + "/me.png")
    first = client.get("/account").get_data(as_text=True)
    assert '<img src="/account/avatar?v=' in first
    set_avatar(photos + "/me.jpg")
    second = client.get("/account").get_data(as_text=True)
    version = lambda page: page.split("/account/avatar?v=")[1].split('"')[0]  # noqa: E731
    assert len(version(first)) == 16 and version(first) != version(second)


def test_no_avatar_is_not_found(client, owner):
    response = client.get("/account/avatar")
    assert response.status_code == 404
    assert not response.mimetype.startswith("image/")


@pytest.mark.parametrize("path", ["/missing.png", "/page.html", "/fake.png", "/icon.bmp", "/huge.png"])
def test_an_address_without_a_usable_image_is_not_found(client, photos, set_avatar, path):
    set_avatar(photos + path)
    response = client.get("/account/avatar")
    assert response.status_code == 404
    assert _Photos.hits == 1


def test_an_address_that_cannot_be_reached_is_not_found(client, set_avatar):
    from tests.support import free_port

    set_avatar(f"http://127.0.0.1:{free_port()}/me.png")  # nothing listens there
    assert client.get("/account/avatar").status_code == 404


def test_a_private_address_is_not_fetched_in_production_settings(make_app, make_user, query, photos):
    strict = make_app(PHOTO_ALLOW_PRIVATE_TARGETS=None)
    user = make_user()

    def update(session):
        session.get(User, user["id"]).avatar = photos + "/me.png"
        session.commit()
    query(update)
    client = strict.test_client()
    assert client.post("/api/auth/signin",
                       json={"email": user["email"], "password": user["password"]}).status_code == 200
    assert client.get("/account/avatar").status_code == 404
    assert _Photos.hits == 0


def test_signed_out_visitors_are_sent_to_sign_in(app):
    response = app.test_client().get("/account/avatar?v=abc")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?callbackUrl=")
