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

Two gateway errors are also :class:`AssertionError`, so that a test runner reports them as failed
assertions: :class:`CallVerificationError` (``sandbox.calls.verify`` found the journal not as the
test expected) and :class:`CallsNotSeenError` (``sandbox.calls.wait`` ran out of time).
"""

from __future__ import annotations

import importlib
import json
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


class _CallJournalFailure(RpcError, AssertionError):
    """What :class:`CallVerificationError` and :class:`CallsNotSeenError` share: the server's
    ``data`` (``rpc.CallVerificationFailure``) read as the generated model, and a message that
    holds the server's and, under it, every nearest miss with each pointer where it differed,
    what was expected there and what was found."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        self.args = (describe_call_failure(message, data),)

    @property
    def failure(self) -> Any:
        """``data`` as ``payrpc.generated.services.rpc.CallVerificationFailure`` (the raw data
        when it does not read as one)."""
        from ._runtime import lenient
        from .generated.services import rpc

        return lenient(rpc.CallVerificationFailure.from_json, self.data)

    @property
    def nearest_misses(self) -> List[Any]:
        """Up to three entries that came nearest, nearest first (``rpc.CallMiss``)."""
        failure = self.failure
        return list(getattr(failure, "nearest_misses", None) or [])


class CallVerificationError(_CallJournalFailure):
    """-32010: ``sandbox.calls.verify`` found the journal not as expected (an ``AssertionError``
    too). ``str(error)`` is the server's message, then each nearest miss and where it differed."""

    code_value = -32010


class CallsNotSeenError(_CallJournalFailure):
    """-32011: ``sandbox.calls.wait`` ran out of time before the calls it waited for arrived (an
    ``AssertionError`` too). ``str(error)`` is the server's message, then each nearest miss."""

    code_value = -32011


#: How much of a value found in an entry a failure message shows.
_ACTUAL_LIMIT = 200


def describe_call_failure(message: str, data: Any) -> str:
    """The text of a journal assertion: the server's message, the ids of the entries that
    matched (when it lists them) and each nearest miss, one line per pointer where it differed:

    .. code-block:: text

        Call verification failed: expected exactly 1 ... found 0; the nearest miss, 1.3 ...
        nearest misses:
          1.3 (tatra.executePayment)
            /params/amount: expected equals "10.00", found "12.50"
            /params/reference: expected present, found nothing

    ``data`` is read leniently (anything that is not the documented shape is left out).
    """
    lines = [message]
    fields = data if isinstance(data, dict) else {}
    matched = fields.get("entries")
    if isinstance(matched, list) and matched:
        lines.append("matched entries: " + ", ".join(str(entry) for entry in matched))
    misses = [miss for miss in fields.get("nearestMisses") or [] if isinstance(miss, dict)]
    if misses:
        lines.append("nearest misses:")
    for miss in misses:
        method = miss.get("method")
        lines.append(f"  {miss.get('entry')}" + (f" ({method})" if method else ""))
        for difference in miss.get("differences") or []:
            if not isinstance(difference, dict):
                continue
            found = _shown(difference["actual"]) if "actual" in difference else "nothing"
            lines.append(f"    {difference.get('pointer')}: expected {difference.get('expected')}, found {found}")
    return "\n".join(lines)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= _ACTUAL_LIMIT else text[: _ACTUAL_LIMIT - 1] + "…"


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
        CallVerificationError,
        CallsNotSeenError,
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
    "CallVerificationError",
    "CallsNotSeenError",
    "describe_call_failure",
    "DomainError",
    "GATEWAY_ERRORS",
    "error_class",
    "from_wire",
]
