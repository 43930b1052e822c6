"""Verifies notifyd webhook deliveries (Standard Webhooks 1.0)."""
import base64
import hashlib
import hmac
import json
import re
import time
from typing import Any, Iterable, Mapping, Optional, Union


class WebhookVerificationError(Exception):
    """The delivery is not authentic or not fresh: answer 400 and do not act on it."""


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    value = headers.get(name)
    if value is None:
        value = next((v for k, v in headers.items() if k.lower() == name), None)
    return value


def verify_webhook(secret: Union[str, Iterable[str]], headers: Mapping[str, str], body: Union[str, bytes], tolerance_seconds: int = 300, now: Optional[float] = None) -> Any:
    """Returns the parsed event when ``webhook-signature`` holds a ``v1,<base64 HMAC-SHA256>`` of
    ``<webhook-id>.<webhook-timestamp>.<raw body>`` under the secret (``whsec_`` + base64 key; several
    secrets during a rotation) and the timestamp is within ``tolerance_seconds`` of now. Pass the raw
    body exactly as received."""
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    if not re.fullmatch(r"\d{1,12}", timestamp):
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds")
    current = int(time.time() if now is None else now)
    if abs(current - int(timestamp)) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is more than %d s from now (a replay, or a wrong clock)" % tolerance_seconds)
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    signed = msg_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + raw
    offered = [s[3:] for s in signatures.split(" ") if s.startswith("v1,")]
    for key in [secret] if isinstance(secret, str) else list(secret):
        material = base64.b64decode(key[len("whsec_"):] if key.startswith("whsec_") else key)
        expected = base64.b64encode(hmac.new(material, signed, hashlib.sha256).digest()).decode("ascii")
        if any(hmac.compare_digest(candidate, expected) for candidate in offered):
            return json.loads(raw.decode("utf-8"))
    raise WebhookVerificationError("no webhook-signature matches the secret")
