"""Calls payrpc with Python's standard library only: JSON-RPC 2.0, one JSON object per line.

    python3 docs/examples/python/call.py 127.0.0.1:7070

Calls rpc.health, then tatra.executePayment with a broken amount and no contact, and prints
what comes back. docs/protocol.md shows the output; a test runs this file and compares.
"""

import json
import socket
import sys


class CallError(Exception):
    """A JSON-RPC error response: its code, message and data."""

    def __init__(self, error):
        super().__init__(error["message"])
        self.code, self.message, self.data = error["code"], error["message"], error.get("data")


def call(stream, request_id, method, params=None):
    """Sends one request line and reads its response line (one call at a time)."""
    request = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        request["params"] = params
    stream.write(json.dumps(request) + "\n")
    stream.flush()
    response = json.loads(stream.readline())
    if "error" in response:
        raise CallError(response["error"])
    return response["result"]


def main():
    host, port = sys.argv[1].rsplit(":", 1)
    with socket.create_connection((host, int(port))) as connection:
        stream = connection.makefile("rw", encoding="utf-8", newline="\n")
        health = call(stream, 1, "rpc.health")
        print("rpc.health:", health["status"])
        try:
            call(stream, 2, "tatra.executePayment", {"amount": "x"})
        except CallError as error:
            print("tatra.executePayment: error", error.code, error.message)
            for violation in error.data["violations"]:
                print(" ", (violation["pointer"] or "(root)") + ":", violation["message"])


main()
