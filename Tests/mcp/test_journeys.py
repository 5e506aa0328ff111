"""Every service's main journey through tools, with the PyPI `mcp` client, in both eras."""

import os
import subprocess
import sys
import json
import urllib.request

import anyio
import pytest

from support import ERAS, ROOT, client, fails, ok, pushes

pytestmark = pytest.mark.anyio

JANA = {"fullName": "Jana Nováková", "phones": ["+421900123456"]}
VISA = {"number": "4032036247327321", "expiry": "2199-12", "securityCode": "123"}
UNITS = [{"amount": {"currencyCode": "USD", "value": "10.00"}}]


async def test_the_era_is_the_one_negotiated(tmp_path, mode):
    async with client(tmp_path, mode) as session:
        assert session.protocol_version == ERAS[mode]
        assert session.server_info.name == "payrpc"
        assert await ok(session, "rpc_health") == {"status": "SERVING"}
        hello = await ok(session, "rpc_hello", {"profile": "alice", "client": "mcp-tests"})
        assert hello["profile"] == "alice" and hello["seed"] == 7


async def test_tatra(tmp_path, mode):
    async with client(tmp_path, mode) as session:
        assert await ok(session, "tatra_onFlowStart") == {"result": None}
        setup = await ok(session, "tatra_fetchSetupData")
        assert setup["isActivated"] is True and setup["minTransactionAmount"] == "0.01"
        contacts = await ok(session, "tatra_fetchTopContacts")
        assert contacts["result"][0]["fullName"] == "Jana Nováková"
        confirmation = await ok(session, "tatra_executePayment",
                                {"amount": "12.50", "contact": JANA, "reference": "Invoice 2026-001"})
        assert "12.50" in confirmation["result"]
        wrong = await fails(session, "tatra_authorizePayment", {"pincode": "0000"})
        assert wrong["code"] == -33007 and wrong["data"]["type"] == "wrongPin"
        assert "TB-000001" in (await ok(session, "tatra_authorizePayment", {"pincode": "1234"}))["result"]
        assert (await fails(session, "tatra_fetchBalance"))["code"] == -33001
        await ok(session, "tatra_authorize", {"pincode": "1234"})
        assert (await ok(session, "tatra_fetchBalance"))["balance"] == "1510.97"
        assert await ok(session, "tatra_getIban") == {"result": "SK9711000000002926123456"}
        # A magic amount from the tool's description, and invalid arguments, are tool errors.
        assert (await fails(session, "tatra_executePayment", {"amount": "90.01", "contact": JANA}))["data"]["type"] == "general"
        invalid = await fails(session, "tatra_executePayment", {"amount": 12, "contact": JANA})
        assert invalid["code"] == -32602 and invalid["data"]["violations"][0]["pointer"] == "/amount"


async def test_pbba_with_pushes_as_a_tool_and_as_log_messages(tmp_path, mode):
    logged: list = []
    received = anyio.Event()

    async def on_log(params):
        logged.append(params)
        if params.data.get("method") == "pbba.paymentStatusChanged":
            received.set()

    async with client(tmp_path, mode, logging_callback=on_log, log_level="info") as session:
        if mode == "legacy":
            await session.set_logging_level("info")
        assert await ok(session, "pbba_isCFIAppAvailable") == {"result": True}
        request = await ok(session, "pbba_submitPaymentRequest", {"amount": "10.00", "currency": "GBP", "reference": "Order"})
        token, brn = request["secureToken"], request["brn"]
        popup = await ok(session, "pbba_showPBBAPopup", {"secureToken": token, "brn": brn, "expiryInterval": 300})
        assert popup["action"] == "showMCommPopup"
        opened = await ok(session, "sandbox_pbba_tapOpenBankingApp", {"popupId": popup["popupId"]})
        assert opened["url"] == "zapp://" + token and opened["remembered"] is True
        await ok(session, "sandbox_pbba_approvePayment", {"secureToken": token})
        taken = await pushes(session, "pbba.paymentStatusChanged")
        changed = next(push for push in taken if push["method"] == "pbba.paymentStatusChanged")
        assert changed["params"]["status"] == "completed"
        assert (await ok(session, "pbba_getPaymentStatus", {"secureToken": token}))["status"] == "completed"
        with anyio.fail_after(10):
            await received.wait()
        assert logged[-1].level == "info" and logged[-1].logger == "payrpc"
        # The queue was emptied by the take.
        assert (await ok(session, "session_takeNotifications"))["notifications"] == []


async def test_northstar(tmp_path, mode):
    async with client(tmp_path, mode) as session:
        order_request = {"orderRequest": {"purchaseUnitList": UNITS}, "card": VISA}
        assert (await fails(session, "northstar_executeOrder", order_request))["code"] == -33310
        assert (await ok(session, "northstar_configure", {"clientID": "e2e"}))["clientID"] == "e2e"
        assert (await ok(session, "northstar_executeOrder", order_request))["status"] == "COMPLETED"
        order = await ok(session, "sandbox_northstar_createOrder", {"intent": "AUTHORIZE", "purchaseUnits": UNITS})
        secure = {"number": "4000000000003220", "expiry": "2199-12"}
        pending = await fails(session, "northstar_executeOrder", {"orderID": order["orderID"], "card": secure})
        assert pending["data"]["type"] == "PAYER_ACTION_REQUIRED"
        await ok(session, "sandbox_northstar_completePayerAction", {"orderID": order["orderID"]})
        authorized = await ok(session, "northstar_executeOrder", {"orderID": order["orderID"]})
        assert authorized["transaction"]["kind"] == "AUTHORIZE"
        nonce = (await ok(session, "northstar_tokenizeCard", {"card": VISA}))["nonce"]
        paid = await ok(session, "northstar_executeOrder", {"orderRequest": {"purchaseUnitList": UNITS}, "nonce": nonce})
        assert paid["status"] == "COMPLETED"


async def test_dotpay(tmp_path, mode):
    async with client(tmp_path, mode) as session:
        await ok(session, "dotpay_paymentHistory_registerObserver")
        payment = {"merchantID": "10000", "amount": "15.15", "textDescription": "Bilet"}
        channels = await ok(session, "dotpay_getChannelList", {"paymentInfo": payment, "group": "blik"})
        paid = await ok(session, "dotpay_pay", {"paymentDetails": channels["paymentDetails"], "channelId": 73})
        assert paid["status"] == "processing"
        await ok(session, "sandbox_clock_advance", {"seconds": 600})
        updated = await ok(session, "dotpay_updatePaymentSummary", {"paymentId": paid["paymentId"]})
        assert updated["status"] == "completed"
        taken = await pushes(session, "dotpay.paymentHistory.didUpdatePaymentSummary")
        summary = next(p for p in taken if p["method"] == "dotpay.paymentHistory.didUpdatePaymentSummary")
        assert summary["params"]["paymentSummary"]["status"] == "completed"
        card = await ok(session, "dotpay_registerPaymentCard", {"cardInfo": {
            "cardNumber": "5555555555554444", "expirationMonth": 12, "expirationYear": 2199, "cvv": "987"}})
        assert card["isDefault"] is True
        registered = await pushes(session, "dotpay.didRegisterNewCreditCard")
        assert any(p["params"]["card"]["creditCardId"] == card["creditCardId"] for p in registered
                   if p["method"] == "dotpay.didRegisterNewCreditCard")
        one_click = await ok(session, "dotpay_oneClickPayment",
                             {"paymentInfo": {"merchantID": "10000", "amount": "9.99", "textDescription": "1Click"}})
        assert one_click["cardId"] == card["creditCardId"]
        assert len((await ok(session, "dotpay_paymentHistory"))["result"]) == 2


@pytest.fixture
def journal_backend():
    """The journal's test Web API (a real HTTP server) as a child process."""
    script = ROOT / "Tests/JournalServiceTests/Support/journal_backend.py"
    # It exits at the end of its stdin: the pipe held here. It imports the test servers' shared
    # module, which PythonBackend puts on the path for the Swift tests in the same way.
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "Tests/PayRPCTestSupport/Python"))
    process = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env=environment)
    port = int(process.stdout.readline().strip())
    yield f"http://127.0.0.1:{port}"
    process.stdin.close()
    process.wait(timeout=30)


def control(url: str, body: dict) -> None:
    request = urllib.request.Request(url + "/_control", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=30).read()


async def test_journal(tmp_path, mode, journal_backend):
    async with client(tmp_path, mode, "--journal-backend", journal_backend) as session:
        opened = await ok(session, "journal_openURL", {
            "url": "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"})
        handoff = opened["url"]
        assert handoff.startswith("linkPayment://open?")
        callback = (await ok(session, "sandbox_journal_completePayment", {"url": handoff}))["callbackURL"]
        entry = await ok(session, "journal_handleCallback", {"url": callback})
        await ok(session, "journal_sync")
        stored = await ok(session, "journal_get", {"entryId": entry["entryId"]})
        assert stored["delivery"]["status"] == "delivered"
        # The backend fails: the journal's syncFailed callback is a push.
        control(journal_backend, {"fail": 10, "mode": "500"})
        await ok(session, "journal_pay", {"type": "cash", "amount": "5"})
        await ok(session, "journal_sync")
        failed = await pushes(session, "journal.syncFailed")
        assert next(p for p in failed if p["method"] == "journal.syncFailed")["params"]["httpStatus"] == 500
