"""Test helpers: real servers on loopback (SMTP, HTTP), factories, waiting for jobs."""
from __future__ import annotations

import io
import re
import socket
import threading
import time
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

PASSWORD = "correct horse 9"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serving(server) -> threading.Thread:
    """Run ``server`` (a socketserver or Werkzeug server) on a daemon thread. Its loop looks for a shutdown
    every 50 ms: at serve_forever's default of 0.5 s, each test that stopped a server waited half a second."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return thread


def stop_serving(server, thread: threading.Thread | None = None) -> None:
    server.shutdown()
    server.server_close()
    if thread is not None:
        thread.join(10)


@contextmanager
def serving(server):
    """``with serving(server):`` the server answers inside the block and is stopped after it."""
    thread = start_serving(server)
    try:
        yield server
    finally:
        stop_serving(server, thread)


def pump(source: socket.socket, target: socket.socket, gate: threading.Event | None = None) -> None:
    """Copy ``source`` to ``target`` until either side closes, then shut both (a TCP proxy's half).
    With a ``gate``, each chunk waits for it to be set (a proxy that can freeze)."""
    try:
        while data := source.recv(65536):
            if gate is not None:
                gate.wait()
            target.sendall(data)
    except OSError:
        pass
    finally:
        shut(source)
        shut(target)


def shut(sock: socket.socket) -> None:
    """Shut a socket down both ways, whatever state it is in."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


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


class Receiver:
    """A webhook receiver: a real HTTP server on loopback that records each request's raw bytes.

    ``statuses`` are answered in turn (then 200); ``delay`` seconds pass before each answer.
    """

    def __init__(self, statuses=(), delay: float = 0.0):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.statuses, self.delay = list(statuses), delay
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                if len(body) < length:  # the sender died mid-request: a real server drops it too
                    self.close_connection = True
                    return
                with receiver._lock:
                    receiver.requests.append({"at": time.monotonic(), "path": self.path, "body": body,
                                              "headers": {k.lower(): v for k, v in self.headers.items()}})
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                time.sleep(receiver.delay)
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", receiver.url + "redirected")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        ThreadingHTTPServer.request_queue_size = 128  # the relay posts in parallel
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        start_serving(self.server)

    def wait_for(self, count: int, timeout: float = 20.0) -> list[dict]:
        wait_until(lambda: len(self.requests) >= count, timeout)
        with self._lock:
            return list(self.requests)

    def close(self) -> None:
        stop_serving(self.server)


def drawn_pdf(draw) -> bytes:
    """A PDF drawn with reportlab by ``draw(canvas)`` on one A4 page: positions exactly known, no template
    involved."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4)
    draw(pdf)
    pdf.save()
    return out.getvalue()


def said(language: str, message: str) -> str:
    """``message`` as the catalogue of ``language`` (a ``preferences.language`` code) says it."""
    from babel.support import Translations

    from app import i18n

    return Translations.load(str(i18n.TRANSLATIONS), [i18n.LOCALES[language]]).gettext(message)
