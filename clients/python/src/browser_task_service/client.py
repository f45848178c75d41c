"""The client: ``Client(base_url, api_key=…)`` and its resources.

``client.tasks``, ``client.sessions``, ``client.credentials`` and ``client.design`` use the
API key; ``client.api_keys`` uses the dashboard token.
"""

from __future__ import annotations

import platform
import threading
import urllib.parse
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._http import Response, RetryPolicy, Transport
from ._polling import PollSchedule, ProgressCallback, wait_for_task
from ._version import __version__
from .errors import ConfigurationError
from .models import (
    ApiKey,
    CreatedApiKey,
    CredentialStatus,
    DesignSubmitted,
    Session,
    SessionSummary,
    Task,
    TaskSubmitted,
)

__all__ = [
    "Client",
    "Tasks",
    "Sessions",
    "Credentials",
    "Design",
    "ApiKeys",
    "CREDENTIAL_FIELDS",
    "DEFAULT_RUN_TIMEOUT",
]

#: ``run()``/``wait()`` default: an agent run's 3-minute budget plus queueing and slack.
DEFAULT_RUN_TIMEOUT = 300.0

#: Credential fields (SPEC §2.4): Python keyword → API field name.
CREDENTIAL_FIELDS: Dict[str, str] = {
    "twitter_auth_token": "twitterAuthToken",
    "twitter_ct0": "twitterCt0",
    "reddit_session": "redditSession",
    "tiktok_session_id": "tiktokSessionId",
    "tiktok_csrf_token": "tiktokCsrfToken",
    "instagram_session_id": "instagramSessionId",
    "instagram_csrf_token": "instagramCsrfToken",
    "instagram_ds_user_id": "instagramDsUserId",
}


def _segment(value: str, what: str) -> str:
    if not isinstance(value, str) or value == "":
        raise ConfigurationError(f"{what} must be a non-empty string")
    return urllib.parse.quote(value, safe="")


def _lookup(lookup: Mapping[str, Any]) -> Dict[str, Any]:
    """The ``lookup`` object as the API names it (``site``, ``operation``, ``params``)."""
    if not isinstance(lookup, Mapping):
        raise ConfigurationError("lookup must be a mapping with site, operation and params")
    body = dict(lookup)
    for key in ("site", "operation"):
        if not isinstance(body.get(key), str) or not body[key]:
            raise ConfigurationError(f"lookup needs a non-empty {key!r}")
    params = body.get("params")
    if params is not None:
        if not isinstance(params, Mapping):
            raise ConfigurationError("lookup params must be a mapping")
        body["params"] = dict(params)
    return body


def _object(response: Response) -> Dict[str, Any]:
    data = response.data
    if not isinstance(data, dict):
        raise TypeError(f"expected a JSON object from the service, got {type(data).__name__}")
    return data


class _Resource:
    def __init__(self, client: "Client") -> None:
        self._client = client


class Tasks(_Resource):
    """Agent tasks: ``/v1/tasks``."""

    def create(
        self,
        end_user_id: str,
        task: Optional[str] = None,
        *,
        session_id: Optional[str] = None,
        start_url: Optional[str] = None,
        schema: Optional[Mapping[str, Any]] = None,
        max_steps: Optional[int] = None,
        include_html_dump: Optional[bool] = None,
        lookup: Optional[Mapping[str, Any]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
    ) -> TaskSubmitted:
        """``POST /v1/tasks``: submits a task; it runs in the background (status ``pending``).

        Give ``task`` (an agent task), or ``lookup`` (a model-free lookup), or both.

        Args:
            end_user_id: your label for the end-user (at most 256 characters).
            task: the natural-language task; may be omitted when ``lookup`` is given.
            session_id: continue this session (a previous task's ``session_id``).
            start_url: the page to start from (skips URL discovery).
            schema: a JSON Schema; the completed task then carries ``structured_content``.
            max_steps: step limit (the service uses ``min(max_steps, 25)``).
            include_html_dump: put the final page's HTML in ``html_dump``.
            lookup: ``{"site": "npm", "operation": "package", "params": {"name": "zod"}}``:
                run one knowledge-graph lookup recipe directly, with no model and no
                browser; the completed task carries the mapped fields in ``result`` and
                ``structured_content``. ``params`` defaults to ``{}`` on the service. This
                is the service's addition to the spec.
            extra_body: more request fields, sent as given (for fields newer than this client).
        """
        if task is None and lookup is None:
            raise ConfigurationError("tasks.create needs a task, a lookup, or both")
        body: Dict[str, Any] = {"endUserId": end_user_id}
        optional = {
            "task": task,
            "sessionId": session_id,
            "startUrl": start_url,
            "schema": dict(schema) if schema is not None else None,
            "maxSteps": max_steps,
            "include_html_dump": include_html_dump,
            "lookup": _lookup(lookup) if lookup is not None else None,
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        if extra_body:
            body.update(extra_body)
        response = self._client._request("POST", "/v1/tasks", body=body)
        return TaskSubmitted.from_dict(_object(response))

    def get(self, task_id: str) -> Task:
        """``GET /v1/tasks/{taskId}``: the task record (retried on 429/5xx/network errors)."""
        response = self._client._request("GET", f"/v1/tasks/{_segment(task_id, 'task_id')}")
        return Task.from_dict(_object(response))

    def list(self, limit: Optional[int] = None) -> List[SessionSummary]:
        """``GET /v1/tasks?limit=N``: the caller's sessions, most recent first.

        ``limit`` defaults to 50 on the service and is capped at 100; there is no paging.
        """
        response = self._client._request("GET", "/v1/tasks", query={"limit": limit})
        sessions = _object(response).get("sessions")
        return [SessionSummary.from_dict(s) for s in sessions if isinstance(s, Mapping)] if isinstance(sessions, list) else []

    def cancel(self, task_id: str) -> Task:
        """``POST /v1/tasks/{taskId}/cancel`` (a service addition to the spec).

        A pending task is cancelled at once: the returned task has status ``cancelled``.
        A running task stops at its next step: the returned task is still ``running`` and
        ``task.get("cancelRequested")`` is ``True``; poll (``wait``) until ``cancelled``.
        A finished task raises ``ConflictError`` (409).
        """
        response = self._client._request("POST", f"/v1/tasks/{_segment(task_id, 'task_id')}/cancel")
        return Task.from_dict(_object(response))

    def wait(
        self,
        task_id: str,
        *,
        timeout: Optional[float] = DEFAULT_RUN_TIMEOUT,
        cancel_event: Optional[threading.Event] = None,
        on_progress: Optional[ProgressCallback] = None,
        cancel_task: bool = True,
    ) -> Task:
        """Polls an existing task until it is ``completed``, ``failed`` or ``cancelled``.

        Reads at once, then after 0.5 s, growing to the recommended 2 s (with jitter).

        Args:
            timeout: seconds before ``RunTimeoutError`` (carrying the last task read);
                ``None`` waits without limit. The task keeps running on the service.
            cancel_event: when set, waiting stops with ``RunCancelledError``; with
                ``cancel_task`` (the default) the task is also cancelled on the service.
            on_progress: ``on_progress(new_steps, task)`` with only the step summaries that
                appeared since the previous call.

        A ``failed`` task is returned, not raised: check ``task.status`` and ``task.error``.
        """
        return self._client._wait(
            task_id,
            timeout=timeout,
            cancel_event=cancel_event,
            on_progress=on_progress,
            cancel_task=cancel_task,
            initial_delay=0.0,
        )

    def run(
        self,
        end_user_id: str,
        task: Optional[str] = None,
        *,
        session_id: Optional[str] = None,
        start_url: Optional[str] = None,
        schema: Optional[Mapping[str, Any]] = None,
        max_steps: Optional[int] = None,
        include_html_dump: Optional[bool] = None,
        lookup: Optional[Mapping[str, Any]] = None,
        extra_body: Optional[Mapping[str, Any]] = None,
        timeout: Optional[float] = DEFAULT_RUN_TIMEOUT,
        cancel_event: Optional[threading.Event] = None,
        on_progress: Optional[ProgressCallback] = None,
        cancel_task: bool = True,
    ) -> Task:
        """Submits a task (as ``create``) and waits for it (as ``wait``); returns the final task."""
        submitted = self.create(
            end_user_id,
            task,
            session_id=session_id,
            start_url=start_url,
            schema=schema,
            max_steps=max_steps,
            include_html_dump=include_html_dump,
            lookup=lookup,
            extra_body=extra_body,
        )
        return self._client._wait(
            submitted.task_id,
            timeout=timeout,
            cancel_event=cancel_event,
            on_progress=on_progress,
            cancel_task=cancel_task,
            initial_delay=None,
        )


class Sessions(_Resource):
    """Multi-turn sessions: ``/v1/sessions``."""

    def get(self, session_id: str) -> Session:
        """``GET /v1/sessions/{sessionId}``: the session's tasks, oldest first."""
        response = self._client._request("GET", f"/v1/sessions/{_segment(session_id, 'session_id')}")
        return Session.from_dict(_object(response))


class Credentials(_Resource):
    """Per-end-user platform cookies: ``/v1/end-users/{endUserId}/credentials``."""

    @staticmethod
    def _path(end_user_id: str) -> str:
        return f"/v1/end-users/{_segment(end_user_id, 'end_user_id')}/credentials"

    def put(
        self,
        end_user_id: str,
        credentials: Optional[Mapping[str, str]] = None,
        *,
        twitter_auth_token: Optional[str] = None,
        twitter_ct0: Optional[str] = None,
        reddit_session: Optional[str] = None,
        tiktok_session_id: Optional[str] = None,
        tiktok_csrf_token: Optional[str] = None,
        instagram_session_id: Optional[str] = None,
        instagram_csrf_token: Optional[str] = None,
        instagram_ds_user_id: Optional[str] = None,
    ) -> None:
        """``PUT``: stores (encrypted) the given fields; fields not given keep their values.

        Pass fields as keywords (``reddit_session="…"``) or as a mapping with the API's names
        (``{"redditSession": "…"}``); keywords win. No recognized field is a ``BadRequestError``.
        """
        body: Dict[str, Any] = dict(credentials or {})
        keywords = {
            "twitter_auth_token": twitter_auth_token,
            "twitter_ct0": twitter_ct0,
            "reddit_session": reddit_session,
            "tiktok_session_id": tiktok_session_id,
            "tiktok_csrf_token": tiktok_csrf_token,
            "instagram_session_id": instagram_session_id,
            "instagram_csrf_token": instagram_csrf_token,
            "instagram_ds_user_id": instagram_ds_user_id,
        }
        for name, value in keywords.items():
            if value is not None:
                body[CREDENTIAL_FIELDS[name]] = value
        self._client._request("PUT", self._path(end_user_id), body=body)

    def get(self, end_user_id: str) -> CredentialStatus:
        """``GET``: which platforms are connected, as booleans (never the values)."""
        response = self._client._request("GET", self._path(end_user_id))
        return CredentialStatus.from_dict(_object(response))

    def delete(self, end_user_id: str, fields: Optional[Iterable[str]] = None) -> None:
        """``DELETE``: clears the listed fields, or every credential when ``fields`` is omitted.

        Field names may be the API's (``redditSession``) or the Python ones (``reddit_session``).
        Irreversible. The end-user's task history stays readable.
        """
        body: Optional[Dict[str, Any]] = None
        if fields is not None:
            body = {"fields": [CREDENTIAL_FIELDS.get(f, f) for f in fields]}
        self._client._request("DELETE", self._path(end_user_id), body=body)


class Design(_Resource):
    """Design extraction: ``/v1/design/extract``."""

    def extract(
        self,
        url: str,
        end_user_id: str,
        extractors: Union[str, Sequence[str], None] = None,
        enable_ip_rotation: bool = False,
    ) -> DesignSubmitted:
        """Submits a design extraction of ``url``; it runs in the background.

        ``extractors``: any of ``images``, ``fonts``, ``colors``, ``icons``, ``tokens``,
        ``logo``; ``None`` or empty runs all six. A single extractor (a string, or a list of
        one) uses the path alias ``POST /v1/design/extract/{extractor}``.
        ``enable_ip_rotation`` routes the browser through the service's proxy pool.
        """
        names: Optional[List[str]]
        if extractors is None:
            names = None
        elif isinstance(extractors, str):
            names = [extractors]
        else:
            names = list(extractors)
        body: Dict[str, Any] = {"url": url, "endUserId": end_user_id, "enableIpRotation": bool(enable_ip_rotation)}
        if names is not None and len(names) == 1:
            path = f"/v1/design/extract/{_segment(names[0], 'extractor')}"
        else:
            path = "/v1/design/extract"
            if names:
                body["extractors"] = names
        response = self._client._request("POST", path, body=body)
        return DesignSubmitted.from_dict(_object(response))

    def run(
        self,
        url: str,
        end_user_id: str,
        extractors: Union[str, Sequence[str], None] = None,
        enable_ip_rotation: bool = False,
        *,
        timeout: Optional[float] = DEFAULT_RUN_TIMEOUT,
        cancel_event: Optional[threading.Event] = None,
        on_progress: Optional[ProgressCallback] = None,
        cancel_task: bool = True,
    ) -> Task:
        """Submits (as ``extract``) and waits (as ``client.tasks.wait``); the result is in ``task.design``."""
        submitted = self.extract(url, end_user_id, extractors, enable_ip_rotation)
        return self._client._wait(
            submitted.task_id,
            timeout=timeout,
            cancel_event=cancel_event,
            on_progress=on_progress,
            cancel_task=cancel_task,
            initial_delay=None,
        )


class ApiKeys(_Resource):
    """API key management: dashboard only, authenticated with the dashboard token."""

    def create(self, label: Optional[str] = None) -> CreatedApiKey:
        """``POST /v1/api-keys``: mints a key. ``api_key`` is the secret, shown only now."""
        body = {"label": label} if label is not None else {}
        response = self._client._request("POST", "/v1/api-keys", body=body, auth="dashboard")
        return CreatedApiKey.from_dict(_object(response))

    def list(self) -> List[ApiKey]:
        """``GET /v1/api-keys``: the business's keys, revoked ones included."""
        response = self._client._request("GET", "/v1/api-keys", auth="dashboard")
        keys = _object(response).get("keys")
        return [ApiKey.from_dict(k) for k in keys if isinstance(k, Mapping)] if isinstance(keys, list) else []

    def revoke(self, key_id: str) -> None:
        """``DELETE /v1/api-keys/{keyId}``: the key answers 403 from the next request on."""
        self._client._request("DELETE", f"/v1/api-keys/{_segment(key_id, 'key_id')}", auth="dashboard")


def _default_user_agent() -> str:
    return f"browser-task-service-python/{__version__} (Python {platform.python_version()})"


class Client:
    """A client of one Browser Task Service deployment. Safe to share between threads.

    Args:
        base_url: the API address, e.g. ``http://127.0.0.1:3000`` (a trailing ``/v1`` is
            accepted and dropped).
        api_key: a ``bts_live_…`` key, for tasks, sessions, credentials and design.
        dashboard_token: a dashboard session token, for ``api_keys`` only.
        timeout: seconds per HTTP request.
        max_retries: retries of a failed GET (429, 500/502/503/504, network errors);
            POST, PUT and DELETE are never retried.
        user_agent: the ``User-Agent`` header.
        retry_policy: full control of the retry delays (``max_retries`` is then ignored).
        poll_schedule: the intervals of ``run()``/``wait()``.
    """

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        dashboard_token: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        user_agent: Optional[str] = None,
        *,
        retry_policy: Optional[RetryPolicy] = None,
        poll_schedule: Optional[PollSchedule] = None,
    ) -> None:
        parsed = urllib.parse.urlsplit(base_url or "")
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ConfigurationError(f"base_url must be an http:// or https:// URL, got {base_url!r}")
        if parsed.query or parsed.fragment:
            raise ConfigurationError("base_url must not have a query or fragment")
        path = parsed.path.rstrip("/")
        if path.endswith("/v1"):
            path = path[: -len("/v1")]
        if timeout <= 0:
            raise ConfigurationError("timeout must be positive")
        if max_retries < 0:
            raise ConfigurationError("max_retries must be 0 or more")
        self.base_url = f"{parsed.scheme}://{parsed.netloc}{path}"
        self.api_key = api_key
        self.dashboard_token = dashboard_token
        self.retry_policy = retry_policy or RetryPolicy(max_retries=max_retries)
        self.poll_schedule = poll_schedule or PollSchedule()
        self._transport = Transport(
            self.base_url,
            timeout=timeout,
            retry_policy=self.retry_policy,
            user_agent=user_agent or _default_user_agent(),
        )
        self.tasks = Tasks(self)
        self.sessions = Sessions(self)
        self.credentials = Credentials(self)
        self.design = Design(self)
        self.api_keys = ApiKeys(self)

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r})"

    def _token(self, auth: str) -> str:
        if auth == "dashboard":
            if not self.dashboard_token:
                raise ConfigurationError(
                    "API key management needs a dashboard token: Client(base_url, dashboard_token=…); "
                    "an API key cannot create, list or revoke keys"
                )
            return self.dashboard_token
        if not self.api_key:
            raise ConfigurationError("this call needs an API key: Client(base_url, api_key='bts_live_…')")
        return self.api_key

    def _request(
        self,
        method: str,
        path: str,
        *,
        body: Optional[Mapping[str, Any]] = None,
        query: Optional[Mapping[str, Any]] = None,
        auth: str = "api_key",
        deadline: Optional[float] = None,
        cancel_event: Optional[threading.Event] = None,
    ) -> Response:
        return self._transport.request(
            method,
            path,
            token=self._token(auth),
            body=body,
            query=query,
            deadline=deadline,
            cancel_event=cancel_event,
        )

    def _wait(
        self,
        task_id: str,
        *,
        timeout: Optional[float],
        cancel_event: Optional[threading.Event],
        on_progress: Optional[ProgressCallback],
        cancel_task: bool,
        initial_delay: Optional[float],
    ) -> Task:
        path = f"/v1/tasks/{_segment(task_id, 'task_id')}"

        def fetch(deadline: Optional[float], event: Optional[threading.Event]) -> Task:
            response = self._request("GET", path, deadline=deadline, cancel_event=event)
            return Task.from_dict(_object(response))

        return wait_for_task(
            task_id,
            fetch,
            timeout=timeout,
            cancel_event=cancel_event,
            on_progress=on_progress,
            cancel=(lambda: self.tasks.cancel(task_id)) if cancel_task else None,
            schedule=self.poll_schedule,
            initial_delay=self.poll_schedule.interval(0) if initial_delay is None else initial_delay,
        )
