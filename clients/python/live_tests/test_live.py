"""The Python client against the local runtime over HTTP: tasks really run.

Started by test/clients/python.test.ts, which passes the runtime's address, its bootstrap
API key, a dashboard token, a key whose monthly quota is 1, and the fixture sites' URLs.
"""

from __future__ import annotations

import threading
import time
import unittest
from typing import List

from _live import client, setting

from browser_task_service import (
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    QuotaExceededError,
    RunCancelledError,
    RunTimeoutError,
    StepSummary,
    Task,
)

RIDGE = "How much is the Ridge Pack 30L?"


class DesignTest(unittest.TestCase):
    def test_run_extracts_a_fixture_site_to_completion(self) -> None:
        url = setting("BTS_PAGES_URL") + "/design/acme/"
        # Act
        task = client().design.run(url, "py-designer", timeout=120)
        # Assess
        self.assertEqual(task.status, "completed", task.error)
        assert task.design is not None
        self.assertEqual(task.design.extractors, ["images", "fonts", "colors", "icons", "tokens", "logo"])
        colors = [c["hex"].lower() for c in task.design.results["colors"]["colors"]]
        self.assertIn("#2563eb", colors)
        logo = task.design.results["logo"]["logo"]
        self.assertIs(logo["found"], True)
        self.assertIn("acme-logo.png", logo["src"])

    def test_a_single_extractor_uses_the_path_alias_and_runs_alone(self) -> None:
        c = client()
        submitted = c.design.extract(setting("BTS_PAGES_URL") + "/design/acme/", "py-designer", ["fonts"])
        self.assertEqual((submitted.status, submitted.extractors, submitted.enable_ip_rotation), ("pending", ["fonts"], False))
        task = c.tasks.wait(submitted.task_id, timeout=120)
        self.assertEqual(task.status, "completed", task.error)
        assert task.design is not None
        self.assertEqual(list(task.design.results), ["fonts"])


class AgentTaskTest(unittest.TestCase):
    def test_run_completes_with_the_scripted_model_reporting_each_step_once(self) -> None:
        c = client()
        batches: List[List[StepSummary]] = []

        def on_progress(steps: List[StepSummary], task: Task) -> None:
            batches.append(list(steps))

        # Act
        task = c.tasks.run("py-shopper", RIDGE, start_url=setting("BTS_SHOP_URL") + "/", on_progress=on_progress, timeout=90)
        # Assess
        self.assertEqual(task.status, "completed", task.error)
        self.assertEqual(task.result, "Ridge Pack 30L costs $89.95")
        self.assertTrue(batches and all(batches), batches)
        self.assertEqual([s.raw for b in batches for s in b], [s.raw for s in task.step_summaries])
        self.assertEqual([s.type for s in task.step_summaries], ["navigate", "fill", "click", "click", "done"])
        self.assertEqual([s.n for s in task.step_summaries], [1, 2, 3, 4, 5])
        session = c.sessions.get(task.session_id)
        self.assertEqual([t.task_id for t in session.tasks], [task.task_id])
        sessions = c.tasks.list(limit=5)
        self.assertIn(task.session_id, [s.session_id for s in sessions])
        mine = next(s for s in sessions if s.session_id == task.session_id)
        assert mine.first_task is not None
        self.assertEqual((mine.turn_count, mine.latest_status, mine.first_task.task), (1, "completed", RIDGE))

    def test_times_out_with_the_last_task_seen_then_cancels_it_409_once_finished(self) -> None:
        c = client()
        # Act
        with self.assertRaises(RunTimeoutError) as caught:
            c.tasks.run("py-wanderer", "Wander the catalogue", start_url=setting("BTS_SHOP_URL") + "/", timeout=1.5)
        # Assess
        timed_out = caught.exception
        self.assertEqual(timed_out.timeout, 1.5)
        assert timed_out.task is not None
        self.assertEqual(timed_out.task.task_id, timed_out.task_id)
        self.assertIn(timed_out.task.status, ("pending", "running"))
        cancelled = c.tasks.cancel(timed_out.task_id)
        self.assertIs(cancelled.cancel_requested, True)
        final = c.tasks.wait(timed_out.task_id, timeout=60)
        self.assertEqual(final.status, "cancelled")
        with self.assertRaises(ConflictError) as conflict:
            c.tasks.cancel(timed_out.task_id)
        self.assertEqual(conflict.exception.status, 409)

    def test_a_cancel_event_stops_waiting_and_cancels_the_task(self) -> None:
        c = client()
        submitted = c.tasks.create("py-wanderer", "Wander again", start_url=setting("BTS_SHOP_URL") + "/")
        stop = threading.Event()
        timer = threading.Timer(0.3, stop.set)
        timer.start()
        started = time.monotonic()
        try:
            with self.assertRaises(RunCancelledError) as caught:
                c.tasks.wait(submitted.task_id, cancel_event=stop, timeout=60)
        finally:
            timer.cancel()
        self.assertLess(time.monotonic() - started, 10)
        self.assertEqual(caught.exception.task_id, submitted.task_id)
        self.assertIsNone(caught.exception.cancel_error)
        self.assertEqual(c.tasks.wait(submitted.task_id, timeout=60).status, "cancelled")


class CredentialsTest(unittest.TestCase):
    def test_round_trip_put_status_delete_one_field_delete_all(self) -> None:
        c = client()
        c.credentials.put("py-user", reddit_session="r-secret", credentials={"twitterAuthToken": "t-secret"})
        status = c.credentials.get("py-user")
        self.assertEqual(status.end_user_id, "py-user")
        self.assertEqual(status.platforms, {"twitter": True, "reddit": True, "tiktok": False, "instagram": False})
        # the status never carries a secret
        self.assertNotIn("secret", repr(status.raw))
        c.credentials.delete("py-user", ["reddit_session"])
        self.assertEqual((c.credentials.get("py-user").is_connected("twitter"), c.credentials.get("py-user").is_connected("reddit")), (True, False))
        c.credentials.delete("py-user")
        self.assertFalse(c.credentials.get("py-user").is_connected("twitter"))


class ApiKeysTest(unittest.TestCase):
    def test_mints_a_key_uses_it_lists_it_revokes_it_403_after(self) -> None:
        c = client()
        # Act
        created = c.api_keys.create("py-client")
        self.assertTrue(created.api_key.startswith(created.prefix), created.prefix)
        other = Client(setting("BTS_BASE_URL"), api_key=created.api_key)
        other.tasks.list()
        listed = next(k for k in c.api_keys.list() if k.key_id == created.key_id)
        self.assertEqual((listed.label, listed.revoked_at), ("py-client", None))
        self.assertIsInstance(listed.last_used_at, str)
        self.assertNotIn("apiKey", listed.raw)
        c.api_keys.revoke(created.key_id)
        # Assess
        with self.assertRaises(PermissionDeniedError) as caught:
            other.tasks.list()
        self.assertEqual(caught.exception.status, 403)
        self.assertRegex(caught.exception.message, "revoked")
        self.assertTrue(next(k for k in c.api_keys.list() if k.key_id == created.key_id).revoked)

    def test_an_api_key_where_a_dashboard_token_belongs_is_401(self) -> None:
        key = setting("BTS_API_KEY")
        with self.assertRaises(AuthenticationError) as caught:
            client(dashboard_token=key).api_keys.list()
        self.assertEqual(caught.exception.status, 401)


class TypedErrorsTest(unittest.TestCase):
    def test_an_unknown_api_key_is_401(self) -> None:
        with self.assertRaises(AuthenticationError) as caught:
            client(api_key="bts_live_0000000000000000000000000000000000").tasks.list()
        self.assertEqual((caught.exception.status, caught.exception.message), (401, "Invalid API key"))

    def test_400_and_404_carry_the_apis_message(self) -> None:
        c = client()
        with self.assertRaises(BadRequestError) as bad:
            c.tasks.create("u", "   ")
        self.assertEqual((bad.exception.status, bad.exception.error), (400, "task must not be blank"))
        self.assertIn("task must not be blank", str(bad.exception))
        with self.assertRaises(NotFoundError) as missing:
            c.tasks.get("no-such-task")
        self.assertEqual(missing.exception.status, 404)
        self.assertTrue(missing.exception.message)
        with self.assertRaises(NotFoundError):
            c.sessions.get("no-such-session")

    def test_quota_exhaustion_raises_quota_exceeded_with_limit_and_used(self) -> None:
        limited = Client(setting("BTS_BASE_URL"), api_key=setting("BTS_QUOTA_API_KEY"))
        first = limited.tasks.create("q", "the only one this month")
        self.addCleanup(self._cancel_quietly, limited, first.task_id)
        # Act
        with self.assertRaises(QuotaExceededError) as caught:
            limited.tasks.create("q", "one too many")
        # Assess
        error = caught.exception
        self.assertEqual((error.status, error.limit, error.used), (429, 1, 1))
        self.assertRegex(error.message, "quota")
        self.assertIsInstance(error.request_id, str)
        with self.assertRaises(QuotaExceededError):
            limited.design.extract("https://example.com/", "q")

    @staticmethod
    def _cancel_quietly(c: Client, task_id: str) -> None:
        try:
            c.tasks.cancel(task_id)  # frees the worker; the quota was the point
        except ConflictError:
            pass  # it had already finished


if __name__ == "__main__":
    unittest.main()
