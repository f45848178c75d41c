"""Error mapping: status code and body → typed exception (pure functions)."""

from __future__ import annotations

import email.utils
import unittest

import _support  # noqa: F401 - puts src on sys.path

from browser_task_service import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    MethodNotAllowedError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    RunTimeoutError,
    ServerError,
    Task,
    TooManyRequestsError,
)
from browser_task_service.errors import error_from_response, parse_retry_after


class StatusMappingTest(unittest.TestCase):
    def test_each_documented_status_has_its_class(self) -> None:
        cases = {
            400: BadRequestError,
            401: AuthenticationError,
            403: PermissionDeniedError,
            404: NotFoundError,
            405: MethodNotAllowedError,
            409: ConflictError,
            413: PayloadTooLargeError,
            500: ServerError,
            502: ServerError,
            503: ServerError,
            504: ServerError,
        }
        for status, cls in cases.items():
            with self.subTest(status=status):
                err = error_from_response(status, {"error": f"boom {status}"}, {"X-Request-Id": "req-1"})
                self.assertIs(type(err), cls)
                self.assertIsInstance(err, APIError)
                self.assertEqual(err.status, status)
                self.assertEqual(err.message, f"boom {status}")
                self.assertEqual(err.request_id, "req-1")
                self.assertIn(f"boom {status}", str(err))
                self.assertIn("req-1", str(err))

    def test_error_is_the_apis_error_string(self) -> None:
        err = error_from_response(400, {"error": "task must not be blank"})
        self.assertEqual((err.error, err.message, err.body), ("task must not be blank", "task must not be blank", {"error": "task must not be blank"}))

    def test_an_api_gateway_message_body_is_read_too(self) -> None:
        err = error_from_response(413, {"message": "Request Too Long"}, text='{"message":"Request Too Long"}')
        self.assertIs(type(err), PayloadTooLargeError)
        self.assertEqual(err.error, "Request Too Long")

    def test_an_unlisted_status_is_a_plain_api_error(self) -> None:
        err = error_from_response(418, {"error": "teapot"})
        self.assertIs(type(err), APIError)
        self.assertEqual((err.status, err.message), (418, "teapot"))

    def test_quota_429_carries_limit_and_used(self) -> None:
        err = error_from_response(429, {"error": "Monthly task quota of 15 reached", "limit": 15, "used": 15})
        self.assertIsInstance(err, QuotaExceededError)
        self.assertIsInstance(err, TooManyRequestsError)
        assert isinstance(err, QuotaExceededError)
        self.assertEqual((err.limit, err.used), (15, 15))
        self.assertIsNone(err.retry_after)

    def test_429_without_a_quota_body_is_a_rate_limit_with_retry_after(self) -> None:
        err = error_from_response(429, {"error": "Too many requests"}, {"Retry-After": "7"})
        self.assertIsInstance(err, RateLimitError)
        assert isinstance(err, RateLimitError)
        self.assertEqual(err.retry_after, 7.0)
        self.assertNotIsInstance(err, QuotaExceededError)

    def test_rate_limit_without_retry_after(self) -> None:
        err = error_from_response(429, {"error": "slow down"})
        self.assertIsInstance(err, RateLimitError)
        self.assertIsNone(getattr(err, "retry_after"))

    def test_server_error_carries_the_task_id_of_a_failed_enqueue(self) -> None:
        err = error_from_response(500, {"error": "Could not enqueue the task", "taskId": "t-1", "requestId": "r-9"})
        assert isinstance(err, ServerError)
        self.assertEqual(err.task_id, "t-1")
        self.assertEqual(err.request_id, "r-9")  # from the body when the header is missing
        self.assertIsNone(error_from_response(503, {"error": "x"}).task_id)  # type: ignore[attr-defined]

    def test_405_exposes_the_allow_header(self) -> None:
        err = error_from_response(405, {"error": "Method not allowed"}, {"Allow": "GET, POST"})
        assert isinstance(err, MethodNotAllowedError)
        self.assertEqual(err.allow, ["GET", "POST"])

    def test_a_non_json_error_body_becomes_the_message(self) -> None:
        err = error_from_response(502, None, {}, text="<html>Bad Gateway</html>")
        self.assertIsInstance(err, ServerError)
        self.assertEqual(err.message, "<html>Bad Gateway</html>")
        self.assertEqual(error_from_response(502, None).message, "HTTP 502")

    def test_method_and_url_are_part_of_the_text(self) -> None:
        err = error_from_response(404, {"error": "Task not found"}, method="GET", url="http://h/v1/tasks/x")
        self.assertEqual(str(err), "404 Task not found (GET http://h/v1/tasks/x)")


class RetryAfterTest(unittest.TestCase):
    def test_delta_seconds(self) -> None:
        self.assertEqual(parse_retry_after("3"), 3.0)
        self.assertEqual(parse_retry_after(" 1.5 "), 1.5)
        self.assertEqual(parse_retry_after("-4"), 0.0)

    def test_http_date(self) -> None:
        now = 1_700_000_000.0
        value = email.utils.formatdate(now + 30, usegmt=True)
        self.assertAlmostEqual(parse_retry_after(value, now=now) or 0.0, 30.0, delta=1.0)
        past = email.utils.formatdate(now - 30, usegmt=True)
        self.assertEqual(parse_retry_after(past, now=now), 0.0)

    def test_unusable_values(self) -> None:
        for value in (None, "", "soon", "nan"):
            with self.subTest(value=value):
                self.assertIsNone(parse_retry_after(value))


class RunTimeoutErrorTest(unittest.TestCase):
    def test_it_is_a_timeout_error_that_carries_the_last_task(self) -> None:
        task = Task.from_dict({"taskId": "t-1", "status": "running"})
        err = RunTimeoutError("t-1", 2.5, task=task)
        self.assertIsInstance(err, TimeoutError)
        self.assertIs(err.task, task)
        self.assertIn("running", str(err))


if __name__ == "__main__":
    unittest.main()
