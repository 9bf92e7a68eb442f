"""The interface's languages: one Flask-Babel catalogue for the pages, the scripts, the mails and the API.

The locale is the signed-in person's ``preferences.language``, else the best match of the request's
``Accept-Language``, else English. ``make messages`` extracts every message id (``_``/``gettext`` in
Python and templates, ``N_`` where an id is defined apart from where it is shown, ``t``/``N_`` in
``static/js``, the section registry's words) into ``app/translations/messages.pot`` and updates each
language's ``app/translations/<locale>/LC_MESSAGES/messages.po``. The ``.mo`` files are built from
those, not committed: by the set-up step (``make install``, a PaaS's build command), and at start-up
when one is missing or older than its ``.po``.

Scripts show strings from the same catalogue: a page embeds, translated, every message its scripts'
folders (``static/js/shared`` and the page's own) hold, as the catalogue's locations say, in a JSON
element the scripts read (``static/js/shared/i18n.js``); no inline script, so the Content-Security-Policy
stays strict.
"""
from __future__ import annotations

import functools
import logging
import os
import re
import sys
from pathlib import Path

from babel.messages import mofile, pofile
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from flask import Flask, current_app, request
from flask_babel import Babel, get_locale
from flask_login import current_user

from app.content import sections

log = logging.getLogger(__name__)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
# preferences.language -> the Babel locale of its catalogue
LOCALES = {"en": "en", "zh-cn": "zh"}
LANGUAGE_OF = {locale: language for language, locale in LOCALES.items()}
SCRIPTS = "app/static/js/"  # where the catalogue's locations name a script


def catalogue_path(locale: str, root: Path = TRANSLATIONS) -> Path:
    return root / locale / "LC_MESSAGES" / "messages.po"


def compile_catalogues(root: Path = TRANSLATIONS) -> list[Path]:
    """Build each ``.mo`` that is missing or older than its ``.po``; returns those built."""
    built = []
    for po in sorted(root.glob("*/LC_MESSAGES/messages.po")):
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


@functools.lru_cache(maxsize=None)
def _script_messages(directory: str, locale: str) -> dict[str, dict[str, str]]:
    """{script folder: {message id: translation}} of a language, from its catalogue's locations."""
    path = catalogue_path(locale, Path(directory))
    if not path.exists():
        return {}
    with path.open("rb") as source:
        catalogue = pofile.read_po(source)
    folders: dict[str, dict[str, str]] = {}
    for message in catalogue:
        if not message.id or not message.string or message.fuzzy:
            continue
        for filename, _line in message.locations:
            if filename.startswith(SCRIPTS):
                folder = filename[len(SCRIPTS):].split("/")[0]
                folders.setdefault(folder, {})[message.id] = message.string
    return folders


def page_strings(*folders: str) -> dict[str, str]:
    """The messages the scripts of ``static/js/shared`` and of ``folders`` show, translated: {message id:
    text}. English needs none (a script shows the id itself)."""
    directory = current_app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";")[0]
    messages = _script_messages(directory, str(get_locale()))
    strings: dict[str, str] = {}
    for folder in ("shared", *folders):
        strings.update(messages.get(folder, {}))
    return strings


def extract_sections(fileobj, keywords, comment_tags, options):
    """A Babel extractor for ``app/content/sections.py``: the labels, hints, entry titles, add buttons and
    headings of the section registry, each at the line that first spells it."""
    source = fileobj.read().decode("utf-8")
    words = {*sections.HEADINGS.values()}
    for entries in sections.ENTRIES.values():
        words.update((entries.title, entries.add))
        for field in entries.fields:
            words.update((field.label, field.hint))
    for word in sorted(filter(None, words)):
        found = re.search(re.escape(f'"{word}"'), source)
        line = source.count("\n", 0, found.start()) + 1 if found else 0
        yield line, "_", word, []


def extract_wording(fileobj, keywords, comment_tags, options):
    """A Babel extractor for ``app/common/wording.py`` (which translates the API's messages): its own
    messages, and marshmallow's, the schemas' errors that library words for us (those without a value in
    them), read off its fields so that they follow its upgrades."""
    import marshmallow
    from marshmallow import fields

    yield from extract_python(fileobj, keywords, comment_tags, options)
    words = set(marshmallow.Schema._default_error_messages.values())
    for field in vars(fields).values():
        if isinstance(field, type) and issubclass(field, fields.Field):
            words.update(field.default_error_messages.values())
    for word in sorted(words):
        if "{" not in word:
            yield 1, "_", word, ["marshmallow's own message"]


def init_app(app: Flask) -> None:
    try:
        compile_catalogues()
    except OSError:  # a read-only install: the set-up step built them
        log.warning("could not build the translation catalogues in %s", TRANSLATIONS, exc_info=True)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(language=language)


# What ``make messages`` reads, by file: (pattern, Babel extraction method); the first match wins.
EXTRACT = [
    ("app/content/sections.py", extract_sections),
    ("app/common/wording.py", extract_wording),
    ("app/**.py", "python"),
    ("app/templates/**.html", "jinja2"),
    ("app/templates/**.txt", "jinja2"),
    ("app/static/js/**.js", "javascript"),
]
# gettext's own names, N_, the scripts' t, and the API's errors: ApiError(code, message), InvalidField(field,
# message), marshmallow's ValidationError(message), a webhook URL's TargetRefused(message) (their messages are
# translated as the response is made).
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "_l": None, "lazy_pgettext": ((1, "c"), 2), "N_": None, "t": None,
            "ApiError": (2,), "InvalidField": (2,), "ValidationError": (1,), "TargetRefused": (1,)}


def extract(root: Path = TRANSLATIONS.parent.parent) -> Catalog:
    """Every message id the code holds, with where it is (the template of the catalogue)."""
    template = Catalog(project="Resume Service", fuzzy=False)
    options = {"app/static/js/**.js": {"parse_template_string": True}}  # t("…") inside `${…}` too
    found = extract_from_dir(str(root), method_map=EXTRACT, options_map=options, keywords=KEYWORDS,
                             comment_tags=("TRANSLATORS:",), strip_comment_tags=True)
    for filename, line, message, comments, context in found:
        template.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return template


def update_catalogues(root: Path = TRANSLATIONS) -> Catalog:
    """``make messages``: write ``messages.pot`` and bring each language's ``messages.po`` up to date
    (new ids untranslated, changed ones fuzzy, gone ones kept as obsolete for their translation)."""
    template = extract()
    with (root / "messages.pot").open("wb") as out:
        pofile.write_po(out, template, width=0, sort_by_file=True, omit_header=True)
    for po in sorted(root.glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as source:
            catalogue = pofile.read_po(source)
        catalogue.update(template, no_fuzzy_matching=True)  # a guess is worse than English
        with po.open("wb") as out:
            pofile.write_po(out, catalogue, width=0, sort_by_file=True, ignore_obsolete=False)
    return template


def main(argv: list[str] | None = None) -> int:
    if (argv or sys.argv[1:]) == ["extract"]:
        template = update_catalogues()
        print(f"translation catalogues: {len(template)} messages extracted")
        return 0
    built = compile_catalogues()
    print(f"translation catalogues: built {len(built)}" if built else "translation catalogues: up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
