"""Outgoing mail: a small interface, an SMTP adapter and a log adapter.

The adapter is chosen from configuration at start-up: ``MAIL_SERVER`` set means
SMTP (with STARTTLS via ``MAIL_USE_TLS``, implicit TLS via ``MAIL_USE_SSL``, and
login when ``MAIL_USERNAME`` is set); otherwise mails are written to the log,
which is the embedded default.
"""
from __future__ import annotations

import contextvars
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Protocol

from flask import Flask, current_app, render_template

log = logging.getLogger(__name__)

# The id of the outbox row being sent (app.events.mail): it becomes the message's Message-ID, so that a
# mail sent again after a worker died at the wrong moment is the same message.
OUTBOX_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("outbox_id", default=None)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str
    html: str


class Mailer(Protocol):
    def send(self, mail: Mail) -> None:
        """Deliver ``mail`` or raise (the calling job is then retried)."""


def build_message(mail: Mail, sender: str) -> EmailMessage:
    """A multipart/alternative message: the plain-text part first, then HTML."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = mail.to
    message["Subject"] = mail.subject
    domain = sender.rsplit("@", 1)[-1].strip(">") or None
    outbox_id = OUTBOX_ID.get()
    message["Message-ID"] = f"<{outbox_id}@{domain or 'localhost'}>" if outbox_id else make_msgid(domain=domain)
    message.set_content(mail.text)
    message.add_alternative(mail.html, subtype="html")
    return message


class SmtpMailer:
    def __init__(self, *, server: str, port: int, username: str | None, password: str | None,
                 use_tls: bool, use_ssl: bool, sender: str, timeout: int):
        self.server, self.port = server, port
        self.username, self.password = username, password
        self.use_tls, self.use_ssl = use_tls, use_ssl
        self.sender, self.timeout = sender, timeout

    def send(self, mail: Mail) -> None:
        context = ssl.create_default_context()
        if self.use_ssl:
            client = smtplib.SMTP_SSL(self.server, self.port, timeout=self.timeout, context=context)
        else:
            client = smtplib.SMTP(self.server, self.port, timeout=self.timeout)
        with client:
            if self.use_tls:
                client.starttls(context=context)
            if self.username:
                client.login(self.username, self.password or "")
            client.send_message(build_message(mail, self.sender))


class LogMailer:
    """The embedded default: the whole plain-text mail goes to the log (links included)."""

    def __init__(self, sender: str):
        self.sender = sender

    def send(self, mail: Mail) -> None:
        log.info("mail to %s: %s\n%s", mail.to, mail.subject, mail.text)


def init_app(app: Flask) -> None:
    cfg = app.config
    if cfg["MAIL_SERVER"]:
        mailer: Mailer = SmtpMailer(server=cfg["MAIL_SERVER"], port=cfg["MAIL_PORT"],
                                    username=cfg["MAIL_USERNAME"], password=cfg["MAIL_PASSWORD"],
                                    use_tls=cfg["MAIL_USE_TLS"], use_ssl=cfg["MAIL_USE_SSL"],
                                    sender=cfg["MAIL_DEFAULT_SENDER"], timeout=cfg["MAIL_TIMEOUT"])
    else:
        mailer = LogMailer(cfg["MAIL_DEFAULT_SENDER"])
    app.extensions["mailer"] = mailer


def send_template(to: str, subject: str, template: str, **context) -> None:
    """Render ``emails/<template>.txt`` and ``.html`` and send them as one mail."""
    mail = Mail(to=to, subject=subject,
                text=render_template(f"emails/{template}.txt", **context),
                html=render_template(f"emails/{template}.html", **context))
    current_app.extensions["mailer"].send(mail)
