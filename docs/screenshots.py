"""Screenshots of the main pages into docs/screenshots/, for the README.

    .venv/bin/python docs/screenshots.py    # needs Debian's chromium, fonts-noto-core and fonts-noto-cjk

It builds the app on its embedded default in a temporary directory, serves it on a free loopback
port, creates a person with a realistic resume (tests/documents/samples.py) and drives the system
Chromium with Playwright through the dashboard, the editor with its preview, the account page, the
subscription page and the webhooks page, at 1440 px in the light theme; the editor at 375 px in
the dark theme and in Chinese, the dashboard in Chinese; the editor in Arabic (right to left) and the
account page in Hindi. The interface's words are the system's fonts: without the Noto packages Arabic,
Devanagari and CJK show as boxes.
"""
from __future__ import annotations

import secrets
import shutil
import socket
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "docs" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    chromium = shutil.which("chromium")
    if chromium is None:
        print("needs Debian's chromium: apt-get install chromium fonts-noto-core fonts-noto-cjk", file=sys.stderr)
        return 1
    from flask_migrate import upgrade
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from app import create_app
    from app.auth import registration
    from app.auth.passwords import hash_password
    from app.config import config_for
    from app.extensions import db
    from app.resumes import service as resumes
    from app.resumes.models import Template
    from tests.documents import samples

    OUT.mkdir(parents=True, exist_ok=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="resume-screenshots-") as tmp:
        env = {"SECRET_KEY": secrets.token_urlsafe(48), "DATABASE_URL": f"sqlite:///{tmp}/app.db",
               "STORAGE_DIR": f"{tmp}/storage", "BASE_URL": url, "LOG_LEVEL": "WARNING"}
        app = create_app(config_for("development", env))
        password = "screenshots are fun 42"
        with app.app_context():
            upgrade()
            user = registration.new_user(email="eleanor@example.com", name="Eleanor Whitfield-Okafor",
                                         password_hash=hash_password(password), verified=True)
            db.session.commit()
            templates = {t.name: t.id for t in db.session.scalars(db.select(Template))}
            first = None
            for title, name, lang in (("Platform engineer", "Horizon", "en"), ("后端工程师", "Heritage", "zh"),
                                      ("Staff engineer, payments", "Ledger", "mixed")):
                resume = resumes.create_resume(user, {"title": title, "templateId": templates[name],
                                                      "contentJson": samples.SAMPLES[(lang, "short")]})
                first = first or resume.id
            db.session.remove()
        server = make_server("127.0.0.1", port, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
                shots = [("dashboard", "/dashboard", "en", "light", 1440),
                         ("editor", f"/resumes/{first}/edit", "en", "light", 1440),
                         ("account", "/account", "en", "light", 1440),
                         ("billing", "/billing", "en", "light", 1440),
                         ("webhooks", "/webhooks", "en", "light", 1440),
                         ("editor-375-dark-zh", f"/resumes/{first}/edit", "zh-cn", "dark", 375),
                         ("dashboard-zh-dark", "/dashboard", "zh-cn", "dark", 1440),
                         ("editor-ar", f"/resumes/{first}/edit", "ar", "light", 1440),
                         ("account-hi-dark", "/account", "hi", "dark", 1440)]
                for name, path, language, theme, width in shots:
                    context = browser.new_context(base_url=url, viewport={"width": width, "height": 900})
                    context.request.post("/api/auth/signin", data={"email": "eleanor@example.com",
                                                                   "password": password})
                    context.request.put("/api/account", data={"preferences": {"language": language,
                                                                              "theme": theme}})
                    page = context.new_page()
                    page.goto(path)
                    page.wait_for_load_state("networkidle")
                    page.wait_for_timeout(500)
                    page.screenshot(path=str(OUT / f"{name}.png"), full_page=False)
                    print(f"docs/screenshots/{name}.png")
                    context.close()
                browser.close()
        finally:
            server.shutdown()
            with app.app_context():
                db.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
