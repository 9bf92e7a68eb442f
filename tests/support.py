"""Test helpers: a real SMTP server on loopback, factories, waiting for jobs."""
from __future__ import annotations

import re
import socket
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

PASSWORD = "correct horse 9"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float = 15.0, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout}s")
        time.sleep(interval)


class Mailbox:
    """An aiosmtpd handler that keeps every message it receives."""

    def __init__(self):
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self._lock:
            self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted"

    def clear(self):
        with self._lock:
            self.messages.clear()
            self.envelopes.clear()

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if m["To"] == address]

    def wait_for(self, address: str, count: int = 1, timeout: float = 15.0) -> EmailMessage:
        """The ``count``-th mail to ``address``, waiting for it to arrive."""
        return wait_until(lambda: len(self.to(address)) >= count and self.to(address)[count - 1], timeout)


def start_smtp_server(handler, **kwargs) -> Controller:
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(), **kwargs)
    controller.start()
    return controller


def text_part(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def html_part(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def link_token(message: EmailMessage, path: str) -> str:
    match = re.search(rf"{re.escape(path)}\?token=([A-Za-z0-9_\-]+)", text_part(message))
    assert match, f"no {path} link in the mail"
    return match.group(1)
