"""The public share page on a phone, as a recruiter opens it: the resume and its Download button
fit 375 and 320 px with no sideways scrolling, in English and Chinese, whatever the template."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES
from tests.browser.test_billing import subscribe_by_api
from tests.browser.test_side import TWO_PAGES

DOWNLOAD = {"en": "Download PDF", "zh-cn": "下载 PDF"}


def shared_resume(page, template: dict) -> str:
    created = page.request.post("/api/resumes", data={"title": "Platform engineer", "templateId": template["id"],
                                                      "contentJson": TWO_PAGES})
    assert created.status == 201, created.text()
    resume_id = created.json()["data"]["id"]
    settings = {"allowDownload": True, "allowComments": True}
    shared = page.request.post(f"/api/resumes/{resume_id}/share", data=settings)
    assert shared.status == 201, shared.text()
    return shared.json()["data"]["shareUrl"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_share_page_fits_a_phone_with_download_in_view(open_as, browser, live, language):
    url, _app = live
    owner = open_as()
    subscribe_by_api(owner)  # every template
    templates = owner.request.get("/api/templates").json()["data"]
    links = {template["name"]: shared_resume(owner, template) for template in templates}
    for width in (375, 320):
        context = browser.new_context(base_url=url, viewport={"width": width, "height": 740},
                                      locale="zh-CN" if language == "zh-cn" else "en-US", is_mobile=True,
                                      has_touch=True)
        try:
            visitor = context.new_page()
            for name, link in links.items():
                visitor.goto(link)
                download = visitor.get_by_role("link", name=DOWNLOAD[language])
                expect(download).to_be_visible()
                scroll = visitor.evaluate("document.scrollingElement.scrollWidth")
                assert scroll <= width, f"{name} at {width} px: {scroll} px wide"
                box = download.bounding_box()
                assert 0 <= box["x"] and box["x"] + box["width"] <= width, (name, width, box)
                comment = visitor.get_by_role("button", name="发送" if language == "zh-cn" else "Send")
                comment.scroll_into_view_if_needed()
                assert comment.bounding_box()["x"] + comment.bounding_box()["width"] <= width
            visitor.goto(links[templates[0]["name"]])
            visitor.screenshot(path=f"/tmp/share-{width}-{language}.png", full_page=True)
        finally:
            context.close()
