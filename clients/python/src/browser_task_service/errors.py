"""The exceptions the client raises, and the mapping from an HTTP answer to one of them.

Every error the service answers is JSON ``{"error": "<message>"}``; the status code picks
the class. ``APIError`` is the base of everything that came from (or failed to reach) the
service; ``ConfigurationError`` is raised before any request is made.
"""

from __future__ import annotations

import email.utils
import time
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Type

if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from .models import Task

__all__ = [
    "BrowserTaskServiceError",
    "ConfigurationError",
    "APIError",
    "APIConnectionError",
    "APITimeoutError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "MethodNotAllowedError",
    "ConflictError",
    "PayloadTooLargeError",
    "TooManyRequestsError",
    "QuotaExceededError",
    "RateLimitError",
    "ServerError",
    "RunTimeoutError",
    "RunCancelledError",
    "error_from_response",
    "parse_retry_after",
]


class BrowserTaskServiceError(Exception):
    """Root of every exception raised by this package."""


class ConfigurationError(BrowserTaskServiceError, ValueError):
    """The client cannot make the call as configured (for example no dashboard token)."""


class APIError(BrowserTaskServiceError):
    """An HTTP answer the service gave with a non-2xx status, or a request that never got one.

    Attributes:
        status: the HTTP status code (``None`` for connection failures).
        message: the API's ``error`` string (or a description of the failure).
        body: the parsed JSON error body (``{}`` when there was none).
        headers: the response headers, keys lower-cased.
        request_id: the ``x-request-id`` response header, to quote to support.
        retry_after: the ``Retry-After`` header in seconds, when the service sent one.
        method, url: the request that failed.
    """

    status: Optional[int]

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        body: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
        method: Optional[str] = None,
        url: Optional[str] = None,
    ) -> None:
        self.message = message
        self.status = status
        self.body: Dict[str, Any] = dict(body or {})
        self.headers: Dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}
        rid = self.headers.get("x-request-id") or self.body.get("requestId")
        self.request_id: Optional[str] = str(rid) if rid else None
        self.retry_after: Optional[float] = parse_retry_after(self.headers.get("retry-after"))
        self.method = method
        self.url = url
        super().__init__(self._describe())

    @property
    def error(self) -> str:
        """The API's ``error`` string: the same as ``message`` (the TypeScript client's name)."""
        return self.message

    def _describe(self) -> str:
        parts = []
        if self.status is not None:
            parts.append(str(self.status))
        parts.append(self.message)
        text = " ".join(parts)
        if self.method and self.url:
            text += f" ({self.method} {self.url})"
        if self.request_id:
            text += f" [request id {self.request_id}]"
        return text


class APIConnectionError(APIError):
    """The request did not get an HTTP answer: DNS, refused connection, reset, TLS…"""


class APITimeoutError(APIConnectionError):
    """The request got no answer within the client's ``timeout``."""


class BadRequestError(APIError):
    """400: the body, a path parameter or the query was invalid."""


class AuthenticationError(APIError):
    """401: no usable credentials (missing bearer, or a token of the wrong kind)."""


class PermissionDeniedError(APIError):
    """403: the credentials are known but denied (revoked key, another business's resource)."""


class NotFoundError(APIError):
    """404: unknown (or not owned) task, session, key or path."""


class MethodNotAllowedError(APIError):
    """405: the path exists under other HTTP methods (listed in ``allow``)."""

    @property
    def allow(self) -> List[str]:
        """The methods the ``Allow`` header lists."""
        return [m.strip() for m in self.headers.get("allow", "").split(",") if m.strip()]


class ConflictError(APIError):
    """409: the state does not allow it (for example cancelling a finished task)."""


class PayloadTooLargeError(APIError):
    """413: the request body is over the service's limit (1 MiB)."""


class TooManyRequestsError(APIError):
    """429: the base of ``QuotaExceededError`` and ``RateLimitError``."""


class QuotaExceededError(TooManyRequestsError):
    """429 with ``limit`` and ``used``: the business's monthly task quota is spent.

    It resets at the start of the next calendar month (UTC); retrying sooner does not help.
    """

    def __init__(self, message: str, *, limit: int, used: int, **kwargs: Any) -> None:
        self.limit = limit
        self.used = used
        super().__init__(message, **kwargs)


class RateLimitError(TooManyRequestsError):
    """429 without a quota body: too many requests for now; wait ``retry_after`` seconds."""


class ServerError(APIError):
    """5xx. ``task_id`` is set when ``POST /v1/tasks`` recorded the task but could not queue it."""

    @property
    def task_id(self) -> Optional[str]:
        value = self.body.get("taskId")
        return str(value) if value else None


class RunTimeoutError(BrowserTaskServiceError, TimeoutError):
    """``run()``/``wait()`` gave up before the task reached a terminal status.

    The task keeps running on the service; ``task`` is the last state read (``None`` if no
    read succeeded) and ``task_id`` its id, so the caller can keep waiting or cancel it.
    """

    def __init__(self, task_id: str, timeout: float, task: Optional["Task"] = None) -> None:
        self.task_id = task_id
        self.timeout = timeout
        self.task = task
        status = task.status if task is not None else "unknown"
        super().__init__(f"task {task_id} did not finish within {timeout:g} s (last status: {status})")


class RunCancelledError(BrowserTaskServiceError):
    """``run()``/``wait()`` stopped because its ``cancel_event`` was set.

    ``task`` is the last state read. ``cancel_error`` is set when asking the service to
    cancel the task failed (the task may then still be running).
    """

    def __init__(
        self,
        task_id: str,
        task: Optional["Task"] = None,
        cancel_error: Optional[APIError] = None,
    ) -> None:
        self.task_id = task_id
        self.task = task
        self.cancel_error = cancel_error
        text = f"waiting for task {task_id} was cancelled"
        if cancel_error is not None:
            text += f"; cancelling it on the service failed: {cancel_error}"
        super().__init__(text)


_BY_STATUS: Dict[int, Type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    409: ConflictError,
    413: PayloadTooLargeError,
}


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """A ``Retry-After`` header in seconds: delta-seconds or an HTTP date; ``None`` if unusable."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def error_from_response(
    status: int,
    body: Any,
    headers: Optional[Mapping[str, str]] = None,
    *,
    method: Optional[str] = None,
    url: Optional[str] = None,
    text: str = "",
) -> APIError:
    """The typed error for a non-2xx answer. ``body`` is the parsed JSON (anything)."""
    data: Dict[str, Any] = dict(body) if isinstance(body, Mapping) else {}
    lowered = {k.lower(): v for k, v in (headers or {}).items()}
    raw_message = data.get("error")
    # API Gateway's own answers (throttling, oversized payloads) say ``message``, not ``error``.
    gateway_message = data.get("message")
    if isinstance(raw_message, str) and raw_message:
        message = raw_message
    elif isinstance(gateway_message, str) and gateway_message:
        message = gateway_message
    elif text.strip():
        message = text.strip()[:500]
    else:
        message = f"HTTP {status}"
    common: Dict[str, Any] = {"status": status, "body": data, "headers": lowered, "method": method, "url": url}
    if status == 429:
        if _is_number(data.get("limit")) and _is_number(data.get("used")):
            return QuotaExceededError(message, limit=int(data["limit"]), used=int(data["used"]), **common)
        return RateLimitError(message, **common)
    if status >= 500:
        return ServerError(message, **common)
    cls = _BY_STATUS.get(status, APIError)
    return cls(message, **common)
