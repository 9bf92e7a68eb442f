"""Arabic and Hebrew typed where they belong (issue 31 point 4): every text field of every page takes the
direction of what is typed into it (``dir="auto"``), and the share page keeps a phone number or an
e-mail in its own order inside a right-to-left resume, as the HTML export does."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

TEXT_TYPES = {None, "text", "tel", "email", "url", "search"}
CONTENT = {"language": "ar", "personalInfo": {"name": "ليلى حداد", "phone": "+971 50 123 4567",
                                              "email": "layla@example.com", "summary": "مهندسة برمجيات"}}


class Fields(HTMLParser):
    """The text inputs and text areas of a page, each as its attributes."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.fields: list[dict] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "textarea" or (tag == "input" and attrs.get("type") in TEXT_TYPES):
            self.fields.append(attrs)


def _undirected(html: str) -> list[dict]:
    return [field for field in Fields(html).fields if field.get("dir") != "auto"]


@pytest.mark.parametrize("path", ["/login", "/register", "/forgot-password", "/resend-verification",
                                  "/login?error=TWO_FACTOR_REQUIRED"])
def test_the_text_fields_of_the_public_pages_follow_what_is_typed(client, path):
    html = client.get(path).get_data(as_text=True)
    assert Fields(html).fields, path
    assert not _undirected(html)


@pytest.mark.parametrize("path", ["/dashboard", "/editor", "/account", "/billing", "/webhooks"])
def test_the_text_fields_of_the_signed_in_pages_follow_what_is_typed(client, owner, create, path):
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    html = client.get(f"/resumes/{resume_id}/edit" if path == "/editor" else path).get_data(as_text=True)
    assert Fields(html).fields, path
    assert not _undirected(html)


def test_the_share_page_keeps_a_phone_number_and_an_email_in_their_order(client, owner, create):
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    token = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True}).get_json()["data"]["token"]
    html = client.get(f"/share/{token}").get_data(as_text=True)
    # Isolated (LEFT-TO-RIGHT ISOLATE ... POP DIRECTIONAL ISOLATE): "4567 123 50 971+" was what a reader saw.
    assert "\u2066+971 50 123 4567\u2069" in html
    assert "\u2066layla@example.com\u2069" in html
    assert not _undirected(html)  # the comment form
