"""Smoke test of a running deployment, driven over HTTP as a client would (standard library only).

    python3 -I -S .ci/smoke.py BASE_URL --smtp-port PORT

The web and worker processes must be running with ``BASE_URL`` as their public address and
``MAIL_SERVER=127.0.0.1 MAIL_PORT=PORT``: this script listens on that port with a tiny SMTP
capture of its own, then registers, verifies the address from the captured mail (the page's
form, as a person would), signs in, creates a resume, exports a PDF through the worker,
downloads it, shares the resume and opens the share page as an anonymous visitor.
It stops at the first step that fails, says why, and exits 1.
"""
from __future__ import annotations

import argparse
import email
import email.policy
import html
import http.cookiejar
import json
import re
import secrets
import socketserver
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request


class SmokeFailure(Exception):
    pass


# The SMTP capture ------------------------------------------------------------------------------

class Mailbox:
    """Messages received by the capture, with a way to wait for the next one to an address."""

    def __init__(self):
        self._messages: list[tuple[list[str], bytes]] = []
        self._changed = threading.Condition()

    def add(self, recipients: list[str], data: bytes) -> None:
        with self._changed:
            self._messages.append((recipients, data))
            self._changed.notify_all()

    def wait_for(self, address: str, timeout: float) -> email.message.EmailMessage:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for recipients, data in self._messages:
                    if address.lower() in (r.lower() for r in recipients):
                        return email.message_from_bytes(data, policy=email.policy.default)
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [r for recipients, _ in self._messages for r in recipients]
                    raise SmokeFailure(f"no mail to {address} within {timeout:.0f} s "
                                       f"(mails captured for: {seen or 'nobody'}); is the worker running "
                                       f"and MAIL_SERVER/MAIL_PORT pointing at the capture?")
                self._changed.wait(left)


class SmtpHandler(socketserver.StreamRequestHandler):
    """Just enough of RFC 5321 for smtplib: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT."""

    timeout = 30

    def reply(self, text: str) -> None:
        self.wfile.write(text.encode("ascii") + b"\r\n")

    def handle(self) -> None:
        self.reply("220 smoke-capture ESMTP")
        recipients: list[str] = []
        while True:
            line = self.rfile.readline(4096)
            if not line:
                return
            command = line.decode("utf-8", "replace").strip()
            verb = command[:4].upper()
            if verb == "EHLO":
                self.reply("250-smoke-capture\r\n250-8BITMIME\r\n250 SMTPUTF8")
            elif verb == "HELO":
                self.reply("250 smoke-capture")
            elif verb == "MAIL":
                recipients = []
                self.reply("250 OK")
            elif verb == "RCPT":
                match = re.search(r"<([^>]*)>", command)
                recipients.append(match.group(1) if match else command.split(":", 1)[-1].strip())
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                lines = []
                while True:
                    data_line = self.rfile.readline(1_000_000)
                    if not data_line or data_line in (b".\r\n", b".\n"):
                        break
                    lines.append(data_line[1:] if data_line.startswith(b"..") else data_line)
                self.server.mailbox.add(recipients, b"".join(lines))
                recipients = []
                self.reply("250 OK: captured")
            elif verb in ("RSET", "NOOP"):
                recipients = [] if verb == "RSET" else recipients
                self.reply("250 OK")
            elif verb == "QUIT":
                self.reply("221 Bye")
                return
            else:
                self.reply("502 Command not implemented")


class SmtpCapture(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int):
        super().__init__(("127.0.0.1", port), SmtpHandler)
        self.mailbox = Mailbox()
        threading.Thread(target=self.serve_forever, name="smtp-capture", daemon=True).start()


# HTTP ------------------------------------------------------------------------------------------

class Response:
    def __init__(self, status: int, headers, body: bytes, url: str):
        self.status, self.headers, self.body, self.url = status, headers, body, url

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            raise SmokeFailure(f"{self.url} answered {self.status} with a body that is not JSON: "
                               f"{self.body[:300]!r}") from None

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Client:
    """A browser-like client: one cookie jar, JSON or form bodies, never raises on a status."""

    def __init__(self, base_url: str, timeout: float):
        self.base_url, self.timeout = base_url.rstrip("/"), timeout
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, method: str, url: str, *, json_body=None, form=None, headers=None) -> Response:
        url = url if url.startswith("http") else self.base_url + url
        data, sent = None, {"Accept": "application/json, text/html;q=0.9", **(headers or {})}
        if json_body is not None:
            data, sent["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent.setdefault("Origin", self.base_url)  # what a browser sends with a form post
        req = urllib.request.Request(url, data=data, method=method, headers=sent)
        try:
            with self.opener.open(req, timeout=self.timeout) as resp:
                return Response(resp.status, resp.headers, resp.read(), url)
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.headers, exc.read(), url)
        except (urllib.error.URLError, OSError) as exc:
            raise SmokeFailure(f"{method} {url} failed: {getattr(exc, 'reason', exc)}") from None


def expect(response: Response, *statuses: int) -> Response:
    if response.status not in statuses:
        raise SmokeFailure(f"{response.url} answered {response.status}, expected "
                           f"{' or '.join(map(str, statuses))}; X-Request-ID "
                           f"{response.headers.get('X-Request-ID', '-')}; body: {response.body[:500]!r}")
    return response


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


# The journey -----------------------------------------------------------------------------------

def wait_until_ready(client: Client, seconds: float) -> None:
    deadline, last = time.monotonic() + seconds, "no answer"
    while time.monotonic() < deadline:
        try:
            response = client.request("GET", "/readyz")
            if response.status == 200:
                return
            last = f"{response.status} {response.body[:200]!r}"
        except SmokeFailure as exc:
            last = str(exc)
        time.sleep(0.5)
    raise SmokeFailure(f"/readyz did not answer 200 within {seconds:.0f} s (last: {last})")


class Steps(list):
    """The steps passed, each printed as it passes (so a hang shows where it is)."""

    def append(self, line: str) -> None:
        super().append(line)
        print(f"smoke: ok   {line}", flush=True)


def run(base_url: str, mailbox: Mailbox, timeout: float, done: Steps) -> None:
    """Walk the journey, appending a line to ``done`` per step passed; raises SmokeFailure."""
    client = Client(base_url, timeout)
    wait_until_ready(client, timeout)
    done.append("ready: /readyz 200 (database and Redis)")

    address = f"smoke-{secrets.token_hex(6)}@example.com"
    password = f"smoke pass {secrets.token_hex(4)} 9"
    title = f"Smoke resume {secrets.token_hex(4)}"
    body = expect(client.request("POST", "/api/register",
                                 json_body={"email": address, "password": password, "name": "Smoke Test"}),
                  201).json()
    check(body.get("data", {}).get("emailVerified") is False, f"registration answered {body}")
    done.append(f"registered {address}")

    mail = mailbox.wait_for(address, timeout)
    text = mail.get_body(preferencelist=("plain",)).get_content()
    match = re.search(r"(\S+/verify-email\?token=[A-Za-z0-9_\-]+)", text)
    check(match is not None, f"the verification mail has no /verify-email link:\n{text}")
    link = match.group(1)
    check(link.startswith(base_url + "/"), f"the mailed link {link} is not on BASE_URL {base_url}")
    page = expect(client.request("GET", link), 200)
    check("<form" in page.text(), "the verification page shows no form to confirm with")
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["token"][0]
    verified = expect(client.request("POST", "/verify-email", form={"token": token}), 200)
    check("verified" in verified.text().lower(), f"the verification form answered: {verified.text()[:300]}")
    done.append("verified the address from the captured mail (the page's form)")

    expect(client.request("POST", "/api/auth/signin", json_body={"email": address, "password": password}), 200)
    session = expect(client.request("GET", "/api/auth/session"), 200).json()
    check(session.get("user", {}).get("email") == address,
          f"after signing in, /api/auth/session answered {session} (is the cookie kept for {base_url}?)")
    done.append("signed in (session cookie)")

    templates = expect(client.request("GET", "/api/templates"), 200).json()["data"]
    basic = [t for t in templates if t.get("tier") == "basic"] or templates
    check(bool(basic), "GET /api/templates lists no template")
    content = {"personalInfo": {"name": "Smoke Test", "email": address, "phone": "", "address": "",
                                "summary": "Checks a deployment end to end: 检查部署。 فحص النشر. परिनियोजन की जाँच।"},
               "workExperience": [], "education": [], "skills": ["Python"], "projects": []}
    resume = expect(client.request("POST", "/api/resumes", json_body={
        "title": title, "templateId": basic[0]["id"], "contentJson": content}), 201).json()["data"]
    done.append(f"created resume {resume['id']} with template {basic[0]['id']}")

    started = time.monotonic()
    export = expect(client.request("POST", f"/api/resumes/{resume['id']}/export",
                                   json_body={"format": "pdf"}), 201).json()["data"]
    rendered = time.monotonic() - started
    check(export["downloadUrl"].startswith(base_url + "/"),
          f"downloadUrl {export['downloadUrl']} is not on BASE_URL {base_url}")
    pdf = expect(Client(base_url, timeout).request("GET", export["downloadUrl"]), 200)
    check(pdf.body.startswith(b"%PDF-"), f"the download is not a PDF: {pdf.body[:40]!r}")
    for face in (b"NotoSansCJK", b"NotoSansArabic", b"NotoSansDevanagari"):
        check(face in pdf.body, f"the PDF does not embed {face.decode()} for the summary's Chinese, Arabic "
                                "and Hindi")
    check(len(pdf.body) == export["fileSize"], f"downloaded {len(pdf.body)} bytes, fileSize says "
                                               f"{export['fileSize']}")
    done.append(f"exported a PDF with Chinese, Arabic and Hindi through the worker on a disk with no font cut "
                f"in {rendered:.1f} s and downloaded it "
                f"({len(pdf.body)} bytes)")

    share = expect(client.request("POST", f"/api/resumes/{resume['id']}/share",
                                  json_body={"isEnabled": True}), 201).json()["data"]
    check(share["shareUrl"] == f"{base_url}/share/{share['token']}", f"shareUrl is {share['shareUrl']}")
    visitor = Client(base_url, timeout)  # a person without an account
    page = expect(visitor.request("GET", share["shareUrl"], headers={"Accept": "text/html"}), 200)
    check(page.headers.get_content_type() == "text/html", f"the share page is {page.headers['Content-Type']}")
    check(html.escape(title) in page.text(), f"the share page does not name the resume {title!r}")
    done.append(f"shared it; an anonymous visitor opened {share['shareUrl']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url", help="the web process's public address (its BASE_URL)")
    parser.add_argument("--smtp-port", type=int, required=True, help="port of the SMTP capture (MAIL_PORT)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for each step")
    args = parser.parse_args()
    base_url = args.base_url.rstrip("/")
    try:
        capture = SmtpCapture(args.smtp_port)
    except OSError as exc:
        print(f"smoke: FAILED: cannot listen on 127.0.0.1:{args.smtp_port} for mail: {exc}", file=sys.stderr)
        return 1
    done = Steps()
    try:
        run(base_url, capture.mailbox, args.timeout, done)
    except Exception as exc:  # noqa: BLE001 - any surprise is a failed smoke, said in one line
        reason = exc if isinstance(exc, SmokeFailure) else f"{type(exc).__name__}: {exc}"
        print(f"smoke: FAILED after {len(done)} steps: {reason}", file=sys.stderr)
        return 1
    finally:
        capture.shutdown()
        capture.server_close()
    print(f"smoke: {len(done)} steps passed against {base_url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
