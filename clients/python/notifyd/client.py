"""notifyd for server-side Python: send, batch, jobs (with wait), subscribers, preferences,
templates, suppressions, webhook endpoints. Bodies are plain dicts typed by the TypedDicts of _schema.py."""
import math
import time
import uuid
from typing import Any, Dict, Optional, cast
from urllib.parse import quote

from . import _schema as s
from ._http import Transport
from .errors import NotifydError

FINAL_STATUSES = frozenset({"sent", "failed", "cancelled", "bounced"})


def new_idempotency_key() -> str:
    """A fresh key for a send the caller gave none: a retry of the same call never notifies twice."""
    return "ntfy_" + str(uuid.uuid4())


def _enc(value: str) -> str:
    return quote(value, safe="")


def _wait_seconds(wait: Optional[str]) -> float:
    if not wait:
        return 0.0
    text = wait.strip()
    for suffix, scale in (("ms", 0.001), ("s", 1.0), ("m", 60.0)):
        if text.endswith(suffix):
            try:
                return float(text[: -len(suffix)]) * scale
            except ValueError:
                return 0.0
    return 0.0


def _with_key(request: Any) -> Dict[str, Any]:
    body = dict(request)
    if not body.get("idempotency_key"):
        body["idempotency_key"] = new_idempotency_key()
    return body


class _Resource:
    def __init__(self, http: Transport) -> None:
        self._http = http


class Jobs(_Resource):
    def get(self, job_id: str, wait: Optional[str] = None) -> s.JobDto:
        """GET /v1/jobs/{id}; with ``wait`` ("10s", at most 30s) the answer is held until the job is final."""
        return cast(s.JobDto, self._http.request("GET", "/v1/jobs/" + _enc(job_id), query={"wait": wait}, extra_timeout=_wait_seconds(wait)))

    def wait(self, job_id: str, timeout: float = 60.0) -> s.JobDto:
        """The job once final (sent, failed, cancelled or bounced), polling with the server's long
        wait; raises NotifydError ``wait_timeout`` (details["job"] is the last read) after ``timeout`` seconds."""
        until = time.monotonic() + timeout
        while True:
            left = until - time.monotonic()
            wait = "%ds" % max(1, min(30, math.ceil(left))) if left > 0 else None
            job = self.get(job_id, wait=wait)
            if job["status"] in FINAL_STATUSES:
                return job
            if time.monotonic() >= until:
                raise NotifydError(0, "wait_timeout", "job %s is still %s after %s s" % (job_id, job["status"], timeout), None, {"job": job})

    def cancel(self, job_id: str) -> s.CancelJobResponseDto:
        return cast(s.CancelJobResponseDto, self._http.request("DELETE", "/v1/jobs/" + _enc(job_id)))

    def retry(self, job_id: str) -> s.RetryJobResponseDto:
        return cast(s.RetryJobResponseDto, self._http.request("POST", "/v1/jobs/%s/retry" % _enc(job_id)))


class Subscribers(_Resource):
    def upsert(self, subscriber: s.UpsertSubscriberDto) -> s.UpsertSubscriberResponseDto:
        """Create or update (absent fields are kept). Safe to repeat, so retried like a GET."""
        return cast(s.UpsertSubscriberResponseDto, self._http.request("POST", "/v1/subscribers", body=subscriber, idempotent=True))

    def bulk_upsert(self, request: s.BulkUpsertSubscribersDto) -> s.BulkUpsertSubscribersResponseDto:
        return cast(s.BulkUpsertSubscribersResponseDto, self._http.request("POST", "/v1/subscribers/bulk", body=request, idempotent=True))

    def get(self, subscriber_id: str) -> s.SubscriberDto:
        return cast(s.SubscriberDto, self._http.request("GET", "/v1/subscribers/" + _enc(subscriber_id)))

    def list(self, q: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> s.SubscriberListDto:
        return cast(s.SubscriberListDto, self._http.request("GET", "/v1/subscribers", query={"q": q, "limit": limit, "cursor": cursor}))

    def delete(self, subscriber_id: str) -> s.SuccessDto:
        return cast(s.SuccessDto, self._http.request("DELETE", "/v1/subscribers/" + _enc(subscriber_id)))

    def create_token(self, subscriber_id: str, ttl_hours: Optional[float] = None) -> s.SubscriberTokenResponseDto:
        """A short-lived token for the subscriber's browser (the inbox)."""
        body: Dict[str, Any] = {"subscriber_id": subscriber_id}
        if ttl_hours is not None:
            body["ttl_hours"] = ttl_hours
        return cast(s.SubscriberTokenResponseDto, self._http.request("POST", "/v1/auth/subscriber-token", body=body))


class Preferences(_Resource):
    def get(self, subscriber_id: str) -> s.PreferencesDto:
        return cast(s.PreferencesDto, self._http.request("GET", "/v1/subscribers/%s/preferences" % _enc(subscriber_id)))

    def set(self, subscriber_id: str, request: s.PutPreferencesDto) -> s.PutPreferencesResponseDto:
        return cast(s.PutPreferencesResponseDto, self._http.request("PUT", "/v1/subscribers/%s/preferences" % _enc(subscriber_id), body=request))


class Templates(_Resource):
    def upsert(self, template: s.UpsertTemplateDto) -> s.UpsertTemplateResponseDto:
        return cast(s.UpsertTemplateResponseDto, self._http.request("POST", "/v1/templates", body=template, idempotent=True))

    def get(self, template_id: str) -> s.TemplateDto:
        return cast(s.TemplateDto, self._http.request("GET", "/v1/templates/" + _enc(template_id)))

    def list(self, channel: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> s.TemplateListDto:
        return cast(s.TemplateListDto, self._http.request("GET", "/v1/templates", query={"channel": channel, "limit": limit, "cursor": cursor}))

    def delete(self, template_id: str) -> s.DeleteTemplateResponseDto:
        return cast(s.DeleteTemplateResponseDto, self._http.request("DELETE", "/v1/templates/" + _enc(template_id)))

    def preview(self, template_id: str, request: s.PreviewTemplateDto) -> s.TemplatePreviewDto:
        return cast(s.TemplatePreviewDto, self._http.request("POST", "/v1/templates/%s/preview" % _enc(template_id), body=request, idempotent=True))


class Suppressions(_Resource):
    def list(self, channel: Optional[str] = None, address: Optional[str] = None, include_released: Optional[bool] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> s.SuppressionListDto:
        query = {"channel": channel, "address": address, "include_released": include_released, "limit": limit, "cursor": cursor}
        return cast(s.SuppressionListDto, self._http.request("GET", "/v1/suppressions", query=query))

    def create(self, request: s.CreateSuppressionDto) -> s.CreateSuppressionResponseDto:
        return cast(s.CreateSuppressionResponseDto, self._http.request("POST", "/v1/suppressions", body=request))

    def get(self, suppression_id: str) -> s.SuppressionResponseDto:
        return cast(s.SuppressionResponseDto, self._http.request("GET", "/v1/suppressions/" + _enc(suppression_id)))

    def release(self, suppression_id: str) -> s.ReleaseSuppressionResponseDto:
        return cast(s.ReleaseSuppressionResponseDto, self._http.request("DELETE", "/v1/suppressions/" + _enc(suppression_id)))


class Webhooks(_Resource):
    def create(self, request: s.CreateWebhookDto) -> s.CreateWebhookResponseDto:
        """The answer's ``secret`` is shown this once: keep it for ``verify_webhook``."""
        return cast(s.CreateWebhookResponseDto, self._http.request("POST", "/v1/webhooks", body=request))

    def list(self) -> s.WebhookListDto:
        return cast(s.WebhookListDto, self._http.request("GET", "/v1/webhooks"))

    def get(self, webhook_id: str) -> s.WebhookResponseDto:
        return cast(s.WebhookResponseDto, self._http.request("GET", "/v1/webhooks/" + _enc(webhook_id)))

    def update(self, webhook_id: str, request: s.UpdateWebhookDto) -> s.WebhookResponseDto:
        return cast(s.WebhookResponseDto, self._http.request("PATCH", "/v1/webhooks/" + _enc(webhook_id), body=request, idempotent=True))

    def delete(self, webhook_id: str) -> s.DeleteWebhookResponseDto:
        return cast(s.DeleteWebhookResponseDto, self._http.request("DELETE", "/v1/webhooks/" + _enc(webhook_id)))


class Notifyd:
    """One object per API key::

        notifyd = Notifyd("https://notify.example.com", os.environ["NOTIFYD_API_KEY"])
        sent = notifyd.send({"subscriber_id": "user_123", "channels": ["email"], "template": "welcome"})
        job = notifyd.jobs.wait(sent["job_ids"][0])
    """

    def __init__(self, base_url: str, api_key: str, *, max_retries: int = 3, retry_base: float = 0.25, max_retry_delay: float = 30.0, timeout: float = 60.0, opener: Any = None) -> None:
        self.http = Transport(base_url, api_key, max_retries=max_retries, retry_base=retry_base, max_retry_delay=max_retry_delay, timeout=timeout, opener=opener)
        self.jobs = Jobs(self.http)
        self.subscribers = Subscribers(self.http)
        self.preferences = Preferences(self.http)
        self.templates = Templates(self.http)
        self.suppressions = Suppressions(self.http)
        self.webhooks = Webhooks(self.http)

    def send(self, request: s.SendRequestDto) -> s.SendResponseDto:
        """POST /v1/send. Without an idempotency_key one is generated, so the call is retried safely
        after a network error or a 5xx: the server returns the first call's jobs."""
        return cast(s.SendResponseDto, self.http.request("POST", "/v1/send", body=_with_key(request), idempotent=True, extra_timeout=_wait_seconds(request.get("wait"))))

    def schedule(self, request: s.SendRequestDto) -> s.SendResponseDto:
        return cast(s.SendResponseDto, self.http.request("POST", "/v1/schedule", body=_with_key(request), idempotent=True))

    def batch(self, request: s.BatchRequestDto) -> s.BatchResponseDto:
        """POST /v1/batch: one message to up to 10 000 subscribers, with the same idempotency key rule."""
        return cast(s.BatchResponseDto, self.http.request("POST", "/v1/batch", body=_with_key(request), idempotent=True))
