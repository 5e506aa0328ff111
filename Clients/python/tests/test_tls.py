"""Connecting over TLS: the deployment's HAProxy (docs/deploy/haproxy.cfg, used as it is)
terminates TLS in front of a real gateway, with a certificate each test makes."""

from __future__ import annotations

import asyncio
import ctypes
import signal
import socket
import ssl
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import pytest

import payrpc

REPOSITORY = Path(__file__).resolve().parents[3]
HAPROXY_CFG = REPOSITORY / "docs" / "deploy" / "haproxy.cfg"
_PR_SET_PDEATHSIG = 1


def make_certificate(directory: Path, name: str) -> Path:
    """A self-signed certificate for 127.0.0.1 and localhost; answers the path of cert + key."""
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    return cert


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _die_with_parent() -> None:
    # A crashed test run must not leave HAProxy running: the kernel kills it when pytest dies.
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


class Balancer:
    """HAProxy with the deployment's file as it is, plus an admin socket to tell when it is ready."""

    def __init__(self, directory: Path, gateway: str) -> None:
        self.certificate = make_certificate(directory, "gateway")
        pem = directory / "haproxy.pem"
        pem.write_text(self.certificate.read_text() + (directory / "gateway.key").read_text())
        self.admin = directory / "admin.sock"
        admin_cfg = directory / "admin.cfg"
        admin_cfg.write_text(f"global\n    stats socket {self.admin} level admin\n")
        self.port = free_port()
        environment = {
            "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
            "PAYRPC_LISTEN": f"127.0.0.1:{free_port()}",
            "PAYRPC_TLS_LISTEN": f"127.0.0.1:{self.port}",
            "PAYRPC_TLS_PEM": str(pem),
            "PAYRPC_GATEWAY_1": gateway, "PAYRPC_GATEWAY_2": gateway, "PAYRPC_GATEWAY_3": gateway,
        }
        self.proc = subprocess.Popen(
            ["haproxy", "-db", "-f", str(HAPROXY_CFG), "-f", str(admin_cfg)], env=environment,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=_die_with_parent,
        )
        self._wait_ready()

    def _wait_ready(self) -> None:
        # HAProxy says nothing when it is ready: its admin socket answering is the sign.
        deadline = time.monotonic() + 60
        pause = threading.Event()
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                assert self.proc.stderr is not None
                raise AssertionError(f"haproxy exited {self.proc.returncode}: {self.proc.stderr.read()!r}")
            try:
                with socket.socket(socket.AF_UNIX) as sock:
                    sock.connect(str(self.admin))
                    sock.sendall(b"show info\n")
                    if sock.recv(4096):
                        return
            except OSError:
                pause.wait(0.05)
        self.stop()
        raise AssertionError("haproxy did not open its admin socket")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()


@pytest.fixture
def balancer(payrpc_bin: str, tmp_path: Path, tcp_server_factory) -> Iterator[Balancer]:
    gateway = tcp_server_factory([payrpc_bin, "serve", "--tcp", "127.0.0.1:0", "--ephemeral"])
    running = Balancer(tmp_path, f"{gateway.host}:{gateway.port}")
    try:
        yield running
    finally:
        running.stop()
        assert running.proc.returncode is not None


def check_session(client: payrpc.Client) -> None:
    assert client.call("rpc.health") == {"status": "SERVING"}
    hello = client.hello(profile="over-tls")
    assert hello["profile"] == "over-tls" and hello["server"] == "payrpc"
    assert "time" in client.call("sandbox.clock.get", {})


def test_a_ca_file_or_a_context_that_trusts_the_certificate_connects(balancer: Balancer) -> None:
    with payrpc.Client.connect_tcp("127.0.0.1", balancer.port, tls=str(balancer.certificate)) as client:
        check_session(client)
    context = ssl.create_default_context(cafile=str(balancer.certificate))
    with payrpc.Client.connect_tcp("localhost", balancer.port, tls=context) as client:
        check_session(client)


def test_the_profile_hello_goes_first_over_tls(balancer: Balancer) -> None:
    with payrpc.Client.connect_tcp(
        "127.0.0.1", balancer.port, profile="first", tls=balancer.certificate
    ) as client:
        assert client.call("rpc.health") == {"status": "SERVING"}
        assert client.hello(profile="first")["profile"] == "first"


def test_calls_from_several_threads_over_tls_are_each_answered(balancer: Balancer) -> None:
    # The reader thread reads while these threads write: each connection's TLS state is used by one
    # thread at a time (a write racing the reader's read once left a call unanswered).
    for _ in range(5):
        with payrpc.Client.connect_tcp(
            "127.0.0.1", balancer.port, profile="threads", tls=balancer.certificate, default_timeout=60
        ) as client:
            with ThreadPoolExecutor(max_workers=8) as pool:
                answers = list(pool.map(lambda _: client.call("rpc.health"), range(400)))
            assert answers == [{"status": "SERVING"}] * 400
        assert client._transport.sock.fileno() == -1  # closed with the client, not left to the collector


def test_an_untrusted_certificate_is_refused(balancer: Balancer, tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    stranger = make_certificate(tmp_path / "other", "stranger")
    with pytest.raises(ssl.SSLCertVerificationError, match="certificate verify failed"):
        payrpc.Client.connect_tcp("127.0.0.1", balancer.port, tls=str(stranger), connect_timeout=30)
    # The system's authorities do not know a self-signed certificate either.
    with pytest.raises(ssl.SSLCertVerificationError):
        payrpc.Client.connect_tcp("127.0.0.1", balancer.port, tls=ssl.create_default_context())


def test_a_name_the_certificate_does_not_carry_is_refused(balancer: Balancer) -> None:
    with pytest.raises(ssl.SSLCertVerificationError, match="mismatch|match"):
        payrpc.Client.connect_tcp(
            "127.0.0.1", balancer.port, tls=str(balancer.certificate), server_hostname="payments.example"
        )


def test_the_asyncio_client_over_tls(balancer: Balancer, tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    stranger = make_certificate(tmp_path / "other", "stranger")

    async def main() -> None:
        async with await payrpc.AsyncClient.connect_tcp(
            "127.0.0.1", balancer.port, tls=str(balancer.certificate)
        ) as client:
            assert await client.call("rpc.health") == {"status": "SERVING"}
            assert (await client.hello(profile="async-tls"))["profile"] == "async-tls"
            assert "time" in await client.call("sandbox.clock.get", {})
            answers = await asyncio.gather(*(client.call("rpc.health") for _ in range(50)))
            assert answers == [{"status": "SERVING"}] * 50
        with pytest.raises(ssl.SSLCertVerificationError):
            await payrpc.AsyncClient.connect_tcp("127.0.0.1", balancer.port, tls=str(stranger))

    asyncio.run(asyncio.wait_for(main(), 120))
