"""The exceptions of the payrpc client.

Every error a call can raise derives from :class:`PayRpcError`:

* :class:`RpcError` — the server answered with a JSON-RPC error. It has one subclass per
  gateway condition (:class:`MethodNotFound`, :class:`InvalidParams`, :class:`Cancelled`,
  :class:`DeadlineExceeded`, ...) and, in the generated modules ``payrpc.generated.errors.<service>``,
  one per domain error a method can return (``payrpc.generated.errors.tatra.WrongPin``).
* :class:`Timeout` — the call did not finish in time (raised locally; the server's own
  deadline error, :class:`DeadlineExceeded`, is a ``Timeout`` too).
* :class:`ValidationError` — params, a result or a notification broke its schema.
* :class:`ConnectionClosed` — the server went away while the call was in flight.
"""

from __future__ import annotations

import importlib
from typing import Any, Dict, List, Optional, Type


class PayRpcError(Exception):
    """The base of every exception this package raises."""


class ConnectionClosed(PayRpcError, ConnectionError):
    """The connection ended (the server exited or closed it) before the answer arrived."""


class Timeout(PayRpcError, TimeoutError):
    """A call took longer than its timeout."""


class Violation:
    """One schema violation: where (a JSON Pointer), which rule, and what is wrong."""

    __slots__ = ("pointer", "keyword", "message")

    def __init__(self, pointer: str, keyword: str, message: str) -> None:
        self.pointer = pointer
        self.keyword = keyword
        self.message = message

    def __repr__(self) -> str:
        return f"Violation(pointer={self.pointer!r}, keyword={self.keyword!r}, message={self.message!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Violation) and (self.pointer, self.keyword, self.message) == (
            other.pointer,
            other.keyword,
            other.message,
        )


class ValidationError(PayRpcError, ValueError):
    """A message broke its JSON Schema; raised before anything is sent for outgoing params.

    ``what`` says which message ("params of tatra.executePayment", "result of ..."),
    ``violations`` lists every problem and ``pointer`` is the JSON Pointer of the first.
    """

    def __init__(self, what: str, violations: List[Violation]) -> None:
        self.what = what
        self.violations = violations
        self.pointer = violations[0].pointer if violations else ""
        details = "; ".join(f"{v.pointer or '/'}: {v.message} ({v.keyword})" for v in violations)
        super().__init__(f"invalid {what}: {details}")


class RpcError(PayRpcError):
    """The server answered with a JSON-RPC error object ``{code, message, data}``."""

    #: The code this class stands for (None for the generic class).
    code_value: Optional[int] = None

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{code} {message}")
        self.code = code
        self.message = message
        self.data = data

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, data={self.data!r})"

    def __reduce__(self) -> Any:
        return (type(self), (self.code, self.message, self.data))


class ParseError(RpcError):
    """-32700: the server could not parse a line as JSON."""

    code_value = -32700


class InvalidRequest(RpcError):
    """-32600: the message is not a valid JSON-RPC request (or a line or batch was too large)."""

    code_value = -32600


class MethodNotFound(RpcError):
    """-32601: the server serves no method of that name."""

    code_value = -32601


class InvalidParams(RpcError):
    """-32602: the params broke the method's schema; ``violations`` lists every one."""

    code_value = -32602

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        raw = data.get("violations", []) if isinstance(data, dict) else []
        self.violations: List[Violation] = [
            Violation(str(v.get("pointer", "")), str(v.get("keyword", "")), str(v.get("message", "")))
            for v in raw
            if isinstance(v, dict)
        ]


class InternalError(RpcError):
    """-32603: the server failed; the cause is in its log."""

    code_value = -32603


class Cancelled(RpcError):
    """-32800: the request was cancelled with ``$/cancelRequest``."""

    code_value = -32800


class Unauthenticated(RpcError):
    """-32001: the connection must send ``rpc.hello`` with the server's token first."""

    code_value = -32001


class Overloaded(RpcError):
    """-32002: a server limit was reached; try again later."""

    code_value = -32002


class DeadlineExceeded(RpcError, Timeout):
    """-32003: the request's deadline passed on the server (also a :class:`Timeout`)."""

    code_value = -32003


class ShuttingDown(RpcError):
    """-32004: the server is draining and takes no new work."""

    code_value = -32004


class IdempotencyConflict(RpcError):
    """-32005: the idempotency key was used before with different params."""

    code_value = -32005


class SandboxOnly(RpcError):
    """-32006: the method exists only when the server runs in sandbox mode."""

    code_value = -32006


class InvalidResult(RpcError):
    """-32007: the server's own result or notification broke its schema."""

    code_value = -32007


class StoreFull(RpcError):
    """-32008: the store is full; the write was not made, reads still work, retry once space is freed."""

    code_value = -32008


class StoreUnavailable(RpcError):
    """-32009: the server's shared database (a PostgreSQL store) cannot be reached; retryable.

    The call was not done, or, when the database went away during its commit, its outcome is
    unknown (docs/deploy.md). Call again once the database is back. ``retryable`` is
    ``data.retryable`` (True).
    """

    code_value = -32009

    @property
    def retryable(self) -> bool:
        """Whether the server says a repeat of the call may succeed (``data.retryable``)."""
        return isinstance(self.data, dict) and self.data.get("retryable") is True


class DomainError(RpcError):
    """A service's own error: ``data`` carries ``type``, ``status`` (a gRPC status name) and fields."""

    #: The service whose error this is (set by the generated subclasses).
    service: Optional[str] = None

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        fields = data if isinstance(data, dict) else {}
        self.type: Optional[str] = fields.get("type")
        self.status: Optional[str] = fields.get("status")


GATEWAY_ERRORS: Dict[int, Type[RpcError]] = {
    cls.code_value: cls  # type: ignore[misc]
    for cls in (
        ParseError,
        InvalidRequest,
        MethodNotFound,
        InvalidParams,
        InternalError,
        Cancelled,
        Unauthenticated,
        Overloaded,
        DeadlineExceeded,
        ShuttingDown,
        IdempotencyConflict,
        SandboxOnly,
        InvalidResult,
        StoreFull,
        StoreUnavailable,
    )
}

_domain_errors: Optional[Dict[int, Type[RpcError]]] = None


def _domain_table() -> Dict[int, Type[RpcError]]:
    global _domain_errors
    if _domain_errors is None:
        try:
            index = importlib.import_module("payrpc.generated.errors._index")
            _domain_errors = dict(getattr(index, "DOMAIN_ERRORS", {}))
        except ImportError:  # no generated error modules yet
            _domain_errors = {}
    return _domain_errors


def error_class(code: int) -> Type[RpcError]:
    """The most specific exception class for an error code (``RpcError`` when none is known)."""
    cls = GATEWAY_ERRORS.get(code)
    if cls is None:
        cls = _domain_table().get(code)
    if cls is None:
        cls = DomainError if code <= -33000 else RpcError
    return cls


def from_wire(error: Any) -> RpcError:
    """Builds the exception for a JSON-RPC error object received from the server."""
    if not isinstance(error, dict):
        return RpcError(-32603, f"malformed error object: {error!r}")
    code = error.get("code")
    if not isinstance(code, int) or isinstance(code, bool):
        return RpcError(-32603, f"malformed error object: {error!r}", error)
    message = error.get("message")
    return error_class(code)(code, message if isinstance(message, str) else "", error.get("data"))


__all__ = [
    "PayRpcError",
    "ConnectionClosed",
    "Timeout",
    "Violation",
    "ValidationError",
    "RpcError",
    "ParseError",
    "InvalidRequest",
    "MethodNotFound",
    "InvalidParams",
    "InternalError",
    "Cancelled",
    "Unauthenticated",
    "Overloaded",
    "DeadlineExceeded",
    "ShuttingDown",
    "IdempotencyConflict",
    "SandboxOnly",
    "InvalidResult",
    "StoreFull",
    "StoreUnavailable",
    "DomainError",
    "GATEWAY_ERRORS",
    "error_class",
    "from_wire",
]
