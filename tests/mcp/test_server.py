"""The MCP server through the SDK's own client over HTTP (issue 35 points 1-4 and 6), served as the Procfile
deploys it (``gunicorn wsgi:app`` and the ``mcp`` process, ``uvicorn app.mcp.asgi:app``, behind a router
sending ``/mcp`` to the one and the rest to the other: tests/router.py) on the test database (SQLite, or
PostgreSQL in CI's second pass); ``make run``'s one process is tested in test_oauth.py. Discovery and
the 401 challenge, personal agent keys and their scopes (403 insufficient_scope), each tool against the
API's own answers, a patch made from a stale version refused with the current one, every agent edit a
named version that reverts, the export's signed URL fetched, the trash asked for confirmation, and a revoked
key refused at once."""
from __future__ import annotations

import json

import pytest
import requests
from mcp.types import ElicitResult

from tests.mcp.client import connect, error_of, run
from tests.processes import deployment_for

ALL = ["resumes:read", "resumes:write", "resumes:export", "resumes:delete", "jobs:analyze"]


@pytest.fixture(scope="module")
def server(test_env, tmp_path_factory):
    with deployment_for(test_env, tmp_path_factory) as running:
        yield running


@pytest.fixture
def person(server, make_user):
    user = make_user()
    return server.signed_in(user["email"])


def _key(server, session, scopes=ALL, name="Claude Desktop") -> str:
    answer = session.post(f"{server.url}/api/account/agents", json={"name": name, "scopes": scopes}, timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()["data"]["key"]


def test_discovery_and_the_challenge(server):
    metadata = requests.get(f"{server.url}/.well-known/oauth-protected-resource/mcp", timeout=30).json()
    assert metadata["resource"] == f"{server.url}/mcp"
    assert metadata["authorization_servers"] == [f"{server.url}/"]
    assert metadata["scopes_supported"] == ALL
    authorization = requests.get(f"{server.url}/.well-known/oauth-authorization-server", timeout=30).json()
    assert authorization["issuer"] == f"{server.url}/"
    assert authorization["code_challenge_methods_supported"] == ["S256"]
    assert authorization["client_id_metadata_document_supported"] is True
    for bearer in (None, "rsa_not-a-key", "eyJhbGciOiJub25lIn0.e30."):
        headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
        answer = requests.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                               headers=headers, timeout=30)
        assert answer.status_code == 401
        challenge = answer.headers["WWW-Authenticate"]
        assert challenge.startswith("Bearer ")
        assert f'resource_metadata="{server.url}/.well-known/oauth-protected-resource/mcp"' in challenge


def test_the_tools_their_names_and_annotations(server, person):
    key = _key(server, person)

    async def work():
        async with connect(server.url, key) as client:
            return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in run(work)}
    assert sorted(tools) == sorted([
        "list_resumes", "get_resume", "apply_resume_patch", "create_resume", "duplicate_resume", "switch_template",
        "import_json_resume", "list_versions", "revert_resume", "trash_resume", "restore_resume", "export_resume",
        "list_templates", "analyze_job"])
    for name in ("list_resumes", "get_resume", "list_versions", "list_templates"):
        assert tools[name].annotations.read_only_hint is True
    assert tools["trash_resume"].annotations.destructive_hint is True
    assert tools["apply_resume_patch"].annotations.destructive_hint is False
    assert tools["apply_resume_patch"].annotations.idempotent_hint is False
    assert set(tools["apply_resume_patch"].input_schema["required"]) == {"resume_id", "base_version", "operations"}
    assert "confirmation" not in tools["trash_resume"].input_schema["properties"]  # asked of the person, not the model


def test_a_patch_is_a_named_version_that_reverts_and_a_stale_one_is_refused(server, person):
    key = _key(server, person)

    async def work():
        async with connect(server.url, key) as client:
            created = (await client.call_tool("create_resume", {"title": "Platform engineer"})).structured_content
            resume_id, first = created["resume"]["id"], created["version"]
            job = {"company": "Acme", "position": "Engineer", "startDate": "2020-01", "endDate": "",
                   "description": "Built the billing system."}
            patched = await client.call_tool("apply_resume_patch", {
                "resume_id": resume_id, "base_version": first,
                "operations": [{"op": "add", "path": "/contentJson/workExperience/-", "value": job},
                               {"op": "replace", "path": "/title", "value": "Staff engineer"}]})
            read = (await client.call_tool("get_resume", {"resume_id": resume_id})).structured_content
            entry = read["resume"]["contentJson"]["workExperience"][0]
            stale = await client.call_tool("apply_resume_patch", {
                "resume_id": resume_id, "base_version": first,
                "operations": [{"op": "replace", "path": "/title", "value": "Lost"}]})
            by_id = await client.call_tool("apply_resume_patch", {
                "resume_id": resume_id, "base_version": read["version"], "operations": [
                    {"op": "replace", "path": f"/contentJson/workExperience/{entry['id']}/description",
                     "value": "Led the billing system's rewrite."}]})
            by_position = await client.call_tool("apply_resume_patch", {
                "resume_id": resume_id, "base_version": by_id.structured_content["version"], "operations": [
                    {"op": "remove", "path": "/contentJson/workExperience/0"}]})
            versions = (await client.call_tool("list_versions", {"resume_id": resume_id})).structured_content
            oldest = versions["versions"][-1]
            reverted = await client.call_tool("revert_resume", {"resume_id": resume_id, "version_id": oldest["id"]})
            return patched, read, stale, by_id, by_position, versions, reverted, resume_id

    patched, read, stale, by_id, by_position, versions, reverted, resume_id = run(work)
    assert patched.structured_content["saved"] is True
    assert patched.structured_content["changedPaths"] == ["/contentJson/workExperience/-", "/title"]
    assert patched.structured_content["version"] == read["version"]
    assert read["resume"]["title"] == "Staff engineer"
    assert "htmlTemplate" not in read["resume"]["template"]
    conflict = error_of(stale)
    assert (conflict["code"], conflict["status"]) == ("RESUME_CONFLICT", 409)
    assert conflict["details"]["currentVersion"] == read["version"]
    assert by_id.structured_content["saved"] is True
    assert error_of(by_position)["code"] == "VALIDATION_ERROR"
    assert [(v["cause"], v["author"]) for v in versions["versions"]] == [
        ("agent", "Claude Desktop: apply_resume_patch")] * 2
    assert reverted.structured_content["title"] == "Platform engineer"
    # The JSON API sees what the agent did: the resume reverted, the history naming each step
    api = person.get(f"{server.url}/api/resumes/{resume_id}", timeout=30).json()["data"]
    assert (api["title"], api["contentJson"]["workExperience"]) == ("Platform engineer", [])
    history = person.get(f"{server.url}/api/resumes/{resume_id}/versions", timeout=30).json()["data"]
    assert [item["author"] for item in history][:1] == ["Claude Desktop: revert_resume"]


def test_a_key_without_the_scope_is_refused_403_insufficient_scope(server, person):
    key = _key(server, person, scopes=["resumes:read"], name="Reader")
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "create_resume", "arguments": {"title": "Nope"}}}
    answer = requests.post(f"{server.url}/mcp", json=call, timeout=30, headers={
        "Authorization": f"Bearer {key}", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25"})
    assert answer.status_code == 403
    assert answer.json()["error"] == "insufficient_scope"
    assert 'error="insufficient_scope", scope="resumes:write"' in answer.headers["WWW-Authenticate"]

    async def work():
        async with connect(server.url, key) as client:
            listed = await client.call_tool("list_resumes", {})
            with pytest.raises(Exception):
                await client.call_tool("trash_resume", {"resume_id": "x"})
            return listed

    assert run(work).structured_content["total"] == 0
    assert person.get(f"{server.url}/api/resumes", timeout=30).json()["data"] == []


def test_the_export_url_is_fetched_and_a_revoked_key_stops_at_once(server, person):
    key = _key(server, person)

    async def work():
        async with connect(server.url, key) as client:
            created = (await client.call_tool("create_resume", {"title": "Exported"})).structured_content
            exported = await client.call_tool("export_resume", {"resume_id": created["resume"]["id"], "format": "txt"})
            return exported.structured_content

    exported = run(work)
    download = requests.get(exported["downloadUrl"], timeout=30)  # no sign-in: the URL is signed
    assert download.status_code == 200 and "Exported" in download.text
    agents = person.get(f"{server.url}/api/account/agents", timeout=30).json()["data"]["agents"]
    assert [(agent["name"], agent["scopes"]) for agent in agents] == [("Claude Desktop", ALL)]
    assert agents[0]["lastUsedAt"] is not None
    log = person.get(f"{server.url}/api/account/agent-log", timeout=30).json()["data"]
    assert [(item["tool"], item["outcome"]) for item in log] == [("export_resume", "done"), ("create_resume", "done")]
    assert person.delete(f"{server.url}/api/account/agents/{agents[0]['id']}", timeout=30).status_code == 200
    answer = requests.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Authorization": f"Bearer {key}"}, timeout=30)
    assert answer.status_code == 401


def test_the_trash_asks_the_person_first(server, person):
    key = _key(server, person)
    answers = []

    async def decide(_context, params):
        answers.append(params.message)
        return ElicitResult(action="accept", content={"confirm": len(answers) > 1})

    async def work():
        async with connect(server.url, key, elicitation_callback=decide) as client:
            created = (await client.call_tool("create_resume", {"title": "Old one"})).structured_content
            resume_id = created["resume"]["id"]
            kept = await client.call_tool("trash_resume", {"resume_id": resume_id})
            trashed = await client.call_tool("trash_resume", {"resume_id": resume_id})
            restored = await client.call_tool("restore_resume", {"resume_id": resume_id})
            return resume_id, kept, trashed, restored

    resume_id, kept, trashed, restored = run(work)
    assert kept.structured_content == {"trashed": False}
    assert trashed.structured_content == {"trashed": True}
    assert "trash" in answers[0]
    assert restored.structured_content["resume"]["id"] == resume_id


def test_the_resources_and_the_prompts(server, person):
    key = _key(server, person, scopes=["resumes:read", "resumes:write"])

    async def work():
        async with connect(server.url, key) as client:
            created = (await client.call_tool("create_resume", {"title": "Read as a resource"})).structured_content
            resume = await client.read_resource(f"resume://{created['resume']['id']}")
            schema = await client.read_resource("schema://content")
            templates = (await client.list_resource_templates()).resource_templates
            prompts = (await client.list_prompts()).prompts
            tailored = await client.get_prompt("tailor_resume", {"resume_id": created["resume"]["id"],
                                                                 "job_description": "Backend engineer, Go"})
            return created, resume, schema, templates, prompts, tailored

    created, resume, schema, templates, prompts, tailored = run(work)
    read = json.loads(resume.contents[0].text)
    assert read["resume"]["id"] == created["resume"]["id"] and read["version"] == created["version"]
    assert "Content" in json.loads(schema.contents[0].text)
    assert [template.uri_template for template in templates] == ["resume://{resume_id}"]
    assert sorted(prompt.name for prompt in prompts) == ["review_resume", "tailor_resume"]
    assert "Backend engineer, Go" in tailored.messages[0].content.text


def test_import_duplicate_switch_search_and_analyse(server, person, query):
    from tests.ai.test_generation import set_plan

    key = _key(server, person)
    user_id = person.get(f"{server.url}/api/account", timeout=30).json()["data"]["id"]
    set_plan(query, user_id)  # the analysis comes with PREMIUM
    document = {"basics": {"name": "Grace Hopper", "label": "Rear admiral", "email": "grace@example.com"},
                "work": [{"name": "US Navy", "position": "Programmer", "startDate": "1944-07"}],
                "skills": [{"name": "COBOL"}]}

    async def work():
        async with connect(server.url, key) as client:
            imported = (await client.call_tool("import_json_resume", {"json_resume": document})).structured_content
            resume_id = imported["resume"]["id"]
            copy = (await client.call_tool("duplicate_resume", {"resume_id": resume_id})).structured_content
            templates = (await client.call_tool("list_templates", {})).structured_content["templates"]
            other = next(t["id"] for t in templates
                         if t["tier"] == "basic" and t["id"] != imported["resume"]["templateId"])
            switched = await client.call_tool("switch_template", {"resume_id": resume_id, "template_id": other,
                                                                  "base_version": imported["version"]})
            found = (await client.call_tool("list_resumes", {"search": "(COPY)"})).structured_content
            analysed = await client.call_tool("analyze_job", {"resume_id": resume_id,
                                                              "job_description": "COBOL programmer for the Navy"})
            return imported, copy, other, switched, found, analysed

    imported, copy, other, switched, found, analysed = run(work)
    assert imported["resume"]["title"] == "Grace Hopper"
    assert imported["resume"]["contentJson"]["workExperience"][0]["company"] == "US Navy"
    assert copy["resume"]["title"] == "Grace Hopper (copy)"
    assert switched.structured_content["templateId"] == other
    assert [item["id"] for item in found["resumes"]] == [copy["resume"]["id"]]
    assert analysed.structured_content["matchedKeywords"] and 0 <= analysed.structured_content["overallScore"] <= 100


def test_requests_for_another_host_are_refused(server, person):
    key = _key(server, person)
    answer = requests.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Authorization": f"Bearer {key}", "Host": "attacker.example",
                                    "Accept": "application/json, text/event-stream"}, timeout=30)
    assert answer.status_code == 421  # DNS rebinding: only BASE_URL's host is answered


def test_a_resource_needs_the_scope_and_the_owner(server, person, make_user):
    reader = _key(server, person, scopes=["resumes:export"], name="Exporter")
    stranger = _key(server, server.signed_in(make_user()["email"]), scopes=["resumes:read"], name="Stranger")
    mine = person.post(f"{server.url}/api/resumes", timeout=30, json={
        "title": "Mine", "templateId": person.get(f"{server.url}/api/templates", timeout=30).json()["data"][0]["id"]})
    resume_id = mine.json()["data"]["id"]

    async def read(key):
        async with connect(server.url, key) as client:
            try:
                await client.read_resource(f"resume://{resume_id}")
            except Exception as exc:  # the SDK raises the resource's error
                return str(exc)
            return "read"

    assert "resumes:read" in run(lambda: read(reader))
    assert "RESUME_NOT_OWNED" in run(lambda: read(stranger))


def test_a_password_change_disconnects_every_agent(server, make_user):
    user = make_user()
    person = server.signed_in(user["email"])
    key = _key(server, person)
    new = "Another-long-password-7"
    changed = person.put(f"{server.url}/api/account/security", timeout=30, json={
        "currentPassword": user["password"], "newPassword": new, "confirmPassword": new})
    assert changed.status_code == 200, changed.text
    answer = requests.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Authorization": f"Bearer {key}"}, timeout=30)
    assert answer.status_code == 401
    assert person.get(f"{server.url}/api/account/agents", timeout=30).json()["data"]["agents"] == []


def test_search_finds_titles_in_any_case_and_takes_like_characters_as_they_are(server, person):
    key = _key(server, person)

    async def work():
        async with connect(server.url, key) as client:
            for title in ("Backend engineer", "Frontend ENGINEER", "100% remote", "Data_scientist"):
                await client.call_tool("create_resume", {"title": title})
            found = {}
            for search in ("engineer", "100%", "_", "a_s", "%"):
                answer = (await client.call_tool("list_resumes", {"search": search})).structured_content
                found[search] = sorted(item["title"] for item in answer["resumes"]), answer["total"]
            return found

    found = run(work)
    assert found["engineer"] == (["Backend engineer", "Frontend ENGINEER"], 2)
    assert found["100%"] == (["100% remote"], 1)
    assert found["_"] == (["Data_scientist"], 1) and found["a_s"] == (["Data_scientist"], 1)
    assert found["%"] == (["100% remote"], 1)
