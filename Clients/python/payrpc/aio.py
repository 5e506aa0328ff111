"""The asyncio client: the same surface as :class:`payrpc.Client`, with coroutines."""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import socket
import weakref
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Union

from . import _process
from ._core import CLIENT_NAME, PROTOCOL_VERSION, BatchItem, Core, Notification, encode
from ._services import service_proxy
from .calls import AsyncCallJournal
from .client import TLSOption, tls_context
from .errors import ConnectionClosed, Timeout, ValidationError
from .schema import SchemaSet

log = logging.getLogger("payrpc")

#: The longest line accepted from the server (``rpc.discover`` answers the whole document).
LINE_LIMIT = 64 * 1024 * 1024

_END = object()


class AsyncNotificationStream:
    """The notifications arriving after it was created: ``async for n in client.notifications()``.

    With a ``timeout``, each step raises :class:`payrpc.Timeout` when nothing arrives in time;
    the iteration ends when the connection closes. A notification that broke its schema
    raises :class:`payrpc.ValidationError` at its turn; the stream can be read on after that.
    """

    def __init__(self, method: Optional[str], timeout: Optional[float]) -> None:
        self.method = method
        self.timeout = timeout
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._ended = False

    def _offer(self, item: Any) -> None:
        if item is _END or self.method is None or item[0].method == self.method:
            self._queue.put_nowait(item)

    def __aiter__(self) -> "AsyncNotificationStream":
        return self

    async def __anext__(self) -> Notification:
        try:
            return await self.get()
        except _Ended:
            raise StopAsyncIteration from None

    async def get(self, timeout: Optional[float] = None) -> Notification:
        """The next notification; waits up to ``timeout`` (else the stream's timeout)."""
        if self._ended:
            raise _Ended()
        wait = self.timeout if timeout is None else timeout
        try:
            item = await asyncio.wait_for(self._queue.get(), wait)
        except asyncio.TimeoutError:
            raise Timeout(f"no notification{' ' + self.method if self.method else ''} within {wait}s") from None
        if item is _END:
            self._ended = True
            raise _Ended()
        notification, problem = item
        if problem is not None:
            raise problem
        return notification


class _Ended(ConnectionClosed):
    """The connection closed; no notification will come."""


class AsyncClient:
    """An asyncio connection to a payrpc server.

    Open one with ``await AsyncClient.spawn()``, :meth:`connect_tcp` or :meth:`connect_unix`
    and use it as ``async with``. Any number of calls may be in flight at once; cancelling the
    task of a call sends ``$/cancelRequest`` for it. Generated proxies hang off the client:
    ``await client.tatra.fetch_setup_data()``.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        process: Optional["asyncio.subprocess.Process"] = None,
        validate: bool = True,
        schema: Union[None, str, Path, Dict[str, Any]] = None,
        default_timeout: Optional[float] = None,
        close_timeout: float = 10.0,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._process = process
        self._core = Core(SchemaSet.load(schema) if validate else None, validate)
        self.default_timeout = default_timeout
        self.close_timeout = close_timeout
        self._loop = asyncio.get_running_loop()
        self._pending: Dict[Any, "asyncio.Future[Dict[str, Any]]"] = {}
        self._handlers: Dict[Optional[str], List[Callable[[Notification], Any]]] = {}
        self._streams: "weakref.WeakSet[AsyncNotificationStream]" = weakref.WeakSet()
        self._tasks: Set["asyncio.Task[Any]"] = set()
        self._drain_lock = asyncio.Lock()
        self._closed = False
        self._eof = False
        self._proxies: Dict[str, Any] = {}
        self._token: Optional[str] = None
        self._groups: Dict[Any, Any] = {}  # id of a batch's call → id of the batch's first call
        self._read_task = self._loop.create_task(self._read_loop())
        self._stderr_task: Optional["asyncio.Task[None]"] = None
        if process is not None and process.stderr is not None:
            self._stderr_task = self._loop.create_task(_forward_stderr(process.stderr))

    # Opening -------------------------------------------------------------------------------

    @classmethod
    async def spawn(
        cls,
        binary: Optional[str] = None,
        args: Sequence[str] = (),
        *,
        profile: Optional[str] = None,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
        data_dir: Union[str, "os.PathLike[str]", None] = None,
        ephemeral: Optional[bool] = None,
        **options: Any,
    ) -> "AsyncClient":
        """Starts ``payrpc serve --stdio [args...]`` and connects to it (see :meth:`payrpc.Client.spawn`,
        also for where its state lives)."""
        argv = _process.command(binary, args, data_dir, ephemeral)
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            cwd=cwd,
            limit=LINE_LIMIT,
        )
        assert process.stdout is not None and process.stdin is not None
        try:
            client = cls(process.stdout, process.stdin, process=process, **options)
        except BaseException:
            _kill(process)
            await process.wait()
            raise
        return await client._handshake(None, profile)

    @classmethod
    async def connect_tcp(
        cls, host: str, port: int, token: Optional[str] = None, *, profile: Optional[str] = None,
        tls: TLSOption = None, server_hostname: Optional[str] = None, **options: Any
    ) -> "AsyncClient":
        """Connects to ``payrpc serve --tcp host:port``; with a token, says ``rpc.hello`` with it first.

        ``tls`` and ``server_hostname`` are as in :meth:`payrpc.Client.connect_tcp`.
        """
        context = tls_context(tls)
        if context is None:
            reader, writer = await asyncio.open_connection(host, port, limit=LINE_LIMIT)
        else:
            reader, writer = await asyncio.open_connection(
                host, port, limit=LINE_LIMIT, ssl=context, server_hostname=server_hostname or host
            )
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return await cls(reader, writer, **options)._handshake(token, profile)

    @classmethod
    async def connect_unix(
        cls, path: str, token: Optional[str] = None, *, profile: Optional[str] = None, **options: Any
    ) -> "AsyncClient":
        """Connects to ``payrpc serve --unix path``; with a token, says ``rpc.hello`` with it first."""
        reader, writer = await asyncio.open_unix_connection(path, limit=LINE_LIMIT)
        return await cls(reader, writer, **options)._handshake(token, profile)

    async def _handshake(self, token: Optional[str], profile: Optional[str]) -> "AsyncClient":
        if token is None and profile is None:
            return self
        try:
            await self.hello(token=token, profile=profile)
        except BaseException:
            await self.close()
            raise
        return self

    async def hello(
        self, *, token: Optional[str] = None, profile: Optional[str] = None, timeout: Optional[float] = None
    ) -> Any:
        """Sends ``rpc.hello`` (client name, protocol version, token, profile); returns the answer.

        The token, once accepted, is remembered and sent with every later ``hello``."""
        params: Dict[str, Any] = {"client": CLIENT_NAME, "protocolVersion": PROTOCOL_VERSION}
        token = self._token if token is None else token
        if token is not None:
            params["token"] = token
        if profile is not None:
            params["profile"] = profile
        answer = await self.call("rpc.hello", params, timeout=timeout)
        self._token = token
        return answer

    # Calls ---------------------------------------------------------------------------------

    async def call(
        self, method: str, params: Any = None, *, timeout: Optional[float] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """Calls a method and returns its result (see :meth:`payrpc.Client.call`).

        Cancelling the awaiting task sends ``$/cancelRequest`` for this call.
        """
        timeout = self.default_timeout if timeout is None else timeout
        rid, message = self._core.request(method, params, timeout, idempotency_key)
        future = self._register(rid)
        expiry = None
        if timeout is not None:
            expiry = self._loop.call_later(timeout, self._expire, rid, method, timeout)
        try:
            await self._send(encode(message))
            response = await future
        except BaseException:
            self._abandon(rid)
            raise
        finally:
            if expiry is not None:
                expiry.cancel()
        return self._core.outcome(method, response)

    async def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (no answer)."""
        message = self._core.notification(method, params)
        self._check_open()
        await self._send(encode(message))

    async def batch(self, items: Iterable[BatchItem], *, timeout: Optional[float] = None) -> List[Any]:
        """Sends several calls (and notifications) as one batch (see :meth:`payrpc.Client.batch`)."""
        timeout = self.default_timeout if timeout is None else timeout
        messages, calls, order = self._core.batch(items, timeout)
        futures = {rid: self._register(rid, calls[0][0]) for rid, _ in calls}
        try:
            await self._send(encode(messages))
            gathered = asyncio.gather(*futures.values())
            try:
                responses = dict(zip(futures, await asyncio.wait_for(gathered, timeout)))
            except asyncio.TimeoutError:
                raise Timeout(f"batch did not answer within {timeout}s") from None
        except BaseException:
            for rid in futures:
                self._abandon(rid)
            raise
        methods = dict(calls)
        return [None if rid is None else self._core.outcome_or_error(methods[rid], responses[rid]) for rid in order]

    # Notifications -------------------------------------------------------------------------

    def on_notification(self, method: Optional[str], callback: Callable[[Notification], Any]) -> Callable[[], None]:
        """Calls ``callback(notification)`` for each notification ``method`` (None: every one).

        A coroutine function is run as a task. Returns a function that removes the callback.
        """
        self._handlers.setdefault(method, []).append(callback)

        def remove() -> None:
            callbacks = self._handlers.get(method, [])
            if callback in callbacks:
                callbacks.remove(callback)

        return remove

    def notifications(self, method: Optional[str] = None, *, timeout: Optional[float] = None) -> AsyncNotificationStream:
        """An async iterator of the notifications arriving from now on (of ``method``, or all)."""
        stream = AsyncNotificationStream(method, timeout)
        if self._eof:
            stream._offer(_END)
        self._streams.add(stream)
        return stream

    # The call journal ------------------------------------------------------------------------

    @property
    def calls(self) -> AsyncCallJournal:
        """The profile's call journal (sandbox mode only), with coroutines:
        ``await client.calls.verify(method=...)``; see :mod:`payrpc.calls`."""
        return AsyncCallJournal(self)

    # Closing -------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    @property
    def returncode(self) -> Optional[int]:
        """The exit status of a spawned server once it ended."""
        return self._process.returncode if self._process is not None else None

    @property
    def pid(self) -> Optional[int]:
        """The process id of a spawned server."""
        return self._process.pid if self._process is not None else None

    async def close(self) -> None:
        """Ends the connection: end of input for the server, which drains and (stdio) exits;
        waits for it (terminating it after ``close_timeout``), then fails calls still waiting."""
        if self._closed:
            return
        self._closed = True
        waiting = list(self._pending.values())
        try:
            if self._writer.can_write_eof():
                self._writer.write_eof()
            else:
                self._writer.close()
        except (OSError, RuntimeError):
            pass
        if self._process is not None:
            await self._end_process()
            await asyncio.wait([self._read_task], timeout=self.close_timeout)
        elif waiting:
            # The server keeps a socket open after our end of input; wait only for answers in flight.
            await asyncio.wait(waiting, timeout=self.close_timeout)
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (OSError, RuntimeError):
            pass
        tasks = [t for t in [self._read_task, self._stderr_task, *self._tasks] if t is not None]
        for task in tasks:
            if not task.done():
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._fail_pending()

    async def _end_process(self) -> None:
        process = self._process
        assert process is not None
        try:
            await asyncio.wait_for(process.wait(), self.close_timeout)
            return
        except asyncio.TimeoutError:
            log.warning("payrpc: the server did not exit %.1fs after its stdin closed; terminating it", self.close_timeout)
        except asyncio.CancelledError:
            _kill(process)
            raise
        try:
            process.terminate()
        except ProcessLookupError:
            pass
        try:
            await asyncio.wait_for(process.wait(), 2.0)
        except asyncio.TimeoutError:
            _kill(process)
            await process.wait()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        proxy = self.__dict__.get("_proxies", {}).get(name)
        if proxy is None:
            proxy = service_proxy(self, name, asynchronous=True)
            self._proxies[name] = proxy
        return proxy

    # Internals -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed or self._eof:
            raise ConnectionClosed("the connection is closed")

    def _register(self, rid: Any, group: Any = None) -> "asyncio.Future[Dict[str, Any]]":
        self._check_open()
        future: "asyncio.Future[Dict[str, Any]]" = self._loop.create_future()
        self._pending[rid] = future
        if group is not None:
            self._groups[rid] = group
        return future

    def _expire(self, rid: Any, method: str, timeout: float) -> None:
        future = self._pending.get(rid)
        if future is not None and not future.done():
            future.set_exception(Timeout(f"{method} did not answer within {timeout}s"))

    def _abandon(self, rid: Any) -> None:
        """Forgets a call nobody waits for any more and tells the server to stop it.

        Synchronous on purpose: it runs while the calling task is being cancelled."""
        self._groups.pop(rid, None)
        if self._pending.pop(rid, None) is None or self._closed or self._eof:
            return
        try:
            self._writer.write(self._core.cancel(rid))
        except (OSError, RuntimeError):
            pass

    async def _send(self, data: bytes) -> None:
        try:
            self._writer.write(data)
            async with self._drain_lock:
                await self._writer.drain()
        except (ConnectionError, RuntimeError) as error:
            raise ConnectionClosed(f"the connection is closed: {error}") from error

    async def _read_loop(self) -> None:
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                self._core.parse(line, self._on_response, self._on_notification)
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            if not self._closed:
                log.warning("payrpc: reading from the server failed: %s", error)
        finally:
            self._eof = True
            for stream in list(self._streams):
                stream._offer(_END)
            self._fail_pending()

    def _fail_pending(self) -> None:
        pending, self._pending = self._pending, {}
        self._groups = {}
        for future in pending.values():
            if not future.done():
                future.set_exception(ConnectionClosed("the connection closed before the answer arrived"))

    def _on_response(self, rid: Any, response: Dict[str, Any]) -> None:
        if rid is None:
            for owner in self._core.orphan_group(self._pending, self._groups, response):
                self._on_response(owner, response)
            return
        self._groups.pop(rid, None)
        future = self._pending.pop(rid, None)
        if future is None:
            log.debug("payrpc: an answer to %r arrived after its call gave up", rid)
        elif not future.done():
            future.set_result(response)

    def _on_notification(self, notification: Notification, problem: Optional[ValidationError]) -> None:
        for stream in list(self._streams):
            stream._offer((notification, problem))
        if problem is not None:
            log.error("payrpc: %s", problem)
            return
        callbacks = list(self._handlers.get(notification.method, ())) + list(self._handlers.get(None, ()))
        for callback in callbacks:
            try:
                outcome = callback(notification)
                if inspect.isawaitable(outcome):
                    task = self._loop.create_task(_guarded(outcome, notification.method))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            except Exception:
                log.exception("payrpc: the handler of %s failed", notification.method)


async def _guarded(awaitable: Any, method: str) -> None:
    try:
        await awaitable
    except Exception:
        log.exception("payrpc: the handler of %s failed", method)


def _kill(process: "asyncio.subprocess.Process") -> None:
    try:
        process.kill()
    except ProcessLookupError:
        pass


async def _forward_stderr(stream: asyncio.StreamReader) -> None:
    try:
        while True:
            line = await stream.readline()
            if not line:
                return
            _process.forward_log_line(line)
    except (OSError, ValueError, asyncio.LimitOverrunError):
        return
