"""CI's smoke script (.ci/smoke.py), run as CI runs it (standard library only: ``python -I -S``)
against the app served over HTTP on loopback, with its own SQLite database and in-process jobs."""
import subprocess
import sys
from pathlib import Path

import pytest
from flask_migrate import upgrade
from werkzeug.serving import make_server

from tests.support import free_port, serving

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / ".ci" / "smoke.py"


@pytest.fixture
def served(make_app, tmp_path):
    """Serve a fresh app whose mail goes to the port the smoke script will listen on."""
    port, smtp_port = free_port(), free_port()
    app = make_app("testing", env={
        "SECRET_KEY": "smoke-secret-key-not-for-production",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'smoke.db'}",
        "STORAGE_DIR": str(tmp_path / "storage"),
        "BASE_URL": f"http://127.0.0.1:{port}",
        "MAIL_SERVER": "127.0.0.1",
        "MAIL_PORT": str(smtp_port),
        "MAIL_TIMEOUT": "2",
        "LOG_LEVEL": "WARNING",
    })
    with app.app_context():
        upgrade()
    with serving(make_server("127.0.0.1", port, app, threaded=True)):
        yield f"http://127.0.0.1:{port}", smtp_port


def smoke(base_url: str, smtp_port: int, timeout: int) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-S", str(SMOKE), base_url, "--smtp-port", str(smtp_port),
                           "--timeout", str(timeout)], capture_output=True, text=True, timeout=120)


def test_the_smoke_script_walks_the_whole_journey_with_the_standard_library_only(served):
    base_url, smtp_port = served

    result = smoke(base_url, smtp_port, timeout=60)

    assert result.returncode == 0, result.stdout + result.stderr
    assert f"smoke: 7 steps passed against {base_url}" in result.stdout
    assert "exported a PDF with Chinese, Arabic and Hindi through the worker" in result.stdout


def test_the_smoke_script_says_what_it_waited_for_and_exits_1_when_nothing_answers():
    nobody = f"http://127.0.0.1:{free_port()}"

    result = smoke(nobody, free_port(), timeout=2)

    assert result.returncode == 1
    assert "smoke: FAILED after 0 steps: /readyz did not answer 200 within 2 s" in result.stderr
