"""The HTTP layer over a loopback ``http.server``: headers, bodies, error mapping, retries.

The scripted server answers only what each test queues; the real service is exercised by
the integration tests.
"""

from __future__ import annotations

import json
import threading
import time
import unittest

from _support import RecordingSleep, Reply, ScriptedServer, free_port

from browser_task_service import (
    APIConnectionError,
    APITimeoutError,
    BadRequestError,
    Client,
    ConfigurationError,
    ConflictError,
    NotFoundError,
    QuotaExceededError,
    RateLimitError,
    RetryPolicy,
    ServerError,
)
from browser_task_service._http import DeadlineExceeded, Interrupted, Transport

TASK = {
    "taskId": "t-1",
    "sessionId": "s-1",
    "endUserId": "u",
    "task": "t",
    "status": "completed",
    "totalSteps": 0,
    "durationMs": 0,
    "visitedUrls": [],
    "stepSummaries": [],
    "createdAt": "2025-01-01T00:00:00.000Z",
    "updatedAt": "2025-01-01T00:00:00.000Z",
}


def transport(url: str, sleep: RecordingSleep, max_retries: int = 3, timeout: float = 5.0) -> Transport:
    return Transport(
        url,
        timeout=timeout,
        retry_policy=RetryPolicy(max_retries=max_retries),
        user_agent="test-agent/1",
        sleep=sleep,
    )


class RequestShapeTest(unittest.TestCase):
    def test_headers_json_body_and_path_encoding(self) -> None:
        with ScriptedServer(Reply(200, {"ok": True})) as server:
            client = Client(server.url + "/v1/", api_key="bts_live_abc", user_agent="test-agent/1")
            client.credentials.put("user 1/ü?", reddit_session="cookie", credentials={"twitterCt0": "ct0"})
            seen = server.requests[0]
            self.assertEqual(seen.method, "PUT")
            self.assertEqual(seen.path, "/v1/end-users/user%201%2F%C3%BC%3F/credentials")
            self.assertEqual(seen.headers["authorization"], "Bearer bts_live_abc")
            self.assertEqual(seen.headers["user-agent"], "test-agent/1")
            self.assertEqual(seen.headers["content-type"], "application/json")
            self.assertEqual(seen.headers["accept"], "application/json")
            self.assertEqual(json.loads(seen.body), {"twitterCt0": "ct0", "redditSession": "cookie"})

    def test_default_user_agent_names_the_client_and_version(self) -> None:
        with ScriptedServer(Reply(200, TASK)) as server:
            Client(server.url, api_key="k").tasks.get("t-1")
            self.assertRegex(server.requests[0].headers["user-agent"], r"^browser-task-service-python/0\.1\.0 \(Python 3\.\d+")

    def test_a_get_has_no_body_and_no_content_type(self) -> None:
        with ScriptedServer(Reply(200, {"sessions": []})) as server:
            self.assertEqual(Client(server.url, api_key="k").tasks.list(limit=5), [])
            seen = server.requests[0]
            self.assertEqual((seen.method, seen.path, seen.body), ("GET", "/v1/tasks?limit=5", b""))
            self.assertNotIn("content-type", seen.headers)

    def test_task_create_sends_api_field_names_and_only_given_fields(self) -> None:
        reply = {"taskId": "t-1", "sessionId": "s-1", "status": "pending", "createdAt": "2025-01-01T00:00:00Z", "new": 1}
        with ScriptedServer(Reply(201, reply)) as server:
            client = Client(server.url, api_key="k")
            submitted = client.tasks.create(
                "u-1",
                "Find it",
                start_url="https://example.com",
                schema={"type": "object"},
                max_steps=5,
                include_html_dump=True,
                lookup={"site": "npm", "operation": "package", "params": {"name": "zod"}},
            )
            client.tasks.create("u-1", "Again", session_id="s-1")
            self.assertEqual(submitted.task_id, "t-1")
            self.assertEqual(submitted.extra, {"new": 1})
            first, second = server.json_bodies()
            self.assertEqual(
                first,
                {
                    "endUserId": "u-1",
                    "task": "Find it",
                    "startUrl": "https://example.com",
                    "schema": {"type": "object"},
                    "maxSteps": 5,
                    "include_html_dump": True,
                    "lookup": {"site": "npm", "operation": "package", "params": {"name": "zod"}},
                },
            )
            self.assertEqual(second, {"endUserId": "u-1", "task": "Again", "sessionId": "s-1"})

    def test_a_lookup_task_needs_no_task_text(self) -> None:
        reply = {"taskId": "t-2", "sessionId": "s-2", "status": "pending", "createdAt": "2025-01-01T00:00:00Z"}
        with ScriptedServer(Reply(201, reply)) as server:
            client = Client(server.url, api_key="k")
            client.tasks.create("u-1", lookup={"site": "npm", "operation": "package", "params": {"name": "zod"}})
            client.tasks.create(end_user_id="u-1", lookup={"site": "npm", "operation": "package"})
            self.assertEqual([(r.method, r.path) for r in server.requests], [("POST", "/v1/tasks")] * 2)
            first, second = server.json_bodies()
            self.assertEqual(first, {"endUserId": "u-1", "lookup": {"site": "npm", "operation": "package", "params": {"name": "zod"}}})
            self.assertNotIn("task", first)
            # params left out is left out: the service defaults it to {}
            self.assertEqual(second, {"endUserId": "u-1", "lookup": {"site": "npm", "operation": "package"}})

    def test_a_lookup_run_submits_then_polls(self) -> None:
        submitted = {"taskId": "t-3", "sessionId": "s-3", "status": "pending", "createdAt": "c"}
        done = dict(TASK, taskId="t-3", task="", result={"name": "zod"}, structured_content={"name": "zod"},
                    stepSummaries=[{"n": 1, "type": "fast_path", "msg": "npm/package", "success": True}])
        with ScriptedServer(Reply(201, submitted), Reply(200, done)) as server:
            client = Client(server.url, api_key="k")
            steps = []
            task = client.tasks.run("u", lookup={"site": "npm", "operation": "package", "params": {"name": "zod"}},
                                    on_progress=lambda new, _t: steps.extend(s.type for s in new))
            self.assertEqual(task.structured_content, {"name": "zod"})
            self.assertEqual(steps, ["fast_path"])
            self.assertEqual([(r.method, r.path) for r in server.requests], [("POST", "/v1/tasks"), ("GET", "/v1/tasks/t-3")])
            self.assertEqual(server.json_bodies()[0]["lookup"]["site"], "npm")

    def test_a_task_needs_task_text_or_a_lookup(self) -> None:
        with ScriptedServer(Reply(201, {})) as server:
            client = Client(server.url, api_key="k")
            with self.assertRaises(ConfigurationError):
                client.tasks.create("u")
            for bad in ({"operation": "package"}, {"site": "npm", "operation": ""}, {"site": "npm", "operation": "p", "params": [1]}):
                with self.subTest(lookup=bad), self.assertRaises(ConfigurationError):
                    client.tasks.create("u", lookup=bad)
            with self.assertRaises(ConfigurationError):
                client.tasks.run("u")
            self.assertEqual(server.requests, [])

    def test_cancel_reads_cancel_requested(self) -> None:
        with ScriptedServer(Reply(202, dict(TASK, status="running", cancelRequested=True))) as server:
            task = Client(server.url, api_key="k").tasks.cancel("t-1")
            self.assertEqual((server.requests[0].method, server.requests[0].path), ("POST", "/v1/tasks/t-1/cancel"))
            self.assertIsNone(server.requests[0].headers.get("content-type"))
            self.assertEqual((task.status, task.cancel_requested), ("running", True))
            self.assertEqual(task.extra, {})

    def test_design_uses_the_path_alias_for_a_single_extractor(self) -> None:
        reply = {"taskId": "t", "sessionId": "s", "status": "pending", "createdAt": "x", "extractors": ["colors"], "enableIpRotation": False}
        with ScriptedServer(Reply(202, reply)) as server:
            client = Client(server.url, api_key="k")
            client.design.extract("https://example.com", "u", "colors")
            client.design.extract("https://example.com", "u", ["fonts"])
            client.design.extract("https://example.com", "u", ["fonts", "logo"], enable_ip_rotation=True)
            client.design.extract("https://example.com", "u")
            paths = [r.path for r in server.requests]
            self.assertEqual(paths, ["/v1/design/extract/colors", "/v1/design/extract/fonts", "/v1/design/extract", "/v1/design/extract"])
            bodies = server.json_bodies()
            self.assertEqual(bodies[0], {"url": "https://example.com", "endUserId": "u", "enableIpRotation": False})
            self.assertEqual(bodies[2]["extractors"], ["fonts", "logo"])
            self.assertIs(bodies[2]["enableIpRotation"], True)
            self.assertNotIn("extractors", bodies[3])

    def test_credential_delete_maps_python_names_and_sends_no_body_without_fields(self) -> None:
        with ScriptedServer(Reply(200, {"ok": True})) as server:
            client = Client(server.url, api_key="k")
            client.credentials.delete("u", fields=["reddit_session", "twitterCt0"])
            client.credentials.delete("u")
            self.assertEqual(server.json_bodies(), [{"fields": ["redditSession", "twitterCt0"]}, None])

    def test_api_keys_use_the_dashboard_token(self) -> None:
        with ScriptedServer(Reply(200, {"keys": []})) as server:
            Client(server.url, api_key="api", dashboard_token="dash").api_keys.list()
            self.assertEqual(server.requests[0].headers["authorization"], "Bearer dash")


class ErrorMappingOverHttpTest(unittest.TestCase):
    def test_status_body_and_request_id_reach_the_exception(self) -> None:
        reply = Reply(404, {"error": "Task not found"}, {"x-request-id": "req-42"})
        with ScriptedServer(reply) as server:
            with self.assertRaises(NotFoundError) as caught:
                Client(server.url, api_key="k").tasks.get("nope")
        err = caught.exception
        self.assertEqual((err.status, err.message, err.request_id), (404, "Task not found", "req-42"))
        self.assertEqual(err.method, "GET")
        self.assertTrue(str(err.url).endswith("/v1/tasks/nope"))

    def test_quota_and_conflict(self) -> None:
        with ScriptedServer(Reply(429, {"error": "Monthly task quota of 2 reached", "limit": 2, "used": 2})) as server:
            with self.assertRaises(QuotaExceededError) as caught:
                Client(server.url, api_key="k").tasks.create("u", "t")
            self.assertEqual((caught.exception.limit, caught.exception.used), (2, 2))
        with ScriptedServer(Reply(409, {"error": "Task already finished with status completed"})) as server:
            with self.assertRaises(ConflictError):
                Client(server.url, api_key="k").tasks.cancel("t-1")

    def test_a_2xx_that_is_not_json_is_an_error(self) -> None:
        with ScriptedServer(Reply(200, raw=b"<html>proxy login</html>")) as server:
            with self.assertRaises(Exception) as caught:
                Client(server.url, api_key="k").tasks.get("t")
        self.assertIn("not JSON", str(caught.exception))


class RetryOverHttpTest(unittest.TestCase):
    def test_a_get_is_retried_on_503_then_succeeds(self) -> None:
        sleep = RecordingSleep()
        with ScriptedServer(Reply(503, {"error": "busy"}), Reply(502, {"error": "bad gateway"}), Reply(200, TASK)) as server:
            res = transport(server.url, sleep).request("GET", "/v1/tasks/t-1", token="k")
            self.assertEqual(res.data["taskId"], "t-1")
            self.assertEqual(len(server.requests), 3)
        self.assertEqual(len(sleep.calls), 2)
        self.assertTrue(0.375 <= sleep.calls[0] <= 0.5 and 0.75 <= sleep.calls[1] <= 1.0)

    def test_retry_after_is_honoured(self) -> None:
        sleep = RecordingSleep()
        with ScriptedServer(Reply(429, {"error": "Too many requests"}, {"Retry-After": "2"}), Reply(200, TASK)) as server:
            transport(server.url, sleep).request("GET", "/v1/tasks/t-1", token="k")
            self.assertEqual(len(server.requests), 2)
        self.assertEqual(sleep.calls, [2.0])

    def test_gives_up_after_max_retries_with_the_last_error(self) -> None:
        sleep = RecordingSleep()
        with ScriptedServer(Reply(503, {"error": "still busy"})) as server:
            with self.assertRaises(ServerError) as caught:
                transport(server.url, sleep, max_retries=3).request("GET", "/v1/tasks", token="k")
            self.assertEqual(len(server.requests), 4)
        self.assertEqual(caught.exception.message, "still busy")
        self.assertEqual(len(sleep.calls), 3)

    def test_a_rate_limit_is_raised_when_retries_run_out(self) -> None:
        sleep = RecordingSleep()
        with ScriptedServer(Reply(429, {"error": "slow down"}, {"Retry-After": "1"})) as server:
            with self.assertRaises(RateLimitError) as caught:
                transport(server.url, sleep, max_retries=1).request("GET", "/v1/tasks", token="k")
        self.assertEqual(caught.exception.retry_after, 1.0)

    def test_post_put_delete_are_never_retried(self) -> None:
        for method in ("POST", "PUT", "DELETE"):
            sleep = RecordingSleep()
            with self.subTest(method=method), ScriptedServer(Reply(503, {"error": "busy"})) as server:
                with self.assertRaises(ServerError):
                    transport(server.url, sleep).request(method, "/v1/tasks", token="k", body={"a": 1})
                self.assertEqual(len(server.requests), 1)
                self.assertEqual(sleep.calls, [])

    def test_client_errors_are_not_retried(self) -> None:
        sleep = RecordingSleep()
        with ScriptedServer(Reply(400, {"error": "limit must be a positive integer"})) as server:
            with self.assertRaises(BadRequestError):
                transport(server.url, sleep).request("GET", "/v1/tasks", token="k", query={"limit": 0})
            self.assertEqual(len(server.requests), 1)

    def test_connection_refused_is_retried_then_raised(self) -> None:
        host, port = free_port()
        sleep = RecordingSleep()
        with self.assertRaises(APIConnectionError) as caught:
            transport(f"http://{host}:{port}", sleep, max_retries=2).request("GET", "/v1/tasks", token="k")
        self.assertIsNone(caught.exception.status)
        self.assertEqual(len(sleep.calls), 2)

    def test_a_post_is_not_retried_on_connection_failure(self) -> None:
        host, port = free_port()
        sleep = RecordingSleep()
        with self.assertRaises(APIConnectionError):
            transport(f"http://{host}:{port}", sleep).request("POST", "/v1/tasks", token="k", body={})
        self.assertEqual(sleep.calls, [])

    def test_a_slow_answer_is_a_timeout(self) -> None:
        sleep = RecordingSleep()
        with ScriptedServer(Reply(200, TASK, delay=1.0)) as server:
            started = time.monotonic()
            with self.assertRaises(APITimeoutError):
                transport(server.url, sleep, max_retries=0, timeout=0.2).request("GET", "/v1/tasks/t", token="k")
            self.assertLess(time.monotonic() - started, 0.9)

    def test_a_deadline_stops_retrying(self) -> None:
        sleep = RecordingSleep()
        with ScriptedServer(Reply(503, {"error": "busy"}, {"Retry-After": "30"})) as server:
            with self.assertRaises(DeadlineExceeded) as caught:
                transport(server.url, sleep).request("GET", "/v1/tasks", token="k", deadline=time.monotonic() + 5)
        self.assertIsInstance(caught.exception.last_error, ServerError)
        self.assertEqual(sleep.calls, [])

    def test_a_cancel_event_interrupts_a_retry_wait(self) -> None:
        event = threading.Event()
        event.set()
        with ScriptedServer(Reply(503, {"error": "busy"})) as server:
            t = Transport(server.url, timeout=5, retry_policy=RetryPolicy(), user_agent="x")
            started = time.monotonic()
            with self.assertRaises(Interrupted):
                t.request("GET", "/v1/tasks", token="k", cancel_event=event)
            self.assertLess(time.monotonic() - started, 0.4)
            self.assertEqual(len(server.requests), 1)

    def test_the_client_passes_max_retries_to_its_policy(self) -> None:
        with ScriptedServer(Reply(503, {"error": "busy"})) as server:
            client = Client(server.url, api_key="k", max_retries=0)
            with self.assertRaises(ServerError):
                client.tasks.get("t")
            self.assertEqual(len(server.requests), 1)


if __name__ == "__main__":
    unittest.main()
