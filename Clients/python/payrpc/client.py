"""The synchronous client: one connection, many calls in flight, a reader thread."""

from __future__ import annotations

import logging
import os
import queue
import socket
import ssl
import subprocess
import threading
import time
import weakref
from concurrent.futures import Future
from concurrent.futures import TimeoutError as _FutureTimeout
from concurrent.futures import wait as futures_wait
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from . import _process
from ._core import CLIENT_NAME, PROTOCOL_VERSION, BatchItem, Core, Notification, encode
from ._services import service_proxy
from .calls import CallJournal
from .errors import ConnectionClosed, PayRpcError, Timeout, ValidationError
from .schema import SchemaSet

log = logging.getLogger("payrpc")

_END = object()

NotificationCallback = Callable[[Notification], Any]


class NotificationStream:
    """A queue of the notifications that arrive after it was created (``client.notifications()``).

    Iterate it: each step waits up to ``timeout`` seconds (raising :class:`payrpc.Timeout`) and
    the iteration ends when the connection closes. A notification that broke its schema raises
    :class:`payrpc.ValidationError` at its turn; the stream can be read on after that.
    """

    def __init__(self, method: Optional[str], timeout: Optional[float]) -> None:
        self.method = method
        self.timeout = timeout
        self._queue: "queue.Queue[Any]" = queue.Queue()
        self._ended = False

    def _offer(self, item: Any) -> None:
        if item is _END or self.method is None or item[0].method == self.method:
            self._queue.put(item)

    def __iter__(self) -> "NotificationStream":
        return self

    def __next__(self) -> Notification:
        return self.get()

    def get(self, timeout: Optional[float] = None) -> Notification:
        """The next notification; waits up to ``timeout`` (else the stream's timeout)."""
        if self._ended:
            raise StopIteration
        wait = self.timeout if timeout is None else timeout
        try:
            item = self._queue.get(timeout=wait)
        except queue.Empty:
            raise Timeout(f"no notification{' ' + self.method if self.method else ''} within {wait}s") from None
        if item is _END:
            self._ended = True
            raise StopIteration
        notification, problem = item
        if problem is not None:
            raise problem
        return notification


class _Transport:
    """What a sync connection reads from and writes to."""

    def readline(self) -> bytes:
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def close(self, timeout: float) -> None:
        raise NotImplementedError


class _ProcessTransport(_Transport):
    def __init__(self, argv: List[str], env: Optional[Dict[str, str]], cwd: Optional[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
        )
        self._finalizer = weakref.finalize(self, _kill, self.proc)
        self._stderr = threading.Thread(
            target=_forward_stderr, args=(self.proc.stderr,), name=f"payrpc-stderr-{self.proc.pid}", daemon=True
        )
        self._stderr.start()

    def readline(self) -> bytes:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline()

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def close(self, timeout: float) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            log.warning("payrpc: the server did not exit %.1fs after its stdin closed; terminating it", timeout)
            self.proc.terminate()
            try:
                self.proc.wait(2.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._stderr.join(2.0)
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._finalizer.detach()


def _kill(proc: "subprocess.Popen[bytes]") -> None:
    """Last resort (garbage collection or interpreter exit without close()): no orphan, no zombie."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def _forward_stderr(stream: Any) -> None:
    try:
        for line in iter(stream.readline, b""):
            _process.forward_log_line(line)
    except (OSError, ValueError):
        pass


TLSOption = Union[ssl.SSLContext, str, "os.PathLike[str]", None]


def tls_context(tls: TLSOption) -> Optional[ssl.SSLContext]:
    """The TLS context for ``tls=``: a context as it is, a CA file path as a verifying default context."""
    if tls is None or isinstance(tls, ssl.SSLContext):
        return tls
    return ssl.create_default_context(cafile=os.fspath(tls))


def _shutdown(sock: socket.socket, how: int) -> None:
    # The TCP connection itself, also under TLS (no close_notify: the reader thread may still be
    # reading): a gateway behind a TLS terminator sees the end of input as on plain TCP.
    try:
        socket.socket.shutdown(sock, how)
    except OSError:
        pass


class _SocketTransport(_Transport):
    """A TCP or Unix socket: the server keeps it open after our end of input (``close``), so the
    client waits for the answers in flight, shuts it both ways and ``release``s it."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._file = sock.makefile("rb")

    def readline(self) -> bytes:
        return self._file.readline()

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self, timeout: float) -> None:
        _shutdown(self.sock, socket.SHUT_WR)

    def release(self) -> None:
        """Once the reader thread has stopped: the socket and what reads it."""
        self._file.close()
        self.sock.close()


class _TLSTransport(_SocketTransport):
    """TLS over a TCP socket, with OpenSSL's state used by one thread at a time.

    The reader thread reads while callers write: an ``ssl.SSLSocket`` would let its ``SSL_read`` and
    a caller's ``SSL_write`` run at once on one OpenSSL connection, which OpenSSL does not allow
    (with TLS 1.3 the reader processes the server's session tickets right after the handshake, just
    as the first call is written: a write could be lost and the call never answered). Here the TLS
    state is an ``ssl.SSLObject`` over memory buffers (``ssl.MemoryBIO``), every use of it holds
    ``_tls_lock``, and the socket itself is read and written outside it. The encrypted bytes leave
    in the order the TLS state made them: they are taken out and sent under ``_send_lock`` only.
    """

    def __init__(self, sock: socket.socket, context: ssl.SSLContext, server_hostname: str) -> None:
        self.sock = sock  # read raw: no file over it (``_SocketTransport.__init__`` is not called)
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self._tls = context.wrap_bio(self._incoming, self._outgoing, server_hostname=server_hostname)
        self._tls_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._buffer = bytearray()
        self._eof = False
        self._handshake()

    def _handshake(self) -> None:
        # Before the reader thread starts: one thread only. A certificate that is not trusted
        # raises ssl.SSLCertVerificationError here, as SSLContext.wrap_socket did.
        while True:
            try:
                self._tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self._send_pending()
                data = self.sock.recv(65536)
                if not data:
                    raise ConnectionError("the server closed the connection during the TLS handshake")
                self._incoming.write(data)
        self._send_pending()

    def _send_pending(self) -> None:
        with self._send_lock:
            with self._tls_lock:
                data = self._outgoing.read()
            if data:
                self.sock.sendall(data)

    def readline(self) -> bytes:
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[: newline + 1])
                del self._buffer[: newline + 1]
                return line
            if self._eof:
                line = bytes(self._buffer)
                self._buffer.clear()
                return line
            data = self.sock.recv(65536)
            with self._tls_lock:
                if data:
                    self._incoming.write(data)
                else:
                    self._incoming.write_eof()
                while True:
                    try:
                        chunk = self._tls.read(65536)
                    except ssl.SSLWantReadError:
                        break
                    except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
                        # close_notify, or the connection ended without one (as SSLSocket's
                        # suppress_ragged_eofs read it): the end of input either way.
                        self._eof = True
                        break
                    if not chunk:
                        self._eof = True
                        break
                    self._buffer += chunk
                answer_pending = self._outgoing.pending > 0
            if answer_pending:  # what reading made TLS say back (a key update, an alert)
                self._send_pending()

    def write(self, data: bytes) -> None:
        with self._send_lock:
            with self._tls_lock:
                self._tls.write(data)
                encrypted = self._outgoing.read()
            self.sock.sendall(encrypted)

    def release(self) -> None:
        self.sock.close()


class Client:
    """A synchronous connection to a payrpc server.

    Open one with :meth:`spawn` (a child ``payrpc serve --stdio``), :meth:`connect_tcp` or
    :meth:`connect_unix`, and use it as a context manager so it always closes. Calls may be
    made from several threads at once; responses are matched to calls by id. Generated service
    proxies hang off the client: ``client.tatra.fetch_setup_data()``.
    """

    def __init__(
        self,
        transport: _Transport,
        *,
        validate: bool = True,
        schema: Union[None, str, Path, Dict[str, Any]] = None,
        default_timeout: Optional[float] = None,
        close_timeout: float = 10.0,
    ) -> None:
        self._transport = transport
        self._core = Core(SchemaSet.load(schema) if validate else None, validate)
        self.default_timeout = default_timeout
        self.close_timeout = close_timeout
        self._pending: Dict[Any, "Future[Dict[str, Any]]"] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._handlers: Dict[Optional[str], List[NotificationCallback]] = {}
        self._streams: "weakref.WeakSet[NotificationStream]" = weakref.WeakSet()
        self._closed = False
        self._eof = False
        self._proxies: Dict[str, Any] = {}
        self._token: Optional[str] = None
        self._groups: Dict[Any, Any] = {}  # id of a batch's call → id of the batch's first call
        self._reader = threading.Thread(target=self._read_loop, name="payrpc-reader", daemon=True)
        self._reader.start()

    # Opening -------------------------------------------------------------------------------

    @classmethod
    def spawn(
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
    ) -> "Client":
        """Starts ``payrpc serve --stdio [args...]`` and connects to it.

        The binary is ``binary``, else ``$PAYRPC_BIN``, else ``payrpc`` on PATH. The server's
        stderr goes to the ``payrpc.server`` logger. ``close()`` closes its stdin, so it drains
        and exits; a server that does not exit in ``close_timeout`` seconds is terminated.
        With ``profile``, the connection says ``rpc.hello`` with it first.

        The server starts clean and forgets everything when it exits (``serve --ephemeral``),
        unless ``data_dir`` names a directory to keep its state in or ``ephemeral=False`` keeps
        it in the server's default data directory (``$XDG_DATA_HOME/payrpc``, else
        ``~/.local/share/payrpc``), where the next server started that way finds it again.
        """
        command = _process.command(binary, args, data_dir, ephemeral)
        transport = _ProcessTransport(command, env, cwd)
        try:
            client = cls(transport, **options)
        except BaseException:
            transport.close(0.0)
            raise
        return client._handshake(None, profile)

    @classmethod
    def connect_tcp(
        cls, host: str, port: int, token: Optional[str] = None, *, profile: Optional[str] = None,
        connect_timeout: float = 10.0, tls: TLSOption = None, server_hostname: Optional[str] = None,
        **options: Any,
    ) -> "Client":
        """Connects to ``payrpc serve --tcp host:port``; with a token, says ``rpc.hello`` with it first.

        With ``tls`` (an ``ssl.SSLContext``, or the path of a CA file to trust) it speaks TLS, as to a
        gateway behind a TLS terminator, and checks the certificate names ``server_hostname`` (by
        default ``host``); a certificate it does not trust raises ``ssl.SSLCertVerificationError``.
        """
        sock = socket.create_connection((host, port), timeout=connect_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        context = tls_context(tls)
        if context is None:
            sock.settimeout(None)
            return cls._over_socket(sock, options)._handshake(token, profile)
        try:
            transport = _TLSTransport(sock, context, server_hostname or host)  # the handshake within connect_timeout
            sock.settimeout(None)
            client = cls(transport, **options)
        except BaseException:
            sock.close()
            raise
        return client._handshake(token, profile)

    @classmethod
    def connect_unix(
        cls, path: str, token: Optional[str] = None, *, profile: Optional[str] = None,
        connect_timeout: float = 10.0, **options: Any,
    ) -> "Client":
        """Connects to ``payrpc serve --unix path``; with a token, says ``rpc.hello`` with it first."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(connect_timeout)
        try:
            sock.connect(path)
        except BaseException:
            sock.close()
            raise
        sock.settimeout(None)
        return cls._over_socket(sock, options)._handshake(token, profile)

    @classmethod
    def _over_socket(cls, sock: socket.socket, options: Dict[str, Any]) -> "Client":
        try:
            return cls(_SocketTransport(sock), **options)
        except BaseException:
            sock.close()
            raise

    def _handshake(self, token: Optional[str], profile: Optional[str]) -> "Client":
        if token is None and profile is None:
            return self
        try:
            self.hello(token=token, profile=profile)
        except BaseException:
            self.close()
            raise
        return self

    def hello(self, *, token: Optional[str] = None, profile: Optional[str] = None, timeout: Optional[float] = None) -> Any:
        """Sends ``rpc.hello`` (client name, protocol version, token, profile); returns the answer.

        The token, once accepted, is remembered and sent with every later ``hello``."""
        params: Dict[str, Any] = {"client": CLIENT_NAME, "protocolVersion": PROTOCOL_VERSION}
        token = self._token if token is None else token
        if token is not None:
            params["token"] = token
        if profile is not None:
            params["profile"] = profile
        answer = self.call("rpc.hello", params, timeout=timeout)
        self._token = token
        return answer

    # Calls ---------------------------------------------------------------------------------

    def call(
        self, method: str, params: Any = None, *, timeout: Optional[float] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """Calls a method and returns its result (plain JSON data).

        Raises :class:`payrpc.ValidationError` before sending when the params break the schema,
        :class:`payrpc.RpcError` (the most specific subclass) when the server answers an error,
        :class:`payrpc.Timeout` when ``timeout`` seconds pass (the server is then told to cancel),
        :class:`payrpc.ConnectionClosed` when the connection ends first.
        """
        timeout = self.default_timeout if timeout is None else timeout
        rid, message = self._core.request(method, params, timeout, idempotency_key)
        future = self._register(rid)
        try:
            self._send(encode(message))
            response = future.result(timeout)
        except _FutureTimeout:
            self._abandon(rid)
            raise Timeout(f"{method} did not answer within {timeout}s") from None
        except BaseException:
            self._abandon(rid)
            raise
        return self._core.outcome(method, response)

    def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (no answer)."""
        message = self._core.notification(method, params)
        self._check_open()
        self._send(encode(message))

    def batch(self, items: Iterable[BatchItem], *, timeout: Optional[float] = None) -> List[Any]:
        """Sends several calls (and notifications) as one JSON-RPC batch.

        Entries are ``(method, params)`` tuples or :class:`payrpc.Request` values. Returns one
        item per entry, in order: the result, the :class:`payrpc.RpcError` (not raised) for a
        call that failed, or None for a notification. All params are validated before sending.
        """
        timeout = self.default_timeout if timeout is None else timeout
        messages, calls, order = self._core.batch(items, timeout)
        futures = {rid: self._register(rid, calls[0][0]) for rid, _ in calls}
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            self._send(encode(messages))
            responses = {}
            for rid, future in futures.items():
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                responses[rid] = future.result(remaining)
        except _FutureTimeout:
            for rid in futures:
                self._abandon(rid)
            raise Timeout(f"batch did not answer within {timeout}s") from None
        except BaseException:
            for rid in futures:
                self._abandon(rid)
            raise
        methods = dict(calls)
        return [None if rid is None else self._core.outcome_or_error(methods[rid], responses[rid]) for rid in order]

    # Notifications -------------------------------------------------------------------------

    def on_notification(self, method: Optional[str], callback: NotificationCallback) -> Callable[[], None]:
        """Calls ``callback(notification)`` for each notification ``method`` (None: every one).

        Callbacks run on the reader thread: keep them short and make no calls from them (that
        raises PayRpcError; it would deadlock). Returns a function that removes
        the callback. Notifications that break their schema are logged and not delivered here.
        """
        with self._lock:
            self._handlers.setdefault(method, []).append(callback)

        def remove() -> None:
            with self._lock:
                callbacks = self._handlers.get(method, [])
                if callback in callbacks:
                    callbacks.remove(callback)

        return remove

    def notifications(self, method: Optional[str] = None, *, timeout: Optional[float] = None) -> NotificationStream:
        """A queue-backed iterator of the notifications arriving from now on (of ``method``, or all)."""
        stream = NotificationStream(method, timeout)
        with self._lock:
            if self._eof:
                stream._offer(_END)
            self._streams.add(stream)
        return stream

    # The call journal ------------------------------------------------------------------------

    @property
    def calls(self) -> CallJournal:
        """The profile's call journal (sandbox mode only): ``client.calls.verify(method=...)``,
        ``count``, ``find``, ``wait``, ``list``, ``clear``; see :mod:`payrpc.calls`."""
        return CallJournal(self)

    # Closing -------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    @property
    def returncode(self) -> Optional[int]:
        """The exit status of a spawned server once it ended (None before, or for sockets)."""
        transport = self._transport
        return transport.proc.returncode if isinstance(transport, _ProcessTransport) else None

    @property
    def pid(self) -> Optional[int]:
        """The process id of a spawned server."""
        transport = self._transport
        return transport.proc.pid if isinstance(transport, _ProcessTransport) else None

    def close(self) -> None:
        """Ends the connection: the server sees end of input, finishes what is in flight and
        (stdio) exits; waits for it, then fails any call still waiting with ConnectionClosed."""
        if self._closed:
            return
        self._closed = True
        if isinstance(self._transport, _SocketTransport):
            # The server keeps a socket open after our end of input; wait only for answers in flight.
            with self._lock:
                waiting = list(self._pending.values())
            self._transport.close(self.close_timeout)
            if waiting:
                futures_wait(waiting, self.close_timeout)
            _shutdown(self._transport.sock, socket.SHUT_RDWR)
            self._reader.join(self.close_timeout)
            self._transport.release()
        else:
            self._transport.close(self.close_timeout)
            self._reader.join(self.close_timeout)
        self._fail_pending()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        proxy = self.__dict__.get("_proxies", {}).get(name)
        if proxy is None:
            proxy = service_proxy(self, name, asynchronous=False)
            self._proxies[name] = proxy
        return proxy

    # Internals -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed or self._eof:
            raise ConnectionClosed("the connection is closed")

    def _register(self, rid: Any, group: Any = None) -> "Future[Dict[str, Any]]":
        if threading.current_thread() is self._reader:
            raise PayRpcError(
                "a call from a notification callback would wait for the thread that reads its answer; "
                "use client.notifications() or hand the work to another thread"
            )
        future: "Future[Dict[str, Any]]" = Future()
        with self._lock:
            if self._closed or self._eof:
                raise ConnectionClosed("the connection is closed")
            self._pending[rid] = future
            if group is not None:
                self._groups[rid] = group
        return future

    def _abandon(self, rid: Any) -> None:
        """Forgets a call nobody waits for any more and tells the server to stop it."""
        with self._lock:
            future = self._pending.pop(rid, None)
            self._groups.pop(rid, None)
        if future is not None and not (self._closed or self._eof):
            try:
                self._send(self._core.cancel(rid))
            except (OSError, ValueError):
                pass

    def _send(self, data: bytes) -> None:
        try:
            with self._write_lock:
                self._transport.write(data)
        except (BrokenPipeError, ConnectionError, ValueError) as error:
            raise ConnectionClosed(f"the connection is closed: {error}") from error

    def _read_loop(self) -> None:
        try:
            while True:
                line = self._transport.readline()
                if not line:
                    break
                self._core.parse(line, self._on_response, self._on_notification)
        except (OSError, ValueError) as error:
            if not self._closed:
                log.warning("payrpc: reading from the server failed: %s", error)
        finally:
            with self._lock:
                self._eof = True
                streams = list(self._streams)
            for stream in streams:
                stream._offer(_END)
            self._fail_pending()

    def _fail_pending(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, {}
            self._groups = {}
        for future in pending.values():
            if not future.done():
                future.set_exception(ConnectionClosed("the connection closed before the answer arrived"))

    def _on_response(self, rid: Any, response: Dict[str, Any]) -> None:
        if rid is None:
            with self._lock:
                owners = self._core.orphan_group(self._pending, self._groups, response)
            for owner in owners:
                self._on_response(owner, response)
            return
        with self._lock:
            future = self._pending.pop(rid, None)
            self._groups.pop(rid, None)
        if future is None:
            log.debug("payrpc: an answer to %r arrived after its call gave up", rid)
        elif not future.done():
            future.set_result(response)

    def _on_notification(self, notification: Notification, problem: Optional[ValidationError]) -> None:
        with self._lock:
            callbacks = list(self._handlers.get(notification.method, ())) + list(self._handlers.get(None, ()))
            streams = list(self._streams)
        for stream in streams:
            stream._offer((notification, problem))
        if problem is not None:
            log.error("payrpc: %s", problem)
            return
        for callback in callbacks:
            try:
                callback(notification)
            except Exception:  # a handler's failure must not stop the reader
                log.exception("payrpc: the handler of %s failed", notification.method)
