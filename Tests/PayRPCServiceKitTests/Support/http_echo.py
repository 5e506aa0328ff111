#!/usr/bin/env python3
"""A small HTTP server for the kit's HTTP client tests. Prints its port on the first line.

POST /echo answers {"method", "contentType", "key", "body"} (the request's body text);
GET /status/N answers status N with {"message": "status N"}; GET /text answers plain text;
GET /hang answers after 30 s; GET /drop closes the connection without answering.
Exits when stdin reaches EOF.
"""
import time

from http_test_server import Handler, serve


class Echo(Handler):
    def post(self, raw):
        self.answer(200, {"method": "POST", "contentType": self.headers.get("Content-Type"),
                          "key": self.headers.get("Idempotency-Key"), "body": raw.decode(), "extra": [1, 2]})

    def do_GET(self):
        if self.path.startswith("/status/"):
            status = int(self.path.split("/")[-1])
            self.answer(status, {"message": "status %d" % status})
        elif self.path == "/text":
            self.answer(200, "not json", "text/plain")
        elif self.path == "/hang":
            time.sleep(30)
            self.answer(200, {})
        elif self.path == "/drop":
            self.drop()
        else:
            self.answer(404, {})


if __name__ == "__main__":
    serve(Echo)
