"""Shared helpers of the MCP tests: the binary, spawned servers, and a raw NDJSON peer for the
protocol details the SDK client hides."""

from __future__ import annotations

import json
import os
import pathlib
import queue
import subprocess
import threading
from typing import Any

from mcp import Client, StdioServerParameters

BIN = os.environ["PAYRPC_BIN"]
ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED = "7"

# The client modes of the tests: "legacy" is the initialize handshake (2025-11-25); "auto" probes
# server/discover and adopts the stateless 2026-07-28 revision when the server answers it.
ERAS = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def serve_args(data: pathlib.Path, *extra: str) -> list[str]:
    return ["serve", "--mcp", "--stdio", "--data", str(data), "--seed", SEED, "--validate-results", *extra]


def client(data: pathlib.Path, mode: str, *extra: str, **options: Any) -> Client:
    """An SDK client that spawns `payrpc serve --mcp --stdio` over `data`."""
    return Client(StdioServerParameters(command=BIN, args=serve_args(data, *extra)), mode=mode, **options)


async def ok(session: Client, tool: str, arguments: dict | None = None) -> Any:
    """Calls a tool that must succeed; returns its structuredContent (checked against the text block)."""
    result = await session.call_tool(tool, arguments or {})
    assert not result.is_error, (tool, result.structured_content)
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def fails(session: Client, tool: str, arguments: dict | None = None) -> dict:
    """Calls a tool that must answer a tool error; returns its {code, message, data}."""
    result = await session.call_tool(tool, arguments or {})
    assert result.is_error, (tool, result.structured_content)
    assert json.loads(result.content[0].text) == result.structured_content
    assert set(result.structured_content) <= {"code", "message", "data"}
    return result.structured_content


async def pushes(session: Client, method: str, attempts: int = 5) -> list[dict]:
    """Takes queued pushes (waiting for them) until one named `method` is among them."""
    taken: list[dict] = []
    for _ in range(attempts):
        got = await ok(session, "session_takeNotifications", {"waitMs": 10000})
        taken += got["notifications"]
        if any(push["method"] == method for push in taken):
            return taken
    raise AssertionError(f"no {method} push in {taken}")


class RawPeer:
    """`payrpc serve --mcp --stdio` driven line by line, for what the SDK client hides."""

    def __init__(self, data: pathlib.Path, *extra: str, args: list[str] | None = None):
        self.process = subprocess.Popen([BIN, *(args or serve_args(data, *extra))], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, message: dict | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def request(self, id: Any, method: str, params: dict | None = None) -> dict:
        """Sends a request and returns its response (keeping every other message in `seen`)."""
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.response(id)

    def response(self, id: Any) -> dict:
        for message in self.seen:
            if message.get("id") == id and "method" not in message:
                self.seen.remove(message)
                return message
        while True:
            message = self.lines.get(timeout=60)
            assert message is not None, f"the server closed before answering {id}"
            if message.get("id") == id and "method" not in message:
                return message
            self.seen.append(message)

    def close(self) -> list[dict]:
        """Ends input and returns every message left, once the server has exited (with 0)."""
        self.process.stdin.close()
        rest = []
        while (message := self.lines.get(timeout=60)) is not None:
            rest.append(message)
        assert self.process.wait(timeout=60) == 0
        return self.seen + rest

    def initialize(self, version: str = "2025-11-25") -> dict:
        answer = self.request(0, "initialize", {"protocolVersion": version, "capabilities": {},
                                                "clientInfo": {"name": "raw", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer


def envelope(version: str = "2026-07-28", **more: Any) -> dict:
    """The `_meta` of a stateless request."""
    return {"_meta": {"io.modelcontextprotocol/protocolVersion": version,
                      "io.modelcontextprotocol/clientCapabilities": {}, **more}}
