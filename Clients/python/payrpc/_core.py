"""The transport-free part of a connection, shared by :class:`payrpc.Client` and
:class:`payrpc.AsyncClient`: building requests (ids, ``_meta``, validation), reading lines,
turning responses into results or exceptions."""

from __future__ import annotations

import importlib
import itertools
import json
import logging
import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from . import errors as _errors
from ._runtime import to_wire
from .schema import SchemaSet

log = logging.getLogger("payrpc")

#: The protocol version this client speaks.
PROTOCOL_VERSION = "2026-11"
#: What the client calls itself in ``rpc.hello``.
CLIENT_NAME = "payrpc-python/0.1.0"
#: The longest deadline the server takes in ``_meta.timeoutMs`` (one day).
MAX_TIMEOUT_MS = 86_400_000
#: The method name of the cancellation notification.
CANCEL_METHOD = "$/cancelRequest"


@dataclass(frozen=True)
class Notification:
    """A notification the server sent: its method name and params."""

    method: str
    params: Any = None

    def typed(self) -> Any:
        """The params as the generated notification dataclass (``payrpc.generated.services.<service>``),
        or the plain JSON params when the stubs do not know this notification."""
        service = self.method.split(".", 1)[0]
        try:
            module = importlib.import_module(f"payrpc.generated.services.{service}")
        except ImportError:
            return self.params
        cls = getattr(module, "NOTIFICATIONS", {}).get(self.method)
        return self.params if cls is None else cls.from_json(self.params or {})


@dataclass(frozen=True)
class Request:
    """One entry of a batch: a call (answered) or, with ``notify=True``, a notification."""

    method: str
    params: Any = None
    notify: bool = False
    idempotency_key: Optional[str] = None


BatchItem = Union[Request, Tuple[str, Any], str]


def encode(message: Any) -> bytes:
    """One NDJSON line."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"


def _as_request(item: BatchItem) -> Request:
    if isinstance(item, Request):
        return item
    if isinstance(item, str):
        return Request(item)
    if isinstance(item, tuple) and len(item) in (1, 2) and isinstance(item[0], str):
        return Request(item[0], item[1] if len(item) == 2 else None)
    raise TypeError(f"a batch entry is a payrpc.Request or a (method, params) tuple, not {item!r}")


class Core:
    """Ids, request building, validation and response handling for one connection."""

    def __init__(self, schemas: Optional[SchemaSet], validate: bool) -> None:
        self.schemas = schemas if validate else None
        self._ids = itertools.count(1)

    def next_id(self) -> int:
        return next(self._ids)

    def _params(
        self, method: str, params: Any, timeout: Optional[float], idempotency_key: Optional[str]
    ) -> Any:
        wire = to_wire(params)
        if wire is not None and not isinstance(wire, (dict, list)):
            raise TypeError(f"params of {method} must be an object (dict) or an array (list), not {type(wire).__name__}")
        meta: Dict[str, Any] = {}
        if isinstance(wire, dict) and isinstance(wire.get("_meta"), dict):
            meta.update(wire["_meta"])
        if isinstance(wire, dict) and "_meta" in wire:
            wire = {k: v for k, v in wire.items() if k != "_meta"}
        if self.schemas is not None:
            self.schemas.validate_params(method, wire)
        if timeout is not None:
            if not (timeout > 0) or math.isinf(timeout):
                raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
            meta["timeoutMs"] = min(MAX_TIMEOUT_MS, max(1, int(math.ceil(timeout * 1000))))
        if idempotency_key is not None:
            if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key.encode("utf-8")) <= 255:
                raise ValueError("idempotency_key must be a string of 1 to 255 bytes")
            meta["idempotencyKey"] = idempotency_key
        if meta:
            if isinstance(wire, list):
                raise ValueError("timeout and idempotency_key need params by name (a dict), not a list")
            wire = dict(wire or {})
            wire["_meta"] = meta
        return wire

    def request(
        self, method: str, params: Any, timeout: Optional[float], idempotency_key: Optional[str]
    ) -> Tuple[int, Dict[str, Any]]:
        """A request message with a fresh id; raises ValidationError before anything is sent."""
        wire = self._params(method, params, timeout, idempotency_key)
        rid = self.next_id()
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if wire is not None:
            message["params"] = wire
        return rid, message

    def notification(self, method: str, params: Any) -> Dict[str, Any]:
        """A notification message (no id, no answer)."""
        wire = self._params(method, params, None, None) if method != CANCEL_METHOD else to_wire(params)
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if wire is not None:
            message["params"] = wire
        return message

    def batch(
        self, items: Iterable[BatchItem], timeout: Optional[float]
    ) -> Tuple[List[Dict[str, Any]], List[Tuple[int, str]], List[Optional[int]]]:
        """The messages of a batch (every entry validated first), the (id, method) of each call,
        and for each entry its id (None for notifications)."""
        messages: List[Dict[str, Any]] = []
        calls: List[Tuple[int, str]] = []
        order: List[Optional[int]] = []
        for item in items:
            request = _as_request(item)
            if request.notify:
                messages.append(self.notification(request.method, request.params))
                order.append(None)
            else:
                rid, message = self.request(request.method, request.params, timeout, request.idempotency_key)
                messages.append(message)
                calls.append((rid, request.method))
                order.append(rid)
        if not messages:
            raise ValueError("a batch needs at least one entry")
        return messages, calls, order

    @staticmethod
    def cancel(rid: int) -> bytes:
        return encode({"jsonrpc": "2.0", "method": CANCEL_METHOD, "params": {"id": rid}})

    def outcome(self, method: str, response: Dict[str, Any]) -> Any:
        """The result of a response, validated; raises the RpcError it carries."""
        if "error" in response:
            raise _errors.from_wire(response["error"])
        result = response.get("result")
        if self.schemas is not None:
            self.schemas.validate_result(method, result)
        return result

    @staticmethod
    def orphan_group(pending: Dict[Any, Any], groups: Dict[Any, Any], response: Dict[str, Any]) -> List[Any]:
        """The ids an error without an id belongs to: every call of the one request (or batch)
        in flight, when only one is; else none (it is logged)."""
        owners = {groups.get(rid, rid) for rid in pending}
        if len(owners) == 1:
            owner = owners.pop()
            return [rid for rid in pending if groups.get(rid, rid) == owner]
        log.error("payrpc: the server reported an error without an id: %r", response.get("error"))
        return []

    def outcome_or_error(self, method: str, response: Dict[str, Any]) -> Any:
        """Like :meth:`outcome`, but returns the exception instead of raising it (for batches)."""
        try:
            return self.outcome(method, response)
        except _errors.PayRpcError as error:
            return error

    def parse(
        self,
        line: bytes,
        on_response: Callable[[Any, Dict[str, Any]], None],
        on_notification: Callable[[Notification, Optional[_errors.ValidationError]], None],
    ) -> None:
        """Dispatches one line from the server (a response, a batch of responses or a notification)."""
        text = line.strip()
        if not text:
            return
        try:
            message = json.loads(text)
        except ValueError:
            log.error("payrpc: the server sent a line that is not JSON: %.200r", text)
            return
        for item in message if isinstance(message, list) else [message]:
            if not isinstance(item, dict):
                log.error("payrpc: the server sent a message that is not an object: %.200r", item)
            elif "method" in item and "id" not in item:
                method = item.get("method")
                notification = Notification(method if isinstance(method, str) else "", item.get("params"))
                problem: Optional[_errors.ValidationError] = None
                if self.schemas is not None:
                    try:
                        self.schemas.validate_notification(notification.method, notification.params)
                    except _errors.ValidationError as error:
                        problem = error
                on_notification(notification, problem)
            elif "id" in item and ("result" in item or "error" in item):
                on_response(item.get("id"), item)  # id None: an error the server could not tie to a request
            else:
                log.error("payrpc: the server sent an unexpected message: %.200r", item)

