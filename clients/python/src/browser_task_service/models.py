"""Typed results. Attribute names are the API's field names in snake_case.

Every model keeps the JSON object it was read from in ``raw``. Fields the service adds
later (it may: SPEC §9) are therefore never lost: ``model.extra`` holds the ones this
version does not know, and ``model.get("someField")`` reads any field by its API name.
Timestamps stay ISO 8601 strings, exactly as the API sends them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, FrozenSet, List, Mapping, Optional, Union

__all__ = [
    "TERMINAL_STATUSES",
    "EXTRACTORS",
    "StepSummary",
    "DesignResult",
    "Task",
    "SessionSummary",
    "Session",
    "CredentialStatus",
    "ApiKey",
    "CreatedApiKey",
    "TaskSubmitted",
    "DesignSubmitted",
]

#: Statuses after which a task never changes again.
TERMINAL_STATUSES: FrozenSet[str] = frozenset({"completed", "failed", "cancelled"})

#: The design extractors, in the service's order.
EXTRACTORS = ("images", "fonts", "colors", "icons", "tokens", "logo")

JSON = Dict[str, Any]


def _str(data: Mapping[str, Any], key: str, default: str = "") -> str:
    value = data.get(key)
    return value if isinstance(value, str) else default


def _opt_str(data: Mapping[str, Any], key: str) -> Optional[str]:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return int(value)


def _num(data: Mapping[str, Any], key: str) -> Union[int, float]:
    """A JSON number as sent (``int`` when it has no fraction); 0 when absent."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return value


def _opt_dict(data: Mapping[str, Any], key: str) -> Optional[JSON]:
    value = data.get(key)
    return dict(value) if isinstance(value, Mapping) else None


def _str_list(data: Mapping[str, Any], key: str) -> List[str]:
    value = data.get(key)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _object(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise TypeError(f"expected a JSON object for {what}, got {type(data).__name__}")
    return data


class _Model:
    """Behaviour shared by the models: raw access and the unknown-field view."""

    _fields: ClassVar[FrozenSet[str]] = frozenset()
    raw: JSON

    @property
    def extra(self) -> JSON:
        """Fields of ``raw`` this version of the client does not model."""
        return {k: v for k, v in self.raw.items() if k not in self._fields}

    def get(self, key: str, default: Any = None) -> Any:
        """Any field of the API object by its API (camelCase) name."""
        return self.raw.get(key, default)

    def to_dict(self) -> JSON:
        """The API object as received (a shallow copy)."""
        return dict(self.raw)


@dataclass
class StepSummary(_Model):
    """One step of a task's trace (``stepSummaries[]``)."""

    _fields: ClassVar[FrozenSet[str]] = frozenset({"n", "type", "msg", "success"})

    n: int
    type: str
    msg: str
    success: bool
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "StepSummary":
        data = _object(data, "a step summary")
        return cls(
            n=_int(data, "n"),
            type=_str(data, "type"),
            msg=_str(data, "msg"),
            success=data.get("success") is True,
            raw=dict(data),
        )


@dataclass
class DesignResult(_Model):
    """The ``design`` field of a design-extraction task (SPEC §2.3).

    ``results`` has one key per extractor that ran (``images``, ``fonts``, ``colors``,
    ``icons``, ``tokens``, ``logo``), each in the shape SPEC §2.3 gives.
    """

    _fields: ClassVar[FrozenSet[str]] = frozenset({"url", "extractors", "durationMs", "results"})

    url: str
    extractors: List[str]
    duration_ms: Union[int, float]
    results: JSON
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "DesignResult":
        data = _object(data, "a design result")
        return cls(
            url=_str(data, "url"),
            extractors=_str_list(data, "extractors"),
            duration_ms=_num(data, "durationMs"),
            results=_opt_dict(data, "results") or {},
            raw=dict(data),
        )


@dataclass
class Task(_Model):
    """A task record (SPEC §2.1), agent or design.

    ``result`` is a string for most tasks and a JSON object for structured results;
    ``structured_content`` is set only when the request carried a ``schema`` or a ``lookup``,
    ``html_dump`` only with ``include_html_dump=True``, ``error`` only when ``failed``,
    ``design`` only on design tasks. ``usage`` (model tokens and cost) is a service addition.
    ``cancel_requested`` is set only on the answer to ``tasks.cancel`` (``None`` elsewhere).
    """

    _fields: ClassVar[FrozenSet[str]] = frozenset(
        {
            "taskId",
            "sessionId",
            "endUserId",
            "task",
            "status",
            "createdAt",
            "updatedAt",
            "totalSteps",
            "durationMs",
            "visitedUrls",
            "stepSummaries",
            "result",
            "structured_content",
            "html_dump",
            "error",
            "design",
            "usage",
            "cancelRequested",
        }
    )

    task_id: str
    session_id: str
    end_user_id: str
    task: str
    status: str
    created_at: str
    updated_at: str
    total_steps: int = 0
    duration_ms: Union[int, float] = 0
    visited_urls: List[str] = field(default_factory=list)
    step_summaries: List[StepSummary] = field(default_factory=list)
    result: Union[str, JSON, None] = None
    structured_content: Optional[JSON] = None
    html_dump: Optional[str] = field(default=None, repr=False)
    error: Optional[str] = None
    design: Optional[DesignResult] = field(default=None, repr=False)
    usage: Optional[JSON] = field(default=None, repr=False)
    cancel_requested: Optional[bool] = None
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @property
    def is_terminal(self) -> bool:
        """``completed``, ``failed`` or ``cancelled``: the record will not change again."""
        return self.status in TERMINAL_STATUSES

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Task":
        data = _object(data, "a task")
        result = data.get("result")
        steps = data.get("stepSummaries")
        design = data.get("design")
        return cls(
            task_id=_str(data, "taskId"),
            session_id=_str(data, "sessionId"),
            end_user_id=_str(data, "endUserId"),
            task=_str(data, "task"),
            status=_str(data, "status"),
            created_at=_str(data, "createdAt"),
            updated_at=_str(data, "updatedAt"),
            total_steps=_int(data, "totalSteps"),
            duration_ms=_num(data, "durationMs"),
            visited_urls=_str_list(data, "visitedUrls"),
            step_summaries=[StepSummary.from_dict(s) for s in steps if isinstance(s, Mapping)]
            if isinstance(steps, list)
            else [],
            result=result if isinstance(result, (str, dict)) else None,
            structured_content=_opt_dict(data, "structured_content"),
            html_dump=_opt_str(data, "html_dump"),
            error=_opt_str(data, "error"),
            design=DesignResult.from_dict(design) if isinstance(design, Mapping) else None,
            usage=_opt_dict(data, "usage"),
            cancel_requested=data["cancelRequested"] is True if "cancelRequested" in data else None,
            raw=dict(data),
        )


@dataclass
class SessionSummary(_Model):
    """One row of ``GET /v1/tasks``: a session with its first task (usable as a title)."""

    _fields: ClassVar[FrozenSet[str]] = frozenset(
        {"sessionId", "firstTask", "turnCount", "latestStatus", "latestCreatedAt", "latestUpdatedAt"}
    )

    session_id: str
    first_task: Optional[Task]
    turn_count: int
    latest_status: str
    latest_created_at: str
    latest_updated_at: str
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SessionSummary":
        data = _object(data, "a session summary")
        first = data.get("firstTask")
        return cls(
            session_id=_str(data, "sessionId"),
            first_task=Task.from_dict(first) if isinstance(first, Mapping) else None,
            turn_count=_int(data, "turnCount"),
            latest_status=_str(data, "latestStatus"),
            latest_created_at=_str(data, "latestCreatedAt"),
            latest_updated_at=_str(data, "latestUpdatedAt"),
            raw=dict(data),
        )


@dataclass
class Session(_Model):
    """``GET /v1/sessions/{sessionId}``: the session's tasks, oldest first."""

    _fields: ClassVar[FrozenSet[str]] = frozenset({"sessionId", "tasks"})

    session_id: str
    tasks: List[Task]
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Session":
        data = _object(data, "a session")
        tasks = data.get("tasks")
        return cls(
            session_id=_str(data, "sessionId"),
            tasks=[Task.from_dict(t) for t in tasks if isinstance(t, Mapping)] if isinstance(tasks, list) else [],
            raw=dict(data),
        )


@dataclass
class CredentialStatus(_Model):
    """Which platforms an end-user has credentials for (never the values themselves)."""

    _fields: ClassVar[FrozenSet[str]] = frozenset({"endUserId", "platforms"})

    end_user_id: str
    platforms: Dict[str, bool]
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    def is_connected(self, platform: str) -> bool:
        """``True`` when ``platform`` (``twitter``, ``reddit``, ``tiktok``, ``instagram``) is set.

        A platform absent from ``platforms`` counts as not connected (SPEC §2.4).
        """
        return self.platforms.get(platform) is True

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CredentialStatus":
        data = _object(data, "a credential status")
        platforms = data.get("platforms")
        return cls(
            end_user_id=_str(data, "endUserId"),
            platforms={str(k): v is True for k, v in platforms.items()} if isinstance(platforms, Mapping) else {},
            raw=dict(data),
        )


@dataclass
class ApiKey(_Model):
    """An API key as the dashboard lists it (the secret is never returned again)."""

    _fields: ClassVar[FrozenSet[str]] = frozenset({"keyId", "prefix", "label", "createdAt", "lastUsedAt", "revokedAt"})

    key_id: str
    prefix: str
    label: Optional[str]
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ApiKey":
        data = _object(data, "an API key")
        return cls(
            key_id=_str(data, "keyId"),
            prefix=_str(data, "prefix"),
            label=_opt_str(data, "label"),
            created_at=_str(data, "createdAt"),
            last_used_at=_opt_str(data, "lastUsedAt"),
            revoked_at=_opt_str(data, "revokedAt"),
            raw=dict(data),
        )


@dataclass
class CreatedApiKey(_Model):
    """A newly minted key. ``api_key`` is the secret: shown this once, kept out of ``repr``."""

    _fields: ClassVar[FrozenSet[str]] = frozenset({"businessId", "keyId", "apiKey", "prefix"})

    business_id: str
    key_id: str
    api_key: str = field(repr=False)
    prefix: str = ""
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CreatedApiKey":
        data = _object(data, "a created API key")
        return cls(
            business_id=_str(data, "businessId"),
            key_id=_str(data, "keyId"),
            api_key=_str(data, "apiKey"),
            prefix=_str(data, "prefix"),
            raw=dict(data),
        )


@dataclass
class TaskSubmitted(_Model):
    """The answer to ``POST /v1/tasks`` (status is always ``pending``)."""

    _fields: ClassVar[FrozenSet[str]] = frozenset({"taskId", "sessionId", "status", "createdAt"})

    task_id: str
    session_id: str
    status: str
    created_at: str
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TaskSubmitted":
        data = _object(data, "a task submission")
        return cls(
            task_id=_str(data, "taskId"),
            session_id=_str(data, "sessionId"),
            status=_str(data, "status"),
            created_at=_str(data, "createdAt"),
            raw=dict(data),
        )


@dataclass
class DesignSubmitted(_Model):
    """The answer to ``POST /v1/design/extract[/{extractor}]``.

    ``extractors`` are the ones that will actually run (unknown names were dropped).
    """

    _fields: ClassVar[FrozenSet[str]] = frozenset(
        {"taskId", "sessionId", "status", "createdAt", "extractors", "enableIpRotation"}
    )

    task_id: str
    session_id: str
    status: str
    created_at: str
    extractors: List[str]
    enable_ip_rotation: bool
    raw: JSON = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "DesignSubmitted":
        data = _object(data, "a design submission")
        return cls(
            task_id=_str(data, "taskId"),
            session_id=_str(data, "sessionId"),
            status=_str(data, "status"),
            created_at=_str(data, "createdAt"),
            extractors=_str_list(data, "extractors"),
            enable_ip_rotation=data.get("enableIpRotation") is True,
            raw=dict(data),
        )
