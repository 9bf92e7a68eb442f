"""The interface's languages: one Flask-Babel catalogue for the pages, the scripts, the mails and the API.

Ten languages (``LANGUAGES``; Arabic right to left). The locale is the signed-in person's
``preferences.language``, else the language a visitor chose on a public page, else the best match of the
request's ``Accept-Language``, else English. ``make messages`` extracts every message id (``_``/``gettext`` in
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
from typing import NamedTuple

from babel.messages import mofile, pofile
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from flask import Flask, current_app, request
from flask_babel import Babel, get_locale
from flask_login import current_user

from app.common import wording
from app.content import sections

log = logging.getLogger(__name__)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"


class Language(NamedTuple):
    """An interface language: ``code`` as ``preferences.language`` names it, ``locale`` its catalogue's
    Babel locale, ``name`` its own name, ``tag`` its BCP 47 tag (``<html lang>``, the scripts' ``Intl``),
    ``english`` its English name (what the AI is told to write in)."""
    code: str
    locale: str
    name: str
    tag: str
    english: str
    rtl: bool = False


LANGUAGES = {language.code: language for language in (
    Language("en", "en", "English", "en", "English"),
    Language("zh-cn", "zh", "简体中文", "zh-CN", "Simplified Chinese"),
    Language("zh-tw", "zh_Hant", "繁體中文", "zh-TW", "Traditional Chinese"),
    Language("es", "es", "Español", "es", "Spanish"),
    Language("fr", "fr", "Français", "fr", "French"),
    Language("de", "de", "Deutsch", "de", "German"),
    Language("pt-br", "pt_BR", "Português (Brasil)", "pt-BR", "Brazilian Portuguese"),
    Language("ja", "ja", "日本語", "ja", "Japanese"),
    Language("ar", "ar", "العربية", "ar", "Arabic", rtl=True),
    Language("hi", "hi", "हिन्दी", "hi", "Hindi"),
)}
# preferences.language -> the Babel locale of its catalogue, and back
LOCALES = {code: language.locale for code, language in LANGUAGES.items()}
LANGUAGE_OF = {locale: code for code, locale in LOCALES.items()}
# What Accept-Language may ask for -> the language that answers it (werkzeug matches "fr-CA" to "fr")
ASKED = {"en": "en", "zh-CN": "zh-cn", "zh-SG": "zh-cn", "zh-Hans": "zh-cn", "zh": "zh-cn", "zh-TW": "zh-tw",
         "zh-HK": "zh-tw", "zh-MO": "zh-tw", "zh-Hant": "zh-tw", "es": "es", "fr": "fr", "de": "de",
         "pt-BR": "pt-br", "pt": "pt-br", "ja": "ja", "ar": "ar", "hi": "hi"}
COOKIE = "language"  # the language a visitor chose on a public page
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


def chosen_language() -> str:
    """The request's language: the signed-in account's, else the one a visitor chose on a public page (the
    ``language`` cookie), else the best match of ``Accept-Language``, else English."""
    if current_user and current_user.is_authenticated:
        language = (current_user.preferences or {}).get("language")
        if language in LANGUAGES:
            return language
    if request.cookies.get(COOKIE) in LANGUAGES:
        return request.cookies[COOKIE]
    return ASKED[request.accept_languages.best_match(list(ASKED), default="en")]


def select_locale() -> str:
    return LOCALES[chosen_language()]


def language() -> str:
    """The current request's language as ``preferences.language`` names it (``en``, ``zh-cn``, ``fr``...)."""
    return LANGUAGE_OF.get(str(get_locale()), "en")


def current() -> Language:
    return LANGUAGES[language()]


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
    messages, and marshmallow's, the schemas' errors that library words for us (``wording.marshmallow_messages``;
    a value in one is a ``%(name)s`` place)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    for word in sorted(wording.marshmallow_messages()):
        yield 1, "_", wording.msgid_of(word), ["marshmallow's own message"]


def init_app(app: Flask) -> None:
    try:
        compile_catalogues()
    except OSError:  # a read-only install: the set-up step built them
        log.warning("could not build the translation catalogues in %s", TRANSLATIONS, exc_info=True)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(language=language, interface=current, interface_languages=LANGUAGES)


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
# message), marshmallow's ValidationError(message) and the with_values(message, **values) one carries, a webhook URL's
# TargetRefused(message) (their messages are translated as the response is made).
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "_l": None, "lazy_pgettext": ((1, "c"), 2), "N_": None, "t": None,
            "ApiError": (2,), "InvalidField": (2,), "ValidationError": (1,), "TargetRefused": (1,),
            "with_values": (1,)}


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
