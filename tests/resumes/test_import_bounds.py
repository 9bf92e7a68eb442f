"""An import's work is bounded (issue 23 point 4): inputs a hostile-input probe found each get a 4xx
within 5 seconds, the plan's limit is checked before anything is read, and the web process answers
the next import as before. The documents are built here, as an attacker would build them."""
from __future__ import annotations

import io
import time
import zipfile

import pytest
from docx import Document

from tests.resumes.test_import import SAMPLE, SMALL_RESUME, URL, docx_of, refused, unreadable, upload

BOUND = 5.0  # seconds: the bound for an answer to a hostile input


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def still_imports(client) -> None:
    """The web process is unharmed: a small resume imports as before."""
    response = upload(client, docx_of(*SMALL_RESUME), "cv.docx")
    assert response.status_code == 201, response.get_json()


def words_docx(count: int) -> bytes:
    """A DOCX of ``count`` one-word paragraphs (37 KB for 10,000 of them)."""
    document = Document()
    body = document.element.body
    template = document.add_paragraph("word")._p
    for _ in range(count - 1):
        body.append(template.__copy__())
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_json_resume_with_an_80000_item_list_is_refused_at_once(client, owner):
    document = {"basics": {"name": "Ada"}, "skills": [7] * 80_000}
    response, took = timed(lambda: client.post(URL, json={"jsonResume": document}))

    body = refused(response, 413, "CONTENT_TOO_LARGE")
    assert body["details"]["field"] == "jsonResume.skills" and body["details"]["maxItems"] < 80_000
    assert took < BOUND, took
    still_imports(client)


def test_many_values_across_lists_are_refused_too(client, owner):
    """No list is long, but together they hold far more than a resume does."""
    document = {"basics": {"name": "Ada"},
                "work": [{"name": f"Firm {i}", "highlights": ["x"] * 400} for i in range(200)]}
    response, took = timed(lambda: client.post(URL, json={"jsonResume": document}))

    body = refused(response, 413, "CONTENT_TOO_LARGE")
    assert body["details"]["field"] == "jsonResume"
    assert took < BOUND, took


def test_dropping_many_values_takes_linear_time(client, owner):
    """A list at the bound, every item of the wrong type: each is dropped and named once."""
    document = {"basics": {"name": "Ada"}, "skills": [7] * 1000, "work": [{"name": "c", "x": 1}] * 1000}
    response, took = timed(lambda: client.post(URL, json={"jsonResume": document}))

    assert response.status_code == 201, response.get_json()
    dropped = response.get_json()["data"]["dropped"]
    assert "skills.999" in dropped and "work.999.x" in dropped and len(dropped) == len(set(dropped))
    assert took < BOUND, took


def test_the_plan_limit_is_checked_before_the_document_is_read(client, owner, create):
    for _ in range(5):  # FREE: five resumes
        assert create().status_code == 201
    heavy = {"basics": {"name": "Ada"}, "skills": [7] * 80_000}

    response, took = timed(lambda: client.post(URL, json={"jsonResume": heavy}))
    refused(response, 429, "SUBSCRIPTION_LIMIT_EXCEEDED")
    response, took_file = timed(lambda: upload(client, words_docx(60_000), "cv.docx"))
    refused(response, 429, "SUBSCRIPTION_LIMIT_EXCEEDED")
    assert took < 1 and took_file < 1, (took, took_file)  # nothing was read


@pytest.mark.parametrize("paragraphs", [10_000, 60_000])
def test_a_docx_of_many_one_word_paragraphs_is_refused_within_the_bound(client, owner, paragraphs):
    data = words_docx(paragraphs)
    response, took = timed(lambda: upload(client, data, "cv.docx"))

    body = unreadable(response, "too_many_lines")
    assert "2,000 lines or paragraphs" in body["error"], body["error"]
    assert took < BOUND, took
    still_imports(client)


def test_a_zip_of_100000_members_is_refused_for_its_members_not_its_size(client, owner):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as out:
        out.writestr("[Content_Types].xml", "<Types/>")
        out.writestr("word/document.xml", "<w:document/>")
        for index in range(100_000):
            out.writestr(f"p/{index}", b"")
    response, took = timed(lambda: upload(client, archive.getvalue(), "parts.docx"))

    body = unreadable(response, "too_many_parts")
    assert "100,002 parts" in body["error"] and "MB" not in body["error"], body["error"]
    assert took < BOUND, took
    still_imports(client)


def test_a_small_import_still_names_what_it_dropped(client, owner):
    response = client.post(URL, json={"jsonResume": {**SAMPLE, "basics": {**SAMPLE["basics"], "image": 7}}})
    assert response.status_code == 201 and "basics.image" in response.get_json()["data"]["dropped"]
