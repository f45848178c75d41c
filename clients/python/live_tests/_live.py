"""Settings of the live tests, from the environment that test/clients/python.test.ts sets.

These tests talk to a real local runtime over HTTP (workers on, Chromium, the scripted
model server, fixture sites); they are not meant to run alone. A missing setting is an
error, never a skip.
"""

from __future__ import annotations

import os
import sys
from typing import Dict

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)

from browser_task_service import Client  # noqa: E402 - after the sys.path line above


def setting(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(
            f"{name} is not set: the live tests run from `npx vitest run test/clients/python.test.ts`, "
            "which starts the local runtime and passes its address and credentials"
        )
    return value


def settings(*names: str) -> Dict[str, str]:
    return {name: setting(name) for name in names}


def client(**overrides: str) -> Client:
    """A client of the runtime under test, with its bootstrap key and a dashboard token."""
    options = {"api_key": setting("BTS_API_KEY"), "dashboard_token": setting("BTS_DASHBOARD_TOKEN")}
    options.update(overrides)
    return Client(setting("BTS_BASE_URL"), **options)
