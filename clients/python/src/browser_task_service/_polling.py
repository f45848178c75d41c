"""Waiting for a task: the poll schedule, progress reporting, timeout and cancellation.

Kept apart from HTTP so the logic is plain functions of a ``fetch`` callable.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Callable, List, Optional

from ._http import DeadlineExceeded, Interrupted, SleepFn, interruptible_sleep
from .errors import APIError, ConflictError, RunCancelledError, RunTimeoutError
from .models import StepSummary, Task

__all__ = ["PollSchedule", "ProgressCallback", "ProgressTracker", "wait_for_task"]

#: Receives the steps that appeared since the previous call, and the task as just read.
ProgressCallback = Callable[[List[StepSummary], Task], None]

#: Reads the task: ``fetch(deadline, cancel_event)``.
FetchFn = Callable[[Optional[float], Optional[threading.Event]], Task]


@dataclass(frozen=True)
class PollSchedule:
    """Poll intervals: ``initial`` seconds, times ``factor`` per poll, up to ``maximum``.

    The defaults start at 0.5 s and settle on the service's recommended 2 s after four
    polls. Each interval is scaled by a random factor in ``[1 - jitter, 1 + jitter]`` so
    many waiting clients do not poll in lockstep.
    """

    initial: float = 0.5
    factor: float = 1.5
    maximum: float = 2.0
    jitter: float = 0.1

    def interval(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        """The wait after poll number ``attempt`` (0-based)."""
        base = min(self.maximum, self.initial * (self.factor ** max(0, attempt)))
        return base * (1.0 + self.jitter * (2.0 * rng() - 1.0))


class ProgressTracker:
    """Hands out each step summary once, in order, however often the task is read.

    Steps are told apart by their number ``n`` (1, 2, …): a read that repeats steps
    already reported, or that lags behind a previous read, yields nothing new.
    """

    def __init__(self) -> None:
        self.seen = 0

    def new_steps(self, task: Task) -> List[StepSummary]:
        fresh = [s for s in task.step_summaries if s.n > self.seen]
        if fresh:
            self.seen = max(s.n for s in fresh)
        return fresh


def wait_for_task(
    task_id: str,
    fetch: FetchFn,
    *,
    timeout: Optional[float],
    cancel_event: Optional[threading.Event] = None,
    on_progress: Optional[ProgressCallback] = None,
    cancel: Optional[Callable[[], Task]] = None,
    schedule: PollSchedule = PollSchedule(),
    initial_delay: float = 0.0,
    sleep: SleepFn = interruptible_sleep,
    clock: Callable[[], float] = time.monotonic,
    rng: Callable[[], float] = random.random,
) -> Task:
    """Polls ``fetch`` until the task is terminal and returns it.

    - ``timeout`` (seconds, ``None`` for no limit) raises ``RunTimeoutError`` with the last
      task read; the task itself keeps running on the service.
    - ``cancel_event`` set: ``cancel()`` is called (if given; it asks the service to cancel
      the task) and ``RunCancelledError`` is raised.
    - ``on_progress`` gets only the new step summaries of each read, in order.
    """
    deadline = None if timeout is None else clock() + timeout
    tracker = ProgressTracker()
    last: Optional[Task] = None

    def cancelled() -> RunCancelledError:
        task = last
        error: Optional[APIError] = None
        if cancel is not None:
            try:
                task = cancel()
            except ConflictError:
                pass  # it had already finished: nothing left to cancel
            except APIError as err:
                error = err
        return RunCancelledError(task_id, task=task, cancel_error=error)

    def timed_out() -> RunTimeoutError:
        return RunTimeoutError(task_id, timeout if timeout is not None else 0.0, task=last)

    delay = max(0.0, initial_delay)
    attempt = 0
    while True:
        if delay > 0:
            if deadline is not None:
                delay = min(delay, max(0.0, deadline - clock()))
            if sleep(delay, cancel_event):
                raise cancelled()
        if cancel_event is not None and cancel_event.is_set():
            raise cancelled()
        try:
            task = fetch(deadline, cancel_event)
        except Interrupted as err:
            raise cancelled() from err.last_error
        except DeadlineExceeded as err:
            raise timed_out() from err.last_error
        last = task
        if on_progress is not None:
            fresh = tracker.new_steps(task)
            if fresh:
                on_progress(fresh, task)
        if task.is_terminal:
            return task
        if deadline is not None and clock() >= deadline:
            raise timed_out()
        delay = schedule.interval(attempt, rng)
        attempt += 1
