"""The client against the REAL payrpc binary (``$PAYRPC_BIN``), over stdio and TCP.

Every built-in method, one call per service method the stubs list (through the generated
proxies), errors, deadlines, cancellation, notifications, 1000 concurrent calls on one
asyncio connection, and the process ending cleanly.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import os
import signal
import threading
import time
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

import pytest

import payrpc
import payrpc.errors
from payrpc.schema import bundled_document

from conftest import process_gone

CLIENT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CLIENT_DIR))
import generate  # noqa: E402

DOCUMENT = bundled_document()
SERVER_ARGS: Tuple[str, ...] = ("--validate-results",)


def server_args(data_dir: Path) -> List[str]:
    """The options every live server gets: its own data directory; it checks its own answers too."""
    return ["--data", str(data_dir), *SERVER_ARGS]


@pytest.fixture
def client(payrpc_bin: str, data_dir: Path) -> Iterator[payrpc.Client]:
    with payrpc.Client.spawn(payrpc_bin, server_args(data_dir)) as connection:
        yield connection
    assert connection.returncode == 0


@pytest.fixture
def tcp_server(payrpc_bin: str, data_dir: Path, tcp_server_factory):
    return tcp_server_factory([payrpc_bin, "serve", "--tcp", "127.0.0.1:0", *server_args(data_dir)])


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 120))


# Built-in methods ----------------------------------------------------------------------------


def check_builtins(client: payrpc.Client) -> None:
    assert client.call("rpc.health") == {"status": "SERVING"}
    hello = client.hello(profile="builtins")
    assert hello["methods"] == len(DOCUMENT["methods"]) and hello["profile"] == "builtins"
    assert hello["server"] == "payrpc" and hello["protocolVersion"] == payrpc._core.PROTOCOL_VERSION
    assert client.call("rpc.discover") == DOCUMENT
    client.notify("$/cancelRequest", {"id": 999999})  # nothing to cancel: ignored
    assert client.rpc.health().status.value == "SERVING"


def test_builtins_over_stdio(client: payrpc.Client) -> None:
    check_builtins(client)


def test_builtins_over_tcp(tcp_server) -> None:
    with payrpc.Client.connect_tcp(tcp_server.host, tcp_server.port) as client:
        check_builtins(client)
    assert tcp_server.stop() == 0


def test_discover_matches_the_bundled_document_the_stubs_came_from(client: payrpc.Client) -> None:
    served = client.call("rpc.discover")
    assert [m["name"] for m in served["methods"]] == [m["name"] for m in DOCUMENT["methods"]]


# One call per service method -----------------------------------------------------------------

Params = Union[Dict[str, Any], Callable[[Dict[str, Any]], Dict[str, Any]]]

JANA = {"fullName": "Jana Nováková", "phones": ["+421900123456"]}
VISA = {"number": "4032036247327321", "expiry": "2199-12"}  # the scenario moves the clock to 2100
OPENER_URL = "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"
DOTPAY_PAYMENT = {"merchantID": "10000", "amount": Decimal("100.00"), "textDescription": "Some description"}
DOTPAY_CARD = {"cardNumber": "4111111111111111", "expirationMonth": 12, "expirationYear": 2199, "cvv": "123"}
ORDER_REQUEST = {"purchaseUnitList": [{"amount": {"currencyCode": "USD", "value": "10.00"}}]}

#: The scenario: (method, params or a function of what earlier steps saved, name to save the result as).
#: Magic values are the sandbox's documented ones (see each method's description).
STEPS: List[Tuple[str, Params, Optional[str]]] = [
    ("sandbox.delay", {"ms": 1}, None),
    ("sandbox.reset", {}, None),
    ("sandbox.clock.get", {}, "clock"),
    ("sandbox.clock.advance", {"seconds": 60}, None),
    ("sandbox.clock.set", {"time": datetime(2100, 1, 1, tzinfo=timezone.utc)}, None),
    ("sandbox.failNext", {"method": "tatra.getIban", "code": -33006}, None),
    ("tatra.onFlowStart", {}, None),
    ("tatra.fetchSetupData", {}, "setup"),
    ("tatra.fetchTopContacts", {}, None),
    ("tatra.fetchContacts", {}, None),
    ("tatra.executePayment", {"amount": Decimal("90.05"), "contact": JANA, "reference": "Lunch"}, None),
    ("tatra.authorizePayment", {"pincode": "1234"}, "out_of_service"),
    ("tatra.resubmitPayment", lambda saved: {"paymentId": saved["out_of_service"].payment_id}, None),
    ("tatra.authorize", {"pincode": "1234"}, None),
    ("tatra.fetchBalance", {}, None),
    ("tatra.getIban", {}, None),
    ("tatra.onFlowStop", {}, None),
    ("sandbox.calls.list", {"method": "tatra.onFlowStop", "limit": 5}, None),
    ("sandbox.calls.count", {"match": {"method": "tatra.onFlowStop"}}, None),
    ("sandbox.calls.find", {"match": {"method": "tatra.onFlowStop"}, "limit": 1}, None),
    ("sandbox.calls.verify", {"match": {"method": "tatra.onFlowStop"}, "times": 1}, None),
    ("sandbox.calls.wait", {"match": {"method": "tatra.onFlowStop"}, "timeoutMs": 1000}, None),
    ("sandbox.calls.clear", {}, None),
    ("sandbox.tatra.setContactPermission", {"granted": True}, None),
    ("sandbox.tatra.setActivated", {"activated": True}, None),
    ("sandbox.tatra.resetProfile", {}, None),
    ("pbba.isCFIAppAvailable", {}, None),
    ("sandbox.pbba.setBankAppsInstalled", {"count": 1}, None),
    ("pbba.submitPaymentRequest", {"amount": Decimal("10.00"), "currency": "GBP", "reference": "Order 1"}, "request"),
    (
        "pbba.showPBBAPopup",
        lambda saved: {"secureToken": saved["request"].secure_token, "brn": saved["request"].brn, "expiryInterval": 300},
        "popup",
    ),
    ("sandbox.pbba.tapMoreAbout", lambda saved: {"popupId": saved["popup"].popup_id}, None),
    ("sandbox.pbba.tapOpenBankingApp", lambda saved: {"popupId": saved["popup"].popup_id}, None),
    ("sandbox.pbba.tapGetCode", lambda saved: {"popupId": saved["popup"].popup_id}, None),
    ("pbba.dismissPopup", lambda saved: {"popupId": saved["popup"].popup_id}, None),
    (
        "pbba.showPBBAErrorPopup",
        {"errorCode": "E1", "errorTitle": "Payment failed", "errorMessage": "Try again"},
        "error_popup",
    ),
    ("sandbox.pbba.closePopup", lambda saved: {"popupId": saved["error_popup"].popup_id}, None),
    ("sandbox.pbba.tapTryAgain", lambda saved: {"popupId": saved["error_popup"].popup_id}, None),
    ("pbba.openBankingApp", lambda saved: {"secureToken": saved["request"].secure_token}, None),
    ("pbba.getPaymentStatus", lambda saved: {"secureToken": saved["request"].secure_token}, None),
    ("sandbox.pbba.approvePayment", lambda saved: {"secureToken": saved["request"].secure_token}, None),
    (
        "sandbox.pbba.registerExternalRequest",
        {"secureToken": "distributor-token-1", "brn": "Q4RT7W", "amount": Decimal("5.00"), "currency": "GBP",
         "reference": "Outside"},
        None,
    ),
    ("sandbox.pbba.declinePayment", lambda saved: {"secureToken": saved["request"].secure_token}, None),
    ("pbba.getCustomUXConfigurations", {"width": 320, "type": "moreAboutAndBankLogos"}, None),
    ("northstar.configure", {"clientID": "python-tests"}, None),
    ("northstar.tokenizeCard", {"card": VISA}, "nonce"),
    ("northstar.executeOrder", {"orderRequest": ORDER_REQUEST, "card": VISA}, None),
    ("sandbox.northstar.createOrder", {"intent": "AUTHORIZE", "purchaseUnits": ORDER_REQUEST["purchaseUnitList"]}, "order"),
    ("northstar.validate", lambda saved: {"orderID": saved["order"].order_id, "nonce": saved["nonce"].nonce}, None),
    ("sandbox.northstar.getOrder", lambda saved: {"orderID": saved["order"].order_id}, None),
    ("sandbox.northstar.completePayerAction", lambda saved: {"orderID": saved["order"].order_id}, None),
    ("sandbox.northstar.voidOrder", lambda saved: {"orderID": saved["order"].order_id}, None),
    ("sandbox.northstar.createOrder", {"intent": "AUTHORIZE", "purchaseUnits": ORDER_REQUEST["purchaseUnitList"]}, "to_authorize"),
    ("northstar.executeOrder", lambda saved: {"orderID": saved["to_authorize"].order_id, "card": VISA}, "authorized"),
    ("northstar.captureAuthorization", lambda saved: {"authorizationID": saved["authorized"].transaction.id}, None),
    ("dotpay.getLanguageList", {}, None),
    ("dotpay.setDefaultLanguage", {"language": "en"}, None),
    ("dotpay.setDebugMode", {"debugMode": True}, None),
    ("dotpay.getSdkVersion", {}, None),
    ("dotpay.getCurrencyList", {}, None),
    ("dotpay.setShowDetailsOnSummaryScreen", {"show": True}, None),
    ("dotpay.paymentHistory.registerObserver", {}, None),
    ("dotpay.getChannelList", {"paymentInfo": DOTPAY_PAYMENT}, "channels"),
    ("dotpay.pay", lambda saved: {"paymentDetails": saved["channels"].payment_details.to_json(), "channelId": 73}, "paid"),
    ("dotpay.fastPayment", {"paymentInfo": DOTPAY_PAYMENT, "paymentChannelId": 212, "showingDefaultSummary": False}, None),
    ("dotpay.registerPaymentCard", {"cardInfo": DOTPAY_CARD}, "card"),
    ("dotpay.paymentCards", {}, None),
    ("dotpay.defaultOneClickPaymentCard", {}, None),
    ("dotpay.setDefaultOneClickPaymentCard", lambda saved: {"creditCardId": saved["card"].credit_card_id}, None),
    ("dotpay.oneClickPayment", {"paymentInfo": DOTPAY_PAYMENT}, None),
    ("dotpay.setOneClickEnabled", {"enabled": True}, None),
    ("dotpay.setTreatsCvvAsPassword", {"treatsCvvAsPassword": True}, None),
    ("dotpay.configureWithExternalCards", {"externalCards": [], "customerId": "customer-1"}, None),
    ("dotpay.setUseInternalCards", {"useInternalCards": True}, None),
    ("dotpay.clearExternalCardsData", {}, None),
    ("dotpay.unregisterPaymentCard", lambda saved: {"creditCardId": saved["card"].credit_card_id}, None),
    ("dotpay.clearData", {}, None),
    ("dotpay.paymentHistory", {}, None),
    ("dotpay.updatePaymentSummary", lambda saved: {"paymentId": saved["paid"].payment_id}, None),
    ("dotpay.getSettings", {}, None),
    ("sandbox.dotpay.setShopPin", {"pin": "Pin2026"}, None),
    ("sandbox.dotpay.refund", lambda saved: {"paymentId": saved["paid"].payment_id, "amount": Decimal("1.00")}, None),
    ("sandbox.dotpay.urlcNotifications", {}, None),
    ("sandbox.dotpay.deliverUrlc", {}, None),
    ("dotpay.masterpass.didCreateAuthorization", {"requestId": "mpa_none", "successful": True}, None),
    ("dotpay.masterpass.didAuthorizeUser", {"requestId": "mpa_none", "successful": False, "error": "wrong PIN"}, None),
    ("dotpay.removePaymentSummary", lambda saved: {"paymentId": saved["paid"].payment_id}, None),
    ("dotpay.paymentHistory.unregisterObserver", {}, None),
    ("journal.configure", {"backendURL": None}, None),
    ("sandbox.journal.setNextAnswers", {"answers": [{"outcome": "accept"}]}, None),
    ("journal.openURL", {"url": OPENER_URL}, None),
    ("journal.pay", {"type": "creditCard", "amount": Decimal("10000")}, "handoff"),
    ("sandbox.journal.completePayment", lambda saved: {"url": saved["handoff"].url}, "callback"),
    ("journal.handleCallback", lambda saved: {"url": saved["callback"].callback_url}, "entry"),
    ("journal.list", {"limit": 10}, None),
    ("journal.get", lambda saved: {"entryId": saved["entry"].entry_id}, None),
    ("journal.sync", {}, None),
]


def service_methods() -> List[str]:
    return [m["name"] for m in DOCUMENT["methods"] if "." in m["name"] and not m["name"].startswith(("rpc.", "$/"))]


def proxy_call(client: Any, method: str, params: Dict[str, Any]) -> Any:
    service, rest = method.split(".", 1)
    function = getattr(getattr(client, service), generate.identifier(rest))
    return function(**{generate.identifier(k): v for k, v in params.items()})


def test_the_scenario_covers_every_service_method() -> None:
    covered = {method for method, _, _ in STEPS}
    missing = [m for m in service_methods() if m not in covered]
    assert not missing, f"add a step to STEPS in test_live.py for: {missing}"


def run_scenario(client: payrpc.Client) -> Dict[str, Any]:
    saved: Dict[str, Any] = {}
    outcomes: Dict[str, Any] = {}
    for method, params, save in STEPS:
        if method not in service_methods():
            continue
        arguments = params(saved) if callable(params) else params
        try:
            result = proxy_call(client, method, arguments)
        except payrpc.DomainError as error:  # a documented error of the method is an answer too
            result = error
        if save:
            saved[save] = result
        outcomes[method] = result
    return outcomes


def test_every_service_method_over_stdio(client: payrpc.Client) -> None:
    outcomes = run_scenario(client)
    assert set(outcomes) == set(service_methods())
    # The authorization is captured whole, by the capture without an amount.
    capture = outcomes["northstar.captureAuthorization"]
    assert capture.final_capture is True and capture.amount.value == Decimal("10.00")


def test_every_service_method_over_tcp(tcp_server) -> None:
    with payrpc.Client.connect_tcp(tcp_server.host, tcp_server.port) as client:
        outcomes = run_scenario(client)
    assert set(outcomes) == set(service_methods())


# Domain errors and notifications -----------------------------------------------------------


def test_wrong_pins_raise_wrong_pin_until_the_application_is_blocked(client: payrpc.Client) -> None:
    from payrpc.generated.errors import tatra as tatra_errors

    client.hello(profile="wrong-pins")
    blocked = []
    for _ in range(3):
        with pytest.raises(tatra_errors.WrongPin) as wrong:
            client.tatra.authorize("0000")
        assert isinstance(wrong.value, tatra_errors.TatraError) and wrong.value.code == tatra_errors.WrongPin.code_value
        blocked.append(wrong.value.application_blocked)
    assert blocked == [False, False, True]
    with pytest.raises(tatra_errors.WrongPin):
        client.tatra.authorize("1234")
    client.sandbox.tatra_reset_profile()
    assert client.tatra.authorize("1234") is None


def test_amount_limit_is_its_own_exception(client: payrpc.Client) -> None:
    from payrpc.generated.errors import tatra as tatra_errors
    from payrpc.generated.services import tatra

    contact = tatra.Contact(full_name="Jana Nováková", phones=["+421900123456"])
    with pytest.raises(tatra_errors.AmountLimit) as limit:
        client.tatra.execute_payment(amount=Decimal("5000.01"), contact=contact)
    assert limit.value.status == "OUT_OF_RANGE"
    assert isinstance(client.tatra.execute_payment(amount=Decimal("12.50"), contact=contact, reference="Lunch"), str)


def test_payment_status_is_pushed_as_a_notification(client: payrpc.Client) -> None:
    seen = []
    arrived = threading.Event()
    client.on_notification("pbba.paymentStatusChanged", lambda n: (seen.append(n), arrived.set()))
    stream = client.notifications("pbba.paymentStatusChanged", timeout=30)
    request = client.pbba.submit_payment_request(amount=Decimal("10.00"), currency="GBP", reference="Order 7")
    client.pbba.show_pbba_popup(secure_token=request.secure_token, brn=request.brn, expiry_interval=300)
    client.sandbox.pbba_approve_payment(secure_token=request.secure_token)
    notification = next(stream).typed()
    assert notification.status.value == "completed" and notification.request_id == request.request_id
    assert arrived.wait(30) and seen[0].method == "pbba.paymentStatusChanged"


def test_popup_expiry_arrives_on_the_async_iterator(payrpc_bin: str, data_dir: Path) -> None:
    async def main() -> None:
        async with await payrpc.AsyncClient.spawn(payrpc_bin, server_args(data_dir)) as client:
            stream = client.notifications("pbba.popupDidExpire", timeout=30)
            request = await client.pbba.submit_payment_request(amount=Decimal("1.00"), currency="GBP", reference="Expiring")
            await client.pbba.show_pbba_popup(secure_token=request.secure_token, brn=request.brn, expiry_interval=1)
            async for notification in stream:
                assert notification.method == "pbba.popupDidExpire"
                break

    run(main())


def test_an_idempotency_key_replays_the_first_answer(client: payrpc.Client) -> None:
    first = client.pbba.submit_payment_request(amount=Decimal("3.00"), currency="GBP", reference="Once", idempotency_key="order-1")
    again = client.pbba.submit_payment_request(amount=Decimal("3.00"), currency="GBP", reference="Once", idempotency_key="order-1")
    assert again == first
    other = client.pbba.submit_payment_request(amount=Decimal("3.00"), currency="GBP", reference="Once")
    assert other.secure_token != first.secure_token
    with pytest.raises(payrpc.IdempotencyConflict):
        client.pbba.submit_payment_request(amount=Decimal("4.00"), currency="GBP", reference="Once", idempotency_key="order-1")


def test_batches_over_the_real_server(client: payrpc.Client) -> None:
    answers = client.batch(
        [
            ("rpc.health", None),
            ("tatra.authorize", {"pincode": "0000"}),
            payrpc.Request("tatra.onFlowStart", {}, notify=True),
            ("nope.nothing", {}),
        ]
    )
    assert answers[0] == {"status": "SERVING"}
    assert isinstance(answers[1], payrpc.generated.errors.tatra.WrongPin) and answers[1].application_blocked is False
    assert answers[2] is None and isinstance(answers[3], payrpc.MethodNotFound)


# Errors --------------------------------------------------------------------------------------


def test_gateway_errors(payrpc_bin: str, data_dir: Path) -> None:
    with payrpc.Client.spawn(payrpc_bin, server_args(data_dir), validate=False) as client:
        with pytest.raises(payrpc.MethodNotFound):
            client.call("nope.nothing")
        with pytest.raises(payrpc.InvalidParams) as invalid:
            client.call("rpc.hello", {"profile": "no spaces allowed"})
        assert [v.pointer for v in invalid.value.violations] == ["/profile"]
    with payrpc.Client.spawn(payrpc_bin, server_args(data_dir)) as client:
        with pytest.raises(payrpc.ValidationError) as local:
            client.call("rpc.hello", {"profile": "no spaces allowed"})
        assert local.value.pointer == "/profile"


def test_a_full_store_raises_store_full_and_keeps_serving_reads(payrpc_bin: str, data_dir: Path) -> None:
    with payrpc.Client.spawn(payrpc_bin, [*server_args(data_dir), "--store-max-bytes", "96K"]) as client:
        stored = []
        with pytest.raises(payrpc.StoreFull) as full:
            for number in range(10_000):
                stored.append(client.pbba.submit_payment_request(
                    amount=Decimal("1.00"), currency="GBP", reference=f"Fill {number}"))
        assert stored, "the store took no write at all"
        assert full.value.code == -32008
        assert client.call("rpc.health") == {"status": "SERVING"}


# Concurrency, cancellation, the process ---------------------------------------------------------


def test_thousand_concurrent_calls_on_one_asyncio_connection(payrpc_bin: str, data_dir: Path) -> None:
    async def main() -> None:
        async with await payrpc.AsyncClient.spawn(payrpc_bin, server_args(data_dir)) as client:
            answers = await asyncio.gather(*(client.call("rpc.health", timeout=60) for _ in range(1000)))
            assert answers == [{"status": "SERVING"}] * 1000
        assert client.returncode == 0

    run(main())


def test_thousand_concurrent_calls_over_tcp(tcp_server) -> None:
    async def main() -> None:
        async with await payrpc.AsyncClient.connect_tcp(tcp_server.host, tcp_server.port) as client:
            answers = await asyncio.gather(*(client.rpc.health() for _ in range(1000)))
            assert {a.status.value for a in answers} == {"SERVING"}

    run(main())


def test_cancelling_a_task_sends_cancel_and_the_connection_goes_on(payrpc_bin: str, data_dir: Path) -> None:
    sent: List[bytes] = []

    async def main() -> None:
        async with await payrpc.AsyncClient.spawn(payrpc_bin, server_args(data_dir)) as client:
            writer = client._writer
            original = writer.write
            writer.write = lambda data: (sent.append(data), original(data))[1]  # type: ignore[method-assign]
            task = asyncio.ensure_future(client.call("rpc.discover"))
            await asyncio.sleep(0)  # one turn of the loop: the request is written
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert await client.call("rpc.health") == {"status": "SERVING"}
        assert client.returncode == 0

    run(main())
    messages = [json.loads(line) for data in sent for line in data.splitlines()]
    request = next(m for m in messages if m.get("method") == "rpc.discover")
    assert {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": request["id"]}} in messages


def test_timeout_is_sent_and_a_fast_call_meets_it(client: payrpc.Client) -> None:
    assert client.call("rpc.health", timeout=30) == {"status": "SERVING"}
    assert client.call("rpc.health", {"_meta": {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}})


def test_meta_is_accepted_by_methods_with_params(client: payrpc.Client) -> None:
    assert client.sandbox.delay(5, timeout=30) == 5


def test_the_server_enforces_the_deadline_it_is_sent(client: payrpc.Client) -> None:
    started = time.monotonic()
    with pytest.raises(payrpc.DeadlineExceeded):
        client.call("sandbox.delay", {"ms": 20000, "_meta": {"timeoutMs": 200}})
    assert time.monotonic() - started < 10


def test_the_servers_deadline_is_a_timeout(payrpc_bin: str, data_dir: Path) -> None:
    with payrpc.Client.spawn(payrpc_bin, [*server_args(data_dir), "--default-timeout", "200"]) as client:
        started = time.monotonic()
        with pytest.raises(payrpc.DeadlineExceeded) as late:
            client.sandbox.delay(20000)
        assert isinstance(late.value, payrpc.Timeout) and late.value.code == -32003
        assert time.monotonic() - started < 10
    assert client.returncode == 0


def test_a_local_timeout_raises_and_the_connection_goes_on(client: payrpc.Client) -> None:
    os.kill(client.pid, signal.SIGSTOP)  # a server that does not answer at all
    try:
        started = time.monotonic()
        with pytest.raises(payrpc.Timeout) as late:
            client.rpc.health(timeout=0.3)
        assert not isinstance(late.value, payrpc.RpcError)  # raised here, not answered by the server
        assert time.monotonic() - started < 10
    finally:
        os.kill(client.pid, signal.SIGCONT)
    assert client.rpc.health().status.value == "SERVING"


def test_a_cancelled_call_stops_on_the_server(payrpc_bin: str, data_dir: Path) -> None:
    async def main() -> float:
        client = await payrpc.AsyncClient.spawn(payrpc_bin, server_args(data_dir))
        try:
            task = asyncio.ensure_future(client.sandbox.delay(60000))
            await asyncio.sleep(0)  # one turn of the loop: the request is written
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert await client.call("rpc.health") == {"status": "SERVING"}
        finally:
            started = time.monotonic()
            await client.close()  # the server drains what is in flight: a delay still running would hold it 60 s
        assert client.returncode == 0
        return time.monotonic() - started

    assert run(main()) < 20


def test_thousand_concurrent_delayed_calls_are_all_in_flight_at_once(payrpc_bin: str, data_dir: Path) -> None:
    async def main() -> None:
        args = [*server_args(data_dir), "--max-in-flight", "2000"]
        async with await payrpc.AsyncClient.spawn(payrpc_bin, args) as client:
            answers = await asyncio.gather(*(client.sandbox.delay(n % 50) for n in range(1000)))
            assert answers == [n % 50 for n in range(1000)]
        assert client.returncode == 0

    run(main())


def test_tcp_and_unix_with_a_token(payrpc_bin: str, data_dir: Path, tmp_path: Path, tcp_server_factory) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("s3cret-token\n")
    socket_path = str(tmp_path / "payrpc.sock")
    server = tcp_server_factory(
        [payrpc_bin, "serve", "--tcp", "127.0.0.1:0", "--unix", socket_path, "--auth-token-file", str(token_file),
         *server_args(data_dir)]
    )
    with payrpc.Client.connect_tcp(server.host, server.port, token="s3cret-token") as client:
        assert client.call("rpc.health") == {"status": "SERVING"}
    with payrpc.Client.connect_tcp(server.host, server.port) as client:
        assert client.call("rpc.health") == {"status": "SERVING"}  # a balancer's health check needs no token
        with pytest.raises(payrpc.Unauthenticated):
            client.call("rpc.discover")
    with pytest.raises(payrpc.Unauthenticated):
        payrpc.Client.connect_unix(socket_path, token="wrong")

    async def main() -> None:
        async with await payrpc.AsyncClient.connect_unix(socket_path, token="s3cret-token", profile="unix") as client:
            assert (await client.rpc.health()).status.value == "SERVING"
            assert (await client.hello())["profile"] == "unix"  # the token given at connect is sent again

    run(main())
    assert server.stop() == 0


def test_the_server_exits_cleanly_and_is_reaped(payrpc_bin: str, data_dir: Path, caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="payrpc.server")
    with pytest.raises(KeyError):
        with payrpc.Client.spawn(payrpc_bin, server_args(data_dir)) as client:
            pid = client.pid
            client.call("rpc.health")
            raise KeyError("a failing test")
    assert client.returncode == 0
    assert process_gone(pid)
    server_lines = [r.getMessage() for r in caplog.records if r.name == "payrpc.server"]
    assert any("payrpc started" in line for line in server_lines)
    assert any("stopped" in line for line in server_lines)
