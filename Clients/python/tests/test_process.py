"""Finding the binary and reading the server's log lines, without a server."""

from __future__ import annotations

import logging

import pytest

import payrpc
from payrpc import _process


def test_the_binary_comes_from_the_argument_then_the_environment_then_path(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PAYRPC_BIN", "/from/env/payrpc")
    assert _process.find_binary("/given/payrpc") == "/given/payrpc"
    assert _process.find_binary(None) == "/from/env/payrpc"
    monkeypatch.delenv("PAYRPC_BIN")
    fake = tmp_path / "payrpc"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert _process.find_binary(None) == str(fake)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(payrpc.PayRpcError, match="PAYRPC_BIN"):
        _process.find_binary(None)
    assert _process.command("/b/payrpc", ["--data", "d"]) == ["/b/payrpc", "serve", "--stdio", "--data", "d"]


@pytest.mark.parametrize(
    "line, level",
    [
        (b"2026-11-22T05:50:23.347Z info payrpc: store: opened\n", logging.INFO),
        (b"2026-11-22T05:50:23.347Z warning payrpc: slow\n", logging.WARNING),
        (b"2026-11-22T05:50:23.347Z error payrpc: broken\n", logging.ERROR),
        (b"2026-11-22T05:50:23.347Z debug payrpc: detail\n", logging.DEBUG),
        (b"no level here\n", logging.INFO),
    ],
)
def test_server_log_lines_keep_their_level(line: bytes, level: int, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="payrpc.server")
    _process.forward_log_line(line)
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("payrpc.server", level, line.decode().rstrip("\n"))
    ]
