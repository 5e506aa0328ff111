#!/usr/bin/env python3
"""A stand-in for PayPal's Orders v2 API and Payments v2's authorization capture, for payrpc's
tests: OAuth2 client credentials, create (with or without a card), get, capture, authorize,
confirm-payment-source, and POST /v2/payments/authorizations/{id}/capture, with the same test
cards as payrpc's sandbox. PayPal-Request-Id makes a repeated POST answer the same (its first
answer, whatever happened to the connection that asked first). Prints its port on the first line.

Every request to the API is checked against PayPal's own published OpenAPI documents (paypal/ next
to this script: checkout_orders_v2.json and payments_payment_v2.json, from the repository
paypal/paypal-rest-api-specifications; paypal/SOURCE.md says which commit and the license): the
path and method must be an operation of the documents, a body must be valid against the
operation's request schema, read as a request (OpenAPI 3.0 with readOnly members refused), and
the headers the operation declares (PayPal-Request-Id) against theirs, by the
openapi-schema-validator package. A request that is not is answered 400 INVALID_REQUEST naming
each problem (details[].field a JSON path into the body, location "body"), and listed by
GET /_violations.

Card summaries in answers leave out `expiry`, as Orders v2 answers may.

Control: POST /_control with
  {"expireTokens": true}       every token is forgotten (the next call gets 401);
  {"expireAuthorizations": true}  every authorization expires (capturing it is AUTHORIZATION_EXPIRED);
  {"fail500": N}               the next N API calls answer 500 without doing anything;
  {"hang": N}                  the next N API calls hang (past the client's timeout) without doing anything;
  {"afterActing": "drop"|"hang"|"500", "count": N}
                               the next N API POSTs are carried out (their answer kept under their
                               PayPal-Request-Id), then the connection is closed without an answer,
                               hangs, or is answered 500;
  {"tokenFail": STATUS, "count": N}  the next N token requests answer STATUS (a 5xx: server_error);
  {"tokenDrop": N}             the next N token requests get no answer (the connection is closed);
  {"tokenDelay": SECONDS}      token requests are answered that much later (so that calls made at
                               the same time overlap while a token is being fetched).
GET /_requests answers every API request received (method, path, request id); GET /_tokens the
number of token requests received.
"""
import base64
import json
import os
import random
import string
import threading
import time

from http_test_server import Handler, require, serve

validators = require("openapi_schema_validator", "openapi-schema-validator")
OAS30Validator, OAS30WriteValidator = validators.OAS30Validator, validators.OAS30WriteValidator

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT, SECRET = "test-client", "test-secret"
OUTCOMES = {"4000000000000002": "INSTRUMENT_DECLINED", "4000000000000069": "CARD_EXPIRED",
            "4000000000000119": "500", "4000000000000341": "CAPTURE_REFUSED", "4000000000003220": "3DS"}
lock = threading.Lock()
state = {"tokens": set(), "orders": {}, "authorizations": {}, "replies": {}, "fail500": 0, "hang": 0,
         "after": None, "afterCount": 0, "tokenFail": 0, "tokenFailCount": 0, "tokenDrop": 0, "tokenDelay": 0,
         "tokenRequests": 0, "requests": [], "violations": []}


class Spec:
    """The operations of PayPal's published OpenAPI documents, each with a validator of its body."""

    def __init__(self, names):
        self.operations = []
        for name in names:
            with open(os.path.join(HERE, "paypal", name)) as file:
                document = json.load(file)
            for template, item in document["paths"].items():
                for method, operation in item.items():
                    if method not in ("get", "post", "patch", "put", "delete"):
                        continue
                    schema = (((operation.get("requestBody") or {}).get("content") or {})
                              .get("application/json") or {}).get("schema")
                    validator = None
                    if schema is not None:
                        root = dict(document)
                        root.update(schema)
                        validator = OAS30WriteValidator(root)
                    headers = []
                    for parameter in operation.get("parameters", []) + item.get("parameters", []):
                        if "$ref" in parameter:
                            parameter = document["components"]["parameters"][parameter["$ref"].split("/")[-1]]
                        if parameter.get("in") == "header" and "schema" in parameter:
                            root = dict(document)
                            root.update(parameter["schema"])
                            headers.append((parameter["name"], OAS30Validator(root)))
                    parts = [part for part in template.split("/") if part]
                    self.operations.append((method.upper(), parts, operation.get("operationId"), validator, headers))

    def problems(self, method, path, body, headers):
        """What is wrong with a request: [] when it is an operation of the documents with a valid body."""
        parts = [part for part in path.split("?")[0].split("/") if part]
        for op_method, template, name, validator, header_validators in self.operations:
            if op_method != method or len(template) != len(parts):
                continue
            if all(t == p or (t.startswith("{") and t.endswith("}")) for t, p in zip(template, parts)):
                found = [(header, "INVALID_PARAMETER_SYNTAX", error.message[:300])
                         for header, check in header_validators if headers.get(header) is not None
                         for error in check.iter_errors(headers.get(header))]
                if found:
                    return found
                if validator is None:
                    return [] if body is None else [("", "BODY_NOT_EXPECTED", f"{name} takes no body")]
                if body is None:
                    return [("", "MISSING_REQUIRED_PARAMETER", f"{name} needs a JSON body")]
                return [(error.json_path, "INVALID_PARAMETER_SYNTAX", error.message[:300])
                        for error in validator.iter_errors(body)]
        return [("", "UNKNOWN_OPERATION", f"{method} {path} is not an operation of PayPal's published documents")]


SPEC = Spec(["checkout_orders_v2.json", "payments_payment_v2.json"])


def new_id():
    return "".join(random.choice(string.ascii_uppercase + string.digits) for _ in range(17))


def brand(number):
    return {"4": "VISA", "5": "MASTERCARD", "3": "AMEX"}.get(number[:1], "VISA")


def now(offset=0):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + offset))


def cents(value):
    whole, _, fraction = value.partition(".")
    return int(whole or "0") * 100 + int((fraction + "00")[:2])


def text(cents_value):
    return f"{cents_value // 100}.{cents_value % 100:02d}"


class Orders(Handler):
    def problem(self, issue, name="UNPROCESSABLE_ENTITY", field=None, location="body"):
        detail = {"issue": issue, "description": issue.replace("_", " ").lower()}
        if field is not None:
            detail["field"] = field
            detail["location"] = location
        return {"name": name, "message": "The requested action could not be performed.",
                "debug_id": "dbg" + new_id()[:10].lower(), "details": [detail]}

    def do_GET(self):
        if self.path == "/_requests":
            with lock:
                return self.answer(200, state["requests"])
        if self.path == "/_violations":
            with lock:
                return self.answer(200, state["violations"])
        if self.path == "/_tokens":
            with lock:
                return self.answer(200, {"count": state["tokenRequests"]})
        self.api("GET", None)

    def control(self, command):
        with lock:
            if command.get("expireTokens"):
                state["tokens"].clear()
            if command.get("expireAuthorizations"):
                for authorization in state["authorizations"].values():
                    authorization["expired"] = True
            for key in ("fail500", "hang", "tokenDrop", "tokenDelay"):
                if key in command:
                    state[key] = command[key]
            if "afterActing" in command:
                state["after"], state["afterCount"] = command["afterActing"], command.get("count", 1)
            if "tokenFail" in command:
                state["tokenFail"], state["tokenFailCount"] = command["tokenFail"], command.get("count", 1)

    def post(self, raw):
        if self.path == "/v1/oauth2/token":
            return self.token()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return self.answer(400, self.problem("MALFORMED_REQUEST_JSON", "INVALID_REQUEST"))
        self.api("POST", body)

    def token(self):
        with lock:
            state["tokenRequests"] += 1
            delay = state["tokenDelay"]
            if state["tokenDrop"] > 0:
                state["tokenDrop"] -= 1
                return self.drop()
            fail = None
            if state["tokenFailCount"] > 0:
                state["tokenFailCount"] -= 1
                fail = state["tokenFail"]
        if delay:
            time.sleep(delay)
        if fail is not None:
            return self.answer(fail, {"error": "server_error", "error_description": "The token service failed"})
        expected = "Basic " + base64.b64encode(f"{CLIENT}:{SECRET}".encode()).decode()
        if self.headers.get("Authorization") != expected:
            return self.answer(401, {"error": "invalid_client", "error_description": "Client Authentication failed"})
        token = "A21AA" + new_id()
        with lock:
            state["tokens"].add(token)
        return self.answer(200, {"access_token": token, "token_type": "Bearer", "expires_in": 32400})

    def api(self, method, body):
        bearer = self.headers.get("Authorization", "")[len("Bearer "):]
        request_id = self.headers.get("PayPal-Request-Id")
        problems = SPEC.problems(method, self.path, body, self.headers)
        with lock:
            state["requests"].append({"method": method, "path": self.path, "requestId": request_id})
            if problems:
                state["violations"].append({"method": method, "path": self.path,
                                            "problems": [{"field": f, "issue": i, "description": d} for f, i, d in problems]})
        if problems:
            return self.answer(400, {"name": "INVALID_REQUEST", "message": "Request is not well-formed, syntactically incorrect, or violates schema.",
                                     "debug_id": "dbg" + new_id()[:10].lower(),
                                     "details": [{"field": f, "location": "body" if f.startswith("$") or not f else "header", "issue": i,
                                                  "description": d} for f, i, d in problems]})
        with lock:
            if bearer not in state["tokens"]:
                return self.answer(401, {"name": "AUTHENTICATION_FAILURE", "message": "Authentication failed due to invalid authentication credentials or a missing Authorization header."})
            hang = state["hang"] > 0
            if hang:
                state["hang"] -= 1
            if state["fail500"] > 0:
                state["fail500"] -= 1
                return self.answer(500, self.problem("INTERNAL_SERVICE_ERROR", "INTERNAL_SERVER_ERROR"))
            if method == "POST" and request_id and request_id in state["replies"]:
                status, reply = state["replies"][request_id]
                return self.answer(200 if status == 201 else status, reply)
            after = None
            if method == "POST" and state["afterCount"] > 0:
                state["afterCount"] -= 1
                after = state["after"]
        if hang:
            time.sleep(20)
            return self.drop()
        status, reply = self.handle_api(method, body or {})
        with lock:
            if method == "POST" and request_id:
                state["replies"][request_id] = (status, reply)
        if after == "drop":
            return self.drop()
        if after == "hang":
            time.sleep(20)
            return self.drop()
        if after == "500":
            return self.answer(500, self.problem("INTERNAL_SERVICE_ERROR", "INTERNAL_SERVER_ERROR"))
        self.answer(status, reply)

    def handle_api(self, method, body):
        parts = [p for p in self.path.split("/") if p]
        card = (body.get("payment_source") or {}).get("card")
        outcome = OUTCOMES.get(card["number"]) if card else None
        with lock:
            if parts[:3] == ["v2", "payments", "authorizations"] and len(parts) == 5 and parts[4] == "capture":
                return self.capture(parts[3], body)
            if parts[:3] == ["v2", "checkout", "orders"] and len(parts) == 3 and method == "POST":
                if outcome in ("INSTRUMENT_DECLINED", "CARD_EXPIRED"):
                    return 422, self.problem(outcome, field="/payment_source/card/number")
                if outcome == "500":
                    return 500, self.problem("INTERNAL_SERVICE_ERROR", "INTERNAL_SERVER_ERROR")
                units = body.get("purchase_units", [])
                currencies = {unit["amount"]["currency_code"] for unit in units}
                if len(currencies) > 1:
                    return 422, self.problem("MULTI_CURRENCY_ORDER", field="/purchase_units/1/amount/currency_code")
                order = {"id": new_id(), "intent": body.get("intent", "CAPTURE"), "status": "CREATED",
                         "purchase_units": units, "create_time": now(), "update_time": now(),
                         "links": [{"href": "https://api.test/v2/checkout/orders/x", "rel": "self", "method": "GET"}]}
                state["orders"][order["id"]] = order
                if card:
                    if outcome == "3DS":
                        order["status"] = "PAYER_ACTION_REQUIRED"
                        order["links"].append({"href": f"https://www.test/checkoutnow?token={order['id']}", "rel": "payer-action", "method": "GET"})
                        return 200, order
                    if outcome == "CAPTURE_REFUSED":
                        return 422, self.problem("TRANSACTION_REFUSED")
                    self.pay(order, card)
                return 201, order
            if len(parts) >= 4 and parts[:3] == ["v2", "checkout", "orders"]:
                order = state["orders"].get(parts[3])
                if order is None:
                    return 404, {"name": "RESOURCE_NOT_FOUND", "message": "The specified resource does not exist.",
                                 "debug_id": "dbg404", "details": [{"field": "order_id", "value": parts[3], "location": "path",
                                                                    "issue": "INVALID_RESOURCE_ID",
                                                                    "description": "Specified resource ID does not exist."}]}
                if len(parts) == 4 and method == "GET":
                    return 200, order
                action = parts[4]
                if order["status"] == "COMPLETED":
                    return 422, self.problem("ORDER_ALREADY_CAPTURED" if order["intent"] == "CAPTURE" else "ORDER_ALREADY_AUTHORIZED")
                if outcome in ("INSTRUMENT_DECLINED", "CARD_EXPIRED"):
                    return 422, self.problem(outcome, field="/payment_source/card/number")
                if outcome == "500":
                    return 500, self.problem("INTERNAL_SERVICE_ERROR", "INTERNAL_SERVER_ERROR")
                if action == "confirm-payment-source":
                    order["payment_source"] = {"card": self.summary(card)}
                    order["approved_card"] = card
                    order["status"] = "PAYER_ACTION_REQUIRED" if outcome == "3DS" else "APPROVED"
                    return 200, order
                card = card or order.get("approved_card")
                if card is None:
                    return 422, self.problem("ORDER_NOT_APPROVED")
                if OUTCOMES.get(card["number"]) == "3DS" and order["status"] != "APPROVED":
                    return 422, self.problem("PAYER_ACTION_REQUIRED")
                if action == "capture" and OUTCOMES.get(card["number"]) == "CAPTURE_REFUSED":
                    return 422, self.problem("TRANSACTION_REFUSED")
                self.pay(order, card)
                return 201, order
        return 404, {"name": "RESOURCE_NOT_FOUND", "message": "no such endpoint"}

    def summary(self, card):
        return {"last_digits": card["number"][-4:], "brand": brand(card["number"])}

    def pay(self, order, card):
        """Pays every purchase unit: one capture or authorization each, of the unit's amount."""
        order.pop("approved_card", None)
        key = "captures" if order["intent"] == "CAPTURE" else "authorizations"
        for unit in order["purchase_units"]:
            payment = {"id": new_id(), "status": "COMPLETED" if key == "captures" else "CREATED", "amount": dict(unit["amount"])}
            payment["amount"].pop("breakdown", None)
            if key == "authorizations":
                payment["expiration_time"] = now(29 * 86400)
                state["authorizations"][payment["id"]] = {"order": order, "unit": unit, "payment": payment, "captured": 0,
                                                          "closed": False, "expired": False,
                                                          "refuses": OUTCOMES.get(card["number"]) == "CAPTURE_REFUSED"}
            unit.setdefault("payments", {})[key] = [payment]
        order["status"] = "COMPLETED"
        order["payment_source"] = {"card": self.summary(card)}
        order["update_time"] = now()

    def capture(self, authorization_id, body):
        """Payments v2: captures an authorization (whole or part, in its currency, until it expires)."""
        entry = state["authorizations"].get(authorization_id)
        if entry is None:
            return 404, {"name": "RESOURCE_NOT_FOUND", "message": "The specified resource does not exist.", "debug_id": "dbg404",
                         "details": [{"field": "authorization_id", "value": authorization_id, "location": "path",
                                      "issue": "INVALID_RESOURCE_ID", "description": "Specified resource ID does not exist."}]}
        payment = entry["payment"]
        if entry["closed"]:
            return 422, self.problem("AUTHORIZATION_ALREADY_CAPTURED")
        if entry["expired"]:
            return 422, self.problem("AUTHORIZATION_EXPIRED")
        authorized = cents(payment["amount"]["value"])
        remaining = authorized - entry["captured"]
        amount = body.get("amount") or {"currency_code": payment["amount"]["currency_code"], "value": text(remaining)}
        if amount["currency_code"] != payment["amount"]["currency_code"]:
            return 422, self.problem("AUTH_CAPTURE_CURRENCY_MISMATCH", field="/amount/currency_code")
        if cents(amount["value"]) > remaining:
            return 422, self.problem("MAX_CAPTURE_AMOUNT_EXCEEDED", field="/amount/value")
        if entry["refuses"]:
            return 422, self.problem("TRANSACTION_REFUSED")
        entry["captured"] += cents(amount["value"])
        entry["closed"] = bool(body.get("final_capture")) or entry["captured"] >= authorized
        payment["status"] = "CAPTURED" if entry["closed"] else "PARTIALLY_CAPTURED"
        capture = {"id": new_id(), "status": "COMPLETED", "amount": amount, "final_capture": entry["closed"],
                   "create_time": now(), "update_time": now(),
                   "supplementary_data": {"related_ids": {"order_id": entry["order"]["id"], "authorization_id": authorization_id}},
                   "links": [{"href": "https://api.test/v2/payments/captures/x", "rel": "self", "method": "GET"}]}
        if "invoice_id" in body:
            capture["invoice_id"] = body["invoice_id"]
        entry["unit"]["payments"].setdefault("captures", []).append(capture)
        return 201, capture


if __name__ == "__main__":
    serve(Orders)
