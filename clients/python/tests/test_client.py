"""Client configuration and the typed results (no network)."""

from __future__ import annotations

import unittest

import _support  # noqa: F401 - puts src on sys.path

from browser_task_service import (
    ApiKey,
    Client,
    ConfigurationError,
    CreatedApiKey,
    CredentialStatus,
    DesignSubmitted,
    Session,
    SessionSummary,
    Task,
)


class ConfigurationTest(unittest.TestCase):
    def test_base_url_is_normalised(self) -> None:
        self.assertEqual(Client("http://127.0.0.1:3000/").base_url, "http://127.0.0.1:3000")
        self.assertEqual(Client("https://api.example.com/prod/v1/").base_url, "https://api.example.com/prod")

    def test_bad_settings_are_rejected(self) -> None:
        for url in ("", "127.0.0.1:3000", "ftp://host", "http://host/?x=1"):
            with self.subTest(url=url), self.assertRaises(ConfigurationError):
                Client(url)
        with self.assertRaises(ConfigurationError):
            Client("http://h", timeout=0)
        with self.assertRaises(ConfigurationError):
            Client("http://h", max_retries=-1)

    def test_key_management_without_a_dashboard_token_is_a_clear_error(self) -> None:
        client = Client("http://127.0.0.1:9", api_key="bts_live_x")
        with self.assertRaises(ConfigurationError) as caught:
            client.api_keys.list()
        self.assertIn("dashboard token", str(caught.exception))
        self.assertIsInstance(caught.exception, ValueError)

    def test_data_calls_without_an_api_key_are_a_clear_error(self) -> None:
        client = Client("http://127.0.0.1:9", dashboard_token="dash")
        with self.assertRaises(ConfigurationError) as caught:
            client.tasks.get("t")
        self.assertIn("API key", str(caught.exception))

    def test_empty_path_parameters_are_rejected_before_sending(self) -> None:
        client = Client("http://127.0.0.1:9", api_key="k")
        with self.assertRaises(ConfigurationError):
            client.tasks.get("")
        with self.assertRaises(ConfigurationError):
            client.credentials.get("")


class ModelsTest(unittest.TestCase):
    def test_task_fields_and_unknown_extras(self) -> None:
        data = {
            "taskId": "t-1",
            "sessionId": "s-1",
            "endUserId": "u",
            "task": "Find the price",
            "status": "completed",
            "result": {"price": 89.95},
            "structured_content": {"price": 89.95},
            "totalSteps": 2,
            "durationMs": 1234,
            "visitedUrls": ["shop.example"],
            "stepSummaries": [{"n": 1, "type": "navigate", "msg": "ok", "success": True, "ms": 12}],
            "createdAt": "2025-01-01T00:00:00.000Z",
            "updatedAt": "2025-01-01T00:00:01.000Z",
            "usage": {"modelCalls": 1},
            "somethingNew": [1, 2],
        }
        t = Task.from_dict(data)
        self.assertEqual((t.task_id, t.session_id, t.end_user_id, t.status), ("t-1", "s-1", "u", "completed"))
        self.assertEqual(t.result, {"price": 89.95})
        self.assertEqual(t.structured_content, {"price": 89.95})
        self.assertEqual((t.total_steps, t.duration_ms, t.visited_urls), (2, 1234, ["shop.example"]))
        self.assertEqual(t.step_summaries[0].type, "navigate")
        self.assertEqual(t.step_summaries[0].extra, {"ms": 12})
        self.assertTrue(t.is_terminal)
        self.assertEqual(t.extra, {"somethingNew": [1, 2]})
        self.assertEqual(t.get("somethingNew"), [1, 2])
        self.assertEqual(t.to_dict(), data)
        self.assertIsNone(t.error)
        self.assertIsNone(t.design)

    def test_design_task(self) -> None:
        t = Task.from_dict(
            {
                "taskId": "t",
                "status": "completed",
                "design": {"url": "https://x", "extractors": ["colors"], "durationMs": 5, "results": {"colors": {"colors": []}}},
            }
        )
        assert t.design is not None
        self.assertEqual(t.design.extractors, ["colors"])
        self.assertEqual(t.design.results["colors"], {"colors": []})

    def test_other_models(self) -> None:
        summary = SessionSummary.from_dict(
            {"sessionId": "s", "firstTask": {"taskId": "t", "status": "running"}, "turnCount": 2, "latestStatus": "running"}
        )
        assert summary.first_task is not None
        self.assertEqual((summary.first_task.task_id, summary.turn_count), ("t", 2))
        session = Session.from_dict({"sessionId": "s", "tasks": [{"taskId": "a"}, {"taskId": "b"}]})
        self.assertEqual([x.task_id for x in session.tasks], ["a", "b"])
        status = CredentialStatus.from_dict({"endUserId": "u", "platforms": {"reddit": True, "twitter": False}})
        self.assertTrue(status.is_connected("reddit"))
        self.assertFalse(status.is_connected("twitter"))
        self.assertFalse(status.is_connected("instagram"))  # absent counts as false
        key = ApiKey.from_dict({"keyId": "k", "prefix": "bts_live_ab", "label": None, "createdAt": "c", "lastUsedAt": None, "revokedAt": "r"})
        self.assertTrue(key.revoked)
        self.assertIsNone(key.label)
        created = CreatedApiKey.from_dict({"businessId": "b", "keyId": "k", "apiKey": "bts_live_secret", "prefix": "bts_live_se"})
        self.assertEqual(created.api_key, "bts_live_secret")
        self.assertNotIn("secret", repr(created))
        design = DesignSubmitted.from_dict({"taskId": "t", "extractors": ["logo"], "enableIpRotation": True})
        self.assertEqual((design.extractors, design.enable_ip_rotation), (["logo"], True))

    def test_a_non_object_is_a_type_error(self) -> None:
        with self.assertRaises(TypeError):
            Task.from_dict([])  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()
