"""OAuth clients known by their metadata documents (OAuth Client ID Metadata Documents, the way MCP's
authorization spec prefers): a client's ``client_id`` is the HTTPS URL of a JSON document naming it and
its redirect URIs. Nothing is registered here: the document is fetched when a person is asked to
consent and when a code is exchanged, through the outbound client that refuses private addresses."""
from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import current_app

from app.integrations import outbound

MAX_BYTES = 64 * 1024
TIMEOUT = 5  # seconds


class ClientRefused(Exception):
    """The client_id is not a usable metadata document; ``str()`` says why (for the page and the logs)."""


@dataclass(frozen=True)
class Client:
    client_id: str
    name: str
    redirect_uris: tuple[str, ...]

    @property
    def host(self) -> str:
        return urlsplit(self.client_id).hostname or ""


def _checked_id(client_id: str) -> None:
    parts = urlsplit(client_id) if isinstance(client_id, str) and len(client_id) <= 2000 else None
    private = current_app.config["AGENT_CLIENT_ALLOW_PRIVATE_TARGETS"]
    if parts is None or parts.scheme not in (("https", "http") if private else ("https",)) or parts.path in ("", "/") \
            or parts.fragment or parts.username or parts.password:
        raise ClientRefused("client_id must be the https URL of the client's metadata document")


def fetch(client_id: str) -> Client:
    """The client ``client_id`` names. Raises ClientRefused."""
    _checked_id(client_id)
    config = current_app.config
    try:
        response = outbound.request("GET", client_id, allow_private=config["AGENT_CLIENT_ALLOW_PRIVATE_TARGETS"],
                                    timeout=TIMEOUT, max_bytes=MAX_BYTES, ca_certs=config["AGENT_CLIENT_CA_CERTS"],
                                    headers={"Accept": "application/json"})
    except outbound.OutboundError as exc:
        raise ClientRefused(f"the client's metadata document could not be fetched ({exc})") from None
    if response.status != 200:
        raise ClientRefused(f"the client's metadata document answered {response.status}")
    try:
        document = json.loads(response.body)
    except ValueError:
        raise ClientRefused("the client's metadata document is not JSON") from None
    if not isinstance(document, dict) or document.get("client_id") != client_id:
        raise ClientRefused("the client's metadata document does not name itself as client_id")
    uris = document.get("redirect_uris")
    if not isinstance(uris, list) or not uris or not all(isinstance(uri, str) for uri in uris):
        raise ClientRefused("the client's metadata document lists no redirect_uris")
    name = document.get("client_name")
    name = name.strip()[:100] if isinstance(name, str) and name.strip() else urlsplit(client_id).hostname
    return Client(client_id=client_id, name=name, redirect_uris=tuple(uris))
