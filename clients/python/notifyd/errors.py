"""The one error type of the client."""
from typing import Any, Dict, Optional


class NotifydError(Exception):
    """A failed notifyd call.

    ``status`` is the HTTP status (0 when no answer came), ``code`` notifyd's stable ``error``
    code (``validation_failed``, ``rate_limited``…; ``network_error`` or ``timeout`` without an
    answer), ``message`` what to fix (it names the field), ``request_id`` the answer's
    ``x-request-id``, ``details`` the rest of the error body (e.g. ``retry_after``).
    """

    def __init__(self, status: int, code: str, message: str, request_id: Optional[str] = None, details: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.details: Dict[str, Any] = details or {}

    def __repr__(self) -> str:
        return "NotifydError(status=%d, code=%r, message=%r, request_id=%r)" % (self.status, self.code, self.message, self.request_id)
