"""The editor's preview of a resume too heavy to draw within PREVIEW_TIMEOUT: it says so in words,
in the user's language (issue 24 point 2)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.pictures import previews
from tests.browser.test_side import make_resume, open_editor
from tests.pictures.test_preview_fairness import HEAVY

SAID = {"en": "takes longer than 5 seconds to draw", "zh-cn": "绘制需要超过 5 秒"}


@pytest.mark.parametrize("language", ["en", "zh-cn"])
def test_a_resume_too_heavy_to_preview_is_explained(open_as, live, language):
    _url, app = live
    app.config["PREVIEW_TIMEOUT"] = 5
    previews.clear_cache()
    page = open_as(language=language)
    light = {"personalInfo": {"name": "Hugh Heavy", "summary": "Engineer."}}
    resume_id = make_resume(page, content=light)
    open_editor(page, resume_id)
    drawn = page.locator("#preview-pages figure")
    expect(drawn).to_have_count(1)
    # the whole heavy content saved at once, as an import or another tab would
    saved = page.request.put(f"/api/resumes/{resume_id}", data={"contentJson": HEAVY})
    assert saved.ok, saved.text()
    page.reload()
    box = page.locator("#preview-pages")
    expect(box).to_have_attribute("data-state", "too-heavy", timeout=60_000)
    expect(page.locator("#preview-state")).to_contain_text(SAID[language])
    assert page.script_errors == []
