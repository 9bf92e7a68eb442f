"""The service's English messages (an API error's ``error``, a form's message) in the request's language:
the account's language, else ``Accept-Language`` (Flask-Babel's locale, ``app.i18n.select_locale``).

A message is a msgid of the catalogue (``make messages`` finds them in ``ApiError(code, message)`` and
the other error calls). One composed of several fixed sentences is also looked up sentence by sentence;
a sentence the catalogue lacks stays English rather than disappearing. A VALIDATION_ERROR's
``field: message`` keeps the field's name (the API's path) and ``": "`` and translates the rest, so a client
finds the path the same way in every language.
"""
from __future__ import annotations

import re

from flask_babel import format_decimal, get_locale, gettext

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
UNSPACED = ("zh", "ja")  # scripts that join sentences without a space


def said(message: str, field: str | None = None, values: dict | None = None) -> str:
    """``message`` (a msgid; ``values`` fill its ``%(name)s`` places, numbers written the reader's way)."""
    if not message:
        return message  # gettext("") is the catalogue's header
    message = str(message)
    if field and message.startswith(f"{field}: "):  # the API's path stays as it is, before ": " in every language
        return f"{field}: {said(message[len(field) + 2:], values=values)}"
    written = {name: format_decimal(value) if isinstance(value, int) and not isinstance(value, bool) else value
               for name, value in (values or {}).items()}
    if _english():
        return message % written if written else message
    if written:
        return gettext(message, **written)
    whole = gettext(message)
    if whole != message:
        return whole
    parts = [gettext(sentence) for sentence in _SENTENCE_END.split(message)]
    return ("" if get_locale().language in UNSPACED else " ").join(parts)


def _english() -> bool:
    locale = get_locale()
    return locale is None or locale.language == "en"
