"""payrpc: the Python client of the payrpc JSON-RPC gateway.

>>> import payrpc
>>> with payrpc.Client.spawn() as client:
...     client.call("rpc.health")
{'status': 'SERVING'}

:class:`Client` is synchronous (a reader thread), :class:`AsyncClient` is asyncio; both open
with ``spawn`` (a child ``payrpc serve --stdio``), ``connect_tcp`` or ``connect_unix``, and
expose the generated service proxies as attributes (``client.tatra.fetch_setup_data()``)
and the sandbox's call journal as ``client.calls`` (:mod:`payrpc.calls`).
"""

from __future__ import annotations

from ._core import Notification, Request
from .aio import AsyncClient, AsyncNotificationStream
from .client import Client, NotificationStream
from .errors import (
    CallsNotSeenError,
    CallVerificationError,
    Cancelled,
    ConnectionClosed,
    DeadlineExceeded,
    DomainError,
    IdempotencyConflict,
    InternalError,
    InvalidParams,
    InvalidRequest,
    InvalidResult,
    StoreFull,
    StoreUnavailable,
    MethodNotFound,
    Overloaded,
    ParseError,
    PayRpcError,
    RpcError,
    SandboxOnly,
    ShuttingDown,
    Timeout,
    Unauthenticated,
    ValidationError,
    Violation,
)
from .schema import SchemaSet

__version__ = "0.1.0"

__all__ = [
    "AsyncClient",
    "AsyncNotificationStream",
    "CallsNotSeenError",
    "CallVerificationError",
    "Cancelled",
    "Client",
    "ConnectionClosed",
    "DeadlineExceeded",
    "DomainError",
    "IdempotencyConflict",
    "InternalError",
    "InvalidParams",
    "InvalidRequest",
    "InvalidResult",
    "StoreFull",
    "StoreUnavailable",
    "MethodNotFound",
    "Notification",
    "NotificationStream",
    "Overloaded",
    "ParseError",
    "PayRpcError",
    "Request",
    "RpcError",
    "SandboxOnly",
    "SchemaSet",
    "ShuttingDown",
    "Timeout",
    "Unauthenticated",
    "ValidationError",
    "Violation",
]
