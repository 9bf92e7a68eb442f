"""The authorization server's use cases (OAuth 2.1): authorization codes with PKCE (S256 only), their
exchange for an access token and a refresh token, refreshing, revoking.

An access token is a JWT (HS256, a key of its own derived from SECRET_KEY) for one resource, the MCP
server (``aud``), naming the grant (``gid``) and the scopes; the MCP server reads it and then checks the
grant still holds (not revoked, same password), so revoking an agent ends its tokens at once. Codes
and refresh tokens are random, kept as SHA-256 (``AgentToken``); presenting a spent one revokes the grant.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import OctKey
from joserfc.jwt import JWTClaimsRegistry
from sqlalchemy import update

from app.agents import clients, grants
from app.agents.models import AgentToken
from app.common.models import new_id, plausible_id, utcnow
from app.common.security import hash_token, new_token
from app.extensions import db
from app.users.models import User

CODE_LIFETIME = timedelta(minutes=10)
ACCESS_LIFETIME = timedelta(hours=1)
REFRESH_LIFETIME = timedelta(days=30)
_KEY_LABEL = b"resume-service/agent-access-token/v1"
_CLAIMS = JWTClaimsRegistry(now=lambda: int(utcnow().timestamp()), sub={"essential": True}, gid={"essential": True},
                            aud={"essential": True}, exp={"essential": True}, scope={"essential": True})


class OAuthError(Exception):
    """An OAuth error response (RFC 6749 5.2): ``error``, ``description``, the HTTP status."""

    def __init__(self, error: str, description: str, status: int = 400):
        super().__init__(description)
        self.error, self.description, self.status = error, description, status
        self.redirect_uri: str | None = None  # where the authorization endpoint sends it (checked)


def resource_url() -> str:
    return current_app.config["BASE_URL"] + "/mcp"


def _key() -> OctKey:
    secret = (current_app.config.get("SECRET_KEY") or "").encode()
    return OctKey.import_key(hmac.new(secret, _KEY_LABEL, hashlib.sha256).digest())


@dataclass(frozen=True)
class AuthorizationRequest:
    """A checked authorization request: the client, where to send the answer, what is asked."""

    client: clients.Client
    redirect_uri: str
    code_challenge: str
    scopes: str
    state: str | None
    resource: str


def check_request(args) -> AuthorizationRequest:
    """The authorization request in ``args`` (the query or the consent form). Raises ClientRefused (the
    client or its redirect URI cannot be trusted: shown on a page, never redirected to) or OAuthError
    (sent back to the client's redirect URI)."""
    client = clients.fetch(args.get("client_id") or "")
    redirect_uri = args.get("redirect_uri") or (client.redirect_uris[0] if len(client.redirect_uris) == 1 else "")
    if redirect_uri not in client.redirect_uris:
        raise clients.ClientRefused("redirect_uri is not one of the client's redirect_uris")
    request = AuthorizationRequest(client=client, redirect_uri=redirect_uri, state=args.get("state"),
                                   code_challenge=args.get("code_challenge") or "",
                                   scopes=grants.normal_scopes(args.get("scope") or "resumes:read"),
                                   resource=(args.get("resource") or resource_url()).rstrip("/"))
    problem = None
    if args.get("response_type") != "code":
        problem = OAuthError("unsupported_response_type", "response_type must be code")
    elif args.get("code_challenge_method") != "S256" or not 43 <= len(request.code_challenge) <= 128:
        problem = OAuthError("invalid_request", "PKCE is required: code_challenge with code_challenge_method S256")
    elif request.resource != resource_url():
        problem = OAuthError("invalid_target", "resource must be this service's MCP server, " + resource_url())
    elif not request.scopes:
        problem = OAuthError("invalid_scope", "scope names none of " + " ".join(grants.SCOPES))
    if problem is not None:
        problem.redirect_uri = redirect_uri
        raise problem
    return request


def approve(user: User, request: AuthorizationRequest, scopes: str) -> str:
    """The person consented to ``scopes`` (of those asked): the grant, and a code for the client. Commits."""
    scopes = grants.normal_scopes(set(scopes.split()) & set(request.scopes.split()))
    if not scopes:
        raise OAuthError("access_denied", "no scope was granted")
    grant = grants.grant_client(user, request.client.client_id, request.client.name, scopes)
    code = new_token()
    db.session.add(AgentToken(id=new_id(), grant_id=grant.id, kind="code", token_hash=hash_token(code), scopes=scopes,
                              resource=request.resource, redirect_uri=request.redirect_uri,
                              code_challenge=request.code_challenge, expires_at=utcnow() + CODE_LIFETIME))
    db.session.commit()
    return code


def _spend(raw: str, kind: str, client_id: str) -> AgentToken:
    """The live code or refresh token ``raw`` of ``client_id``, spent now. A spent one revokes its grant."""
    token = db.session.scalar(db.select(AgentToken).where(AgentToken.token_hash == hash_token(raw or ""),
                                                          AgentToken.kind == kind))
    found = grants.live_grant(token.grant_id) if token is not None else None
    if token is None or found is None or found[0].client_id != client_id:
        raise OAuthError("invalid_grant", f"the {kind} is unknown, revoked, or another client's")
    spent = db.session.execute(update(AgentToken).where(AgentToken.id == token.id, AgentToken.used_at.is_(None))
                               .values(used_at=utcnow()).execution_options(synchronize_session=False)).rowcount
    if spent != 1:  # a copy was used before: whoever holds it is not to be trusted
        found[0].revoked_at = utcnow()
        db.session.commit()
        raise OAuthError("invalid_grant", f"the {kind} was used already; the agent's access is revoked")
    if token.expires_at <= utcnow():
        db.session.commit()
        raise OAuthError("invalid_grant", f"the {kind} has expired")
    return token


def _challenge_of(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii", "replace")).digest()).rstrip(b"=").decode()


def exchange_code(form) -> dict:
    """``grant_type=authorization_code``: the code (with its PKCE verifier) for tokens. Commits."""
    token = _spend(form.get("code"), "code", form.get("client_id") or "")
    verifier = form.get("code_verifier") or ""
    if not 43 <= len(verifier) <= 128 or not hmac.compare_digest(_challenge_of(verifier), token.code_challenge or ""):
        db.session.commit()
        raise OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
    if form.get("redirect_uri") and form["redirect_uri"] != token.redirect_uri:
        db.session.commit()
        raise OAuthError("invalid_grant", "redirect_uri is not the one the code was issued for")
    return _tokens(token.grant_id, token.scopes, token.resource)


def refresh(form) -> dict:
    """``grant_type=refresh_token``: the next access token and refresh token (rotation). Commits."""
    token = _spend(form.get("refresh_token"), "refresh", form.get("client_id") or "")
    asked = grants.normal_scopes(form.get("scope") or token.scopes)
    scopes = grants.normal_scopes(set(asked.split()) & set(token.scopes.split()))
    return _tokens(token.grant_id, scopes or token.scopes, token.resource)


def _tokens(grant_id: str, scopes: str, resource: str) -> dict:
    grant, user = grants.live_grant(grant_id)
    now = utcnow()
    raw_refresh = new_token()
    db.session.add(AgentToken(id=new_id(), grant_id=grant_id, kind="refresh", token_hash=hash_token(raw_refresh),
                              scopes=scopes, resource=resource, expires_at=now + REFRESH_LIFETIME))
    db.session.commit()
    stamp = int(now.timestamp())
    claims = {"iss": current_app.config["BASE_URL"], "sub": user.id, "aud": resource, "gid": grant_id,
              "scope": scopes, "iat": stamp, "exp": stamp + int(ACCESS_LIFETIME.total_seconds()), "jti": new_id()}
    access = jwt.encode({"alg": "HS256", "typ": "at+jwt"}, claims, _key(), algorithms=["HS256"])
    return {"access_token": access, "token_type": "Bearer", "expires_in": int(ACCESS_LIFETIME.total_seconds()),
            "refresh_token": raw_refresh, "scope": scopes}


def revoke(form) -> None:
    """RFC 7009: a refresh token presented here revokes its grant; anything else is ignored. Commits."""
    token = db.session.scalar(db.select(AgentToken).where(AgentToken.token_hash == hash_token(form.get("token") or ""),
                                                          AgentToken.kind == "refresh"))
    found = grants.live_grant(token.grant_id) if token is not None else None
    if found is not None and found[0].client_id == (form.get("client_id") or found[0].client_id):
        found[0].revoked_at = utcnow()
        db.session.commit()


def read_access_token(raw: str, resource: str) -> tuple[str, list[str]] | None:
    """The grant id and scopes of a genuine, unexpired access token for ``resource``; None otherwise."""
    if not raw or len(raw) > 4096 or raw.startswith(grants.KEY_PREFIX):
        return None
    try:
        token = jwt.decode(raw, _key(), algorithms=["HS256"])
        _CLAIMS.validate(token.claims)
    except (JoseError, ValueError, TypeError):
        return None
    claims = token.claims
    if claims["aud"] != resource or not isinstance(claims["gid"], str) or not plausible_id(claims["gid"]) \
            or not isinstance(claims["scope"], str):
        return None
    return claims["gid"], grants.scope_list(claims["scope"])
