"""End-to-end tests in a real browser: Debian's Chromium driven by Playwright for Python.

``live`` serves an app (the test environment, with BASE_URL its own address) from a thread on a
free loopback port; ``browser`` is one headless Chromium for the session, started from the system's
``chromium`` (Playwright's own browser download is never used); ``open_as(user, language, theme)``
gives a page signed in as ``user`` (a dict from ``make_user``) with those preferences.

Without Chromium the tests are skipped, loudly; under CI (``CI`` set, as ``.ci/run`` does) they
fail instead, so a missing browser can never pass for a green run.
"""
from __future__ import annotations

import os
import shutil
import warnings
from contextlib import contextmanager

import pytest
from werkzeug.serving import make_server

from app import i18n
from tests.auth.fake_provider import FakeProvider
from tests.support import free_port, serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
THEMES = ("light", "dark")
LANGUAGES = ("en", "zh-cn")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        message = "Chromium is not installed: the browser tests did not run (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        warnings.warn(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    # Generous waits: CI runs its two test passes at once on two cores, each with its own browser.
    expect.set_options(timeout=20_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def served(make_app, **variables):
    """(base URL, app): an app built with ``variables`` served on a loopback port, BASE_URL its own."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    app = make_app(BASE_URL=url, **variables)
    with serving(make_server("127.0.0.1", port, app, threaded=True)):
        yield url, app


@pytest.fixture
def live(make_app):
    """(base URL, app): the test app served on a loopback port."""
    with served(make_app) as found:
        yield found


@pytest.fixture
def github():
    """A fake GitHub on loopback (tests/auth/fake_provider.py) that knows one verified person."""
    provider = FakeProvider("github")
    provider.profile = {"login": "octocat", "id": 583231, "name": "The Octocat", "email": "octo@example.com"}
    provider.emails = [{"email": "octo@example.com", "primary": True, "verified": True}]
    yield provider
    provider.close()


@pytest.fixture
def oauth_live(make_app, github):
    """The base URL of an app served with GitHub configured (``live`` offers no provider)."""
    with served(make_app, **github.settings()) as (url, _app):
        yield url


@pytest.fixture
def open_as(browser, live, make_user):
    """``open_as(user=None, language="en", theme="light", width=1440)`` -> a Playwright page signed in."""
    url, _app = live
    contexts = []

    def open_page(user: dict | None = None, language: str = "en", theme: str = "light", width: int = 1440):
        user = user or make_user()
        context = browser.new_context(base_url=url, viewport={"width": width, "height": 900},
                                      locale=i18n.LANGUAGES[language].tag)
        contexts.append(context)
        signed = context.request.post("/api/auth/signin", data={"email": user["email"],
                                                                "password": user["password"]})
        assert signed.ok, signed.text()
        prefs = context.request.put("/api/account", data={"preferences": {"language": language, "theme": theme}})
        assert prefs.ok, prefs.text()
        page = context.new_page()
        page.set_default_timeout(30_000)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.script_errors = errors  # a test may assert there were none
        return page

    yield open_page
    for context in contexts:
        context.close()
