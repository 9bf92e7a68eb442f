"""``N_("…")`` marks a message id where it is defined, so that ``make messages`` puts it in the
catalogue; it is translated where it is shown (``gettext(variable)``, a template's ``_(variable)``).
The libraries (content, documents, importing) may use it: it is a plain function, not Flask-Babel."""


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for it)
    return message
