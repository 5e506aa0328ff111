#!/usr/bin/env python3
"""A stand-in for PayPal's Orders v2 API, for payrpc's tests: OAuth2 client credentials,
create (with or without a card), get, capture, authorize, validate-payment-method, with the same
test cards as payrpc's sandbox. PayPal-Request-Id makes a repeated POST answer the same.
Prints its port on the first line.

Control: POST /_control {"expireTokens": true} invalidates every token (the next call gets 401);
{"fail500": N} answers the next N API calls with 500; {"hang": N} hangs the next N.
GET /_requests answers every API request received (path, request id).
"""
import base64
import json
import os
import random
import string
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CLIENT, SECRET = "test-client", "test-secret"
OUTCOMES = {"4000000000000002": "INSTRUMENT_DECLINED", "4000000000000069": "CARD_EXPIRED",
            "4000000000000119": "500", "4000000000000341": "CAPTURE_REFUSED"}
lock = threading.Lock()
state = {"tokens": set(), "orders": {}, "replies": {}, "fail500": 0, "hang": 0, "requests": []}


def new_id():
    return "".join(random.choice(string.ascii_uppercase + string.digits) for _ in range(17))


def brand(number):
    return {"4": "VISA", "5": "MASTERCARD", "3": "AMEX"}.get(number[:1], "VISA")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raw = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0] or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                raw += self.rfile.read(size)
                self.rfile.readline()
        else:
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {}

    def error(self, status, name, issue, description):
        self.answer(status, {"name": name, "message": description, "debug_id": "dbg" + new_id()[:10].lower(),
                             "details": [{"issue": issue, "description": description}]})

    def do_GET(self):
        if self.path == "/_requests":
            with lock:
                return self.answer(200, state["requests"])
        self.api("GET", {})

    def do_POST(self):
        body = self.body()
        if self.path == "/_control":
            with lock:
                if body.get("expireTokens"):
                    state["tokens"].clear()
                for key in ("fail500", "hang"):
                    if key in body:
                        state[key] = body[key]
            return self.answer(200, {"ok": True})
        if self.path == "/v1/oauth2/token":
            expected = "Basic " + base64.b64encode(f"{CLIENT}:{SECRET}".encode()).decode()
            if self.headers.get("Authorization") != expected:
                return self.answer(401, {"error": "invalid_client", "error_description": "Client Authentication failed"})
            token = "A21AA" + new_id()
            with lock:
                state["tokens"].add(token)
            return self.answer(200, {"access_token": token, "token_type": "Bearer", "expires_in": 32400})
        self.api("POST", body)

    def api(self, method, body):
        bearer = self.headers.get("Authorization", "")[len("Bearer "):]
        request_id = self.headers.get("PayPal-Request-Id")
        with lock:
            state["requests"].append({"method": method, "path": self.path, "requestId": request_id})
            if bearer not in state["tokens"]:
                return self.answer(401, {"name": "AUTHENTICATION_FAILURE", "message": "Authentication failed due to invalid authentication credentials or a missing Authorization header."})
            if state["hang"] > 0:
                state["hang"] -= 1
                hang = True
            else:
                hang = False
            if state["fail500"] > 0:
                state["fail500"] -= 1
                return self.error(500, "INTERNAL_SERVER_ERROR", "INTERNAL_SERVICE_ERROR", "An internal server error occurred.")
            if method == "POST" and request_id and request_id in state["replies"]:
                status, reply = state["replies"][request_id]
                return self.answer(status, reply)
        if hang:
            time.sleep(20)
            return
        status, reply = self.handle_api(method, body)
        with lock:
            if method == "POST" and request_id:
                state["replies"][request_id] = (status, reply)
        self.answer(status, reply)

    def handle_api(self, method, body):
        parts = [p for p in self.path.split("/") if p]
        card = (body.get("payment_source") or {}).get("card")
        outcome = OUTCOMES.get(card["number"]) if card else None
        with lock:
            if parts[:3] == ["v2", "checkout", "orders"] and len(parts) == 3 and method == "POST":
                if outcome in ("INSTRUMENT_DECLINED", "CARD_EXPIRED"):
                    return 422, self.problem(outcome)
                if outcome == "500":
                    return 500, self.problem("INTERNAL_SERVICE_ERROR", "INTERNAL_SERVER_ERROR")
                order = {"id": new_id(), "intent": body.get("intent", "CAPTURE"), "status": "CREATED",
                         "purchase_units": body.get("purchase_units", []), "create_time": now(), "update_time": now()}
                state["orders"][order["id"]] = order
                if card:
                    if outcome == "CAPTURE_REFUSED":
                        return 422, self.problem("TRANSACTION_REFUSED")
                    self.pay(order, card)
                return 201, order
            if len(parts) >= 4 and parts[:3] == ["v2", "checkout", "orders"]:
                order = state["orders"].get(parts[3])
                if order is None:
                    return 404, {"name": "RESOURCE_NOT_FOUND", "message": "The specified resource does not exist.",
                                 "debug_id": "dbg404", "details": [{"issue": "INVALID_RESOURCE_ID",
                                                                    "description": "Specified resource ID does not exist."}]}
                if len(parts) == 4 and method == "GET":
                    return 200, order
                action = parts[4]
                if order["status"] == "COMPLETED":
                    return 422, self.problem("ORDER_ALREADY_CAPTURED" if order["intent"] == "CAPTURE" else "ORDER_ALREADY_AUTHORIZED")
                if outcome in ("INSTRUMENT_DECLINED", "CARD_EXPIRED"):
                    return 422, self.problem(outcome)
                if outcome == "500":
                    return 500, self.problem("INTERNAL_SERVICE_ERROR", "INTERNAL_SERVER_ERROR")
                if action == "validate-payment-method":
                    order["status"] = "APPROVED"
                    order["payment_source"] = {"card": self.summary(card)}
                    order["approved_card"] = card
                    return 200, order
                card = card or order.get("approved_card")
                if card is None:
                    return 422, self.problem("ORDER_NOT_APPROVED")
                if action == "capture" and OUTCOMES.get(card["number"]) == "CAPTURE_REFUSED":
                    return 422, self.problem("TRANSACTION_REFUSED")
                self.pay(order, card)
                return 201, order
        return 404, {"name": "RESOURCE_NOT_FOUND", "message": "no such endpoint"}

    def problem(self, issue, name="UNPROCESSABLE_ENTITY"):
        return {"name": name, "message": "The requested action could not be performed.", "debug_id": "dbg" + new_id()[:10].lower(),
                "details": [{"issue": issue, "description": issue.replace("_", " ").lower()}]}

    def summary(self, card):
        return {"last_digits": card["number"][-4:], "brand": brand(card["number"]), "expiry": card.get("expiry", "")}

    def pay(self, order, card):
        order.pop("approved_card", None)
        unit = order["purchase_units"][0] if order["purchase_units"] else {"amount": {"currency_code": "USD", "value": "0"}}
        key = "captures" if order["intent"] == "CAPTURE" else "authorizations"
        status = "COMPLETED" if key == "captures" else "CREATED"
        unit.setdefault("payments", {})[key] = [{"id": new_id(), "status": status, "amount": unit["amount"]}]
        order["status"] = "COMPLETED"
        order["payment_source"] = {"card": self.summary(card)}
        order["update_time"] = now()


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def exit_at_end_of_input():
    """Exits once stdin reaches EOF: the test that started this backend holds the other end, so
    the backend ends with it, even when it crashes."""
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
