"""``N_("…")`` marks a message id where it is defined, so that ``make messages`` puts it in the
catalogue; it is translated where it is shown (``gettext(variable)``, a template's ``_(variable)``).
The libraries (content, documents, importing) may use it: it is a plain function, not Flask-Babel."""
from __future__ import annotations

import re


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for it)
    return message


_PLACE = re.compile(r"%\((\w+)\)s")

# Message ids ``with_values`` has written values into, each with the pattern that reads them back out.
FILLED: dict[str, re.Pattern] = {}


def with_values(message: str, **values) -> str:
    """``message`` (a msgid with ``%(name)s`` places) with its values written in, for what carries one
    string only (marshmallow's ``ValidationError``); ``app.common.wording`` reads the values back out of
    it to translate it, as it does marshmallow's own messages."""
    if message not in FILLED:
        FILLED[message] = pattern_of(message)
    return message % values


def pattern_of(message: str) -> re.Pattern:
    """What reads the values of ``message``'s ``%(name)s`` places back out of it once they are written in."""
    parts = _PLACE.split(message)  # text, name, text, name, ..., text
    return re.compile("".join(re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)"
                              for index, part in enumerate(parts)) + "$", re.DOTALL)
