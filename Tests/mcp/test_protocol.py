"""The protocol details the SDK client hides, line by line: both eras' handshakes and refusals,
errors, cancellation, deadlines, progress, waits for pushes, resources, TCP and --no-sandbox."""

import json
import re
import socket
import subprocess

import pytest

from support import BIN, ROOT, RawPeer, envelope

SERVER_INFO = {"name": "payrpc", "version": re.compile(r"^\d+\.\d+\.\d+$")}


def result(answer: dict) -> dict:
    assert "error" not in answer, answer
    return answer["result"]


def error(answer: dict) -> dict:
    assert "result" not in answer, answer
    return answer["error"]


def tool_result(answer: dict) -> dict:
    """A tools/call result: structuredContent, the same JSON as the text block."""
    got = result(answer)
    assert json.loads(got["content"][0]["text"]) == got["structuredContent"]
    return got


def test_initialize_settles_on_a_version_payrpc_speaks(tmp_path):
    for requested, settled in [("2025-06-18", "2025-06-18"), ("2025-11-25", "2025-11-25"), ("2024-11-05", "2025-11-25")]:
        peer = RawPeer(tmp_path)
        answer = result(peer.initialize(requested))
        assert answer["protocolVersion"] == settled
        assert answer["serverInfo"]["name"] == "payrpc"
        assert set(answer["capabilities"]) == {"tools", "resources", "logging"}
        assert "resultType" not in answer
        assert result(peer.request(1, "ping")) == {}
        peer.close()


def test_before_initialize_only_ping_is_answered(tmp_path):
    peer = RawPeer(tmp_path)
    assert result(peer.request(1, "ping")) == {}
    refused = error(peer.request(2, "tools/list"))
    assert refused["code"] == -32600 and "initialize" in refused["data"]["detail"]
    result(peer.initialize())
    assert error(peer.request(3, "initialize", {"protocolVersion": "2025-11-25"}))["code"] == -32600
    # A handshake connection refuses a stateless request.
    assert error(peer.request(4, "tools/list", envelope()))["code"] == -32600
    peer.close()


def test_the_stateless_revision(tmp_path):
    peer = RawPeer(tmp_path)
    unsupported = error(peer.request(1, "server/discover", envelope("2099-01-01")))
    assert unsupported["code"] == -32022
    assert unsupported["data"] == {"supported": ["2026-07-28"], "requested": "2099-01-01"}
    missing = error(peer.request(2, "server/discover", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}))
    assert missing["code"] == -32602
    discovered = result(peer.request(3, "server/discover", envelope()))
    assert discovered["supportedVersions"] == ["2025-06-18", "2025-11-25", "2026-07-28"]
    assert discovered["resultType"] == "complete" and discovered["cacheScope"] == "public" and discovered["ttlMs"] > 0
    assert discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "payrpc"
    listed = result(peer.request(4, "tools/list", envelope()))
    assert listed["resultType"] == "complete" and len(listed["tools"]) > 80
    health = tool_result(peer.request(5, "tools/call", {"name": "rpc_health", **envelope()}))
    assert health["structuredContent"] == {"status": "SERVING"} and health["resultType"] == "complete"
    # Every request carries the envelope; initialize does not exist in this revision.
    assert error(peer.request(6, "tools/list"))["code"] == -32602
    refused = error(peer.request(7, "initialize", {"protocolVersion": "2025-11-25"}))
    assert refused["code"] == -32022 and refused["data"]["supported"] == ["2026-07-28"]
    assert result(peer.request(8, "ping", envelope()))["resultType"] == "complete"
    peer.close()


def test_malformed_messages_get_precise_errors(tmp_path):
    peer = RawPeer(tmp_path)
    peer.initialize()
    peer.send("{not json")
    peer.send('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')
    peer.send('{"jsonrpc":"2.0","id":true,"method":"ping"}')
    assert error(peer.request(2, "no/such/method"))["code"] == -32601
    unknown = error(peer.request(3, "tools/call", {"name": "tatra_noSuchMethod"}))
    assert unknown["code"] == -32602 and unknown["data"]["tool"] == "tatra_noSuchMethod"
    assert error(peer.request(4, "tools/call", {"name": "rpc_health", "arguments": [1]}))["code"] == -32602
    assert error(peer.request(5, "tools/call", {"arguments": {}}))["code"] == -32602
    assert error(peer.request(6, "tools/call", {"name": "rpc_health", "_meta": {"timeoutMs": -1}}))["code"] == -32602
    assert error(peer.request(7, "tools/list", {"cursor": "x"}))["code"] == -32602
    assert error(peer.request(8, "logging/setLevel", {"level": "loud"}))["code"] == -32602
    # Invalid arguments are a tool error the model can correct, naming the member.
    invalid = tool_result(peer.request(9, "tools/call", {"name": "sandbox_delay", "arguments": {"ms": "soon"}}))
    assert invalid["isError"] is True
    assert invalid["structuredContent"]["code"] == -32602
    assert invalid["structuredContent"]["data"]["violations"][0]["pointer"] == "/ms"
    codes = [m["error"]["code"] for m in peer.close() if m.get("id") is None and "error" in m]
    assert codes == [-32700, -32600, -32600]


def test_a_cancelled_call_is_never_answered(tmp_path):
    peer = RawPeer(tmp_path)
    peer.initialize()
    peer.send({"jsonrpc": "2.0", "id": "slow", "method": "tools/call",
               "params": {"name": "sandbox_delay", "arguments": {"ms": 60000}}})
    peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow", "reason": "user"}})
    fast = tool_result(peer.request("fast", "tools/call", {"name": "sandbox_delay", "arguments": {"ms": 1}}))
    assert fast["structuredContent"] == {"result": 1}
    # At the end of input the server drains what runs and exits: nothing was ever sent for "slow".
    assert all(message.get("id") != "slow" for message in peer.close())


def test_a_deadline_is_a_tool_error(tmp_path):
    peer = RawPeer(tmp_path)
    peer.initialize()
    expired = tool_result(peer.request(1, "tools/call", {"name": "sandbox_delay", "arguments": {"ms": 60000},
                                                         "_meta": {"timeoutMs": 50}}))
    assert expired["isError"] is True
    assert expired["structuredContent"] == {"code": -32003, "message": "Deadline exceeded",
                                            "data": {"method": "sandbox.delay"}}
    peer.close()


def test_a_waiting_call_reports_progress(tmp_path):
    peer = RawPeer(tmp_path)
    peer.initialize()
    done = tool_result(peer.request(1, "tools/call", {"name": "sandbox_delay", "arguments": {"ms": 1200},
                                                      "_meta": {"progressToken": "p-1"}}))
    assert done["structuredContent"] == {"result": 1200}
    progress = [m["params"] for m in peer.seen if m.get("method") == "notifications/progress"]
    assert progress and all(p["progressToken"] == "p-1" for p in progress)
    assert progress[0]["progress"] == 0
    values = [p["progress"] for p in progress]
    assert values == sorted(set(values))
    peer.close()


def test_a_wait_for_pushes_ends_with_the_first_push(tmp_path):
    peer = RawPeer(tmp_path)
    peer.initialize()
    assert result(peer.request(1, "logging/setLevel", {"level": "warning"})) == {}
    peer.send({"jsonrpc": "2.0", "id": "wait", "method": "tools/call",
               "params": {"name": "session_takeNotifications", "arguments": {"waitMs": 60000}}})
    submitted = tool_result(peer.request(2, "tools/call", {"name": "pbba_submitPaymentRequest", "arguments": {
        "amount": "1.00", "currency": "GBP", "reference": "Wait"}}))["structuredContent"]
    peer.request(3, "tools/call", {"name": "pbba_showPBBAPopup", "arguments": {
        "secureToken": submitted["secureToken"], "brn": submitted["brn"], "expiryInterval": 300}})
    peer.request(4, "tools/call", {"name": "sandbox_pbba_approvePayment", "arguments": {"secureToken": submitted["secureToken"]}})
    taken = tool_result(peer.response("wait"))["structuredContent"]
    assert taken["dropped"] == 0
    assert taken["notifications"][0]["method"] == "pbba.paymentStatusChanged"
    assert taken["notifications"][0]["params"]["status"] == "completed"
    # Opted in at warning only: pushes (info) were not sent as log messages.
    assert not any(m.get("method") == "notifications/message" for m in peer.close())


def test_invalid_wait_is_a_tool_error(tmp_path):
    peer = RawPeer(tmp_path)
    peer.initialize()
    answer = tool_result(peer.request(1, "tools/call", {"name": "session_takeNotifications", "arguments": {"waitMs": 600001}}))
    assert answer["isError"] is True and answer["structuredContent"]["code"] == -32602
    peer.close()


def test_resources(tmp_path):
    peer = RawPeer(tmp_path)
    peer.initialize()
    resources = result(peer.request(1, "resources/list"))["resources"]
    uris = [r["uri"] for r in resources]
    assert uris[0] == "payrpc://schemas/openrpc.json"
    for service in ["dotpay", "journal", "northstar", "pbba", "tatra"]:
        assert f"payrpc://docs/{service}.md" in uris
    methods = [uri for uri in uris if uri.startswith("payrpc://schemas/methods/")]
    openrpc = json.loads((ROOT / "Schemas/openrpc.json").read_text())
    assert len(methods) == len(openrpc["methods"])
    read = result(peer.request(2, "resources/read", {"uri": "payrpc://schemas/openrpc.json"}))["contents"][0]
    assert read["mimeType"] == "application/json"
    assert read["text"] == (ROOT / "Schemas/openrpc.json").read_text()
    guide = result(peer.request(3, "resources/read", {"uri": "payrpc://docs/tatra.md"}))["contents"][0]
    assert guide["mimeType"] == "text/markdown" and guide["text"] == (ROOT / "docs/tatra.md").read_text()
    schema = result(peer.request(4, "resources/read", {"uri": "payrpc://schemas/methods/tatra.executePayment.json"}))
    assert schema["contents"][0]["text"] == (ROOT / "Schemas/methods/tatra.executePayment.json").read_text()
    missing = error(peer.request(5, "resources/read", {"uri": "payrpc://nothing"}))
    assert missing["code"] == -32002 and missing["data"]["uri"] == "payrpc://nothing"
    assert result(peer.request(6, "resources/templates/list")) == {"resourceTemplates": []}
    peer.close()


def test_without_sandbox_the_sandbox_tools_are_gone(tmp_path):
    peer = RawPeer(tmp_path, "--no-sandbox")
    peer.initialize()
    names = [tool["name"] for tool in result(peer.request(1, "tools/list"))["tools"]]
    assert "tatra_executePayment" in names and not any(name.startswith("sandbox_") for name in names)
    assert error(peer.request(2, "tools/call", {"name": "sandbox_reset"}))["code"] == -32602
    peer.close()


def test_mcp_over_tcp(tmp_path):
    server = subprocess.Popen([BIN, "serve", "--mcp", "--tcp", "127.0.0.1:0", "--data", str(tmp_path)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in server.stderr:
            if match := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                port = int(match.group(1))
                break
        assert port
        with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
            stream = connection.makefile("rwb")
            for message in [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}}},
                            {"jsonrpc": "2.0", "method": "notifications/initialized"},
                            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "rpc_health"}}]:
                stream.write(json.dumps(message).encode() + b"\n")
            stream.flush()
            assert json.loads(stream.readline())["result"]["protocolVersion"] == "2025-06-18"
            assert json.loads(stream.readline())["result"]["structuredContent"] == {"status": "SERVING"}
    finally:
        server.terminate()
        assert server.wait(timeout=60) == 0
