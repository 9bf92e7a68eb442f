"""Agents in the browser (issue 35 points 2 and 4), on the server as ``make run`` serves it (``uvicorn
app.mcp.asgi:embedded``): the consent page an OAuth client sends a person to, in English and Chinese; the
account page's connected agents (a key made with chosen scopes, the agent's calls in the log, Disconnect);
an editor open while an agent patches the resume learns of it, loads it, and its history names the agent.
Screenshots in /tmp/shots."""
from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from app import i18n
from tests.browser.editing import field, make_resume, open_editor, saved
from tests.mcp.client import connect, run
from tests.mcp.test_oauth import REDIRECT, client_document  # noqa: F401 (a fixture)
from tests.processes import uvicorn_for

SHOTS = Path("/tmp/shots")
SHOTS.mkdir(exist_ok=True)
SUMMARY = "contentJson.personalInfo.summary"


@pytest.fixture(scope="module")
def server(test_env, tmp_path_factory, client_document):  # noqa: F811
    with uvicorn_for(test_env, tmp_path_factory, AGENT_CLIENT_ALLOW_PRIVATE_TARGETS="1",
                     AGENT_CLIENT_CA_CERTS=client_document.ca, EDITOR_FRESHNESS_SECONDS="1") as running:
        yield running


@pytest.fixture
def signed_in(browser, server, make_user):
    contexts = []

    def open_page(language: str = "en"):
        user = make_user()
        context = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900},
                                      locale=i18n.LANGUAGES[language].tag)
        contexts.append(context)
        assert context.request.post("/api/auth/signin", data={"email": user["email"],
                                                              "password": user["password"]}).ok
        assert context.request.put("/api/account", data={"preferences": {"language": language}}).ok
        page = context.new_page()
        page.script_errors = []
        page.on("pageerror", lambda error: page.script_errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language, allow", [("en", "Allow"), ("zh-cn", "允许")])
def test_the_consent_page_lists_the_scopes_and_sends_the_code_back(signed_in, server, client_document,  # noqa: F811
                                                                    language, allow):
    page = signed_in(language)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(b"v" * 64).digest()).rstrip(b"=").decode()
    query = {"response_type": "code", "client_id": client_document.url, "redirect_uri": REDIRECT, "state": "s",
             "code_challenge": challenge, "code_challenge_method": "S256",
             "scope": "resumes:read resumes:write resumes:delete", "resource": f"{server.url}/mcp"}
    page.goto(f"/oauth/authorize?{urlencode(query)}")
    expect(page.locator("h1")).to_contain_text("Test Agent")
    boxes = page.locator("input[name=scope]")
    expect(boxes).to_have_count(3)
    page.screenshot(path=SHOTS / f"consent-{language}.png", full_page=True)
    boxes.nth(2).uncheck()  # not the trash
    landed = []
    page.route(f"{REDIRECT}*", lambda route: (landed.append(route.request.url), route.fulfill(body="ok")))
    page.get_by_role("button", name=allow).click()
    expect(page.locator("body")).to_have_text("ok")
    assert landed[0].startswith(REDIRECT + "?code=") and "state=s" in landed[0]
    page.goto("/account#agents")
    agent = page.locator("#agent-list > li").first
    expect(agent).to_contain_text("Test Agent")
    expect(agent.locator(".hint")).to_have_count(3)  # its kind and dates, then the two scopes allowed
    assert page.script_errors == []


def test_a_key_made_on_the_account_page_works_and_disconnects(signed_in, server):
    page = signed_in()
    page.goto("/account#agents")
    page.fill("#agent-name", "Claude Desktop")
    page.check("input[name=scopes][value='resumes:write']")
    page.get_by_role("button", name="Make an agent key").click()
    key = page.locator("#agent-key")
    expect(key).not_to_have_value("")
    value = key.input_value()
    assert value.startswith("rsa_")
    page.get_by_role("button", name="I have copied it").click()
    expect(key).to_have_value("")
    expect(page.locator("#agent-list > li")).to_contain_text(["Claude Desktop"])

    async def agent():
        async with connect(server.url, value) as client:
            made = await client.call_tool("create_resume", {"title": "From the agent"})
            assert not made.is_error, made.content

    run(agent)
    page.reload()
    expect(page.locator("#agent-log > li").first).to_contain_text("Claude Desktop: create_resume")
    expect(page.locator("#agent-list > li").first).to_contain_text("Last used")
    page.locator("#agents").screenshot(path=SHOTS / "account-agents-en.png")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Disconnect Claude Desktop").click()
    expect(page.locator("#agent-list > li")).to_have_text(["No agents are connected."])
    assert page.script_errors == []


def test_an_open_editor_learns_of_an_agents_edit_and_its_history_names_the_agent(signed_in, server):
    page = signed_in()
    resume_id = make_resume(page, contentJson={"personalInfo": {"name": "Ada Lovelace", "summary": "Mathematician."}})
    answer = page.request.post("/api/account/agents", data={"name": "Claude Desktop", "scopes": ["resumes:read",
                                                                                                "resumes:write"]})
    key = answer.json()["data"]["key"]
    open_editor(page, resume_id)
    saved(page)

    async def agent():
        async with connect(server.url, key) as client:
            read = (await client.call_tool("get_resume", {"resume_id": resume_id})).structured_content
            patched = await client.call_tool("apply_resume_patch", {
                "resume_id": resume_id, "base_version": read["version"], "operations": [
                    {"op": "replace", "path": "/contentJson/personalInfo/summary",
                     "value": "Mathematician and the first programmer."}]})
            assert not patched.is_error, patched.content

    run(agent)
    expect(page.locator("#save-state")).to_have_text("Changed in another tab or device")
    page.get_by_role("button", name="Load the latest version").click()
    expect(field(page, SUMMARY)).to_have_value("Mathematician and the first programmer.")
    page.locator("#history-toggle").click()
    first = page.locator("#history-list > li").first
    expect(first).to_contain_text("Edited by Claude Desktop: apply_resume_patch")
    first.locator("button").click()
    expect(page.locator("#history-meta")).to_contain_text("Edited by Claude Desktop: apply_resume_patch")
    page.locator(".side-history").screenshot(path=SHOTS / "history-agent-en.png")
    assert page.script_errors == []
