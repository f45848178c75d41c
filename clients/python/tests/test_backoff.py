"""Backoff schedules and the retry decision (pure functions)."""

from __future__ import annotations

import unittest

import _support  # noqa: F401 - puts src on sys.path

from browser_task_service import (
    APIConnectionError,
    APITimeoutError,
    PollSchedule,
    RetryPolicy,
)
from browser_task_service.errors import error_from_response


def rate_limited(retry_after: str = "") -> object:
    return error_from_response(429, {"error": "slow down"}, {"Retry-After": retry_after} if retry_after else {})


class PollScheduleTest(unittest.TestCase):
    def test_starts_near_half_a_second_and_settles_on_two_seconds(self) -> None:
        schedule = PollSchedule()
        middle = [schedule.interval(i, rng=lambda: 0.5) for i in range(8)]  # rng 0.5 = no jitter
        self.assertEqual(middle[:4], [0.5, 0.75, 1.125, 1.6875])
        self.assertEqual(middle[4:], [2.0] * 4)
        self.assertEqual(middle, sorted(middle))

    def test_jitter_stays_within_ten_percent(self) -> None:
        schedule = PollSchedule()
        self.assertAlmostEqual(schedule.interval(10, rng=lambda: 0.0), 1.8)
        self.assertAlmostEqual(schedule.interval(10, rng=lambda: 0.999999), 2.2, places=4)
        for attempt in range(20):
            self.assertTrue(0.45 <= schedule.interval(attempt) <= 2.2)

    def test_custom_schedule(self) -> None:
        schedule = PollSchedule(initial=0.1, factor=2.0, maximum=0.5, jitter=0.0)
        self.assertEqual([schedule.interval(i) for i in range(5)], [0.1, 0.2, 0.4, 0.5, 0.5])


class RetryBackoffTest(unittest.TestCase):
    def test_doubles_from_half_a_second_up_to_the_cap(self) -> None:
        policy = RetryPolicy()
        delays = [policy.backoff(i, rng=lambda: 0.0) for i in range(6)]  # rng 0 = no jitter
        self.assertEqual(delays, [0.5, 1.0, 2.0, 4.0, 8.0, 8.0])

    def test_jitter_only_shortens(self) -> None:
        policy = RetryPolicy(jitter=0.25)
        self.assertAlmostEqual(policy.backoff(1, rng=lambda: 1.0), 0.75)
        for attempt in range(5):
            delay = policy.backoff(attempt)
            full = min(8.0, 0.5 * 2**attempt)
            self.assertTrue(0.75 * full <= delay <= full)


class RetryDecisionTest(unittest.TestCase):
    def setUp(self) -> None:
        self.policy = RetryPolicy(max_retries=3)
        self.no_jitter = lambda: 0.0

    def decide(self, method: str, error: object, attempt: int = 0) -> object:
        return self.policy.delay_before_retry(method, error, attempt, rng=self.no_jitter)  # type: ignore[arg-type]

    def test_gets_are_retried_on_5xx_429_and_network_errors(self) -> None:
        for status in (500, 502, 503, 504):
            self.assertEqual(self.decide("GET", error_from_response(status, {"error": "x"})), 0.5)
        self.assertEqual(self.decide("GET", rate_limited()), 0.5)
        self.assertEqual(self.decide("GET", APIConnectionError("refused")), 0.5)
        self.assertEqual(self.decide("GET", APITimeoutError("slow")), 0.5)

    def test_writes_are_never_retried(self) -> None:
        for method in ("POST", "PUT", "DELETE"):
            for error in (error_from_response(503, {"error": "x"}), rate_limited("1"), APIConnectionError("reset")):
                with self.subTest(method=method, error=type(error).__name__):
                    self.assertIsNone(self.decide(method, error))

    def test_client_errors_and_quota_are_not_retried(self) -> None:
        for status in (400, 401, 403, 404, 405, 409, 413, 501, 505):
            with self.subTest(status=status):
                self.assertIsNone(self.decide("GET", error_from_response(status, {"error": "x"})))
        quota = error_from_response(429, {"error": "quota", "limit": 15, "used": 15}, {"Retry-After": "1"})
        self.assertIsNone(self.decide("GET", quota))

    def test_retry_after_replaces_the_computed_delay(self) -> None:
        self.assertEqual(self.decide("GET", rate_limited("3"), attempt=0), 3.0)
        self.assertEqual(self.decide("GET", rate_limited("0"), attempt=2), 0.0)
        unavailable = error_from_response(503, {"error": "x"}, {"Retry-After": "2"})
        self.assertEqual(self.decide("GET", unavailable), 2.0)

    def test_a_retry_after_beyond_the_cap_is_not_waited_for(self) -> None:
        self.assertIsNone(self.decide("GET", rate_limited("3600")))

    def test_stops_after_max_retries(self) -> None:
        error = error_from_response(503, {"error": "x"})
        self.assertEqual([self.decide("GET", error, attempt=i) for i in range(4)], [0.5, 1.0, 2.0, None])
        self.assertIsNone(RetryPolicy(max_retries=0).delay_before_retry("GET", error, 0))


if __name__ == "__main__":
    unittest.main()
