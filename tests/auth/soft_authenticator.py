"""A software WebAuthn authenticator for the API tests: a P-256 key, "none" attestation, a signature
counter. It makes what a browser sends (the JSON form of a PublicKeyCredential) from the server's
options, and can lie where a test needs it to (another origin, no user verification, a counter that
goes back). The browser tests use Chromium's virtual authenticator instead (tests/browser)."""
from __future__ import annotations

import base64
import hashlib
import json
import os

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

ORIGIN = "http://localhost:5000"  # the test app's BASE_URL
UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.sign_count = 0
        self.user_handle: str | None = None

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    @staticmethod
    def _client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()

    def create(self, options: dict, *, origin: str = ORIGIN, verified: bool = True) -> dict:
        """The credential ``navigator.credentials.create`` would answer to ``options`` (``publicKey``)."""
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        flags = UP | AT | (UV if verified else 0)
        auth_data = (hashlib.sha256(options["rp"]["id"].encode()).digest() + bytes([flags])
                     + self.sign_count.to_bytes(4, "big") + bytes(16)
                     + len(self.credential_id).to_bytes(2, "big") + self.credential_id + self._cose_key())
        self.user_handle = options["user"]["id"]
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation),
                             "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def get(self, options: dict, *, origin: str = ORIGIN, verified: bool = True, counter: int | None = None,
            rp_id: str | None = None) -> dict:
        """The assertion ``navigator.credentials.get`` would answer to ``options``; the counter goes up by one
        unless ``counter`` says what to report."""
        self.sign_count = self.sign_count + 1 if counter is None else counter
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        auth_data = (hashlib.sha256((rp_id or options["rpId"]).encode()).digest()
                     + bytes([UP | (UV if verified else 0)]) + self.sign_count.to_bytes(4, "big"))
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": self.user_handle},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}
