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


def test_a_server_without_a_model_says_ai_writing_is_not_set_up(browser, make_app, make_user):
    user = make_user()
    with served(make_app, AI_BASE_URL=None) as (url, app):
        set_plan(app, user, "PREMIUM")
        context = browser.new_context(base_url=url)
        try:
            signin = {"email": user["email"], "password": user["password"]}
            assert context.request.post("/api/auth/signin", data=signin).ok
            page = context.new_page()
            resume = api(page, "POST", "/api/resumes", {"title": "Backend", "templateId": HORIZON,
                                                        "contentJson": CONTENT, "targetJobDescription": JOB})
            # The button is pressed while the editor still loads the resume (its GET held back): the
            # letter must be asked for with the saved job, not refused for a job field not yet filled.
            held = []
            page.route(f"**/api/resumes/{resume['data']['id']}", lambda route: held.append(route))
            page.goto(f"/resumes/{resume['data']['id']}/edit")
            while not held:
                page.wait_for_timeout(20)
            page.get_by_role("button", name="Write a cover letter").click()
            page.wait_for_timeout(300)
            assert page.locator("#ai-letter-state").text_content() == ""
            held[0].continue_()
            expect(page.locator("#ai-letter-state")).to_have_text("AI writing is not set up on this server.")
            expect(page.locator("#ai-letter-box")).to_be_hidden()
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
