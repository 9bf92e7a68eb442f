"""The editor's assistant (issue 35 point 5) in a real browser, in English and Chinese, against the fake
OpenAI-compatible service (tests/ai/fake_openai.py), whose model reads the resume through get_resume and
proposes a patch: the proposal is shown as what it would change, in the form's words; nothing changes until
Accept, which fills the form, is one step of Undo, and one version named after the assistant; Decline changes
nothing; an ambiguous request gets a question back. Screenshots in /tmp/shots."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.ai.fake_openai import call, tool_results
from tests.browser.editing import field, make_resume, open_editor, read, saved
from tests.browser.test_dashboard import set_plan

SHOTS = Path("/tmp/shots")
SHOTS.mkdir(exist_ok=True)
SUMMARY = "contentJson.personalInfo.summary"
WORDS = {"en": {"send": "Send", "accept": "Accept", "decline": "Decline", "undo": "Undo", "summary": "Summary",
                "edited": "Edited by Assistant: apply_resume_patch"},
         "zh-cn": {"send": "发送", "accept": "接受", "decline": "拒绝", "undo": "撤销", "summary": "个人简介",
                   "edited": "Assistant: apply_resume_patch"}}
NEW = "Mathematician who wrote the first published algorithm."


def _proposing(fake_openai, text: str = NEW):
    fake_openai.reset()
    fake_openai.turns = [call("get_resume"), lambda body: call("propose_patch", summary="A sharper summary.", operations=[
        {"op": "replace", "path": "/contentJson/personalInfo/summary", "value": text}])]
    return tool_results


@pytest.fixture
def editor(open_as, live, make_user):
    def open_for(language: str):
        user = make_user()
        set_plan(live[1], user, "PREMIUM")
        page = open_as(user, language=language)
        resume_id = make_resume(page, contentJson={"personalInfo": {"name": "Ada Lovelace", "summary": "Mathematician."}})
        open_editor(page, resume_id)
        saved(page)
        return page, resume_id
    return open_for


@pytest.mark.parametrize("language", ["en", "zh-cn"])
def test_a_proposal_is_shown_in_the_forms_words_and_applied_only_when_accepted(editor, fake_openai, language):
    words = WORDS[language]
    page, resume_id = editor(language)
    _proposing(fake_openai)
    page.fill("#assistant-message", "Make my summary sharper.")
    page.get_by_role("button", name=words["send"], exact=True).click()
    proposal = page.locator(".assistant-proposal")
    expect(proposal).to_contain_text("A sharper summary.")
    expect(proposal.locator(".assistant-changes > li")).to_have_count(1)
    expect(proposal.locator(".assistant-changes")).to_contain_text(words["summary"])
    expect(proposal.locator(".assistant-changes")).to_contain_text(NEW)
    expect(field(page, SUMMARY)).to_have_value("Mathematician.")  # nothing changed yet
    page.locator("#assistant").screenshot(path=SHOTS / f"assistant-proposal-{language}.png")
    proposal.get_by_role("button", name=words["accept"]).click()
    expect(field(page, SUMMARY)).to_have_value(NEW)
    saved(page)
    assert read(page, resume_id)["contentJson"]["personalInfo"]["summary"] == NEW
    versions = page.request.get(f"/api/resumes/{resume_id}/versions").json()["data"]
    assert [(v["cause"], v["author"]) for v in versions] == [("agent", "Assistant: apply_resume_patch")]
    page.locator("#undo").click()  # one step takes the whole change back
    expect(field(page, SUMMARY)).to_have_value("Mathematician.")
    saved(page)
    assert read(page, resume_id)["contentJson"]["personalInfo"]["summary"] == "Mathematician."
    page.locator("#history-toggle").click()
    expect(page.locator("#history-list")).to_contain_text(words["edited"])
    assert page.script_errors == []


def test_decline_changes_nothing_and_an_ambiguous_request_gets_a_question(editor, fake_openai):
    page, resume_id = editor("en")
    _proposing(fake_openai)
    page.fill("#assistant-message", "Make my summary sharper.")
    page.get_by_role("button", name="Send", exact=True).click()
    page.locator(".assistant-proposal").get_by_role("button", name="Decline").click()
    expect(page.locator(".assistant-proposal")).to_contain_text("Declined: nothing was changed.")
    fake_openai.turns = [call("get_resume"), call("ask_user", question="Which job do you mean?")]
    page.fill("#assistant-message", "Shorten my job.")
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator(".assistant-question")).to_contain_text("Which job do you mean?")
    assert read(page, resume_id)["contentJson"]["personalInfo"]["summary"] == "Mathematician."
    sent = fake_openai.requests[-2]["body"]["messages"]
    assert [m["role"] for m in sent if m["role"] in ("user", "assistant") and m.get("content")][:3] == [
        "user", "assistant", "user"]  # the chat so far goes with each message
    page.locator("#assistant").screenshot(path=SHOTS / "assistant-question-en.png")
    assert page.script_errors == []
