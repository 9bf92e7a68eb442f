"""An agent's patch racing a person's save (issue 35 point 6), through real processes: the editor's save
goes to ``gunicorn wsgi:app`` (the Procfile's web), the agent's ``apply_resume_patch`` to the MCP process
(``uvicorn app.mcp.asgi:app``, the Procfile's mcp), both made from the same version of the resume, on the
test database (SQLite, or PostgreSQL in CI's second pass). The database decides: exactly one wins each
round, the other is refused with 409 RESUME_CONFLICT (the agent's error carrying the current version),
and the winner's text is what the resume holds."""
from __future__ import annotations

import threading

import anyio
import anyio.to_thread
import pytest

from tests.mcp.client import connect, error_of, run
from tests.processes import gunicorn_for, uvicorn_for

ROUNDS = 6


@pytest.fixture(scope="module")
def web(test_env, tmp_path_factory):
    with gunicorn_for(test_env, tmp_path_factory, workers=2, threads=4) as running:
        yield running


@pytest.fixture(scope="module")
def mcp(test_env, tmp_path_factory):
    with uvicorn_for(test_env, tmp_path_factory, target="app.mcp.asgi:app") as running:
        yield running


def test_a_patch_and_a_save_from_one_version_one_wins(web, mcp, make_user, templates):
    editor = web.signed_in(make_user()["email"])
    key = editor.post(f"{web.url}/api/account/agents", timeout=30,
                      json={"name": "Racer", "scopes": ["resumes:read", "resumes:write"]}).json()["data"]["key"]
    created = editor.post(f"{web.url}/api/resumes", json={"title": "Racing", "templateId": templates["basic"][0]},
                          timeout=30).json()["data"]
    base = f"{web.url}/api/resumes/{created['id']}"
    outcomes = []
    for round_ in range(ROUNDS):
        loaded = editor.get(base, timeout=30)
        etag, content = loaded.headers["ETag"], loaded.json()["data"]["contentJson"]
        typed, patched = f"Typed by the person, round {round_}.", f"Written by the agent, round {round_}."
        gate, answers = threading.Barrier(2), {}

        def save():
            gate.wait()
            content["personalInfo"]["summary"] = typed
            answers["save"] = editor.put(base, json={"contentJson": content}, headers={"If-Match": etag}, timeout=30)

        async def agent():
            async with connect(mcp.url, key) as client:
                await anyio.to_thread.run_sync(gate.wait)
                answers["patch"] = await client.call_tool("apply_resume_patch", {
                    "resume_id": created["id"], "base_version": etag.strip('"'),
                    "operations": [{"op": "replace", "path": "/contentJson/personalInfo/summary", "value": patched}]})

        person = threading.Thread(target=save)
        person.start()
        run(agent)
        person.join(60)
        saved, patch = answers["save"], answers["patch"]
        assert (saved.status_code == 200) != (not patch.is_error), (saved.status_code, patch)
        now = editor.get(base, timeout=30)
        summary = now.json()["data"]["contentJson"]["personalInfo"]["summary"]
        if saved.status_code == 200:
            conflict = error_of(patch)
            assert (conflict["code"], conflict["status"]) == ("RESUME_CONFLICT", 409)
            assert conflict["details"]["currentVersion"] == now.headers["ETag"].strip('"')
            assert summary == typed
            outcomes.append("person")
        else:
            assert (saved.status_code, saved.json()["code"]) == (409, "RESUME_CONFLICT")
            assert summary == patched
            outcomes.append("agent")
    assert len(outcomes) == ROUNDS
