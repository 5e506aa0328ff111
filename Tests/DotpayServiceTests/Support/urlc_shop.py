#!/usr/bin/env python3
"""A shop's backend receiving Dotpay's URLC notifications, for payrpc's tests.

It reads each POST as Dotpay's manual describes it (chapter 3, "Receiving payment confirmation
(URLC confirmation)"): form fields, and `signature`, the hex SHA-256 of the shop's PIN followed by
the values of the parameters in the documented order (SIGNED_ORDER below; a parameter that was not
sent adds nothing). It checks the signature with its own PIN and answers `OK` (HTTP 200), or
`BAD SIGNATURE` (HTTP 400) when the signature does not match, as a shop does. It records every
request. Prints its port on the first line of stdout.

Control (JSON bodies): POST /_control {"pin": "..."} sets the PIN; {"fail": N, "mode":
"drop"|"500"|"notok"|"hang"} fails the next N notifications (drop the connection, answer HTTP 500,
answer 200 with a body other than OK, or hold the request 30 s and drop it); {"failModes": ["drop",
"hang", ...]} fails the next ones in these modes, one each, in order (before "fail");
{"reset": true} forgets the requests. GET /_requests answers every recorded request
(GET /_requests?atLeast=N first waits, up to 60 s, until N have come); GET /_wait?accepted=N
answers once N notifications were accepted (or after 60 s), so a test waits for a delivery made
in the background without polling.
"""
import hashlib
import threading
import time
from urllib.parse import parse_qsl, urlparse

from http_test_server import Handler, serve

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
state = {"pin": "", "fail": 0, "failModes": [], "mode": "drop", "requests": [], "accepted": 0}


def signature(fields, pin):
    return hashlib.sha256((pin + "".join(fields.get(name, "") for name in SIGNED_ORDER)).encode("utf-8")).hexdigest()


class Shop(Handler):
    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/_requests":
            wanted = int(dict(parse_qsl(url.query)).get("atLeast", "0"))
            with changed:
                changed.wait_for(lambda: len(state["requests"]) >= wanted, timeout=60)
                return self.answer(200, state["requests"])
        if url.path == "/_wait":
            wanted = int(dict(parse_qsl(url.query)).get("accepted", "1"))
            with changed:
                changed.wait_for(lambda: state["accepted"] >= wanted, timeout=60)
                return self.answer(200, {"accepted": state["accepted"]})
        self.answer(404, "not found", "text/plain")

    def control(self, command):
        with changed:
            if command.get("reset"):
                state.update({"fail": 0, "failModes": [], "requests": [], "accepted": 0})
            for key in ("pin", "fail", "failModes", "mode"):
                if key in command:
                    state[key] = command[key]

    def post(self, raw):
        pairs = parse_qsl(raw.decode("utf-8"), keep_blank_values=True)
        fields = dict(pairs)
        with changed:
            valid = signature(fields, state["pin"]) == fields.get("signature")
            mode = state["mode"]
            if state["failModes"]:
                failing, mode = True, state["failModes"].pop(0)
            else:
                failing = state["fail"] > 0
                if failing:
                    state["fail"] -= 1
            state["requests"].append({
                "path": self.path, "key": self.headers.get("Idempotency-Key", ""),
                "contentType": self.headers.get("Content-Type", ""), "names": [name for name, _ in pairs],
                "fields": fields, "signatureValid": valid, "failed": failing,
            })
            changed.notify_all()
        if failing:
            if mode == "500":
                return self.answer(500, "ERROR", "text/plain")
            if mode == "notok":
                return self.answer(200, "RECEIVED", "text/plain")
            if mode == "hang":
                time.sleep(30)
            return self.drop()
        if not valid:
            return self.answer(400, "BAD SIGNATURE", "text/plain")
        with changed:
            state["accepted"] += 1
            changed.notify_all()
        self.answer(200, "OK", "text/plain")


if __name__ == "__main__":
    serve(Shop)
