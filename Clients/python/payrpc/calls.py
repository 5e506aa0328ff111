"""The call journal from a test: ``client.calls`` (sandbox mode only).

The gateway journals every call a profile's connections make, every notification it sends them
and every HTTP exchange it makes for them (secrets masked). ``client.calls`` asks it questions::

    from payrpc.calls import present, pattern

    client.calls.verify(method="tatra.authorizePayment", params={"/pincode": present}, times=1)
    client.calls.verify(sequence=[{"method": "tatra.executePayment"}, {"method": "tatra.authorizePayment"}])
    entries = client.calls.wait(method="pbba.paymentStatusChanged", kind="push", timeout_ms=2000)

A match is given as keyword arguments (``method``, ``kind``, ``url``, ``params``, ``entry``,
``failed``), or as one :class:`Match`, dict or generated ``CallMatch``. ``params`` and ``entry``
map JSON Pointers to conditions: a plain value must be equal (``{"/amount": "12.50"}``), and
:data:`present`, :data:`absent`, :func:`pattern` and :func:`equals` say the rest; a list of
generated ``CallCondition`` values (or their dicts) is taken as it is.

``verify`` raises :class:`payrpc.CallVerificationError` and ``wait`` raises
:class:`payrpc.CallsNotSeenError` when the journal is not as expected: both are
``AssertionError`` subclasses (pytest shows a failed assertion) whose message is the server's
followed by every nearest miss with each pointer where it differed. Any other error is the
client's usual one.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Pattern, Sequence, Tuple, Union

from ._runtime import to_wire

if TYPE_CHECKING:
    from .generated.services.rpc import CallCondition, CallEntry, CallEntryKind, CallMatch, CallPage, CallVerification


@dataclass(frozen=True)
class Condition:
    """What must hold at a JSON Pointer: one of the four tests of ``rpc.CallCondition``.

    Use :data:`present`, :data:`absent`, :func:`pattern` or :func:`equals`; a plain value in a
    pointer map means :func:`equals` of it.
    """

    keyword: str
    value: Any = True

    def at(self, pointer: str) -> Dict[str, Any]:
        """The wire condition ``{"pointer": pointer, <keyword>: <value>}``."""
        return {"pointer": pointer, self.keyword: to_wire(self.value)}

    def __repr__(self) -> str:
        if self.keyword in ("present", "absent"):
            return self.keyword
        return f"{self.keyword}({self.value!r})"


#: There must be a value at the pointer (a secret given counts, though it reads as ``"***"``).
present = Condition("present")
#: There must be no value at the pointer.
absent = Condition("absent")


def pattern(regex: Union[str, Pattern[str]]) -> Condition:
    """The value at the pointer must be a string containing a match of ``regex`` (a compiled
    pattern's source is sent; the server's regular expressions are ICU's, close to Python's)."""
    return Condition("pattern", _source(regex))


def _source(regex: Union[str, Pattern[str]]) -> str:
    return regex.pattern if isinstance(regex, re.Pattern) else regex


def equals(value: Any) -> Condition:
    """The value at the pointer must equal ``value`` (``equals(None)``: JSON null); a plain value
    in a pointer map means the same. A masked secret reads as ``"***"``."""
    return Condition("equals", value)


#: Conditions at JSON Pointers: ``{pointer: value or Condition}``, or wire conditions as they are.
Conditions = Union[Mapping[str, Any], Sequence[Union["CallCondition", Mapping[str, Any]]]]


def conditions(given: Conditions) -> List[Any]:
    """The wire list of a pointer map (or of a list of wire conditions, passed on as they are)."""
    if isinstance(given, Mapping):
        return [value.at(pointer) if isinstance(value, Condition) else equals(value).at(pointer) for pointer, value in given.items()]
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise TypeError(f"conditions are a dict of JSON Pointer to condition, or a list of CallCondition, not {given!r}")
    return [to_wire(condition) for condition in given]


@dataclass(frozen=True)
class Match:
    """Which journal entries: every field given must hold (``rpc.CallMatch``).

    ``method``: a JSON-RPC method (canonical name or alias) or, for HTTP exchanges, ``GET``,
    ``POST``...; ``kind``: ``"call"``, ``"push"`` or ``"http"``; ``url``: a regular expression an
    HTTP exchange's URL must contain a match of; ``params``: conditions on the params (an HTTP
    exchange's request body); ``entry``: conditions on the whole entry (``/error/code``,
    ``/http/status``); ``failed``: whether the call was answered with an error.
    """

    method: Optional[str] = None
    kind: Union[None, str, "CallEntryKind"] = None
    url: Union[None, str, Pattern[str]] = None
    params: Optional[Conditions] = None
    entry: Optional[Conditions] = None
    failed: Optional[bool] = None

    def to_json(self) -> Dict[str, Any]:
        """The wire form (what ``payrpc._runtime.to_wire`` sends)."""
        data: Dict[str, Any] = {}
        for name in ("method", "kind", "failed"):
            value = getattr(self, name)
            if value is not None:
                data[name] = to_wire(value)
        if self.url is not None:
            data["url"] = _source(self.url)
        if self.params is not None:
            data["params"] = conditions(self.params)
        if self.entry is not None:
            data["entry"] = conditions(self.entry)
        return data


#: A match as :class:`Match`, a dict of its fields, or the generated ``CallMatch``.
MatchLike = Union[Match, "CallMatch", Mapping[str, Any]]


def match_json(match: Optional[MatchLike] = None, **fields: Any) -> Dict[str, Any]:
    """The wire match of ``match`` or of the keyword fields (giving both is a TypeError)."""
    given = {name: value for name, value in fields.items() if value is not None}
    if match is None:
        return Match(**given).to_json()
    if given:
        raise TypeError(f"give the match as one value or as keyword arguments, not both ({', '.join(given)})")
    if isinstance(match, Match):
        return match.to_json()
    if isinstance(match, Mapping):
        return Match(**match).to_json()
    return to_wire(match)  # a generated CallMatch


#: One question to the journal: the generated ``client.sandbox`` proxy method that asks it, its
#: keyword arguments, and what turns the generated result into the answer.
_Request = Tuple[str, Dict[str, Any], Callable[[Any], Any]]


def _same(result: Any) -> Any:
    return result


def _answer_entries(result: Any) -> List["CallEntry"]:
    return list(result.entries)


def _answer_count(result: Any) -> int:
    return int(result.count)


def _answer_cleared(result: Any) -> int:
    return int(result.cleared)


def _verify_request(
    match: Optional[MatchLike], fields: Dict[str, Any], times: Optional[int], at_least: Optional[int],
    at_most: Optional[int], sequence: Optional[Sequence[MatchLike]], timeout: Optional[float],
) -> _Request:
    if sequence is None:
        arguments = {"match": match_json(match, **fields), "times": times, "at_least": at_least, "at_most": at_most}
        return "calls_verify", {**arguments, "timeout": timeout}, _same
    if match is not None or any(value is not None for value in fields.values()) or (times, at_least, at_most) != (None, None, None):
        raise TypeError("a sequence is verified on its own: no match and no times, at_least or at_most beside it")
    if isinstance(sequence, (str, bytes, Mapping)) or not sequence:
        raise TypeError("sequence is a non-empty list of matches")
    return "calls_verify", {"sequence": [match_json(step) for step in sequence], "timeout": timeout}, _same


class _Journal:
    """The questions, shared by the sync and the asyncio journal; each asks through the
    generated ``sandbox.calls.*`` proxies of its client, so the method names live there only."""

    def __init__(self, client: Any) -> None:
        self._client = client

    @staticmethod
    def _list(**arguments: Any) -> _Request:
        return "calls_list", arguments, _same

    @staticmethod
    def _count(match: Optional[MatchLike], fields: Dict[str, Any], timeout: Optional[float]) -> _Request:
        return "calls_count", {"match": match_json(match, **fields), "timeout": timeout}, _answer_count

    @staticmethod
    def _find(match: Optional[MatchLike], fields: Dict[str, Any], limit: Optional[int], timeout: Optional[float]) -> _Request:
        return "calls_find", {"match": match_json(match, **fields), "limit": limit, "timeout": timeout}, _answer_entries

    @staticmethod
    def _wait(
        match: Optional[MatchLike], fields: Dict[str, Any], count: Optional[int], timeout_ms: Optional[int],
        after: Optional[str], timeout: Optional[float],
    ) -> _Request:
        arguments = {"match": match_json(match, **fields), "count": count, "timeout_ms": timeout_ms, "after": after}
        return "calls_wait", {**arguments, "timeout": timeout}, _answer_entries

    @staticmethod
    def _clear(timeout: Optional[float]) -> _Request:
        return "calls_clear", {"timeout": timeout}, _answer_cleared


class CallJournal(_Journal):
    """The profile's call journal, through a :class:`payrpc.Client`: ``client.calls``."""

    def _ask(self, request: _Request) -> Any:
        name, arguments, answer = request
        return answer(getattr(self._client.sandbox, name)(**arguments))

    def list(
        self, *, method: Optional[str] = None, kind: Union[None, str, "CallEntryKind"] = None,
        since: Optional[_dt.datetime] = None, until: Optional[_dt.datetime] = None, limit: Optional[int] = None,
        cursor: Optional[str] = None, timeout: Optional[float] = None,
    ) -> "CallPage":
        """One page of the journal, oldest first (follow ``page.next`` as ``cursor``)."""
        return self._ask(self._list(method=method, kind=kind, since=since, until=until, limit=limit, cursor=cursor, timeout=timeout))

    def count(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, timeout: Optional[float] = None,
    ) -> int:
        """How many entries match (no match: every entry)."""
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return self._ask(self._count(match, fields, timeout))

    def find(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, limit: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> List["CallEntry"]:
        """The entries that match, oldest first (at most ``limit``, by default 100)."""
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return self._ask(self._find(match, fields, limit, timeout))

    def verify(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, times: Optional[int] = None,
        at_least: Optional[int] = None, at_most: Optional[int] = None, sequence: Optional[Sequence[MatchLike]] = None,
        timeout: Optional[float] = None,
    ) -> "CallVerification":
        """Checks the journal: the matching entries number exactly ``times``, at least
        ``at_least`` or at most ``at_most`` (exactly one when none is given); or, with
        ``sequence`` alone, entries match each step in the order they arrived (others may come
        between).

        Raises :class:`payrpc.CallVerificationError` (an ``AssertionError``) when they do not.
        """
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return self._ask(_verify_request(match, fields, times, at_least, at_most, sequence, timeout))

    def wait(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, count: Optional[int] = None,
        timeout_ms: Optional[int] = None, after: Optional[str] = None, timeout: Optional[float] = None,
    ) -> List["CallEntry"]:
        """Waits until ``count`` entries (default 1) match, for at most ``timeout_ms`` (default
        5000) of real time on the server, and returns them; with ``after`` (a page's ``next``)
        only the entries journalled since count. ``timeout`` is the client's own deadline for
        the call, as for any call: leave it above ``timeout_ms``.

        Raises :class:`payrpc.CallsNotSeenError` (an ``AssertionError``) when time runs out.
        """
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return self._ask(self._wait(match, fields, count, timeout_ms, after, timeout))

    def clear(self, *, timeout: Optional[float] = None) -> int:
        """Empties the profile's journal; returns how many entries it removed."""
        return self._ask(self._clear(timeout))


class AsyncCallJournal(_Journal):
    """The profile's call journal, through a :class:`payrpc.AsyncClient`: ``client.calls``;
    the methods of :class:`CallJournal`, as coroutines."""

    async def _ask(self, request: _Request) -> Any:
        name, arguments, answer = request
        return answer(await getattr(self._client.sandbox, name)(**arguments))

    async def list(
        self, *, method: Optional[str] = None, kind: Union[None, str, "CallEntryKind"] = None,
        since: Optional[_dt.datetime] = None, until: Optional[_dt.datetime] = None, limit: Optional[int] = None,
        cursor: Optional[str] = None, timeout: Optional[float] = None,
    ) -> "CallPage":
        """One page of the journal (:meth:`CallJournal.list`)."""
        return await self._ask(self._list(method=method, kind=kind, since=since, until=until, limit=limit, cursor=cursor, timeout=timeout))

    async def count(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, timeout: Optional[float] = None,
    ) -> int:
        """How many entries match (:meth:`CallJournal.count`)."""
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return await self._ask(self._count(match, fields, timeout))

    async def find(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, limit: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> List["CallEntry"]:
        """The entries that match (:meth:`CallJournal.find`)."""
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return await self._ask(self._find(match, fields, limit, timeout))

    async def verify(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, times: Optional[int] = None,
        at_least: Optional[int] = None, at_most: Optional[int] = None, sequence: Optional[Sequence[MatchLike]] = None,
        timeout: Optional[float] = None,
    ) -> "CallVerification":
        """Checks the journal (:meth:`CallJournal.verify`); raises
        :class:`payrpc.CallVerificationError` when it is not as expected."""
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return await self._ask(_verify_request(match, fields, times, at_least, at_most, sequence, timeout))

    async def wait(
        self, match: Optional[MatchLike] = None, *, method: Optional[str] = None,
        kind: Union[None, str, "CallEntryKind"] = None, url: Union[None, str, Pattern[str]] = None, params: Optional[Conditions] = None,
        entry: Optional[Conditions] = None, failed: Optional[bool] = None, count: Optional[int] = None,
        timeout_ms: Optional[int] = None, after: Optional[str] = None, timeout: Optional[float] = None,
    ) -> List["CallEntry"]:
        """Waits for matching entries (:meth:`CallJournal.wait`); raises
        :class:`payrpc.CallsNotSeenError` when time runs out."""
        fields = dict(method=method, kind=kind, url=url, params=params, entry=entry, failed=failed)
        return await self._ask(self._wait(match, fields, count, timeout_ms, after, timeout))

    async def clear(self, *, timeout: Optional[float] = None) -> int:
        """Empties the profile's journal; returns how many entries it removed."""
        return await self._ask(self._clear(timeout))


__all__ = [
    "AsyncCallJournal",
    "CallJournal",
    "Condition",
    "Conditions",
    "Match",
    "MatchLike",
    "absent",
    "conditions",
    "equals",
    "match_json",
    "pattern",
    "present",
]
