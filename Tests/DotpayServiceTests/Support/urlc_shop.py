#!/usr/bin/env python3
"""A shop's backend receiving Dotpay's URLC notifications, for payrpc's tests.

It reads each POST as Dotpay's manual describes it (chapter 3, "Receiving payment confirmation
(URLC confirmation)"): form fields, and `signature`, the hex SHA-256 of the shop's PIN followed by
the values of the parameters in the documented order (SIGNED_ORDER below; a parameter that was not
sent adds nothing). It checks the signature with its own PIN and answers `OK` (HTTP 200), or
`BAD SIGNATURE` (HTTP 400) when the signature does not match, as a shop does. It records every
request. Prints its port on the first line of stdout.

Control (JSON bodies): POST /_control {"pin": "..."} sets the PIN; {"fail": N, "mode":
"drop"|"500"|"notok"} fails the next N notifications (drop the connection, answer HTTP 500, or
answer 200 with a body other than OK); {"reset": true} forgets the requests. GET /_requests
answers every recorded request; GET /_wait?accepted=N answers once N notifications were
accepted (or after 60 s), so a test waits for a delivery made in the background without polling.
"""
import hashlib
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlparse

# The order of the signature's values in Dotpay's manual (version 1.78, section 3.2).
SIGNED_ORDER = [
    "id", "operation_number", "operation_type", "operation_status", "operation_amount", "operation_currency",
    "operation_withdrawal_amount", "operation_commission_amount", "is_completed", "operation_original_amount",
    "operation_original_currency", "operation_datetime", "operation_related_number", "control", "description",
    "email", "p_info", "p_email", "credit_card_issuer_identification_number", "credit_card_masked_number",
    "credit_card_expiration_year", "credit_card_expiration_month", "credit_card_brand_codename",
    "credit_card_brand_code", "credit_card_unique_identifier", "credit_card_id", "channel", "channel_country",
    "geoip_country", "payer_bank_account_name", "payer_bank_account", "payer_transfer_title", "blik_voucher_pin",
    "blik_voucher_amount", "blik_voucher_amount_used", "channel_reference_id", "operation_seller_code",
]

changed = threading.Condition()
state = {"pin": "", "fail": 0, "mode": "drop", "requests": [], "accepted": 0}


def signature(fields, pin):
    return hashlib.sha256((pin + "".join(fields.get(name, "") for name in SIGNED_ORDER)).encode("utf-8")).hexdigest()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="text/plain"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/_requests":
            with changed:
                return self.answer(200, state["requests"], "application/json")
        if url.path == "/_wait":
            wanted = int(dict(parse_qsl(url.query)).get("accepted", "1"))
            with changed:
                changed.wait_for(lambda: state["accepted"] >= wanted, timeout=60)
                return self.answer(200, {"accepted": state["accepted"]}, "application/json")
        self.answer(404, "not found")

    def read_body(self):
        """The form (payrpc sends it with a Content-Length), or None when the client went away."""
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        return raw if len(raw) == length else None

    def do_POST(self):
        raw = self.read_body()
        if raw is None:
            self.close_connection = True
            return
        if self.path == "/_control":
            body = json.loads(raw or b"{}")
            with changed:
                if body.get("reset"):
                    state.update({"fail": 0, "requests": [], "accepted": 0})
                for key in ("pin", "fail", "mode"):
                    if key in body:
                        state[key] = body[key]
            return self.answer(200, {"ok": True}, "application/json")
        pairs = parse_qsl(raw.decode("utf-8"), keep_blank_values=True)
        fields = dict(pairs)
        with changed:
            valid = signature(fields, state["pin"]) == fields.get("signature")
            failing = state["fail"] > 0
            if failing:
                state["fail"] -= 1
            mode = state["mode"]
            state["requests"].append({
                "path": self.path, "key": self.headers.get("Idempotency-Key", ""),
                "contentType": self.headers.get("Content-Type", ""), "names": [name for name, _ in pairs],
                "fields": fields, "signatureValid": valid, "failed": failing,
            })
        if failing:
            if mode == "500":
                return self.answer(500, "ERROR")
            if mode == "notok":
                return self.answer(200, "RECEIVED")
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if not valid:
            return self.answer(400, "BAD SIGNATURE")
        with changed:
            state["accepted"] += 1
            changed.notify_all()
        self.answer(200, "OK")


def exit_at_end_of_input():
    """Exits once stdin reaches EOF: the test that started this backend holds the other end."""
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=exit_at_end_of_input, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
