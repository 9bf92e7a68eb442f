"""A fake OAuth 2.0 provider (GitHub- or Google-shaped), served over real HTTP on loopback.

It does what the real ones do that matters to us: the authorize endpoint checks the request (client id,
redirect URI, state, a PKCE S256 challenge) and redirects straight back with a code, as a provider does
once the person has agreed; the token endpoint checks the client's secret, the code, the redirect URI and
the PKCE verifier; the profile endpoints need the access token it issued.
"""
from __future__ import annotations

import base64
import hashlib
import secrets
import threading
from urllib.parse import urlencode

from flask import Flask, jsonify, redirect, request
from werkzeug.serving import WSGIRequestHandler, make_server
from tests.support import start_serving, stop_serving


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):  # keep the test output to what fails
        pass


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class FakeProvider:
    """``kind`` is "github" or "google". Set ``profile`` (and ``emails`` for GitHub) before a sign-in;
    ``deny`` makes the authorize step answer ``error=access_denied``, ``token_status`` other than 200
    makes the token endpoint fail. ``authorizations`` and ``exchanges`` record what was asked."""

    def __init__(self, kind: str):
        self.kind = kind
        self.client_id, self.client_secret = f"{kind}-client-id", f"{kind}-client-secret"
        self.profile: dict = {}
        self.emails: list[dict] = []
        self.deny = False
        self.token_status = 200
        self.authorizations: list[dict] = []
        self.exchanges: list[dict] = []
        self._codes: dict[str, dict] = {}
        self._tokens: set[str] = set()
        self._lock = threading.Lock()

        app = Flask(f"fake-{kind}")
        app.add_url_rule("/authorize", view_func=self._authorize)
        app.add_url_rule("/token", view_func=self._token, methods=["POST"])
        app.add_url_rule("/user", view_func=self._profile)
        app.add_url_rule("/user/emails", view_func=self._emails)
        self.server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        start_serving(self.server)

    def settings(self) -> dict[str, str]:
        """The variables that point the app at this provider."""
        key = self.kind.upper()
        settings = {f"{key}_CLIENT_ID": self.client_id, f"{key}_CLIENT_SECRET": self.client_secret,
                    f"{key}_AUTHORIZE_URL": f"{self.url}/authorize", f"{key}_TOKEN_URL": f"{self.url}/token",
                    f"{key}_USERINFO_URL": f"{self.url}/user"}
        if self.kind == "github":
            settings["GITHUB_EMAILS_URL"] = f"{self.url}/user/emails"
        return settings

    def close(self) -> None:
        stop_serving(self.server)

    # -- endpoints ---------------------------------------------------------------------------------

    def _authorize(self):
        args = request.args.to_dict()
        self.authorizations.append(args)
        problems = [name for name, ok in [
            ("response_type", args.get("response_type") == "code"),
            ("client_id", args.get("client_id") == self.client_id),
            ("redirect_uri", bool(args.get("redirect_uri"))),
            ("state", bool(args.get("state"))),
            ("code_challenge", bool(args.get("code_challenge"))),
            ("code_challenge_method", args.get("code_challenge_method") == "S256"),
        ] if not ok]
        if problems:
            return jsonify({"error": "invalid_request", "problems": problems}), 400
        back = args["redirect_uri"]
        if self.deny:
            return redirect(f"{back}?{urlencode({'error': 'access_denied', 'state': args['state']})}")
        code = secrets.token_urlsafe(16)
        with self._lock:
            self._codes[code] = {"redirect_uri": back, "challenge": args["code_challenge"]}
        return redirect(f"{back}?{urlencode({'code': code, 'state': args['state']})}")

    def _token(self):
        form = request.form.to_dict()
        self.exchanges.append(form)
        if self.token_status != 200:
            return "<html>upstream trouble</html>", self.token_status
        with self._lock:
            grant = self._codes.pop(form.get("code", ""), None)  # a code works once
        if (form.get("client_id"), form.get("client_secret")) != (self.client_id, self.client_secret):
            return jsonify({"error": "invalid_client"}), 401
        if grant is None or form.get("grant_type") != "authorization_code" \
                or form.get("redirect_uri") != grant["redirect_uri"] \
                or s256(form.get("code_verifier", "")) != grant["challenge"]:
            return jsonify({"error": "invalid_grant"}), 400
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._tokens.add(token)
        return jsonify({"access_token": token, "token_type": "bearer", "scope": "whatever was asked"})

    def _authorized(self) -> bool:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        return scheme.lower() == "bearer" and token in self._tokens

    def _profile(self):
        if not self._authorized():
            return jsonify({"message": "Bad credentials"}), 401
        return jsonify(self.profile)

    def _emails(self):
        if not self._authorized():
            return jsonify({"message": "Bad credentials"}), 401
        return jsonify(self.emails)
