"""Finding the payrpc binary and forwarding its log lines to Python logging."""

from __future__ import annotations

import logging
import os
import re
import shutil
from typing import List, Optional, Sequence, Union

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


def command(
    binary: Optional[str],
    args: Sequence[str],
    data_dir: Union[str, "os.PathLike[str]", None] = None,
    ephemeral: Optional[bool] = None,
) -> list:
    """``payrpc serve --stdio``, where its state lives (see :func:`state_arguments`), and the
    extra arguments."""
    return [find_binary(binary), "serve", "--stdio", *state_arguments(args, data_dir, ephemeral), *args]


def state_arguments(
    args: Sequence[str], data_dir: Union[str, "os.PathLike[str]", None], ephemeral: Optional[bool]
) -> List[str]:
    """Where a spawned server keeps its state: ``--data DIR`` with ``data_dir`` (kept there);
    nothing with ``ephemeral=False`` (the server's default data directory, kept); else
    ``--ephemeral`` (a temporary directory the server removes when it exits), unless ``args``
    already say ``--data`` or ``--ephemeral``.

    Raises ValueError when the choices contradict each other.
    """
    names_data = any(arg == "--data" or arg.startswith("--data=") for arg in args)
    if data_dir is not None:
        if ephemeral or names_data:
            raise ValueError("data_dir= keeps the state in that directory: pass neither ephemeral=True nor --data with it")
        return ["--data", os.fspath(data_dir)]
    if ephemeral and names_data:
        raise ValueError("ephemeral=True and --data in args exclude each other")
    if ephemeral is False or names_data or "--ephemeral" in args:
        return []
    return ["--ephemeral"]


def forward_log_line(raw: bytes) -> None:
    """Logs one stderr line of the server on ``payrpc.server`` at the level the line names."""
    line = raw.decode("utf-8", "replace").rstrip("\r\n")
    if not line:
        return
    match = _LEVEL_WORD.search(line[:80])
    level = _LEVELS[match.group(1).lower()] if match else logging.INFO
    server_log.log(level, "%s", line)
