#!/usr/bin/env python3
"""A small HTTP server for the kit's HTTP client tests. Prints its port on the first line.

POST /echo answers {"method", "contentType", "key", "body"} (the request's body text);
GET /status/N answers status N with {"message": "status N"}; GET /text answers plain text;
GET /hang answers after 30 s; GET /drop closes the connection without answering.
Exits when stdin reaches EOF.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, data, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode()
        self.answer(200, json.dumps({"method": "POST", "contentType": self.headers.get("Content-Type"),
                                     "key": self.headers.get("Idempotency-Key"), "body": body, "extra": [1, 2]}).encode())

    def do_GET(self):
        if self.path.startswith("/status/"):
            status = int(self.path.split("/")[-1])
            self.answer(status, json.dumps({"message": "status %d" % status}).encode())
        elif self.path == "/text":
            self.answer(200, b"not json", "text/plain")
        elif self.path == "/hang":
            time.sleep(30)
            self.answer(200, b"{}")
        elif self.path == "/drop":
            self.close_connection = True
            self.connection.close()
        else:
            self.answer(404, b"{}")


def exit_at_end_of_input():
    sys.stdin.read()
    os._exit(0)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=exit_at_end_of_input, daemon=True).start()
server.serve_forever()
