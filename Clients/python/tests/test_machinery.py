"""The client's machinery against the FAKE server in ``fake_server.py`` (a test fixture, not
payrpc): what the real server will not do on demand — stay silent past a deadline, break a
schema, show which cancellations it received. Validation uses the fixture document."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time

import pytest

import payrpc
from payrpc.client import _SocketTransport

from conftest import FAKE_SERVER, FIXTURE_DOCUMENT, fake_argv, process_gone

SCHEMA = str(FIXTURE_DOCUMENT)
CONTACT = {"fullName": "Jana Nová", "phones": ["+421900000000"]}


def spawn_fake(*args: str, **options) -> payrpc.Client:
    return payrpc.Client.spawn(str(FAKE_SERVER), args, schema=SCHEMA, **options)


async def aspawn_fake(*args: str, **options) -> payrpc.AsyncClient:
    return await payrpc.AsyncClient.spawn(str(FAKE_SERVER), args, schema=SCHEMA, **options)


# Sync -----------------------------------------------------------------------------------------


def test_spawn_calls_and_ends_the_server_cleanly(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="payrpc.server")
    with spawn_fake() as client:
        assert client.call("rpc.health") == {"status": "SERVING"}
        pid = client.pid
    assert client.returncode == 0
    assert process_gone(pid)
    assert any("request rpc.health" in r.getMessage() for r in caplog.records if r.name == "payrpc.server")


def test_server_is_ended_when_the_block_raises() -> None:
    with pytest.raises(RuntimeError):
        with spawn_fake() as client:
            pid = client.pid
            raise RuntimeError("the test failed")
    assert client.returncode == 0
    assert process_gone(pid)


def test_a_server_that_does_not_exit_is_terminated() -> None:
    client = spawn_fake("--ignore-eof", close_timeout=0.5)
    assert client.call("rpc.health")["status"] == "SERVING"
    started = time.monotonic()
    client.close()
    assert time.monotonic() - started < 5
    assert client.returncode is not None and client.returncode != 0
    assert process_gone(client.pid)


def test_invalid_params_raise_before_anything_is_sent() -> None:
    mine, theirs = socket.socketpair()
    theirs.settimeout(5)
    client = payrpc.Client(_SocketTransport(mine), schema=SCHEMA)
    try:
        with pytest.raises(payrpc.ValidationError) as raised:
            client.call("tatra.executePayment", {"amount": "1,00", "contact": CONTACT})
        assert raised.value.pointer == "/amount"
        assert "/amount" in str(raised.value)
        with pytest.raises(payrpc.ValidationError) as raised:
            client.call("tatra.executePayment", {"amount": "1.00", "contact": {"phones": []}})
        assert raised.value.pointer == "/contact/fullName"
        client.notify("test.marker", {})
        first = theirs.makefile("rb").readline()
        assert json.loads(first)["method"] == "test.marker"
    finally:
        theirs.close()
        client.close()


def test_meta_carries_timeout_and_idempotency_key_and_is_not_validated() -> None:
    mine, theirs = socket.socketpair()
    theirs.settimeout(5)
    client = payrpc.Client(_SocketTransport(mine), schema=SCHEMA)
    try:
        answers = []
        thread = threading.Thread(
            target=lambda: answers.append(
                client.call("tatra.executePayment", {"amount": "1.00", "contact": CONTACT}, timeout=2.5, idempotency_key="k-1")
            ),
            daemon=True,
        )
        thread.start()
        request = json.loads(theirs.makefile("rb").readline())
        assert request["params"]["_meta"] == {"timeoutMs": 2500, "idempotencyKey": "k-1"}
        assert request["params"]["amount"] == "1.00"
        theirs.sendall(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": "ok"}).encode() + b"\n")
        thread.join(5)
        assert answers == ["ok"]
    finally:
        theirs.close()
        client.close()


def test_an_error_without_an_id_fails_the_only_request_in_flight() -> None:
    mine, theirs = socket.socketpair()
    theirs.settimeout(5)
    client = payrpc.Client(_SocketTransport(mine), schema=SCHEMA)
    try:
        outcome = []

        def batch() -> None:
            try:
                outcome.append(client.batch([("rpc.health", None), ("test.echo", {})], timeout=10))
            except payrpc.PayRpcError as error:
                outcome.append(error)

        thread = threading.Thread(target=batch, daemon=True)
        thread.start()
        assert len(json.loads(theirs.makefile("rb").readline())) == 2
        error = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
        theirs.sendall(json.dumps(error).encode() + b"\n")
        thread.join(5)
        assert [type(e) for e in outcome[0]] == [payrpc.InvalidRequest, payrpc.InvalidRequest]
    finally:
        theirs.close()
        client.close()


def test_results_that_break_the_schema_raise_naming_the_pointer() -> None:
    with spawn_fake() as client:
        with pytest.raises(payrpc.ValidationError) as raised:
            client.call("tatra.fetchBalance")
        assert raised.value.pointer == "/balance"


def test_validation_can_be_turned_off() -> None:
    with payrpc.Client.spawn(str(FAKE_SERVER), validate=False) as client:
        assert client.call("tatra.fetchBalance")["balance"] == "12,50"


def test_errors_become_specific_exceptions() -> None:
    with spawn_fake() as client:
        with pytest.raises(payrpc.MethodNotFound) as missing:
            client.call("nope.nothing")
        assert missing.value.code == -32601
        with pytest.raises(payrpc.DomainError) as domain:
            client.call("tatra.authorize", {"pincode": "9999"})
        assert domain.value.code == -33005
        assert domain.value.status == "UNAUTHENTICATED"
        assert domain.value.data["applicationBlocked"] is True


def test_local_timeout_raises_and_cancels_on_the_server() -> None:
    with spawn_fake() as client:
        started = time.monotonic()
        with pytest.raises(payrpc.Timeout):
            client.call("test.sleep", {"ms": 20000, "ignoreDeadline": True}, timeout=0.2)
        assert time.monotonic() - started < 5
        assert len(client.call("test.cancelled")) == 1


def test_server_deadline_is_a_timeout_too() -> None:
    with spawn_fake() as client:
        with pytest.raises(payrpc.Timeout):
            client.call("test.sleep", {"ms": 20000}, timeout=0.3)


def test_notifications_reach_streams_and_handlers() -> None:
    with spawn_fake() as client:
        seen = []
        arrived = threading.Event()

        def handler(notification: payrpc.Notification) -> None:
            seen.append(notification)
            arrived.set()

        remove = client.on_notification("pbba.popupDidExpire", handler)
        stream = client.notifications("pbba.popupDidExpire", timeout=5)
        client.call("test.notify", {"method": "pbba.popupDidExpire", "params": {"secureToken": "tok"}})
        notification = next(stream)
        assert notification == payrpc.Notification("pbba.popupDidExpire", {"secureToken": "tok"})
        assert arrived.wait(5)
        assert seen == [notification]
        remove()
        with pytest.raises(payrpc.Timeout):
            stream.get(timeout=0.05)


def test_a_call_from_a_callback_raises_instead_of_deadlocking() -> None:
    with spawn_fake() as client:
        outcome = []
        done = threading.Event()

        def handler(notification: payrpc.Notification) -> None:
            try:
                client.call("rpc.health")
            except payrpc.PayRpcError as error:
                outcome.append(error)
            done.set()

        client.on_notification(None, handler)
        client.call("test.notify", {"method": "x.y", "params": {}})
        assert done.wait(5)
        assert "notification callback" in str(outcome[0])


def test_a_notification_that_breaks_its_schema_raises_in_the_stream() -> None:
    with spawn_fake() as client:
        stream = client.notifications(timeout=5)
        client.call("test.notify", {"method": "pbba.popupDidExpire", "params": {"secureToken": 7}})
        with pytest.raises(payrpc.ValidationError) as raised:
            next(stream)
        assert raised.value.pointer == "/secureToken"
        client.call("test.notify", {"method": "pbba.popupDidExpire", "params": {"secureToken": "ok"}})
        assert next(stream).params == {"secureToken": "ok"}


def test_the_stream_ends_when_the_connection_closes() -> None:
    client = spawn_fake()
    stream = client.notifications(timeout=5)
    client.close()
    assert list(stream) == []


def test_batch_answers_in_order_with_errors_as_values() -> None:
    with spawn_fake() as client:
        stream = client.notifications(timeout=5)
        answers = client.batch(
            [
                ("rpc.health", None),
                ("tatra.authorize", {"pincode": "0000"}),
                payrpc.Request("test.notify", {"method": "x.y", "params": {}}, notify=True),
                ("test.echo", {"n": 1}),
            ]
        )
        assert answers[0] == {"status": "SERVING"}
        assert isinstance(answers[1], payrpc.DomainError) and answers[1].data["applicationBlocked"] is False
        assert answers[2] is None
        assert answers[3] == {"n": 1}
        assert next(stream).method == "x.y"


def test_batch_validates_every_entry_first() -> None:
    with spawn_fake() as client:
        with pytest.raises(payrpc.ValidationError):
            client.batch([("rpc.health", None), ("tatra.authorize", {"pincode": 12})])
        assert client.call("test.cancelled") == []


def test_many_threads_share_one_connection() -> None:
    with spawn_fake() as client:
        results = {}

        def worker(n: int) -> None:
            results[n] = client.call("test.echo", {"n": n})

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(50)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert results == {n: {"n": n} for n in range(50)}


def test_tcp_with_token(tcp_server_factory) -> None:
    server = tcp_server_factory(fake_argv("serve", "--tcp", "127.0.0.1:0", "--token", "s3cret"))
    with payrpc.Client.connect_tcp(server.host, server.port, token="s3cret", schema=SCHEMA) as client:
        assert client.call("rpc.health") == {"status": "SERVING"}
    with payrpc.Client.connect_tcp(server.host, server.port, schema=SCHEMA) as client:
        with pytest.raises(payrpc.Unauthenticated):
            client.call("rpc.health")
    with pytest.raises(payrpc.Unauthenticated):
        payrpc.Client.connect_tcp(server.host, server.port, token="wrong", schema=SCHEMA)


def test_calls_fail_with_connection_closed_when_the_server_dies() -> None:
    with spawn_fake() as client:
        outcome = {}

        def slow() -> None:
            try:
                client.call("test.sleep", {"ms": 30000})
            except payrpc.PayRpcError as error:
                outcome["error"] = error

        thread = threading.Thread(target=slow)
        thread.start()
        client.call("test.echo", {})  # the slow call was sent first
        client._transport.proc.kill()
        thread.join(10)
        assert isinstance(outcome.get("error"), payrpc.ConnectionClosed)
        with pytest.raises(payrpc.ConnectionClosed):
            client.call("rpc.health")


# Asyncio --------------------------------------------------------------------------------------


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def test_async_thousand_concurrent_calls_on_one_connection() -> None:
    async def main() -> None:
        async with await aspawn_fake() as client:
            answers = await asyncio.gather(*(client.call("test.echo", {"n": n}) for n in range(1000)))
            assert answers == [{"n": n} for n in range(1000)]
        assert client.returncode == 0

    run(main())


def test_async_cancellation_sends_cancel_request() -> None:
    async def main() -> None:
        async with await aspawn_fake() as client:
            task = asyncio.ensure_future(client.call("test.sleep", {"ms": 30000}))
            await asyncio.sleep(0)  # one turn of the loop: the request is written
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            cancelled = await client.call("test.cancelled")
            assert len(cancelled) == 1

    run(main())


def test_async_timeout_validation_errors_and_notifications() -> None:
    async def main() -> None:
        async with await aspawn_fake() as client:
            with pytest.raises(payrpc.Timeout):
                await client.call("test.sleep", {"ms": 20000, "ignoreDeadline": True}, timeout=0.2)
            assert len(await client.call("test.cancelled")) == 1
            with pytest.raises(payrpc.ValidationError) as raised:
                await client.call("tatra.executePayment", {"amount": 10, "contact": CONTACT})
            assert raised.value.pointer == "/amount"

            handled = asyncio.Event()

            async def handler(notification: payrpc.Notification) -> None:
                handled.set()

            client.on_notification("pbba.popupDidExpire", handler)
            stream = client.notifications(timeout=5)
            await client.notify("test.notify", {"method": "pbba.popupDidExpire", "params": {"secureToken": "t"}})
            async for notification in stream:
                assert notification.params == {"secureToken": "t"}
                break
            await asyncio.wait_for(handled.wait(), 5)
            with pytest.raises(payrpc.Timeout):
                await stream.get(timeout=0.05)
            batch = await client.batch([("rpc.health", None), ("nope.x", {})])
            assert batch[0] == {"status": "SERVING"} and isinstance(batch[1], payrpc.MethodNotFound)

    run(main())


def test_async_tcp_and_connection_closed(tcp_server_factory) -> None:
    server = tcp_server_factory(fake_argv("serve", "--tcp", "127.0.0.1:0", "--token", "t0k"))

    async def main() -> None:
        async with await payrpc.AsyncClient.connect_tcp(server.host, server.port, token="t0k", schema=SCHEMA) as client:
            assert await client.call("rpc.health") == {"status": "SERVING"}
        async with await aspawn_fake() as client:
            slow = asyncio.ensure_future(client.call("test.sleep", {"ms": 30000}))
            await client.call("test.echo", {})
            client._process.kill()
            with pytest.raises(payrpc.ConnectionClosed):
                await slow
            stream = client.notifications()
            assert [n async for n in stream] == []

    run(main())
    assert server.proc.poll() is None


def test_unix_socket_sync_and_async(tcp_server_factory, tmp_path) -> None:
    path = str(tmp_path / "payrpc.sock")
    tcp_server_factory(fake_argv("serve", "--unix", path, "--token", "u"))
    with payrpc.Client.connect_unix(path, token="u", schema=SCHEMA) as client:
        assert client.call("rpc.health") == {"status": "SERVING"}

    async def main() -> None:
        async with await payrpc.AsyncClient.connect_unix(path, token="u", schema=SCHEMA) as client:
            assert await client.call("rpc.health") == {"status": "SERVING"}
            with pytest.raises(payrpc.Unauthenticated):
                await client.hello(token="wrong")

    run(main())
