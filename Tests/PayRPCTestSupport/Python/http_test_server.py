"""What the tests' Python HTTP servers share: the request handler's plumbing and the start-up.

The backends (Tests/*/Support/*.py) import it; PythonBackend (PythonBackend.swift) puts this
folder on their PYTHONPATH and reads the port they print. A backend subclasses `Handler`, fills
in `control` (POST /_control), `post` (any other POST) and `do_GET`, and calls `serve(Handler)`.
"""
import json
import os
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive, no request log, JSON answers, bodies sent either way."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        """Answers `body`: bytes as they are, a str as UTF-8, anything else as JSON."""
        if isinstance(body, bytes):
            data = body
        elif isinstance(body, str):
            data = body.encode()
        else:
            data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def drop(self):
        """Closes the connection without an answer."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the client went first

    def read_body(self):
        """The request body, whether sent with Content-Length or chunked (as libcurl sends a body
        it reads from a stream); None when the client went away mid-body."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raw = b""
            while True:
                line = self.rfile.readline()
                if not line:
                    return None
                size = int(line.strip().split(b";")[0] or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return raw
                chunk = self.rfile.read(size)
                if len(chunk) < size:
                    return None
                raw += chunk
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or "0")
        raw = self.rfile.read(length)
        return raw if len(raw) == length else None

    def do_POST(self):
        raw = self.read_body()
        if raw is None:
            return self.drop()  # nothing to act on, nobody to answer
        if self.path == "/_control":
            self.control(json.loads(raw or b"{}"))
            return self.answer(200, {"ok": True})
        self.post(raw)

    def control(self, command):
        """Carries out a test's POST /_control command (a JSON object)."""
        raise NotImplementedError("this backend takes no /_control commands")

    def post(self, raw):
        """Answers any other POST; `raw` is its body."""
        self.answer(404, {"message": "no such endpoint " + self.path})


def exit_at_end_of_input():
    """Exits once stdin reaches EOF: the test that started the backend holds the other end, so the
    backend ends with it, even when it crashes."""
    sys.stdin.buffer.read()
    os._exit(0)


def serve(handler):
    """Serves `handler` on a random port of 127.0.0.1, printing the port on the first line of
    stdout (PythonBackend reads it), until stdin reaches EOF."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=exit_at_end_of_input, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


def require(module, package):
    """Imports `module`, or says on the first line of stdout (where PythonBackend expects the port,
    and reports what came instead) which command installs `package`, and exits."""
    try:
        return __import__(module, fromlist=["*"])
    except ImportError as error:
        print(f"{sys.executable} lacks PyPI's {package} ({error}): run the tests with "
              f"PAYRPC_TEST_PYTHON=$(scripts/test-python), which makes a virtual environment under .build/ "
              f"with it (scripts/test does)", flush=True)
        sys.exit(1)
