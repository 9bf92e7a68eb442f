"""The editor's AI parts in a real browser (issue 16): the Analysis panel (scores, keywords, suggestions
that jump to their section), "Suggest a summary" / "Suggest bullets" with review and Apply (saved by the
autosave), the cover letter, and the errors said in words (FREE plan, a failing model).

The model is the session's fake OpenAI-compatible server (tests/ai/fake_openai.py, set up by
tests/conftest.py); what the page shows is checked against what the API answers and holds.
"""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.ai.fake_openai import BULLETS, LETTER, SUMMARY
from tests.browser.conftest import served
from tests.browser.test_dashboard import HORIZON, api, set_plan

JOB = "We are hiring a Backend Engineer: Python, PostgreSQL, Kubernetes, on-call for payment APIs."
CONTENT = {
    "personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "summary": "Engineer who likes queues."},
    "workExperience": [{"company": "Acme Payments", "position": "Senior Engineer", "startDate": "2020-01",
                        "description": "Built the payment API.", "highlights": ["Moved settlement to a queue"]}],
    "skills": ["Python", "PostgreSQL"],
}
SHOTS = "/tmp/shots"


@pytest.fixture(autouse=True)
def _fresh_fake(fake_openai):
    fake_openai.reset()
    yield
    fake_openai.reset()


def open_editor(open_as, live, make_user, plan="PREMIUM", language="en"):
    user = make_user()
    if plan != "FREE":
        set_plan(live[1], user, plan)
    page = open_as(user, language=language)
    resume = api(page, "POST", "/api/resumes", {"title": "Backend", "templateId": HORIZON, "contentJson": CONTENT,
                                                "targetJobDescription": JOB})["data"]
    page.goto(f"/resumes/{resume['id']}/edit")
    expect(page.locator("#editor-form")).not_to_have_attribute("aria-busy", "true")
    return page, resume["id"]


def test_analysis_shows_the_scores_and_keywords_and_a_suggestion_jumps_to_its_section(open_as, live, make_user):
    page, resume_id = open_editor(open_as, live, make_user)
    expected = api(page, "POST", f"/api/resumes/{resume_id}/analysis", {"jobDescription": JOB})["data"]
    page.get_by_role("button", name="Analyse against the job").click()
    panel = page.locator("#ai-panel")
    for key in ("overallScore", "keywordMatchScore", "formatScore", "contentScore"):
        expect(panel.locator(f'[data-score="{key}"]')).to_have_text(str(expected[key]))
    expect(panel.locator("#ai-matched li")).to_have_text(expected["matchedKeywords"])
    expect(panel.locator("#ai-missing li")).to_have_text(expected["missingKeywords"])
    assert any(s["section"] == "education" for s in expected["suggestions"]), expected["suggestions"]
    expect(panel.locator("#ai-suggestions > li")).to_have_count(len(expected["suggestions"]))
    os.makedirs(SHOTS, exist_ok=True)
    panel.screenshot(path=f"{SHOTS}/ai-panel.png")

    panel.locator('#ai-suggestions button[data-goto="education"]').first.click()
    focused = page.locator(":focus")
    expect(focused).to_have_attribute("data-add", "education")  # the empty section's "Add education"
    expect(page.locator('[data-section="education"]')).to_be_in_viewport()
    assert page.script_errors == []


def test_a_free_account_is_told_how_to_upgrade(open_as, live, make_user):
    page, _resume_id = open_editor(open_as, live, make_user, plan="FREE")
    page.get_by_role("button", name="Analyse against the job").click()
    note = page.locator("#ai-analysis-state")
    expect(note).to_contain_text("AI features come with the Premium plan.")
    expect(note.get_by_role("link", name="Upgrade")).to_have_attribute("href", "/billing")
    expect(page.locator("#ai-results")).to_be_hidden()
    page.get_by_role("button", name="Suggest a summary").click()
    expect(page.locator(".ai-row .ai-note").first).to_contain_text("Premium plan")


def test_a_suggested_summary_is_reviewed_applied_and_autosaved(open_as, live, make_user):
    page, resume_id = open_editor(open_as, live, make_user)
    summary = page.locator('[data-field="contentJson.personalInfo.summary"]')
    page.get_by_role("button", name="Suggest a summary").click()
    review = page.get_by_role("textbox", name="Suggested text")
    expect(review).to_have_value(SUMMARY)
    expect(summary).to_have_value("Engineer who likes queues.")  # nothing changes by itself
    os.makedirs(SHOTS, exist_ok=True)
    page.locator('[aria-labelledby="h-personal"]').screenshot(path=f"{SHOTS}/ai-summary.png")
    page.get_by_role("button", name="Apply").click()
    expect(summary).to_have_value(SUMMARY)
    expect(review).to_have_count(0)
    expect(page.locator("#save-state")).to_have_attribute("data-state", "saved")
    saved = api(page, "GET", f"/api/resumes/{resume_id}")["data"]
    assert saved["contentJson"]["personalInfo"]["summary"] == SUMMARY

    page.get_by_role("button", name="Suggest bullets").click()  # the one job's bullets, added to its highlights
    expect(page.get_by_role("textbox", name="Suggested text")).to_have_value("\n".join(BULLETS))
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("#save-state")).to_have_attribute("data-state", "saved")
    saved = api(page, "GET", f"/api/resumes/{resume_id}")["data"]
    assert saved["contentJson"]["workExperience"][0]["highlights"] == ["Moved settlement to a queue", *BULLETS]
    assert page.script_errors == []


def test_bullets_for_a_job_added_a_moment_ago_are_written_from_that_job(open_as, live, make_user, fake_openai):
    page, resume_id = open_editor(open_as, live, make_user)
    page.get_by_role("button", name="Add experience").click()
    page.locator('[data-field="contentJson.workExperience.1.company"]').fill("Globex Logistics")
    page.locator('[data-field="contentJson.workExperience.1.position"]').fill("Staff Engineer")
    # at once, before the autosave's pause has passed: the new job is saved first, then written for
    page.get_by_role("button", name="Suggest bullets").nth(1).click()
    expect(page.get_by_role("textbox", name="Suggested text")).to_have_value("\n".join(BULLETS))
    prompt = fake_openai.requests[-1]["body"]["messages"][-1]["content"]
    assert "THE ENTRY TO WRITE BULLETS FOR\nStaff Engineer at Globex Logistics" in prompt
    saved = api(page, "GET", f"/api/resumes/{resume_id}")["data"]["contentJson"]["workExperience"]
    assert [job["company"] for job in saved] == ["Acme Payments", "Globex Logistics"]
    assert page.script_errors == []


def test_discard_leaves_the_field_and_a_failing_model_says_try_later(open_as, live, make_user, fake_openai):
    page, _resume_id = open_editor(open_as, live, make_user)
    page.get_by_role("button", name="Suggest a summary").click()
    page.get_by_role("button", name="Discard").click()
    expect(page.get_by_role("textbox", name="Suggested text")).to_have_count(0)
    expect(page.locator('[data-field="contentJson.personalInfo.summary"]')).to_have_value("Engineer who likes queues.")
    fake_openai.status = 500
    page.get_by_role("button", name="Suggest a summary").click()
    expect(page.locator(".ai-row .ai-note").first).to_have_text("The AI service did not answer. Try again later.")


def test_the_letter_asked_for_while_the_editor_loads_uses_the_saved_job(open_as, live, make_user):
    page, resume_id = open_editor(open_as, live, make_user)
    # The button is pressed while the editor still loads the resume (its GET held back): the letter
    # must be asked for with the saved job, not refused for a job field not yet filled.
    held = []
    page.route(f"**/api/resumes/{resume_id}", lambda route: held.append(route))
    page.goto(f"/resumes/{resume_id}/edit")
    while not held:
        page.wait_for_timeout(20)
    page.get_by_role("button", name="Write a cover letter").click()
    page.wait_for_timeout(300)
    assert page.locator("#ai-letter-state").text_content() == ""
    held[0].continue_()
    expect(page.get_by_role("textbox", name=re.compile("Your cover letter"))).to_have_value(LETTER)


NO_MODEL = {
    "en": {"summary": "Suggest a summary", "bullets": "Suggest bullets", "letter": "Write a cover letter",
           "analyse": "Analyse against the job", "plans": "Plans",
           "note": "AI writing is not available on this server (the analysis against a job is)."},
    "zh-cn": {"summary": "建议个人简介", "bullets": "建议要点", "letter": "撰写求职信", "analyse": "对照职位分析",
              "plans": "套餐", "note": "此服务器未提供 AI 写作功能（对照职位的分析仍可使用）。"},
}


@pytest.mark.parametrize("language", ["en", "zh-cn"])
def test_a_server_without_a_model_offers_no_ai_writing_and_the_plans_say_so(browser, make_app, make_user, language):
    words = NO_MODEL[language]
    user = make_user()
    with served(make_app, AI_BASE_URL=None) as (url, app):
        set_plan(app, user, "PREMIUM")
        context = browser.new_context(base_url=url, locale="zh-CN" if language == "zh-cn" else "en-US")
        try:
            signin = {"email": user["email"], "password": user["password"]}
            assert context.request.post("/api/auth/signin", data=signin).ok
            prefs = {"preferences": {"language": language}}
            assert context.request.put("/api/account", data=prefs).ok
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            resume = api(page, "POST", "/api/resumes", {"title": "Backend", "templateId": HORIZON,
                                                        "contentJson": CONTENT, "targetJobDescription": JOB})
            page.goto(f"/resumes/{resume['data']['id']}/edit")
            expect(page.locator("#editor-form")).not_to_have_attribute("aria-busy", "true")
            expect(page.locator('[data-list="workExperience"] > li.entry')).to_have_count(1)
            for name in ("summary", "bullets", "letter"):
                expect(page.get_by_role("button", name=words[name])).to_have_count(0)
            page.get_by_role("button", name=words["analyse"]).click()  # the analysis needs no model
            expect(page.locator('#ai-panel [data-score="overallScore"]')).to_have_text(re.compile(r"^\d+$"))
            os.makedirs(SHOTS, exist_ok=True)
            page.locator("#ai-panel").screenshot(path=f"{SHOTS}/ai-panel-no-model-{language}.png")

            page.goto("/billing")
            premium = page.locator('.plan[data-plan="PREMIUM"]')
            expect(premium.locator("li.unavailable")).to_have_count(1)
            expect(premium.locator("li.unavailable .note")).to_have_text(words["note"])
            expect(page.locator('.plan[data-plan="FREE"] li.unavailable')).to_have_count(0)
            page.locator(".plans").screenshot(path=f"{SHOTS}/plans-no-model-{language}.png")
            assert errors == []
        finally:
            context.close()


def test_a_cover_letter_is_written_edited_and_downloaded(open_as, live, make_user):
    page, _resume_id = open_editor(open_as, live, make_user)
    page.get_by_role("button", name="Write a cover letter").click()
    letter = page.get_by_role("textbox", name=re.compile("Your cover letter"))
    expect(letter).to_have_value(LETTER)
    letter.fill(LETTER + "\n\nP.S. I can start in May.")
    with page.expect_download() as download:
        page.locator("#ai-letter-box").get_by_role("button", name="TXT").click()
    path = download.value.path()
    with open(path, encoding="utf-8") as text:
        assert "P.S. I can start in May." in text.read()
    expect(page.locator("#ai-letter-result")).to_contain_text("is ready")


def test_the_panel_speaks_chinese(open_as, live, make_user):
    os.makedirs(SHOTS, exist_ok=True)
    page, _resume_id = open_editor(open_as, live, make_user, language="zh-cn")
    expect(page.locator("#h-ai")).to_have_text("分析")
    page.get_by_role("button", name="对照职位分析").click()
    expect(page.locator('#ai-panel [data-score="overallScore"]')).to_have_text(re.compile(r"^\d+$"))
    page.locator("#ai-panel").screenshot(path=f"{SHOTS}/ai-panel-zh.png")
    expect(page.get_by_role("button", name="建议个人简介")).to_be_visible()
