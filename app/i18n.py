"""The interface in English and Simplified Chinese: Flask-Babel, one catalogue folder per page area.

The locale is the signed-in person's ``preferences.language`` (``en`` or ``zh-cn``), else the best
match of the request's ``Accept-Language``, else English. Catalogues live in
``app/translations/<area>/zh/LC_MESSAGES/messages.po`` (one folder per area of the interface, so
each can be edited on its own; Flask-Babel merges every folder in ``BABEL_TRANSLATION_DIRECTORIES``).
The ``.mo`` files are built from them, not committed: by the set-up step (``make install``, a
PaaS's build command), and at start-up when one is missing or older than its ``.po``.

Scripts show strings from the same catalogues: a page names the messages its scripts need, and
``page_strings`` renders them, translated, into a JSON element the scripts read (``static/js/shared/i18n.js``);
no inline script, so the Content-Security-Policy stays strict.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from babel.messages import mofile, pofile
from flask import Flask, request
from flask_babel import Babel, get_locale, gettext
from flask_login import current_user

log = logging.getLogger(__name__)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
# preferences.language -> the Babel locale of its catalogues
LOCALES = {"en": "en", "zh-cn": "zh"}
LANGUAGE_OF = {locale: language for language, locale in LOCALES.items()}


def _areas() -> list[Path]:
    return sorted(p for p in TRANSLATIONS.iterdir() if p.is_dir()) if TRANSLATIONS.is_dir() else []


def compile_catalogues(root: Path = TRANSLATIONS) -> list[Path]:
    """Build each ``.mo`` that is missing or older than its ``.po``; returns those built."""
    built = []
    for po in sorted(root.glob("*/*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = pofile.read_po(source)
        partial = mo.with_suffix(f".{os.getpid()}.partial")  # two processes may build at once
        with partial.open("wb") as out:
            mofile.write_mo(out, catalogue)
        partial.replace(mo)
        built.append(mo)
    return built


def select_locale() -> str:
    if current_user and current_user.is_authenticated:
        language = (current_user.preferences or {}).get("language")
        if language in LOCALES:
            return LOCALES[language]
    return request.accept_languages.best_match(["en", "zh-CN", "zh"], default="en").split("-")[0].lower()


def language() -> str:
    """The current request's language as ``preferences.language`` names it (``en`` or ``zh-cn``)."""
    return LANGUAGE_OF.get(str(get_locale()), "en")


def page_strings(messages: list[str] | tuple[str, ...]) -> dict[str, str]:
    """The messages a page's scripts show, translated: {message id: text}."""
    return {message: gettext(message) for message in messages}


def init_app(app: Flask) -> None:
    try:
        compile_catalogues()
    except OSError:  # a read-only install: the set-up step built them
        log.warning("could not build the translation catalogues in %s", TRANSLATIONS, exc_info=True)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join(str(p) for p in _areas()) or str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(language=language)


def main() -> int:
    built = compile_catalogues()
    print(f"translation catalogues: built {len(built)}" if built else "translation catalogues: up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
