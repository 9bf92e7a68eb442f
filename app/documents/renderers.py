"""Rendering a PDF in a child process, with a bound on its time.

A render in the calling process cannot be stopped: xhtml2pdf is pure Python, and a thread cannot
be killed. So ``Renderers`` renders in up to ``size`` child processes, one document at a time each.
``render`` hands a child the document and waits for the PDF at most ``timeout`` seconds; past that
the child is killed (SIGKILL) and ``TooSlow`` is raised. A render that finds every child busy waits
at most ``wait`` seconds for one (``Busy``).

- The children are forked from a fork server (``main``, started once with ``subprocess``; it has
  imported xhtml2pdf, ReportLab and PDFium and runs no thread), so a new child costs a fork, a few
  milliseconds, instead of the second of CPU those imports take. Children are kept between renders.
- A render still running after ``DEMOTE_AFTER`` seconds while another render runs is demoted (nice
  ``DEMOTED``) so that the kernel runs the shorter one, another user's, first whenever both want a
  CPU. An unprivileged process cannot raise its priority again, so a demoted child is not kept. Renders
  of one ``owner`` (one user's batch on two children) are not "another render" for each other.
- ``waiting`` counts the renders waiting for a child, so that an optional extra render (a second lane
  of the template picker's batch, ``app/pictures/template_previews.py``) can give way to them.
- ``TooSlow.cpu`` tells a heavy document (it used its time) from a busy machine (it did not).
- The fork server limits itself and its children to ``MEMORY_BYTES`` of address space. Its
  environment is ``config.render_environment``: no secret, and the font directory it was started for
  (a render for another one starts a new server).

The wire, on a Unix socket per child: each message is an 8-byte length and that many bytes. The
request is a pickle of (fmt, source, options, photo): the parent writes it, the child
reads it. The answer is JSON (``{"pages": [[width, height], ...]}`` in points, or ``{"error": "..."}``)
followed by a second message with the document's bytes; the parent never unpickles what a child
wrote. The fork server gets each child's socket with SCM_RIGHTS and answers its pid.
"""
from __future__ import annotations

import json
import logging
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from app import documents
from app.config import render_environment
from app.documents import children
from app.documents.options import DocumentError, Options, Photo, Source

log = logging.getLogger(__name__)

HEADER = struct.Struct("!Q")
MEMORY_BYTES = 2 * 1024 ** 3
START_TIMEOUT = 60  # seconds the fork server may take to import its libraries
DEMOTE_AFTER = 0.5  # seconds: a render still running then, beside another, yields the CPU to it
WATCH = 0.1  # seconds between looks at a running render (to demote it)
DEMOTED = 15  # the nice value of such a render's child


class TooSlow(DocumentError):
    """The render took longer than its ``timeout``; its child was killed. ``cpu``: the CPU seconds it
    had meanwhile (None where unknown): much less than the time it took means a busy machine, not
    a heavy document."""

    cpu: float | None = None


class Busy(Exception):
    """No child was free within ``wait`` seconds."""


@dataclass(frozen=True)
class Rendered:
    data: bytes
    pages: list[tuple[float, float]]  # each page's size in points
    undrawn: list[dict] = field(default_factory=list)  # documents.render_noted: printed as boxes


def _send(sock: socket.socket, data: bytes) -> None:
    sock.sendall(HEADER.pack(len(data)) + data)


def _receive(sock: socket.socket, deadline: float | None) -> bytes:
    """One message; raises TooSlow past ``deadline`` (time.monotonic()), EOFError when the peer is gone."""
    header = _receive_exactly(sock, HEADER.size, deadline)
    return _receive_exactly(sock, HEADER.unpack(header)[0], deadline)


def _receive_exactly(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    chunks, left = [], size
    while left:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([sock], [], [], remaining)[0]:
                raise TooSlow("the render took longer than it may")
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise EOFError("the other end is gone")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class _ForkServer:
    def __init__(self, font_dir: str) -> None:
        self.font_dir = font_dir
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(children.command("app.documents.renderers", str(theirs.fileno())),
                                        pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=2,
                                        env=render_environment(font_dir), cwd=children.ROOT)  # stdout: the log
        theirs.close()
        self.control = ours
        try:
            ready = json.loads(_receive(ours, time.monotonic() + START_TIMEOUT))
        except (TooSlow, EOFError) as exc:
            self.close()
            raise DocumentError(f"the render server did not start: {exc}") from None
        if ready != {"ready": True}:
            self.close()
            raise DocumentError(f"the render server did not start: {ready!r}")

    def fork(self) -> tuple[socket.socket, int]:
        """A new child: the parent's end of its socket and its pid. Raises OSError, EOFError, TooSlow."""
        ours, theirs = socket.socketpair()
        try:
            socket.send_fds(self.control, [b"fork"], [theirs.fileno()])
            answer = json.loads(_receive(self.control, time.monotonic() + START_TIMEOUT))
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        return ours, int(answer["pid"])

    def close(self) -> None:
        self.control.close()  # the server reads EOF and ends
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class _Child:
    def __init__(self, sock: socket.socket, pid: int) -> None:
        self.sock, self.pid = sock, pid
        self.demoted = False
        self.gone = False

    def render(self, request: tuple, timeout: float, contended: Callable[[], bool]) -> Rendered:
        """Raises TooSlow (with the CPU time the render had) past ``timeout`` seconds. Demoted once it
        has run ``DEMOTE_AFTER`` seconds while ``contended()`` (another render runs beside it)."""
        started = time.monotonic()
        deadline = started + timeout
        cpu_before = self._cpu_seconds()
        try:
            _send(self.sock, pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL))
            while not self.demoted and not select.select([self.sock], [], [], WATCH)[0]:
                now = time.monotonic()
                if now >= deadline:
                    break
                if now - started >= DEMOTE_AFTER and contended():
                    self._demote()
            try:
                answer = json.loads(_receive(self.sock, deadline))
                data = _receive(self.sock, deadline)
            except TooSlow as exc:
                cpu_after = self._cpu_seconds()
                exc.cpu = None if None in (cpu_before, cpu_after) else cpu_after - cpu_before
                raise
        except (OSError, EOFError) as exc:  # it died: killed by the kernel for its memory, or crashed
            self.gone = True
            raise DocumentError(f"the render process ended: {exc}") from None
        if "error" in answer:
            raise DocumentError(str(answer["error"]), reason=answer.get("reason", "render"))
        return Rendered(data=data, pages=[(float(w), float(h)) for w, h in answer["pages"]],
                        undrawn=answer.get("undrawn", []))

    def _cpu_seconds(self) -> float | None:
        """The CPU time the child has used (Linux's /proc), or None where that cannot be read."""
        try:
            with open(f"/proc/{self.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        except (OSError, ValueError, IndexError):
            return None

    def _demote(self) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, self.pid, DEMOTED)
            self.demoted = True
        except OSError:
            pass

    def kill(self) -> None:
        if not self.gone:  # the fork server reaps it; once gone, its pid may be another process's
            try:
                os.kill(self.pid, signal.SIGKILL)
            except OSError:
                pass
        self.gone = True
        self.sock.close()


class Renderers:
    """Up to ``size`` child processes that render PDFs, each one document at a time."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._free = threading.BoundedSemaphore(size)
        self._busy = 0  # renders running now
        self._waiting = 0  # renders waiting for a child (with a ``wait`` above 0)
        self._owners: dict[str, int] = {}  # owner -> its renders running now
        self._busy_lock = threading.Lock()
        self._idle: list[_Child] = []
        self._server: _ForkServer | None = None
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def render(self, source: Source, options: Options, photo: Photo | None, *, font_dir: str, timeout: float,
               wait: float, owner: str | None = None) -> Rendered:
        """The PDF of ``source``; raises TooSlow past ``timeout`` seconds, Busy when no child is free
        within ``wait`` seconds, DocumentError when it cannot be rendered. Renders of one ``owner`` (the
        lanes of one batch) do not count as contention for each other: only another's render demotes."""
        if not self._free.acquire(blocking=False):
            if wait <= 0:
                raise Busy()
            with self._busy_lock:
                self._waiting += 1
            try:
                free = self._free.acquire(timeout=wait)
            finally:
                with self._busy_lock:
                    self._waiting -= 1
            if not free:
                raise Busy()
        self._count(1, owner)
        try:
            child = self._take(font_dir)
            try:
                rendered = child.render(("pdf", source, options, photo), timeout, lambda: self._contended(owner))
            except BaseException as exc:
                if isinstance(exc, DocumentError) and not isinstance(exc, TooSlow) and not child.gone:
                    self._give_back(child)  # the document's own failure: the child is fine
                else:
                    child.kill()
                raise
            self._give_back(child)
            return rendered
        finally:
            self._count(-1, owner)
            self._free.release()

    @property
    def waiting(self) -> int:
        """How many renders wait for a child now: a caller that renders beside its own other render
        (``template_previews``' second lane) stops taking children while this is above 0."""
        return self._waiting

    def _contended(self, owner: str | None) -> bool:
        """Whether a render runs beside this one (``owner``'s) that is not ``owner``'s own."""
        return self._busy - self._owners.get(owner, 1) > 0

    def _count(self, change: int, owner: str | None) -> None:
        with self._busy_lock:
            self._busy += change
            if owner is not None:
                self._owners[owner] = self._owners.get(owner, 0) + change
                if not self._owners[owner]:
                    del self._owners[owner]

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            server, self._server = self._server, None
        for child in idle:
            child.kill()
        if server is not None:
            server.close()

    def _take(self, font_dir: str) -> _Child:
        with self._lock:
            if os.getpid() != self._pid:  # forked: those processes are the parent's
                self._idle, self._server, self._pid = [], None, os.getpid()
            if self._server is not None and self._server.font_dir != font_dir:
                for child in self._idle:
                    child.kill()
                self._idle = []
                self._server.close()
                self._server = None
            if self._idle:
                return self._idle.pop()
            for attempt in (1, 2):
                if self._server is None or self._server.process.poll() is not None:
                    self._server = _ForkServer(font_dir)
                try:
                    return _Child(*self._server.fork())
                except (OSError, EOFError, TooSlow) as exc:
                    log.warning("the render server failed to fork (%s): starting a new one", exc)
                    self._server.close()
                    self._server = None
            raise DocumentError("the render server cannot fork")

    def _give_back(self, child: _Child) -> None:
        if child.demoted:  # it cannot get its priority back
            child.kill()
            return
        with self._lock:
            if os.getpid() == self._pid:
                self._idle.append(child)
                return
        child.kill()


# The fork server and its children ------------------------------------------------
def main() -> None:
    """The fork server: forks a render child for each socket it is sent, until its own socket closes."""
    children.limit_self(MEMORY_BYTES)
    control = socket.socket(fileno=int(sys.argv[2]))

    import pypdfium2  # noqa: F401  (imported once, here, for every child)

    try:  # a first render, so that what it loads on first use is loaded once, for every child
        documents.render("pdf", Source(html_template="<h1>Warm</h1><p>up</p>", css="h1 { font-weight: bold }",
                                       title="", content={}, visible={}))
    except Exception as exc:
        log.warning("the render server's first render failed: %s", exc)

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    _send(control, b'{"ready": true}')
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 16, 1)
        except OSError:
            return
        if not message:
            return  # the parent is gone
        if not fds:
            continue
        pid = os.fork()
        if pid == 0:
            control.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                _serve(socket.socket(fileno=fds[0]))
            finally:
                os._exit(0)
        os.close(fds[0])
        _send(control, json.dumps({"pid": pid}).encode())


def _serve(sock: socket.socket) -> None:
    """A render child: render each request until the parent closes the socket."""
    import pypdfium2

    while True:
        try:
            fmt, source, options, photo = pickle.loads(_receive(sock, None))
        except EOFError:
            return
        try:
            data, undrawn = documents.render_noted(fmt, source, options, photo)
            document = pypdfium2.PdfDocument(data)
            try:
                pages = []
                for index in range(len(document)):
                    page = document[index]
                    pages.append(list(page.get_size()))
                    page.close()
            finally:
                document.close()
        except MemoryError:
            answer, data = {"error": f"the render needed more than {MEMORY_BYTES} bytes"}, b""
        except Exception as exc:  # DocumentError, or a bug: the parent reads a failed render
            answer, data = {"error": f"{type(exc).__name__}: {exc}", "reason": getattr(exc, "reason", "render")}, b""
        else:
            answer = {"pages": pages, "undrawn": undrawn}
        _send(sock, json.dumps(answer).encode())
        _send(sock, data)
