"""Python client for the Browser Task Service REST API (standard library only).

    from browser_task_service import Client

    client = Client("http://127.0.0.1:3000", api_key="bts_live_…")
    task = client.tasks.run("user-1", "What is the main heading?", start_url="https://example.com")
    print(task.status, task.result)
"""

from ._http import RetryPolicy
from ._polling import PollSchedule, ProgressCallback
from ._version import __version__
from .client import (
    CREDENTIAL_FIELDS,
    DEFAULT_RUN_TIMEOUT,
    ApiKeys,
    Client,
    Credentials,
    Design,
    Sessions,
    Tasks,
)
from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    BrowserTaskServiceError,
    ConfigurationError,
    ConflictError,
    MethodNotAllowedError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    RunCancelledError,
    RunTimeoutError,
    ServerError,
    TooManyRequestsError,
)
from .models import (
    EXTRACTORS,
    TERMINAL_STATUSES,
    ApiKey,
    CreatedApiKey,
    CredentialStatus,
    DesignResult,
    DesignSubmitted,
    Session,
    SessionSummary,
    StepSummary,
    Task,
    TaskSubmitted,
)

__all__ = [
    "__version__",
    "Client",
    "Tasks",
    "Sessions",
    "Credentials",
    "Design",
    "ApiKeys",
    "RetryPolicy",
    "PollSchedule",
    "ProgressCallback",
    "CREDENTIAL_FIELDS",
    "DEFAULT_RUN_TIMEOUT",
    "EXTRACTORS",
    "TERMINAL_STATUSES",
    "Task",
    "StepSummary",
    "DesignResult",
    "SessionSummary",
    "Session",
    "CredentialStatus",
    "ApiKey",
    "CreatedApiKey",
    "TaskSubmitted",
    "DesignSubmitted",
    "BrowserTaskServiceError",
    "ConfigurationError",
    "APIError",
    "APIConnectionError",
    "APITimeoutError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "MethodNotAllowedError",
    "ConflictError",
    "PayloadTooLargeError",
    "TooManyRequestsError",
    "QuotaExceededError",
    "RateLimitError",
    "ServerError",
    "RunTimeoutError",
    "RunCancelledError",
]
