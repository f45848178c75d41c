"""Test helpers: puts ``src`` on ``sys.path`` and runs small scripted HTTP servers.

The scripted server is a plain loopback ``http.server`` that answers exactly what a test
queues. It exercises the client's HTTP handling (status mapping, retries, headers); it
is not a model of the Browser Task Service, whose behaviour the integration tests check.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(PACKAGE_ROOT, "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)


@dataclass
class Reply:
    status: int = 200
    body: Any = field(default_factory=dict)
    headers: Dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: Optional[bytes] = None


@dataclass
class Seen:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes


class ScriptedServer:
    """Answers queued replies in order (the last one repeats) and records every request."""

    def __init__(self, *replies: Reply) -> None:
        self.replies: List[Reply] = list(replies) or [Reply()]
        self.requests: List[Seen] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                with server._lock:
                    server.requests.append(
                        Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    reply = server.replies.pop(0) if len(server.replies) > 1 else server.replies[0]
                if reply.delay:
                    threading.Event().wait(reply.delay)
                payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode("utf-8")
                try:
                    self.send_response(reply.status)
                    if reply.raw is None:
                        self.send_header("content-type", "application/json")
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_PUT = do_DELETE = _answer

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def json_bodies(self) -> List[Any]:
        return [json.loads(r.body) if r.body else None for r in self.requests]

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


class RecordingSleep:
    """A ``sleep(seconds, cancel_event)`` that records and returns at once."""

    def __init__(self, cancel_after: Optional[int] = None) -> None:
        self.calls: List[float] = []
        self.cancel_after = cancel_after

    def __call__(self, seconds: float, cancel_event: Optional[threading.Event]) -> bool:
        self.calls.append(seconds)
        if self.cancel_after is not None and len(self.calls) >= self.cancel_after:
            return True
        return bool(cancel_event is not None and cancel_event.is_set())


def free_port() -> Tuple[str, int]:
    """An address nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return "127.0.0.1", s.getsockname()[1]
