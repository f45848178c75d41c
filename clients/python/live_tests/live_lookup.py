"""A model-free lookup task through ``tasks.run`` against the local runtime.

Run apart from the other live tests (``-p live_lookup.py``): test/clients/python.test.ts
first points the workers' network guard at the offline TLS stand-in of the public APIs
(test/support/public-api.ts), then passes the fixture case to look up.
"""

from __future__ import annotations

import json
import unittest
from typing import List

from _live import client, setting

from browser_task_service import StepSummary, Task


class LookupTaskTest(unittest.TestCase):
    def test_run_completes_a_lookup_with_the_mapped_fields(self) -> None:
        params = json.loads(setting("BTS_LOOKUP_PARAMS"))
        expected = json.loads(setting("BTS_LOOKUP_EXPECT"))
        steps: List[str] = []

        def on_progress(new: List[StepSummary], task: Task) -> None:
            steps.extend(s.type for s in new)

        # Act: no task text, only the lookup
        task = client().tasks.run(
            "py-lookup",
            lookup={"site": setting("BTS_LOOKUP_SITE"), "operation": setting("BTS_LOOKUP_OPERATION"), "params": params},
            on_progress=on_progress,
            timeout=60,
        )
        # Assess
        self.assertEqual(task.status, "completed", task.error)
        self.assertEqual(task.result, expected)
        self.assertEqual(task.structured_content, expected)
        self.assertEqual([s.type for s in task.step_summaries], ["fast_path"])
        self.assertEqual(steps, ["fast_path"])


if __name__ == "__main__":
    unittest.main()
