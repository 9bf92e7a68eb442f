"""Bench of the MCP server against the JSON API: prints latency ratios measured in the same run.

    .venv/bin/python bench/agents.py [--rounds 200] [--database-url URL]

The same two operations, for the same resume, by the same person: reading it (``get_resume`` over MCP,
``GET /api/resumes/<id>`` over the API) and changing its summary from the version read
(``apply_resume_patch`` with ``base_version``, ``PUT /api/resumes/<id>`` with If-Match). The API is
``gunicorn wsgi:app`` (the Procfile's web, one sync worker), the MCP server ``uvicorn app.mcp.asgi:app``
(the Procfile's mcp), both on one database; the MCP client is the SDK's own, kept open as an agent keeps
it, and the API client a keep-alive HTTP session, both on loopback. Requests alternate (API, MCP, API,
...) so that drift hits both. Each ratio is the MCP median over the API median. Goal: at most 1.5.
Without ``--database-url`` the database is a fresh SQLite file. See docs/bench.md.
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
import httpx2  # noqa: E402
import requests  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from bench.load import free_port  # noqa: E402

GOAL = 1.5
PASSED_THROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")
PASSWORD = "Bench-password-1"


def _start(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def _wait(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer; the log ends with:\n{log.read_text(errors='replace')[-2000:]}")


def _prepare(env: dict) -> tuple[str, str, str]:
    """A person with a resume and an agent key with read and write: (email, resume id, key)."""
    os.environ.update(env)
    from app.agents import grants
    from app.auth import registration
    from app.factory import create_app
    from app.resumes import imports, service

    app = create_app()
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        user = registration.create_verified_user(email="bench@example.com", password=PASSWORD, name="Bench")
        resume = service.create_resume(user, {"title": "Bench", "templateId": imports.default_template_id()})
        _, key = grants.create_key(user, "Bench agent", ["resumes:read", "resumes:write"])
        return user.email, resume.id, key


def _median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


async def _measure(web: str, mcp: str, email: str, resume_id: str, key: str, rounds: int) -> dict:
    api = requests.Session()
    assert api.post(f"{web}/api/auth/signin", json={"email": email, "password": PASSWORD}, timeout=30).ok
    times = {name: [] for name in ("api_get", "mcp_get", "api_put", "mcp_patch")}
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60) as http:
        async with Client(streamable_http_client(f"{mcp}/mcp", http_client=http)) as client:
            for round_ in range(rounds + 5):  # the first five warm both up and are not counted
                counted = round_ >= 5
                started = time.perf_counter()
                answer = api.get(f"{web}/api/resumes/{resume_id}", timeout=30)
                api_get = time.perf_counter() - started
                etag = answer.headers["ETag"]
                started = time.perf_counter()
                read = await client.call_tool("get_resume", {"resume_id": resume_id})
                mcp_get = time.perf_counter() - started
                content = answer.json()["data"]["contentJson"]
                content["personalInfo"]["summary"] = f"Saved through the API, round {round_}."
                started = time.perf_counter()
                saved = api.put(f"{web}/api/resumes/{resume_id}", json={"contentJson": content},
                                headers={"If-Match": etag}, timeout=30)
                api_put = time.perf_counter() - started
                version = saved.headers["ETag"].strip('"')
                started = time.perf_counter()
                patched = await client.call_tool("apply_resume_patch", {
                    "resume_id": resume_id, "base_version": version, "operations": [
                        {"op": "replace", "path": "/contentJson/personalInfo/summary",
                         "value": f"Patched by the agent, round {round_}."}]})
                mcp_patch = time.perf_counter() - started
                if read.is_error or patched.is_error or saved.status_code != 200:
                    raise SystemExit(f"a call failed: {read.content or ''} {patched.content} {saved.text[:300]}")
                if counted:
                    for name, value in (("api_get", api_get), ("mcp_get", mcp_get), ("api_put", api_put),
                                        ("mcp_patch", mcp_patch)):
                        times[name].append(value)
    return {name: _median_ms(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
    web_port, mcp_port = free_port(), free_port()
    env = {name: os.environ[name] for name in PASSED_THROUGH if name in os.environ} | {
        "DATABASE_URL": args.database_url or f"sqlite:///{workdir / 'bench.db'}",
        "SECRET_KEY": "bench-secret-key-that-is-long-enough-for-hs256", "STORAGE_DIR": str(workdir / "files"),
        "BASE_URL": f"http://127.0.0.1:{mcp_port}", "LOG_LEVEL": "WARNING", "TRUSTED_PROXIES": "0",
        "RATELIMIT_AUTHENTICATED": "1000000 per minute", "RATELIMIT_AGENT": "1000000 per minute"}
    email, resume_id, key = _prepare(env)
    web = _start([sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"), "--bind",
                  f"127.0.0.1:{web_port}", "--workers", "1", "--worker-class", "sync", "--threads", "1", "wsgi:app"],
                 env, workdir / "web.log")
    mcp = _start([sys.executable, "-m", "uvicorn", "app.mcp.asgi:app", "--host", "127.0.0.1", "--port",
                  str(mcp_port), "--no-access-log"], env, workdir / "mcp.log")
    try:
        _wait(f"http://127.0.0.1:{web_port}/healthz", web, workdir / "web.log")
        _wait(f"http://127.0.0.1:{mcp_port}/.well-known/oauth-protected-resource/mcp", mcp, workdir / "mcp.log")
        medians = anyio.run(_measure, f"http://127.0.0.1:{web_port}", f"http://127.0.0.1:{mcp_port}", email,
                            resume_id, key, args.rounds)
    finally:
        for process in (web, mcp):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
    database = "PostgreSQL" if args.database_url else "SQLite"
    print(f"MCP against the JSON API, {args.rounds} rounds each, {database}, medians:")
    for mcp_name, api_name, label in (("mcp_get", "api_get", "read (get_resume / GET)"),
                                      ("mcp_patch", "api_put", "edit (apply_resume_patch / PUT If-Match)")):
        ratio = medians[mcp_name] / medians[api_name]
        print(f"  {label}: MCP {medians[mcp_name]:.1f} ms, API {medians[api_name]:.1f} ms, ratio {ratio:.2f} "
              f"(goal <= {GOAL}) {'met' if ratio <= GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
