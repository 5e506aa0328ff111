"""``client.calls``: the call journal's helpers, their wire form, and their assertions against the
REAL payrpc binary (``$PAYRPC_BIN``): verify, count, sequences, waits woken by another
connection's call, waits that run out of time, clear."""

from __future__ import annotations

import asyncio
import re
import unittest
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import Iterator, List

import pytest

import payrpc
from payrpc.calls import Match, absent, equals, match_json, pattern, present
from payrpc.errors import from_wire
from payrpc.generated.errors import tatra as tatra_errors
from payrpc.generated.services import rpc, tatra

JANA = tatra.Contact(full_name="Jana Nováková", phones=["+421900123456"])


def server_args(data_dir: Path) -> List[str]:
    return ["--data", str(data_dir), "--validate-results"]


@pytest.fixture
def client(payrpc_bin: str, data_dir: Path) -> Iterator[payrpc.Client]:
    with payrpc.Client.spawn(payrpc_bin, server_args(data_dir)) as connection:
        yield connection
    assert connection.returncode == 0


def make_calls(client: payrpc.Client) -> None:
    """Two health checks, then a payment over the limit (answered with AmountLimit)."""
    client.rpc.health()
    client.rpc.health()
    with pytest.raises(tatra_errors.AmountLimit):
        client.tatra.execute_payment(amount=Decimal("5000.01"), contact=JANA, reference="Lunch")


# The wire form (no server) ------------------------------------------------------------------


def test_keyword_matches_become_the_wire_match() -> None:
    wire = match_json(
        method="tatra.executePayment", kind=rpc.CallEntryKind.CALL, failed=False, url=re.compile(r"/payments/"),
        params={"/amount": Decimal("12.50"), "/pin": present, "/note": absent, "/reference": pattern(re.compile("^Lun")), "/tip": equals(None)},
        entry=[rpc.CallCondition(pointer="/error/code", equals=-33003), {"pointer": "/result", "absent": True}],
    )
    assert wire == {
        "method": "tatra.executePayment",
        "kind": "call",
        "failed": False,
        "url": "/payments/",
        "params": [
            {"pointer": "/amount", "equals": "12.50"},
            {"pointer": "/pin", "present": True},
            {"pointer": "/note", "absent": True},
            {"pointer": "/reference", "pattern": "^Lun"},
            {"pointer": "/tip", "equals": None},
        ],
        "entry": [{"pointer": "/error/code", "equals": -33003}, {"pointer": "/result", "absent": True}],
    }
    assert match_json() == {}
    assert match_json({"method": "rpc.health", "params": {"/x": 1}}) == match_json(Match(method="rpc.health", params={"/x": 1}))
    assert match_json(rpc.CallMatch(method="rpc.health")) == {"method": "rpc.health"}
    with pytest.raises(TypeError, match="not both"):
        match_json({"method": "rpc.health"}, method="rpc.health")
    with pytest.raises(TypeError, match="JSON Pointer"):
        match_json(params="/amount")


def test_journal_errors_are_assertion_errors_with_every_miss_in_the_message() -> None:
    error = from_wire({
        "code": -32010,
        "message": "Call verification failed: expected exactly 1 ..., found 0",
        "data": {
            "expected": "exactly 1",
            "matched": 0,
            "nearestMisses": [
                {"entry": "1.3", "method": "tatra.executePayment", "differences": [
                    {"pointer": "/params/amount", "expected": 'equals "12.50"', "actual": "5000.01"},
                    {"pointer": "/params/reference", "expected": "present"},
                    {"pointer": "/params/tip", "expected": "absent", "actual": None},
                ]},
            ],
        },
    })
    assert isinstance(error, payrpc.CallVerificationError)
    assert isinstance(error, AssertionError) and isinstance(error, payrpc.RpcError) and error.code == -32010
    assert str(error) == "\n".join([
        "Call verification failed: expected exactly 1 ..., found 0",
        "nearest misses:",
        "  1.3 (tatra.executePayment)",
        '    /params/amount: expected equals "12.50", found "5000.01"',
        "    /params/reference: expected present, found nothing",
        "    /params/tip: expected absent, found null",
    ])
    assert error.failure.nearest_misses[0].differences[0].actual == "5000.01"
    late = from_wire({"code": -32011, "message": "Calls not seen in time", "data": {"expected": "at least 1", "matched": 0, "nearestMisses": []}})
    assert isinstance(late, payrpc.CallsNotSeenError) and isinstance(late, AssertionError) and str(late) == "Calls not seen in time"
    broken = from_wire({"code": -32010, "message": "Call verification failed", "data": "not an object"})
    assert str(broken) == "Call verification failed" and broken.failure == "not an object" and broken.nearest_misses == []


def test_unittest_counts_a_journal_error_as_a_failure_not_an_error() -> None:
    class Journal(unittest.TestCase):
        def test_verify(self) -> None:
            raise from_wire({"code": -32010, "message": "Call verification failed", "data": None})

    outcome = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Journal).run(outcome)
    assert len(outcome.failures) == 1 and outcome.errors == []


# Against the real binary ----------------------------------------------------------------------


def test_verify_and_count_hold_and_a_failed_verify_names_the_pointer(client: payrpc.Client) -> None:
    make_calls(client)
    held = client.calls.verify(method="rpc.health", times=2)
    assert isinstance(held, rpc.CallVerification) and held.matched == 2 and len(held.entries) == 2
    client.calls.verify(method="tatra.executePayment", failed=True, params={"/amount": "5000.01", "/reference": pattern("^Lun")})
    client.calls.verify(method="tatra.executePayment", entry={"/error/code": tatra_errors.AmountLimit.code_value})
    client.calls.verify(method="rpc.health", at_least=1, at_most=2)
    assert client.calls.count(method="rpc.health") == 2
    assert client.calls.count() == 3
    assert [entry.method for entry in client.calls.find(kind="call", limit=2)] == ["rpc.health", "rpc.health"]

    with pytest.raises(payrpc.CallVerificationError) as failed:
        client.calls.verify(method="tatra.executePayment", params={"/amount": Decimal("12.50"), "/pin": present})
    message = str(failed.value)
    assert message.startswith("Call verification failed")
    assert '/params/amount: expected equals "12.50", found "5000.01"' in message
    assert "/params/pin: expected present, found nothing" in message
    nearest = failed.value.failure.nearest_misses[0]
    assert nearest.method == "tatra.executePayment"
    assert [d.pointer for d in nearest.differences] == ["/params/amount", "/params/pin"]
    assert failed.value.failure.matched == 0 and failed.value.failure.expected == "exactly 1"

    with pytest.raises(payrpc.CallVerificationError, match="exactly 1"):
        client.calls.verify(method="rpc.health")  # there were two


def test_sequences_hold_in_order_and_fail_out_of_order(client: payrpc.Client) -> None:
    make_calls(client)
    held = client.calls.verify(sequence=[{"method": "rpc.health"}, Match(method="tatra.executePayment", failed=True)])
    assert held.matched == 2
    with pytest.raises(payrpc.CallVerificationError) as wrong:
        client.calls.verify(sequence=[{"method": "tatra.executePayment"}, {"method": "rpc.health"}])
    assert wrong.value.failure.step == 1 and wrong.value.failure.matched == 1
    assert "step 2 of 2 of the sequence (rpc.health)" in str(wrong.value)
    with pytest.raises(TypeError):
        client.calls.verify(method="rpc.health", sequence=[{"method": "rpc.health"}])


def test_a_wait_is_answered_by_a_call_another_connection_makes(payrpc_bin: str, data_dir: Path, tcp_server_factory) -> None:
    server = tcp_server_factory([payrpc_bin, "serve", "--tcp", "127.0.0.1:0", *server_args(data_dir)])
    with payrpc.Client.connect_tcp(server.host, server.port) as waiter, payrpc.Client.connect_tcp(server.host, server.port) as caller:
        waiter.rpc.health()
        page = waiter.calls.list()
        mine = page.entries[-1].connection
        with ThreadPoolExecutor(1) as pool:
            # Only what is journalled after the cursor counts: the waiter's own health check
            # does not, so the wait is answered by the caller's call however the two race.
            waiting = pool.submit(waiter.calls.wait, method="rpc.health", after=page.next, timeout_ms=60_000, timeout=120)
            caller.rpc.health()
            entries = waiting.result(120)
        assert [entry.method for entry in entries] == ["rpc.health"]
        assert entries[0].connection != mine
    assert server.stop() == 0


def test_a_wait_that_times_out_raises_calls_not_seen(client: payrpc.Client) -> None:
    make_calls(client)
    with pytest.raises(payrpc.CallsNotSeenError) as late:
        client.calls.wait(method="tatra.authorize", timeout_ms=50)
    assert isinstance(late.value, AssertionError) and late.value.code == -32011
    message = str(late.value)
    assert message.startswith("Calls not seen in time") and "tatra.authorize" in message
    assert '/method: expected tatra.authorize, found "tatra.executePayment"' in message
    assert late.value.failure.matched == 0
    # Calls already there answer at once.
    assert len(client.calls.wait(method="rpc.health", count=2, timeout_ms=50)) == 2


def test_clear_empties_the_journal(client: payrpc.Client) -> None:
    make_calls(client)
    assert client.calls.clear() == 3
    assert client.calls.count() == 0
    with pytest.raises(payrpc.CallVerificationError):
        client.calls.verify(method="rpc.health", at_least=1)
    client.calls.verify(method="rpc.health", times=0)


def test_other_errors_stay_the_clients_usual_ones(client: payrpc.Client) -> None:
    with pytest.raises(payrpc.ValidationError):
        client.calls.verify(method="rpc.health", params={"no-slash": 1})  # not a JSON Pointer: refused before sending
    with pytest.raises(payrpc.InvalidParams):  # the server's own rule: one count at a time
        client.calls.verify(method="rpc.health", times=1, at_least=1)


def test_the_async_client_has_the_same_journal(payrpc_bin: str, data_dir: Path) -> None:
    async def main() -> None:
        async with await payrpc.AsyncClient.spawn(payrpc_bin, server_args(data_dir)) as client:
            await client.rpc.health()
            cursor = (await client.calls.list()).next
            waiting = asyncio.ensure_future(client.calls.wait(method="tatra.fetchSetupData", after=cursor, timeout_ms=60_000))
            await client.tatra.fetch_setup_data()
            assert [entry.method for entry in await waiting] == ["tatra.fetchSetupData"]
            assert (await client.calls.verify(sequence=[{"method": "rpc.health"}, {"method": "tatra.fetchSetupData"}])).matched == 2
            assert await client.calls.count(method="rpc.health") == 1
            assert len(await client.calls.find(method="rpc.health")) == 1
            with pytest.raises(payrpc.CallVerificationError, match="/method"):
                await client.calls.verify(method="tatra.authorize")
            with pytest.raises(payrpc.CallsNotSeenError):
                await client.calls.wait(method="tatra.authorize", timeout_ms=20)
            assert await client.calls.clear() == 2
        assert client.returncode == 0

    asyncio.run(asyncio.wait_for(main(), 120))
