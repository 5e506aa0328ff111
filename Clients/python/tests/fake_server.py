#!/usr/bin/env python3
"""TEST FIXTURE — a tiny fake payrpc server speaking NDJSON JSON-RPC 2.0.

It is NOT payrpc. The client's machinery tests (``test_machinery.py``) use it to provoke what
the real server will not do on demand: staying silent past a deadline, sending a result or
a notification that breaks its schema, recording the ``$/cancelRequest`` it received. The
tests of the real binary are in ``test_live.py``.

    fake_server.py serve --stdio
    fake_server.py serve --tcp 127.0.0.1:0 [--token T]    # logs "listening on HOST:PORT"
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

DOCUMENT = json.loads((Path(__file__).parent / "fixtures" / "openrpc.json").read_text())


class Connection:
    def __init__(self, reader: asyncio.StreamReader, write, token: str | None) -> None:
        self.reader = reader
        self.write = write
        self.token = token
        self.authenticated = token is None
        self.running: dict = {}
        self.cancelled: list = []
        self.tasks: set = set()

    def send(self, message) -> None:
        self.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    async def serve(self) -> None:
        while True:
            line = await self.reader.readline()
            if not line:
                break
            try:
                message = json.loads(line)
            except ValueError:
                self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
                continue
            if isinstance(message, list):
                task = asyncio.ensure_future(self.batch(message))
            else:
                task = asyncio.ensure_future(self.one(message, self.send))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)

    async def batch(self, messages) -> None:
        answers = []
        await asyncio.gather(*(self.one(m, answers.append) for m in messages))
        if answers:
            self.send(answers)

    async def one(self, message, reply) -> None:
        method = message.get("method")
        params = message.get("params") or {}
        rid = message.get("id")
        if method == "$/cancelRequest":
            target = params.get("id")
            self.cancelled.append(target)
            task = self.running.get(target)
            if task is not None:
                task.cancel()
            return
        meta = params.pop("_meta", {}) if isinstance(params, dict) else {}
        print(f"info fake: request {method} id={rid}", file=sys.stderr, flush=True)
        if "id" not in message:
            if method == "test.notify":
                self.send({"jsonrpc": "2.0", "method": params["method"], "params": params.get("params")})
            return
        task = asyncio.ensure_future(self.handle(method, params))
        self.running[rid] = task
        try:
            timeout = meta.get("timeoutMs")
            if timeout is not None and not params.get("ignoreDeadline"):
                result = await asyncio.wait_for(asyncio.shield(task), timeout / 1000)
            else:
                result = await task
            reply({"jsonrpc": "2.0", "id": rid, "result": result})
        except asyncio.TimeoutError:
            task.cancel()
            reply({"jsonrpc": "2.0", "id": rid, "error": {"code": -32003, "message": "Deadline exceeded"}})
        except asyncio.CancelledError:
            reply({"jsonrpc": "2.0", "id": rid, "error": {"code": -32800, "message": "Request cancelled"}})
        except RpcFailure as failure:
            reply({"jsonrpc": "2.0", "id": rid, "error": failure.error})
        finally:
            self.running.pop(rid, None)

    async def handle(self, method, params):
        if not self.authenticated and method != "rpc.hello":
            raise RpcFailure(-32001, "Unauthenticated")
        if method == "rpc.health":
            return {"status": "SERVING"}
        if method == "rpc.hello":
            if self.token is not None and params.get("token") != self.token:
                raise RpcFailure(-32001, "Unauthenticated")
            self.authenticated = True
            return {"server": "fake", "version": "0", "protocolVersion": "1", "methods": 3,
                    "profile": params.get("profile", "default")}
        if method == "rpc.discover":
            return DOCUMENT
        if method == "tatra.fetchSetupData":
            return {"isActivated": True, "descriptionValidationRegex": "^.*$", "descriptionValidationLength": 140,
                    "phoneValidationRegex": "^\\+?[0-9]+$", "minTransactionAmount": "0.01",
                    "maxTransactionAmount": "5000.00", "redirectionUri": "https://example.com/paykey"}
        if method == "tatra.fetchBalance":  # breaks its schema on purpose
            return {"balance": "12,50", "dueDate": "2026-01-01T00:00:00Z"}
        if method == "tatra.authorize":
            raise RpcFailure(-33005, "Wrong PIN", {"type": "wrongPin", "status": "UNAUTHENTICATED",
                                                   "title": "Wrong PIN", "applicationBlocked": params.get("pincode") == "9999"})
        if method == "tatra.executePayment":
            return f"Send {params['amount']} to {params['contact']['fullName']}"
        if method == "test.echo":
            return params
        if method == "test.sleep":
            await asyncio.sleep(params.get("ms", 0) / 1000)
            return "slept"
        if method == "test.cancelled":
            return list(self.cancelled)
        if method == "test.notify":
            self.send({"jsonrpc": "2.0", "method": params["method"], "params": params.get("params")})
            return None
        raise RpcFailure(-32601, "Method not found", {"method": method})


class RpcFailure(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.error = {"code": code, "message": message}
        if data is not None:
            self.error["data"] = data


async def stdio() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = sys.stdout.buffer

    def write(data: bytes) -> None:
        out.write(data)
        out.flush()

    await Connection(reader, write, None).serve()
    print("info fake: stdin closed, exiting", file=sys.stderr, flush=True)
    if "--ignore-eof" in sys.argv:  # plays a server that hangs at shutdown
        await asyncio.Event().wait()


async def tcp(address: str, token) -> None:
    host, port = address.rsplit(":", 1)

    async def accept(reader, writer) -> None:
        await Connection(reader, writer.write, token).serve()
        writer.close()

    server = await asyncio.start_server(accept, host, int(port), limit=1 << 24)
    bound = server.sockets[0].getsockname()
    print(f"info fake: listening on {bound[0]}:{bound[1]}", file=sys.stderr, flush=True)
    async with server:
        await server.serve_forever()


async def unix(path: str, token) -> None:
    async def accept(reader, writer) -> None:
        await Connection(reader, writer.write, token).serve()
        writer.close()

    server = await asyncio.start_unix_server(accept, path, limit=1 << 24)
    print(f"info fake: listening on unix:{path}", file=sys.stderr, flush=True)
    async with server:
        await server.serve_forever()


def main(argv) -> int:
    if argv[:2] == ["serve", "--stdio"]:
        asyncio.run(stdio())
        return 0
    if argv[:2] == ["serve", "--tcp"]:
        token = argv[argv.index("--token") + 1] if "--token" in argv else None
        try:
            asyncio.run(tcp(argv[2], token))
        except KeyboardInterrupt:
            pass
        return 0
    if argv[:2] == ["serve", "--unix"]:
        token = argv[argv.index("--token") + 1] if "--token" in argv else None
        try:
            asyncio.run(unix(argv[2], token))
        except KeyboardInterrupt:
            pass
        return 0
    print(f"usage: fake_server.py serve --stdio | --tcp HOST:PORT; got {argv}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
