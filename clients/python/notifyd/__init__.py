"""notifyd's Python client (standard library only, Python 3.9+)."""
from ._http import retry_after_seconds
from .client import FINAL_STATUSES, Notifyd, new_idempotency_key
from .errors import NotifydError
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["Notifyd", "NotifydError", "FINAL_STATUSES", "new_idempotency_key", "retry_after_seconds", "verify_webhook", "WebhookVerificationError"]
__version__ = "0.1.0"
