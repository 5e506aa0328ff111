"""Shared fixtures: the real payrpc binary, the fake server (a test fixture), TCP servers."""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

import pytest

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
FIXTURE_DOCUMENT = FIXTURES / "openrpc.json"
FAKE_SERVER = HERE / "fake_server.py"

_ADDRESS = re.compile(r"(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|localhost):(\d{1,5})")


def real_binary() -> str:
    """The payrpc binary under test: ``$PAYRPC_BIN``, else ``payrpc`` on PATH."""
    binary = os.environ.get("PAYRPC_BIN") or shutil.which("payrpc")
    if not binary:
        pytest.fail("set PAYRPC_BIN to the payrpc binary (swift build --product payrpc)", pytrace=False)
    if not os.access(binary, os.X_OK):
        pytest.fail(f"PAYRPC_BIN={binary} is not an executable file", pytrace=False)
    return binary


@pytest.fixture(scope="session")
def payrpc_bin() -> str:
    return real_binary()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


class TCPServer:
    """A server process listening on TCP, started for one test and always stopped.

    Its address is read from the stderr line that says ``listening`` (the port is 0, so the
    kernel picks a free one); the remaining stderr lines go to the ``payrpc.server`` logger.
    """

    def __init__(self, argv: List[str], cwd: Optional[Path] = None, timeout: float = 30.0) -> None:
        self.argv = argv
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd
        )
        self.lines: List[str] = []
        self._found = threading.Event()
        self.address: Optional[Tuple[str, int]] = None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        if not self._found.wait(timeout) or self.address is None:
            self.stop()
            raise AssertionError(f"{argv} did not log a 'listening' line with its address; stderr: {self.lines}")

    def _read(self) -> None:
        log = logging.getLogger("payrpc.server")
        assert self.proc.stderr is not None
        for raw in iter(self.proc.stderr.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip()
            self.lines.append(line)
            log.info("%s", line)
            if self.address is None and "listening" in line.lower():
                match = _ADDRESS.search(line)
                if "unix" in line.lower():
                    self.address = ("unix", 0)
                    self._found.set()
                elif match:
                    self.address = (match.group(1).strip("[]"), int(match.group(2)))
                    self._found.set()
        self._found.set()

    @property
    def host(self) -> str:
        assert self.address is not None
        return self.address[0]

    @property
    def port(self) -> int:
        assert self.address is not None
        return self.address[1]

    def stop(self) -> int:
        """SIGTERM, wait (kill after 10 s); returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._thread.join(5)
        if self.proc.stderr is not None:
            self.proc.stderr.close()
        return self.proc.returncode


@pytest.fixture
def tcp_server_factory() -> Iterator:
    servers: List[TCPServer] = []

    def start(argv: List[str], cwd: Optional[Path] = None) -> TCPServer:
        server = TCPServer(argv, cwd)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def fake_argv(*args: str) -> List[str]:
    """The command line of the fake server (a test fixture) with this interpreter."""
    return [sys.executable, str(FAKE_SERVER), *args]


def process_gone(pid: int) -> bool:
    """Whether the process no longer exists: exited and reaped (a zombie still answers kill 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


REPOSITORY = HERE.parent.parent.parent
TEST_POSTGRES = REPOSITORY / "scripts" / "test-postgres"


class PostgresCluster:
    """A throw-away PostgreSQL server (``scripts/test-postgres``): a temporary directory, a free
    loopback port, no system service; stopped and restarted by the test, removed after it."""

    def __init__(self) -> None:
        started = subprocess.run([str(TEST_POSTGRES), "start"], capture_output=True, text=True, timeout=300)
        if started.returncode != 0:
            pytest.fail(f"scripts/test-postgres start failed: {started.stderr}", pytrace=False)
        self.directory, self.url = started.stdout.split()

    def _run(self, action: str) -> None:
        subprocess.run([str(TEST_POSTGRES), action, self.directory], check=True, timeout=300)

    def stop(self) -> None:
        """Stops the server at once (``pg_ctl -m immediate``)."""
        self._run("stop")

    def restart(self) -> None:
        """Starts the stopped server again on its port."""
        self._run("restart")

    def remove(self) -> None:
        self._run("remove")


@pytest.fixture
def postgres_cluster() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    try:
        yield cluster
    finally:
        cluster.remove()
