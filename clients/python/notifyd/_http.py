"""JSON over HTTP to notifyd with the standard library: authentication, typed errors, retries."""
import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Mapping, Optional

from .errors import NotifydError

RETRYABLE_STATUS = {502, 503, 504}


def retry_after_seconds(header: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After as seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if not header:
        return None
    value = header.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        at = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))


class Transport:
    """One base URL and key; retries after a 429 always (notifyd refused before doing anything),
    after a network error or a 502/503/504 only for idempotent calls."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        max_retries: int = 3,
        retry_base: float = 0.25,
        max_retry_delay: float = 30.0,
        timeout: float = 60.0,
        opener: Optional[Callable[..., Any]] = None,
    ) -> None:
        if not base_url:
            raise ValueError("base_url is required, e.g. https://notify.example.com")
        if not api_key:
            raise ValueError("api_key is required: a project key (sk_...)")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.max_retries = max_retries
        self.retry_base = retry_base
        self.max_retry_delay = max_retry_delay
        self.timeout = timeout
        # urllib.request.urlopen, or a stand-in with its signature (tests).
        self.opener = opener or urllib.request.urlopen
        self.sleep = time.sleep

    def url(self, path: str, query: Optional[Mapping[str, Any]] = None) -> str:
        params = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in (query or {}).items() if v is not None}
        return self.base_url + path + ("?" + urllib.parse.urlencode(params) if params else "")

    def request(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Any = None, idempotent: Optional[bool] = None, extra_timeout: float = 0.0) -> Any:
        idempotent = method != "POST" if idempotent is None else idempotent
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Authorization": "Bearer " + self.api_key, "Accept": "application/json", "User-Agent": "notifyd-python/0.1.0"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            req = urllib.request.Request(self.url(path, query), data=data, headers=headers, method=method)
            try:
                with self.opener(req, timeout=self.timeout + extra_timeout) as response:
                    text = response.read().decode("utf-8")
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as err:
                error = to_error(err.code, err.headers, err.read())
                retryable = err.code == 429 or (idempotent and err.code in RETRYABLE_STATUS)
                if not retryable or attempt >= self.max_retries:
                    raise error from None
                wait = retry_after_seconds(err.headers.get("retry-after"))
                delay = self._backoff(attempt) if wait is None else wait
                # Longer than the client may wait: the caller gets the 429 (with retry_after) instead of a hang.
                if delay > self.max_retry_delay:
                    raise error from None
            except (urllib.error.URLError, socket.timeout, ConnectionError, TimeoutError) as err:
                reason = getattr(err, "reason", err)
                timed_out = isinstance(reason, (socket.timeout, TimeoutError))
                error = NotifydError(0, "timeout" if timed_out else "network_error", "%s %s: %s" % (method, path, "no answer in time" if timed_out else reason))
                if not idempotent or attempt >= self.max_retries:
                    raise error from err
                delay = self._backoff(attempt)
            self.sleep(delay)
            attempt += 1

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter: a crowd of clients does not retry in step."""
        ceiling = min(self.retry_base * 2 ** attempt, self.max_retry_delay)
        return ceiling / 2 + random.random() * ceiling / 2


def to_error(status: int, headers: Any, raw: bytes) -> NotifydError:
    """notifyd answers errors as {error, message, ...}; anything else (a proxy's page) still becomes a
    NotifydError. ``headers``: anything with ``get`` (an HTTPError's email.message.Message)."""
    request_id = headers.get("x-request-id") if headers is not None else None
    text = raw.decode("utf-8", "replace") if raw else ""
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str) and isinstance(body.get("message"), str):
        details: Dict[str, Any] = {k: v for k, v in body.items() if k not in ("error", "message")}
        return NotifydError(status, body["error"], body["message"], request_id, details)
    return NotifydError(status, "http_%d" % status, "HTTP %d: %s" % (status, text[:200]), request_id)
