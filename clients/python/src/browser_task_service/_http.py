"""HTTP transport on urllib: JSON in and out, typed errors, and retries where they are safe.

Only GET requests are retried (SPEC §7: 429 and 500/502/503/504 with exponential backoff,
and connection failures). POST, PUT and DELETE are never retried: a submit that timed
out may have created a task, and a second one would run (and bill) it twice.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    QuotaExceededError,
    RateLimitError,
    ServerError,
    error_from_response,
)

__all__ = ["RetryPolicy", "Response", "Transport", "Interrupted", "DeadlineExceeded"]

#: 5xx statuses worth another try (SPEC §7).
RETRYABLE_SERVER_STATUSES = frozenset({500, 502, 503, 504})

#: Methods that are safe to send twice.
IDEMPOTENT_METHODS = frozenset({"GET"})


@dataclass(frozen=True)
class RetryPolicy:
    """When and how long to wait before retrying a safe request.

    The n-th retry (``attempt`` 0, 1, 2, …) waits ``base_delay * 2**attempt`` seconds, capped
    at ``max_delay``, scaled by a random factor in ``[1 - jitter, 1]``. A ``Retry-After``
    header replaces that computed delay; one longer than ``max_retry_after`` is not waited
    for (the error is raised instead).
    """

    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    jitter: float = 0.25
    max_retry_after: float = 60.0

    def backoff(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        """The computed delay before retry number ``attempt`` (0-based)."""
        delay = min(self.max_delay, self.base_delay * (2.0 ** max(0, attempt)))
        return delay * (1.0 - self.jitter * rng())

    @staticmethod
    def is_retryable(method: str, error: APIError) -> bool:
        """Whether ``error`` on a ``method`` request may be retried at all."""
        if method.upper() not in IDEMPOTENT_METHODS:
            return False
        if isinstance(error, QuotaExceededError):
            return False  # the monthly quota does not come back within a retry
        if isinstance(error, (APIConnectionError, RateLimitError)):
            return True
        return isinstance(error, ServerError) and error.status in RETRYABLE_SERVER_STATUSES

    def delay_before_retry(
        self, method: str, error: APIError, attempt: int, rng: Callable[[], float] = random.random
    ) -> Optional[float]:
        """Seconds to wait before retry ``attempt`` (0-based), or ``None``: raise ``error``."""
        if attempt >= self.max_retries or not self.is_retryable(method, error):
            return None
        if error.retry_after is not None:
            if error.retry_after > self.max_retry_after:
                return None
            return error.retry_after
        return self.backoff(attempt, rng)


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    data: Any


class Interrupted(Exception):
    """Internal: the caller's cancel event was set while waiting to retry."""

    def __init__(self, last_error: Optional[APIError] = None) -> None:
        super().__init__("interrupted")
        self.last_error = last_error


class DeadlineExceeded(Exception):
    """Internal: the caller's deadline passed before a request could succeed."""

    def __init__(self, last_error: Optional[APIError] = None) -> None:
        super().__init__("deadline exceeded")
        self.last_error = last_error


SleepFn = Callable[[float, Optional[threading.Event]], bool]


def interruptible_sleep(seconds: float, cancel_event: Optional[threading.Event]) -> bool:
    """Sleeps; returns ``True`` at once if ``cancel_event`` is (or becomes) set."""
    if cancel_event is not None:
        return cancel_event.wait(max(0.0, seconds))
    if seconds > 0:
        time.sleep(seconds)
    return False


class Transport:
    """One service address, its timeout and retry policy; safe to share between threads."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float,
        retry_policy: RetryPolicy,
        user_agent: str,
        sleep: SleepFn = interruptible_sleep,
        clock: Callable[[], float] = time.monotonic,
        opener: Optional[urllib.request.OpenerDirector] = None,
    ) -> None:
        self.base_url = base_url
        self.timeout = timeout
        self.retry_policy = retry_policy
        self.user_agent = user_agent
        self._sleep = sleep
        self._clock = clock
        self._opener = opener or urllib.request.build_opener()

    def url_for(self, path: str, query: Optional[Mapping[str, Any]] = None) -> str:
        url = self.base_url + path
        if query:
            pairs = [(k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in query.items() if v is not None]
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        return url

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str,
        body: Optional[Mapping[str, Any]] = None,
        query: Optional[Mapping[str, Any]] = None,
        deadline: Optional[float] = None,
        cancel_event: Optional[threading.Event] = None,
    ) -> Response:
        """Sends one call, retrying it when the policy allows; raises an ``APIError`` subclass.

        ``deadline`` (a ``clock()`` instant) bounds the whole call including retries: past it
        ``DeadlineExceeded`` is raised; ``cancel_event`` set during a retry wait raises
        ``Interrupted``. Both carry the last error.
        """
        method = method.upper()
        url = self.url_for(path, query)
        payload = None if body is None else json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        headers = {
            "Accept": "application/json",
            "Authorization": f"Bearer {token}",
            "User-Agent": self.user_agent,
        }
        if payload is not None:
            headers["Content-Type"] = "application/json"
        attempt = 0
        last_error: Optional[APIError] = None
        while True:
            timeout = self.timeout
            if deadline is not None:
                remaining = deadline - self._clock()
                if remaining <= 0:
                    raise DeadlineExceeded(last_error) from last_error
                timeout = min(timeout, remaining)
            try:
                return self._send(method, url, headers, payload, timeout)
            except APIError as error:
                last_error = error
                delay = self.retry_policy.delay_before_retry(method, error, attempt)
                if delay is None:
                    raise
                if deadline is not None and self._clock() + delay >= deadline:
                    raise DeadlineExceeded(error) from error
                if self._sleep(delay, cancel_event):
                    raise Interrupted(error) from error
                attempt += 1

    def _send(self, method: str, url: str, headers: Mapping[str, str], payload: Optional[bytes], timeout: float) -> Response:
        request = urllib.request.Request(url, data=payload, headers=dict(headers), method=method)
        try:
            with self._opener.open(request, timeout=timeout) as res:
                status, res_headers, raw = res.status, _headers(res.headers), res.read()
        except urllib.error.HTTPError as err:
            try:
                raw = err.read()
            except (OSError, http.client.HTTPException):
                raw = b""
            finally:
                err.close()
            res_headers = _headers(err.headers)
            data, text = _decode(raw)
            raise error_from_response(err.code, data, res_headers, method=method, url=url, text=text) from None
        except urllib.error.URLError as err:
            reason = err.reason
            if isinstance(reason, (socket.timeout, TimeoutError)):
                raise APITimeoutError(f"request timed out after {timeout:g} s", method=method, url=url) from err
            raise APIConnectionError(f"connection failed: {reason}", method=method, url=url) from err
        except (socket.timeout, TimeoutError) as err:
            raise APITimeoutError(f"request timed out after {timeout:g} s", method=method, url=url) from err
        except (http.client.HTTPException, OSError) as err:
            raise APIConnectionError(f"connection failed: {err!r}", method=method, url=url) from err
        data, text = _decode(raw)
        if raw.strip() and data is None:
            raise APIError(
                f"the service answered {status} with a body that is not JSON: {text[:200]!r}",
                status=status,
                headers=res_headers,
                method=method,
                url=url,
            )
        return Response(status=status, headers=res_headers, data=data if data is not None else {})


def _headers(message: Any) -> Dict[str, str]:
    if message is None:
        return {}
    out: Dict[str, str] = {}
    for key, value in message.items():
        k = key.lower()
        out[k] = f"{out[k]}, {value}" if k in out else value
    return out


def _decode(raw: bytes) -> Tuple[Any, str]:
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        return None, text
    try:
        return json.loads(text), text
    except ValueError:
        return None, text
