"""The signed-in pages as their scripts draw them, in the pseudo-language (tests/pseudo.py): what a script
writes with t("…") or a table marked N_("…") is inside ⟦…⟧; a word outside came from nowhere in the catalogue.
The pages are read in Chromium once their scripts have drawn the person's data."""
from __future__ import annotations

import pytest

from tests.browser.conftest import served
from tests.pseudo import problems, write_pseudo_catalogue


@pytest.fixture(scope="module")
def pseudo_catalogue(tmp_path_factory):
    return write_pseudo_catalogue(tmp_path_factory.mktemp("pseudo-translations"))


def test_the_pages_scripts_speak_through_the_catalogue(browser, make_app, make_user, pseudo_catalogue):
    user = make_user(name="Ada Lovelace")
    with served(make_app, config={"BABEL_TRANSLATION_DIRECTORIES": str(pseudo_catalogue)}) as (url, _app):
        context = browser.new_context(base_url=url, locale="zh-CN", viewport={"width": 1440, "height": 900})
        try:
            api = context.request
            assert api.post("/api/auth/signin", data={"email": user["email"], "password": user["password"]}).ok
            assert api.put("/api/account", data={"preferences": {"language": "zh-cn"}}).ok
            templates = api.get("/api/templates").json()["data"]
            resume = api.post("/api/resumes", data={"title": "Résumé of Ada", "templateId": templates[0]["id"]})
            resume_id = resume.json()["data"]["id"]
            api.put(f"/api/resumes/{resume_id}", data={"contentJson": {"personalInfo": {"fullName": "Ada Lovelace"}}})
            hook = api.post("/api/webhooks", data={"url": "http://127.0.0.1:9/hooks/ada", "events": ["resume.updated"]})
            assert hook.ok, hook.text()
            data = (user["name"], user["email"], "Résumé of Ada", "http://127.0.0.1:9/hooks/ada",
                    *(template["name"] for template in templates))
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            found = {}
            for path, ready in (("/dashboard", "#resume-rows tr"), (f"/resumes/{resume_id}/edit", "#editor-form"),
                                ("/account", "#profile-form"), ("/billing", "#current-price"),
                                ("/webhooks", "#webhook-rows tr")):
                page.goto(path)
                page.wait_for_load_state("networkidle")
                page.locator(ready).first.wait_for(state="attached")
                found[path] = problems(page.content(), data)
            assert {path: words for path, words in found.items() if words} == {}
            assert errors == []
        finally:
            context.close()
