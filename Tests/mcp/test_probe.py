"""A generic MCP prober from PyPI (amagi-mcp-probe, pinned) starts payrpc, checks every tool's
schemas, and calls every tool with generated arguments: every answer must be a valid result or a
tool error (never a JSON-RPC error, a crash, a hang or a result that breaks its outputSchema)."""

import json
import subprocess
import sys

import pytest

from support import BIN, RawPeer

# A tool error for generated arguments is expected (a payment that does not exist, a card that
# expired); everything else the prober reports is a defect.
ALLOWED = {"tool-error"}


@pytest.mark.parametrize("options", [
    ["--allow-destructive"],
    ["--allow-destructive", "--include-optional", "--protocol-version", "2025-06-18"],
], ids=["required-arguments", "every-argument-2025-06-18"])
def test_every_tool_answers_a_result_or_a_tool_error(tmp_path, options):
    run = subprocess.run([sys.executable, "-m", "amagi_mcp_probe", "--format", "json", "--timeout", "60", *options, "--",
                          BIN, "serve", "--mcp", "--stdio", "--data", str(tmp_path / "data"), "--seed", "7",
                          "--validate-results"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    report = json.loads(run.stdout)
    server = report["servers"][0]
    findings = server["findings"] + [f for tool in server["tools"] for f in tool["findings"]]
    unexpected = [f for f in findings if f["check"] not in ALLOWED]
    assert unexpected == [], unexpected
    assert run.returncode == 0 and report["verdict"] == "PASS"
    assert server["restarts"] == 0
    assert server["counts"]["pass"] + server["counts"]["warn"] == len(server["tools"])

    # Every listed tool was called, and the server still answers.
    peer = RawPeer(tmp_path / "data")
    peer.initialize()
    listed = peer.request(1, "tools/list")["result"]["tools"]
    assert sorted(tool["name"] for tool in server["tools"]) == sorted(tool["name"] for tool in listed)
    assert peer.request(2, "tools/call", {"name": "rpc_health"})["result"]["structuredContent"] == {"status": "SERVING"}
    peer.close()
