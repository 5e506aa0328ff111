"""A TCP proxy in front of a PostgreSQL server that loses one commit's answer.

Usage: pg_commit_cutter.py SERVER_PORT. Prints the port it listens on (127.0.0.1), relays every
connection to 127.0.0.1:SERVER_PORT, and exits when its stdin reaches EOF (PythonBackend's
convention). Once a client has sent a message containing the bytes `cut-after-commit` (a
document's key, say), the first `CommandComplete` of `COMMIT` the server sends that client is
not relayed: the proxy cuts both sides of that connection just before it, as a network break or
a crash of the client's host would after the server committed. Only once per proxy.

With the bytes `cut-before-commit` instead, the proxy holds back that client's `COMMIT`, waits
until the server's answer to what came before it (the transaction's identifier) has been relayed,
and cuts both sides: the server never gets the `COMMIT` and rolls the transaction back.

Clients must not ask for TLS (`sslmode=disable`): every message from the server is then
`type byte, int32 length, body`.
"""
import asyncio
import os
import sys
import threading

AFTER = b"cut-after-commit"
BEFORE = b"cut-before-commit"
state = {"cut": False}


def messages(buffer, first):
    """Splits complete messages off `buffer`: (messages, rest). The client's first message (the
    start-up) has no type byte."""
    found = []
    while True:
        header = 4 if first else 5
        if len(buffer) < header:
            return found, buffer
        length = int.from_bytes(buffer[header - 4:header], "big") + header - 4
        if len(buffer) < length:
            return found, buffer
        found.append(buffer[:length])
        buffer = buffer[length:]
        first = False


async def cut(connection, writer, relay, after=None):
    """Relays what came before the cut, waits for `after` (an event) if given, then cuts both
    sides of the connection; once per proxy."""
    state["cut"] = True
    writer.write(relay)
    await writer.drain()
    if after is not None:
        await after.wait()
    for end in connection["ends"]:
        end.transport.abort()


async def client_to_server(reader, writer, connection):
    pending, first = b"", True
    while data := await reader.read(65536):
        pending += data
        complete, pending = messages(pending, first)
        first = False
        relay = b""
        for message in complete:
            if not state["cut"] and AFTER in message:
                connection["armed"] = True
            if not state["cut"] and BEFORE in message:
                connection["holding"] = True
            if connection["holding"] and not state["cut"] and message[:1] == b"P" and b"COMMIT" in message:
                await cut(connection, writer, relay, after=connection["identifier_relayed"])
                return
            relay += message
        writer.write(relay)
        await writer.drain()
    writer.close()


async def server_to_client(reader, writer, connection):
    pending = b""
    while data := await reader.read(65536):
        pending += data
        relay = b""
        while len(pending) >= 5:
            length = int.from_bytes(pending[1:5], "big")
            if len(pending) < 1 + length:
                break
            message, pending = pending[: 1 + length], pending[1 + length:]
            if connection["holding"] and message[:1] == b"D":
                writer.write(relay + message)
                await writer.drain()
                relay = b""
                connection["identifier_relayed"].set()
                continue
            if connection["armed"] and not state["cut"] and message[:1] == b"C" and message[5:].startswith(b"COMMIT"):
                await cut(connection, writer, relay)
                return
            relay += message
        writer.write(relay)
        await writer.drain()
    writer.close()


async def main():
    server_port = int(sys.argv[1])

    async def accept(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", server_port)
        except OSError:
            client_writer.transport.abort()
            return
        ends = [client_writer, server_writer]
        connection = {"armed": False, "holding": False, "identifier_relayed": asyncio.Event(), "ends": ends}
        try:
            await asyncio.gather(
                client_to_server(client_reader, server_writer, connection),
                server_to_client(server_reader, client_writer, connection),
            )
        except (ConnectionError, OSError):
            for end in ends:
                end.transport.abort()

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    async with server:
        await server.serve_forever()


asyncio.run(main())
