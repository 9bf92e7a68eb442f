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
from marshmallow import Schema, fields, validate

from app.messages import FILLED, pattern_of

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
UNSPACED = ("zh", "ja")  # scripts that join sentences without a space


def marshmallow_messages() -> set[str]:
    """marshmallow's messages, read off its schemas, fields and validators so that they follow its upgrades
    (``app.i18n`` extracts them): a word it fills from a short list of its own (Range's "greater than", a
    date field's "datetime") is spelled out in each of its forms; a value it fills from the schema
    (``Length must be between {min} and {max}.``) stays a place."""
    found = set(Schema._default_error_messages.values())
    temporal = (fields.DateTime, fields.NaiveDateTime, fields.AwareDateTime, fields.Date, fields.Time)
    for field in vars(fields).values():
        if isinstance(field, type) and issubclass(field, fields.Field) and not issubclass(field, temporal):
            found.update(field.default_error_messages.values())
    for field in temporal:
        messages = field.default_error_messages
        found.add(messages["invalid"].format(obj_type=field.OBJ_TYPE))
        if "invalid_awareness" in messages:
            found.update(messages["invalid_awareness"].format(awareness=awareness, obj_type=field.OBJ_TYPE)
                         for awareness in ("naive", "aware"))
    found.update(validator.default_message for validator in (
        validate.URL, validate.Email, validate.Regexp, validate.Predicate, validate.NoneOf, validate.Equal,
        validate.OneOf, validate.ContainsOnly, validate.ContainsNoneOf))
    found.update((validate.Length.message_min, validate.Length.message_max, validate.Length.message_all,
                  validate.Length.message_equal))
    limits = validate.Range
    for low in (limits.message_gte, limits.message_gt):
        found.add(limits.message_min.format(min_op=low))
        for high in (limits.message_lte, limits.message_lt):
            found.add(limits.message_all.format(min_op=low, max_op=high))
    found.update(limits.message_max.format(max_op=high) for high in (limits.message_lte, limits.message_lt))
    # the date fields' base class words its forms spelled out above; "{input}" formats output, not a request
    return {message for message in found if not re.search(r"\{(obj_type|awareness|input)", message)}


def msgid_of(message: str) -> str:
    """A marshmallow message as the catalogue holds it: ``{min}`` → ``%(min)s``."""
    return re.sub(r"\{(\w+)\}", r"%(\1)s", message)


# Those with a value in them, each as its msgid and the pattern that reads the values
# back out of the message marshmallow formatted, so that a VALIDATION_ERROR's message is translated with its
# numbers kept; the longest first, so that "greater than or equal to" is not read as "greater than" a value.
VALUED = {msgid_of(message): pattern_of(msgid_of(message))
          for message in sorted((m for m in marshmallow_messages() if "{" in m), key=len, reverse=True)}


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
    whole = _translated(message)
    if whole is not None:
        return whole
    parts = [_translated(sentence) or sentence for sentence in _SENTENCE_END.split(message)]
    return ("" if get_locale().language in UNSPACED else " ").join(parts)


def _translated(message: str) -> str | None:
    """The catalogue's translation of ``message``, or of the marshmallow message with values it is (or of
    the ``app.messages.with_values`` one); None when the catalogue has neither."""
    whole = gettext(message)
    if whole != message:
        return whole
    for msgid, pattern in (*VALUED.items(), *FILLED.items()):
        found = pattern.match(message)
        if found:
            return gettext(msgid, **found.groupdict())
    return None


def _english() -> bool:
    locale = get_locale()
    return locale is None or locale.language == "en"
