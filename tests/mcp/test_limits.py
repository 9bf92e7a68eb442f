"""Each agent's calls are limited (issue 35 point 4): RATELIMIT_AGENT per grant, here 3 a minute; the fourth
call fails with the API's RATE_LIMITED, appears in the account's agent log as refused, and another agent of
the same person is not held back."""
from __future__ import annotations

import pytest

from tests.mcp.client import connect, error_of, run
from tests.processes import uvicorn_for


@pytest.fixture(scope="module")
def server(test_env, tmp_path_factory):
    with uvicorn_for(test_env, tmp_path_factory, RATELIMIT_AGENT="3 per minute") as running:
        yield running


def test_an_agent_past_its_limit_is_refused_and_another_is_not(server, make_user):
    person = server.signed_in(make_user()["email"])
    keys = [person.post(f"{server.url}/api/account/agents", json={"name": name, "scopes": ["resumes:read"]},
                        timeout=30).json()["data"]["key"] for name in ("Busy", "Calm")]

    async def work():
        async with connect(server.url, keys[0]) as busy, connect(server.url, keys[1]) as calm:
            answers = [await busy.call_tool("list_resumes", {}) for _ in range(4)]
            return answers, await calm.call_tool("list_resumes", {})

    answers, other = run(work)
    assert [answer.is_error for answer in answers] == [False, False, False, True]
    refused = error_of(answers[-1])
    assert (refused["code"], refused["status"]) == ("RATE_LIMITED", 429)
    assert not other.is_error
    log = person.get(f"{server.url}/api/account/agent-log", timeout=30).json()["data"]
    assert [(item["agentName"], item["tool"], item["outcome"]) for item in log] == [
        ("Busy", "list_resumes", "RATE_LIMITED")]
