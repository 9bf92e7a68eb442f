"""Connecting an agent with OAuth (issue 35 point 2): the SDK's own OAuthClientProvider against the
server as ``make run`` serves it (one process) and as the Procfile deploys it (``web`` and ``mcp`` behind a
router, tests/router.py). The client is known by its metadata document (a Client ID Metadata
Document, served over HTTPS on loopback with a certificate of the test's own); the person signs in,
sees the consent page list the scopes asked, allows some; the client gets a token with those scopes
only, for the MCP server only. PKCE, a replayed code and a denied consent are refused as OAuth says."""
from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import re
import ssl
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlencode, urlsplit


from tests.mcp.client import run
import httpx2
import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientMetadata
from pydantic import AnyUrl

from tests.processes import deployment_for, uvicorn_for
from tests.support import free_port, start_serving, stop_serving

REDIRECT = "http://127.0.0.1:3030/callback"


@pytest.fixture(scope="module")
def client_document(tmp_path_factory):
    """An HTTPS server on loopback serving the agent's metadata document; ``.ca`` trusts its certificate."""
    directory = tmp_path_factory.mktemp("agent-tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(minutes=5)).not_valid_after(now + timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    (directory / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (directory / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption()))
    port = free_port()
    url = f"https://127.0.0.1:{port}/agent/client.json"
    document = json.dumps({"client_id": url, "client_name": "Test Agent", "redirect_uris": [REDIRECT],
                           "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                           "token_endpoint_auth_method": "none"}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/agent/client.json" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(document)))
            self.end_headers()
            self.wfile.write(document)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(directory / "cert.pem", directory / "key.pem")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    start_serving(server)
    server.url, server.ca = url, str(directory / "cert.pem")
    yield server
    stop_serving(server)


@pytest.fixture(scope="module", params=["make run", "Procfile"])
def server(request, test_env, tmp_path_factory, client_document):
    serve = uvicorn_for if request.param == "make run" else deployment_for
    with serve(test_env, tmp_path_factory, AGENT_CLIENT_ALLOW_PRIVATE_TARGETS="1",
               AGENT_CLIENT_CA_CERTS=client_document.ca) as running:
        yield running


def _consent(session: requests.Session, url: str) -> tuple[str, list[str]]:
    page = session.get(url, timeout=30, allow_redirects=False)
    assert page.status_code == 200, page.text
    sealed = re.search(r'name="request" value="([^"]+)"', page.text).group(1)
    return sealed, re.findall(r'name="scope" value="([^"]+)"', page.text)


class Storage:
    def __init__(self):
        self.tokens = self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


def test_an_sdk_client_connects_with_oauth_and_gets_only_the_scopes_allowed(server, client_document, make_user):
    user = make_user()
    person = server.signed_in(user["email"])
    seen, landed = {}, {}

    async def open_browser(authorization_url: str) -> None:
        seen["url"] = authorization_url
        sealed, scopes = _consent(person, authorization_url)
        seen["scopes"] = scopes
        answer = person.post(f"{server.url}/oauth/authorize", timeout=30, allow_redirects=False, data={
            "request": sealed, "decision": "allow", "scope": ["resumes:read", "resumes:write"]})
        assert answer.status_code == 302, answer.text
        landed.update(parse_qs(urlsplit(answer.headers["Location"]).query))
        assert answer.headers["Location"].startswith(REDIRECT + "?")

    async def callback() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=landed["code"][0], state=landed["state"][0], iss=landed["iss"][0])

    storage = Storage()
    provider = OAuthClientProvider(
        server_url=f"{server.url}/mcp", storage=storage, redirect_handler=open_browser, callback_handler=callback,
        client_metadata=OAuthClientMetadata(client_name="Test Agent", redirect_uris=[AnyUrl(REDIRECT)],
                                            scope="resumes:read resumes:write resumes:delete"),
        client_metadata_url=client_document.url)

    async def work():
        async with httpx2.AsyncClient(auth=provider, timeout=60) as http:
            async with Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) as client:
                created = await client.call_tool("create_resume", {"title": "Made through OAuth"})
                listed = await client.call_tool("list_resumes", {})
                return created, listed

    created, listed = run(work)
    asked = parse_qs(urlsplit(seen["url"]).query)
    assert asked["client_id"] == [client_document.url]  # no registration: the document's URL is the id
    assert asked["code_challenge_method"] == ["S256"]
    # The SDK asks for what the protected-resource metadata lists; the person allowed two
    assert seen["scopes"] == ["resumes:read", "resumes:write", "resumes:export", "resumes:delete", "jobs:analyze"]
    assert created.structured_content["resume"]["title"] == "Made through OAuth"
    assert listed.structured_content["total"] == 1
    assert storage.tokens.scope == "resumes:read resumes:write"
    agents = person.get(f"{server.url}/api/account/agents", timeout=30).json()["data"]["agents"]
    assert [(a["kind"], a["name"], a["clientId"], a["scopes"]) for a in agents] == [
        ("oauth", "Test Agent", client_document.url, ["resumes:read", "resumes:write"])]
    # the access token is for the MCP server only, and not a key to the JSON API
    api = requests.get(f"{server.url}/api/resumes", timeout=30,
                       headers={"Authorization": f"Bearer {storage.tokens.access_token}"})
    assert api.status_code == 401
    # a refresh rotates; the spent refresh token, presented again, revokes the agent
    token_url = f"{server.url}/oauth/token"
    first = {"grant_type": "refresh_token", "refresh_token": storage.tokens.refresh_token,
             "client_id": client_document.url}
    renewed = requests.post(token_url, data=first, timeout=30)
    assert renewed.status_code == 200 and renewed.json()["scope"] == "resumes:read resumes:write"
    replayed = requests.post(token_url, data=first, timeout=30)
    assert (replayed.status_code, replayed.json()["error"]) == (400, "invalid_grant")
    assert person.get(f"{server.url}/api/account/agents", timeout=30).json()["data"]["agents"] == []
    refused = requests.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                            headers={"Authorization": f"Bearer {renewed.json()['access_token']}"}, timeout=30)
    assert refused.status_code == 401


def _authorize_url(server, client_document, challenge: str, **extra) -> str:
    query = {"response_type": "code", "client_id": client_document.url, "redirect_uri": REDIRECT, "state": "s1",
             "code_challenge": challenge, "code_challenge_method": "S256", "scope": "resumes:read",
             "resource": f"{server.url}/mcp", **extra}
    return f"{server.url}/oauth/authorize?{urlencode(query)}"


def _challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def _allowed(server, client_document, person, challenge: str) -> str:
    """The code the client gets once ``person`` allows it resumes:read."""
    sealed, _ = _consent(person, _authorize_url(server, client_document, challenge))
    answer = person.post(f"{server.url}/oauth/authorize", data={"request": sealed, "decision": "allow",
                                                                "scope": "resumes:read"},
                         timeout=30, allow_redirects=False)
    return parse_qs(urlsplit(answer.headers["Location"]).query)["code"][0]


def test_pkce_a_replayed_code_a_denial_and_strangers_are_refused(server, client_document, make_user):
    person = server.signed_in(make_user()["email"])
    verifier = "v" * 64
    challenge = _challenge(verifier)
    code = _allowed(server, client_document, person, challenge)
    exchange = {"grant_type": "authorization_code", "code": code, "client_id": client_document.url,
                "redirect_uri": REDIRECT}
    wrong = requests.post(f"{server.url}/oauth/token", data={**exchange, "code_verifier": "w" * 64}, timeout=30)
    assert (wrong.status_code, wrong.json()["error"]) == (400, "invalid_grant")
    again = requests.post(f"{server.url}/oauth/token", data={**exchange, "code_verifier": verifier}, timeout=30)
    assert (again.status_code, again.json()["error"]) == (400, "invalid_grant")  # a code is good once
    sealed, _ = _consent(person, _authorize_url(server, client_document, challenge))
    denied = person.post(f"{server.url}/oauth/authorize", data={"request": sealed, "decision": "deny"},
                         timeout=30, allow_redirects=False)
    assert parse_qs(urlsplit(denied.headers["Location"]).query)["error"] == ["access_denied"]
    no_pkce = person.get(_authorize_url(server, client_document, challenge, code_challenge_method="plain"),
                         timeout=30, allow_redirects=False)
    assert parse_qs(urlsplit(no_pkce.headers["Location"]).query)["error"] == ["invalid_request"]
    # without redirect_uri (the client has one): the error goes to the one the client's document names
    bare = _authorize_url(server, client_document, challenge, code_challenge_method="plain").replace(
        "redirect_uri=" + quote(REDIRECT, safe=""), "redirect_uri=")
    bare = bare.replace("&redirect_uri=&", "&")
    assert "redirect_uri" not in bare
    answer = person.get(bare, timeout=30, allow_redirects=False)
    assert answer.headers["Location"].startswith(REDIRECT + "?error=invalid_request")
    stranger = person.get(_authorize_url(server, client_document, challenge, redirect_uri="https://evil.test/cb"),
                          timeout=30, allow_redirects=False)
    assert stranger.status_code == 400 and "Location" not in stranger.headers  # never redirected to
    signed_out = requests.get(_authorize_url(server, client_document, challenge), timeout=30, allow_redirects=False)
    assert signed_out.status_code == 302 and "/login?callbackUrl=" in signed_out.headers["Location"]


def test_revoking_a_refresh_token_disconnects_the_agent(server, client_document, make_user):
    person = server.signed_in(make_user()["email"])
    verifier = "r" * 50
    code = _allowed(server, client_document, person, _challenge(verifier))
    tokens = requests.post(f"{server.url}/oauth/token", timeout=30, data={
        "grant_type": "authorization_code", "code": code, "client_id": client_document.url,
        "redirect_uri": REDIRECT, "code_verifier": verifier}).json()
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "resumes:read"
    listed = requests.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Authorization": f"Bearer {tokens['access_token']}",
                                    "Accept": "application/json, text/event-stream",
                                    "MCP-Protocol-Version": "2025-11-25"}, timeout=30)
    assert listed.status_code == 200
    revoked = requests.post(f"{server.url}/oauth/revoke", timeout=30,
                            data={"token": tokens["refresh_token"], "client_id": client_document.url})
    assert revoked.status_code == 200
    assert person.get(f"{server.url}/api/account/agents", timeout=30).json()["data"]["agents"] == []
    after = requests.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                          headers={"Authorization": f"Bearer {tokens['access_token']}"}, timeout=30)
    assert after.status_code == 401
