"""What the editor's browser tests share: a resume made through the API with the page's own session,
read back, the editor opened and its autosave waited for, an input found by its path in the resume."""
from __future__ import annotations

from playwright.sync_api import expect


def make_resume(page, **body) -> str:
    """A resume on the first basic template ("My resume" unless ``title`` is given); its id."""
    templates = page.request.get("/api/templates").json()["data"]
    basic = next(t for t in templates if t["tier"] == "basic")
    created = page.request.post("/api/resumes", data={"title": "My resume", "templateId": basic["id"], **body})
    assert created.status == 201, created.text()
    return created.json()["data"]["id"]


def read(page, resume_id: str) -> dict:
    return page.request.get(f"/api/resumes/{resume_id}").json()["data"]


def open_editor(page, resume_id: str) -> None:
    page.goto(f"/resumes/{resume_id}/edit")
    expect(page.locator("#editor-form")).not_to_have_attribute("aria-busy", "true")


def saved(page) -> None:
    expect(page.locator("#save-state")).to_have_attribute("data-state", "saved", timeout=30_000)


def field(page, path: str):
    return page.locator(f'[data-field="{path}"]')
