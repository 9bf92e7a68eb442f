"""The editor's assistant (issue 35 point 5) against a fake OpenAI-compatible service on loopback that calls
functions: the model reads the resume through get_resume, proposes a JSON Patch on entry ids (checked, and
sent back to it with the reason when it cannot apply), or asks back; nothing changes until the person
accepts, which is one version named "Assistant: apply_resume_patch"; a proposal made from a version the
editor has since moved past is refused at acceptance."""
from __future__ import annotations

import pytest

from tests.ai.fake_openai import MODEL, call, tool_results
from tests.ai.test_generation import CONTENT, create, premium, resume_id, set_plan  # noqa: F401 (fixtures)


@pytest.fixture(autouse=True)
def _fresh_fake(fake_openai):
    fake_openai.reset()
    yield
    fake_openai.reset()


def ask(client, resume_id, *messages):
    return client.post(f"/api/resumes/{resume_id}/assistant",
                       json={"messages": [{"role": "user", "content": text} for text in messages]})


def _first_job_id(body) -> str:
    return tool_results(body)[0]["resume"]["contentJson"]["workExperience"][0]["id"]


def test_the_model_reads_the_resume_then_proposes_and_nothing_changes_until_accepted(client, resume_id,
                                                                                     fake_openai):
    fake_openai.turns = [
        call("get_resume"),
        lambda body: call("propose_patch", summary="Say what the payment API did.", operations=[
            {"op": "replace", "path": f"/contentJson/workExperience/{_first_job_id(body)}/description",
             "value": "Built the payment API that settles 2 million payments a day."}]),
    ]
    before = client.get(f"/api/resumes/{resume_id}")
    answer = ask(client, resume_id, "Make my first job more concrete.")
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()["data"]
    assert (data["kind"], data["reply"], data["model"]) == ("proposal", "Say what the payment API did.", MODEL)
    proposal = data["proposal"]
    assert proposal["baseVersion"] == before.headers["ETag"].strip('"')
    assert proposal["resume"]["contentJson"]["workExperience"][0]["description"].endswith("a day.")
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"] == before.get_json()["data"]  # unchanged
    sent = fake_openai.requests[0]["body"]
    assert [tool["function"]["name"] for tool in sent["tools"]] == ["get_resume", "list_templates", "propose_patch",
                                                                    "ask_user"]
    accepted = client.post(f"/api/resumes/{resume_id}/assistant/accept",
                           json={"baseVersion": proposal["baseVersion"], "operations": proposal["operations"]})
    assert accepted.status_code == 200, accepted.get_json()
    assert accepted.get_json()["data"]["contentJson"]["workExperience"][0]["description"].endswith("a day.")
    assert accepted.headers["ETag"] != before.headers["ETag"]
    [version] = client.get(f"/api/resumes/{resume_id}/versions").get_json()["data"]
    assert (version["cause"], version["author"]) == ("agent", "Assistant: apply_resume_patch")
    again = client.post(f"/api/resumes/{resume_id}/assistant/accept",
                        json={"baseVersion": proposal["baseVersion"], "operations": proposal["operations"]})
    assert (again.status_code, again.get_json()["code"]) == (409, "RESUME_CONFLICT")
    assert again.get_json()["details"]["currentVersion"] == accepted.headers["ETag"].strip('"')


def test_a_patch_that_cannot_apply_goes_back_to_the_model_with_the_reason(client, resume_id, fake_openai):
    fake_openai.turns = [
        call("propose_patch", summary="Wrong", operations=[{"op": "replace", "path": "/contentJson/workExperience/0"
                                                            "/description", "value": "x"}]),
        lambda body: call("propose_patch", summary="Right", operations=[
            {"op": "add", "path": "/contentJson/skills/-", "value": "Kubernetes"}]),
    ]
    data = ask(client, resume_id, "Add Kubernetes to my skills.").get_json()["data"]
    assert (data["kind"], data["reply"]) == ("proposal", "Right")
    retried = fake_openai.requests[1]["body"]["messages"]
    assert "no entry with the id 0" in retried[-1]["content"]  # the model was told why
    assert data["proposal"]["resume"]["contentJson"]["skills"][-1] == "Kubernetes"


def test_an_ambiguous_request_is_a_question_back_and_a_plain_answer_is_an_answer(client, resume_id, fake_openai):
    fake_openai.turns = [call("get_resume"), call("ask_user", question="Which job: Acme Payments or Initech?")]
    data = ask(client, resume_id, "Shorten my job.").get_json()["data"]
    assert (data["kind"], data["reply"], data["proposal"]) == ("question", "Which job: Acme Payments or Initech?",
                                                               None)
    fake_openai.turns = [{"content": "Your summary is clear and short."}]
    data = ask(client, resume_id, "Is my summary good?").get_json()["data"]
    assert (data["kind"], data["reply"]) == ("answer", "Your summary is clear and short.")


def test_a_patch_leaving_what_the_editor_refuses_is_refused_too(client, resume_id, fake_openai):
    fake_openai.turns = [call("propose_patch", summary="Bad date", operations=[
        {"op": "replace", "path": "/title", "value": "x" * 300}]), {"content": "I could not change the title."}]
    data = ask(client, resume_id, "Rename it").get_json()["data"]
    assert data["kind"] == "answer"
    assert "title" in fake_openai.requests[1]["body"]["messages"][-1]["content"]


def test_the_assistant_is_refused_where_ai_writing_is(client, owner, create, query, fake_openai):
    free = create(contentJson=CONTENT).get_json()["data"]["id"]
    refused = ask(client, free, "Hello")
    assert (refused.status_code, refused.get_json()["code"]) == (403, "PLAN_UPGRADE_REQUIRED")
    set_plan(query, owner["id"])
    bad = client.post(f"/api/resumes/{free}/assistant", json={"messages": [{"role": "system", "content": "x"}]})
    assert (bad.status_code, bad.get_json()["code"]) == (400, "VALIDATION_ERROR")
    fake_openai.status = 500
    failed = ask(client, free, "Hello")
    assert (failed.status_code, failed.get_json()["code"]) == (502, "AI_PROVIDER_FAILED")


def test_without_a_provider_the_assistant_is_not_configured(make_app, make_user):
    app = make_app(AI_BASE_URL="", AI_MODEL="")
    user = make_user()
    client = app.test_client()
    client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    made = client.post("/api/resumes", json={"title": "x", "templateId": template}).get_json()["data"]["id"]
    answer = ask(client, made, "Hello")
    assert (answer.status_code, answer.get_json()["code"]) == (503, "AI_NOT_CONFIGURED")
