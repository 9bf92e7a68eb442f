"""The model provider: any OpenAI-compatible chat-completions service (OpenAI, a local Ollama or vLLM).

One ``POST {AI_BASE_URL}/chat/completions`` per call, through ``app.integrations.outbound`` (one time
limit from connection to last byte, a bounded body, no redirects). The address is the operator's, not a
user's, so private addresses are allowed: a model served on loopback or the private network is the usual
self-hosted set-up. Every failure is a ``ProviderFailed`` whose message is ours and safe to show: it never
repeats the provider's body or the key (the log gets the status and the kind of failure).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Mapping

from app.integrations import outbound

log = logging.getLogger(__name__)

MAX_REPLY_BYTES = 1_000_000  # a chat completion of a few thousand characters is far below this


class ProviderFailed(Exception):
    """The provider could not be reached, failed, timed out or answered something unusable.
    ``str(exc)`` is a message for the person; ``reason`` a short word for the log and tests."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Settings:
    base_url: str
    model: str
    api_key: str | None
    timeout: float


def settings_from(config: Mapping) -> Settings | None:
    """The provider's settings, or None when AI_BASE_URL or AI_MODEL is missing (AI writing is off)."""
    if not config.get("AI_BASE_URL") or not config.get("AI_MODEL"):
        return None
    return Settings(base_url=config["AI_BASE_URL"].rstrip("/"), model=config["AI_MODEL"],
                    api_key=config.get("AI_API_KEY"), timeout=config["AI_TIMEOUT_SECONDS"])


def configured(config: Mapping) -> bool:
    """Whether AI writing is set up on this server; the pages offer it only then."""
    return settings_from(config) is not None


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict  # the call's arguments, parsed ({} when the model sent none or no JSON object)


@dataclass(frozen=True)
class Completion:
    text: str
    model: str  # the model that answered (the reply's ``model``; the configured one when it has none)
    tool_calls: tuple[ToolCall, ...] = ()  # the functions the model asks to call (``tools`` given)


def complete(settings: Settings, messages: list[dict], *, json_reply: bool = False,
             max_tokens: int = 1200, tools: list[dict] | None = None) -> Completion:
    """The assistant's reply to ``messages``. ``json_reply`` asks for a JSON object (``response_format``),
    which OpenAI, Ollama and vLLM honour; ``tools`` offers functions (OpenAI's tool calling, which they
    honour too), and the reply may call them instead of answering. Raises ProviderFailed."""
    payload = {"model": settings.model, "messages": messages, "temperature": 0.4, "max_tokens": max_tokens,
               "stream": False}
    if json_reply:
        payload["response_format"] = {"type": "json_object"}
    if tools:
        payload["tools"] = tools
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if settings.api_key:
        headers["Authorization"] = f"Bearer {settings.api_key}"
    try:
        response = outbound.request("POST", f"{settings.base_url}/chat/completions",
                                    body=json.dumps(payload).encode(), headers=headers, allow_private=True,
                                    timeout=settings.timeout, max_bytes=MAX_REPLY_BYTES)
    except outbound.OutboundTimeout:
        log.warning("AI provider: no answer within %g s", settings.timeout)
        raise ProviderFailed(f"The AI provider did not answer within {settings.timeout:g} seconds. "
                             "Try again in a moment.", "timeout") from None
    except outbound.OutboundError as exc:
        log.warning("AI provider unreachable: %s", exc)  # outbound's messages never include the URL's path
        raise ProviderFailed("The AI provider could not be reached. Try again in a moment.", "unreachable") \
            from None
    if response.status != 200:
        log.warning("AI provider answered status %s", response.status)
        hint = " (its rate limit)" if response.status == 429 else ""
        raise ProviderFailed(f"The AI provider refused the request with status {response.status}{hint}. "
                             "Try again in a moment.", f"status {response.status}")
    calls = _tool_calls(response.body) if tools else ()
    return Completion(text=_content(response.body, calls), model=_model(response.body) or settings.model,
                      tool_calls=calls)


def _message(body: bytes) -> dict:
    try:
        message = json.loads(body)["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        message = None
    if not isinstance(message, dict):
        log.warning("AI provider: the answer is not a chat completion")
        raise ProviderFailed("The AI provider's answer could not be read.", "not a completion")
    return message


def _content(body: bytes, calls: tuple[ToolCall, ...] = ()) -> str:
    """``choices[0].message.content`` of a chat completion (which may be empty beside tool calls). Raises
    ProviderFailed."""
    content = _message(body).get("content")
    if content is None and calls:
        return ""
    if not isinstance(content, str):
        raise ProviderFailed("The AI provider's answer could not be read.", "not a completion")
    return content


def _tool_calls(body: bytes) -> tuple[ToolCall, ...]:
    """The reply's ``tool_calls``, each with its arguments parsed."""
    found = []
    for call in _message(body).get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            continue
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except (ValueError, TypeError):
            arguments = {}
        found.append(ToolCall(id=str(call.get("id") or f"call_{len(found)}"), name=function["name"],
                              arguments=arguments if isinstance(arguments, dict) else {}))
    return tuple(found)


def _model(body: bytes) -> str | None:
    model = json.loads(body).get("model")
    return model[:200] if isinstance(model, str) and model.strip() else None
