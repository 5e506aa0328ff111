"""Finding the payrpc binary and forwarding its log lines to Python logging."""

from __future__ import annotations

import logging
import os
import re
import shutil
from typing import Optional, Sequence

from .errors import PayRpcError

server_log = logging.getLogger("payrpc.server")

_LEVELS = {
    "trace": logging.DEBUG,
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "warn": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}
_LEVEL_WORD = re.compile(r"\b(trace|debug|info|notice|warning|warn|error|critical)\b", re.IGNORECASE)


def find_binary(binary: Optional[str]) -> str:
    """The binary to start: the argument, else ``$PAYRPC_BIN``, else ``payrpc`` on PATH."""
    candidate = binary or os.environ.get("PAYRPC_BIN")
    if candidate:
        return candidate
    found = shutil.which("payrpc")
    if found is None:
        raise PayRpcError("payrpc binary not found: pass binary=..., set PAYRPC_BIN, or put payrpc on PATH")
    return found


def command(binary: Optional[str], args: Sequence[str]) -> list:
    """``payrpc serve --stdio`` plus the extra arguments."""
    return [find_binary(binary), "serve", "--stdio", *args]


def forward_log_line(raw: bytes) -> None:
    """Logs one stderr line of the server on ``payrpc.server`` at the level the line names."""
    line = raw.decode("utf-8", "replace").rstrip("\r\n")
    if not line:
        return
    match = _LEVEL_WORD.search(line[:80])
    level = _LEVELS[match.group(1).lower()] if match else logging.INFO
    server_log.log(level, "%s", line)
