"""``wait_for_task``: poll schedule, progress, timeout and cancellation, with a fake clock.

``fetch`` here is a function returning prepared task states; no HTTP is involved.
"""

from __future__ import annotations

import threading
import unittest
from typing import Any, Dict, List, Optional

import _support  # noqa: F401 - puts src on sys.path

from browser_task_service import (
    APIConnectionError,
    ConflictError,
    PollSchedule,
    RunCancelledError,
    RunTimeoutError,
    StepSummary,
    Task,
)
from browser_task_service._http import DeadlineExceeded, Interrupted
from browser_task_service._polling import ProgressTracker, wait_for_task


def task(status: str, steps: int = 0) -> Task:
    data: Dict[str, Any] = {
        "taskId": "t-1",
        "status": status,
        "stepSummaries": [{"n": i + 1, "type": "navigate", "msg": f"step {i + 1}", "success": True} for i in range(steps)],
    }
    return Task.from_dict(data)


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: List[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float, event: Optional[threading.Event]) -> bool:
        self.sleeps.append(seconds)
        self.now += seconds
        return bool(event is not None and event.is_set())


class Script:
    """Returns the prepared states one per call (the last repeats)."""

    def __init__(self, *states: Any) -> None:
        self.states = list(states)
        self.calls = 0
        self.deadlines: List[Optional[float]] = []

    def __call__(self, deadline: Optional[float], event: Optional[threading.Event]) -> Task:
        self.calls += 1
        self.deadlines.append(deadline)
        state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
        if isinstance(state, BaseException):
            raise state
        return state


NO_JITTER = PollSchedule(jitter=0.0)


class WaitTest(unittest.TestCase):
    def setUp(self) -> None:
        self.time = FakeTime()

    def wait(self, fetch: Script, **kwargs: Any) -> Task:
        kwargs.setdefault("timeout", 60.0)
        kwargs.setdefault("schedule", NO_JITTER)
        return wait_for_task("t-1", fetch, sleep=self.time.sleep, clock=self.time.clock, **kwargs)

    def test_polls_with_growing_intervals_until_terminal(self) -> None:
        fetch = Script(task("pending"), task("running"), task("running"), task("running"), task("running"), task("running"), task("completed"))
        final = self.wait(fetch, initial_delay=0.5)
        self.assertEqual(final.status, "completed")
        self.assertEqual(fetch.calls, 7)
        self.assertEqual(self.time.sleeps, [0.5, 0.5, 0.75, 1.125, 1.6875, 2.0, 2.0])

    def test_reads_at_once_without_an_initial_delay(self) -> None:
        fetch = Script(task("failed"))
        self.assertEqual(self.wait(fetch).status, "failed")  # failed is returned, not raised
        self.assertEqual(self.time.sleeps, [])

    def test_each_terminal_status_ends_the_wait(self) -> None:
        for status in ("completed", "failed", "cancelled"):
            self.assertEqual(self.wait(Script(task("running"), task(status))).status, status)

    def test_progress_receives_only_new_steps_in_order(self) -> None:
        received: List[List[int]] = []
        fetch = Script(task("pending"), task("running", 1), task("running", 1), task("running", 3), task("completed", 4))

        def on_progress(steps: List[StepSummary], current: Task) -> None:
            self.assertIsInstance(current, Task)
            received.append([s.n for s in steps])

        self.wait(fetch, on_progress=on_progress)
        self.assertEqual(received, [[1], [2, 3], [4]])

    def test_a_shorter_read_does_not_repeat_steps(self) -> None:
        tracker = ProgressTracker()
        self.assertEqual(len(tracker.new_steps(task("running", 2))), 2)
        self.assertEqual(tracker.new_steps(task("running", 0)), [])
        self.assertEqual([s.n for s in tracker.new_steps(task("running", 3))], [3])

    def test_steps_are_told_apart_by_their_number(self) -> None:
        tracker = ProgressTracker()
        first = Task.from_dict({"taskId": "t", "status": "running", "stepSummaries": [{"n": 1, "type": "navigate"}, {"n": 2, "type": "fill"}]})
        # a read that lists only later steps (a trimmed trace) still reports each step once
        later = Task.from_dict({"taskId": "t", "status": "running", "stepSummaries": [{"n": 2, "type": "fill"}, {"n": 3, "type": "click"}]})
        self.assertEqual([s.n for s in tracker.new_steps(first)], [1, 2])
        self.assertEqual([s.n for s in tracker.new_steps(later)], [3])
        self.assertEqual(tracker.new_steps(later), [])

    def test_timeout_raises_with_the_last_task(self) -> None:
        fetch = Script(task("running", 2))
        with self.assertRaises(RunTimeoutError) as caught:
            self.wait(fetch, timeout=5.0)
        err = caught.exception
        self.assertEqual(err.task_id, "t-1")
        self.assertEqual(err.timeout, 5.0)
        assert err.task is not None
        self.assertEqual(err.task.status, "running")
        self.assertLessEqual(self.time.now - 1000.0, 5.0 + 1e-9)  # never sleeps past the deadline
        self.assertEqual(fetch.deadlines[0], 1005.0)  # reads are bounded by the same deadline

    def test_a_deadline_inside_a_read_becomes_a_run_timeout(self) -> None:
        cause = APIConnectionError("refused")
        fetch = Script(task("running"), DeadlineExceeded(cause))
        with self.assertRaises(RunTimeoutError) as caught:
            self.wait(fetch)
        self.assertIs(caught.exception.__cause__, cause)
        assert caught.exception.task is not None
        self.assertEqual(caught.exception.task.status, "running")

    def test_no_timeout_waits_as_long_as_it_takes(self) -> None:
        fetch = Script(*([task("running")] * 200), task("completed"))
        self.assertEqual(self.wait(fetch, timeout=None).status, "completed")
        self.assertEqual(fetch.deadlines[0], None)

    def test_cancel_event_cancels_the_task_and_raises(self) -> None:
        event = threading.Event()
        cancelled: List[str] = []

        def cancel() -> Task:
            cancelled.append("t-1")
            return task("cancelled")

        def on_progress(steps: List[StepSummary], current: Task) -> None:
            event.set()

        fetch = Script(task("running", 1), task("running", 2))
        with self.assertRaises(RunCancelledError) as caught:
            self.wait(fetch, cancel_event=event, on_progress=on_progress, cancel=cancel)
        self.assertEqual(cancelled, ["t-1"])
        self.assertEqual(fetch.calls, 1)
        assert caught.exception.task is not None
        self.assertEqual(caught.exception.task.status, "cancelled")
        self.assertIsNone(caught.exception.cancel_error)

    def test_cancel_without_cancelling_the_task(self) -> None:
        event = threading.Event()
        event.set()
        with self.assertRaises(RunCancelledError) as caught:
            self.wait(Script(task("running")), cancel_event=event)
        self.assertIsNone(caught.exception.task)

    def test_cancel_of_a_task_that_just_finished(self) -> None:
        event = threading.Event()
        event.set()

        def cancel() -> Task:
            raise ConflictError("Task already finished with status completed", status=409)

        with self.assertRaises(RunCancelledError) as caught:
            self.wait(Script(task("running")), cancel_event=event, cancel=cancel)
        self.assertIsNone(caught.exception.cancel_error)

    def test_a_failed_cancel_request_is_reported(self) -> None:
        event = threading.Event()
        event.set()
        failure = APIConnectionError("reset")

        def cancel() -> Task:
            raise failure

        with self.assertRaises(RunCancelledError) as caught:
            self.wait(Script(task("running")), cancel_event=event, cancel=cancel)
        self.assertIs(caught.exception.cancel_error, failure)
        self.assertIn("reset", str(caught.exception))

    def test_an_interrupted_read_is_a_cancellation(self) -> None:
        event = threading.Event()
        with self.assertRaises(RunCancelledError):
            self.wait(Script(Interrupted(None)), cancel_event=event)

    def test_a_real_event_set_from_another_thread_stops_a_real_sleep(self) -> None:
        event = threading.Event()
        timer = threading.Timer(0.05, event.set)
        timer.start()
        try:
            with self.assertRaises(RunCancelledError):
                wait_for_task("t-1", Script(task("running")), timeout=30.0, cancel_event=event, schedule=PollSchedule(initial=10.0))
        finally:
            timer.cancel()


if __name__ == "__main__":
    unittest.main()
