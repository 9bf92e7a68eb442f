"""Saves racing with one If-Match, through real concurrency (issue 32 point 1): eight tabs that loaded
the same copy send their saves at once to ``gunicorn wsgi:app`` (two processes of four threads) on the
test database (SQLite, the embedded default, or PostgreSQL). The database decides: exactly one save
wins, the seven others answer 409 RESUME_CONFLICT, and all eight texts can be found afterwards (the
winner's in the resume, each loser's in a ``conflict`` version)."""
from __future__ import annotations

import threading

import pytest
import requests

from tests.processes import gunicorn_for

TABS = 8
ROUNDS = 3


@pytest.fixture(scope="module")
def server(test_env, tmp_path_factory):
    with gunicorn_for(test_env, tmp_path_factory, workers=2, threads=4) as running:
        yield running


def _at_once(count: int, send) -> list[requests.Response]:
    """``send(i)`` on ``count`` threads released together."""
    gate, answers = threading.Barrier(count), [None] * count

    def run(i: int) -> None:
        gate.wait()
        answers[i] = send(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def _texts_kept(session: requests.Session, base: str) -> set[str]:
    """Every summary findable for the resume: its own and each version's."""
    found = {session.get(base, timeout=30).json()["data"]["contentJson"]["personalInfo"]["summary"]}
    for version in session.get(f"{base}/versions", params={"limit": 100}, timeout=30).json()["data"]:
        kept = session.get(f"{base}/versions/{version['id']}", timeout=30).json()["data"]
        found.add(kept["contentJson"]["personalInfo"]["summary"])
    return found


def test_eight_saves_with_one_etag_one_wins_seven_conflict_and_nothing_is_lost(server, make_user, templates):
    user = make_user()
    tabs = [server.signed_in(user["email"]) for _ in range(TABS)]
    created = tabs[0].post(f"{server.url}/api/resumes", timeout=30,
                           json={"title": "Racing", "templateId": templates["basic"][0]})
    assert created.status_code == 201, created.text
    base = f"{server.url}/api/resumes/{created.json()['data']['id']}"
    for round_ in range(ROUNDS):
        loaded = tabs[0].get(base, timeout=30)
        etag, content = loaded.headers["ETag"], loaded.json()["data"]["contentJson"]
        texts = [f"Round {round_}, typed in tab {i}." for i in range(TABS)]

        def save(i: int, etag=etag, content=content, texts=texts) -> requests.Response:
            body = {**content, "personalInfo": {**content["personalInfo"], "summary": texts[i]}}
            return tabs[i].put(base, json={"contentJson": body}, headers={"If-Match": etag}, timeout=60)

        answers = _at_once(TABS, save)
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [200] + [409] * (TABS - 1), f"round {round_}: {statuses}"
        assert {answer.json()["code"] for answer in answers if answer.status_code == 409} == {"RESUME_CONFLICT"}
        [winner] = [i for i, answer in enumerate(answers) if answer.status_code == 200]
        current = tabs[0].get(base, timeout=30)
        assert current.json()["data"]["contentJson"]["personalInfo"]["summary"] == texts[winner]
        assert current.headers["ETag"] == answers[winner].headers["ETag"]
        assert set(texts) <= _texts_kept(tabs[0], base), f"round {round_}: a refused save was lost"


def test_eight_project_entries_added_with_one_etag_one_wins(server, make_user, templates):
    """The project-entry endpoints decide the same way."""
    user = make_user()
    tabs = [server.signed_in(user["email"]) for _ in range(TABS)]
    created = tabs[0].post(f"{server.url}/api/resumes", timeout=30,
                           json={"title": "Projects", "templateId": templates["basic"][0]})
    base = f"{server.url}/api/resumes/{created.json()['data']['id']}"
    etag = tabs[0].get(base, timeout=30).headers["ETag"]
    answers = _at_once(TABS, lambda i: tabs[i].post(f"{base}/projects", json={"name": f"Project {i}"},
                                                    headers={"If-Match": etag}, timeout=60))
    assert sorted(answer.status_code for answer in answers) == [201] + [409] * (TABS - 1)
    assert len(tabs[0].get(f"{base}/projects", timeout=30).json()["data"]) == 1
