#!/usr/bin/env python3
"""The Python peer of bench/peers: `rpc.health` and a validated `tatra.executePayment` over
newline-delimited JSON-RPC 2.0 on TCP, with asyncio (one event loop, `asyncio.Protocol`) and orjson.

Usage: peer.py --port N --schema Schemas/models/tatra.ExecutePaymentParams.json
               --sandbox Sources/TatraService/Resources/tatra-sandbox.json
Prints `listening PORT` once bound (port 0 picks one). What it checks: docs/benchmarks.md
("Beside the peers"); the Node and Go peers check the same.
"""
import argparse
import asyncio
import json
import re
from decimal import Decimal
import sys

import orjson

PARAMS = ("amount", "contact", "recepient", "reference", "messageForRecipient")
CONTACT = ("fullName", "phones", "phone", "image", "icon")
HEALTH = b'{"status":"SERVING"}'


class Rules:
    """What the schema and the sandbox data say, read once at start."""

    def __init__(self, schema_path, sandbox_path):
        schema = json.load(open(schema_path, encoding="utf-8"))
        sandbox = json.load(open(sandbox_path, encoding="utf-8"))
        setup = sandbox["setup"]
        self.amount = re.compile(schema["properties"]["amount"]["pattern"])
        self.amount_message = "must be " + schema["properties"]["amount"]["x-format"]
        self.phone = re.compile(setup["phoneValidationRegex"])
        # Python's `re` has no \p{L}/\p{N}: letters and digits are [^\W_] (str.isalnum's classes).
        self.description = re.compile(setup["descriptionValidationRegex"].replace(r"[\p{L}\p{N}", r"(?:[^\W_]|[")
                                      .replace("]*$", "])*$"))
        self.description_length = setup["descriptionValidationLength"]
        self.min_cents = cents(setup["minTransactionAmount"])
        self.max_cents = cents(setup["maxTransactionAmount"])
        self.min_text = setup["minTransactionAmount"]
        self.max_text = setup["maxTransactionAmount"]
        self.currency = sandbox["currency"]
        self.owner_phone = sandbox["owner"]["phone"]
        self.texts = sandbox["texts"]


def cents(text):
    """The amount in cents when it has at most two decimals (trailing zeros aside); else None."""
    negative = text.startswith("-")
    whole, _, fraction = text.lstrip("-").partition(".")
    fraction = fraction.rstrip("0")
    if len(fraction) > 2:
        return None
    value = int(whole) * 100 + int(fraction.ljust(2, "0"))
    return -value if negative else value


def two_decimals(value):
    sign = "-" if value < 0 else ""
    value = abs(value)
    return f"{sign}{value // 100}.{value % 100:02d}"


def violation(out, pointer, keyword, message):
    out.append({"pointer": pointer, "keyword": keyword, "message": message})


def check_string(out, pointer, value):
    if not isinstance(value, str):
        violation(out, pointer, "type", f"expected string, found {kind(value)}")
        return False
    return True


def kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def check_contact(out, pointer, contact):
    if not isinstance(contact, dict):
        violation(out, pointer, "type", f"expected object, found {kind(contact)}")
        return None
    for key in contact:
        if key not in CONTACT:
            violation(out, f"{pointer}/{key}", "additionalProperties", f'member "{key}" is not allowed')
    name = contact.get("fullName")
    if name is None:
        violation(out, pointer, "required", 'missing required member "fullName"')
    elif check_string(out, pointer + "/fullName", name) and len(name) < 1:
        violation(out, pointer + "/fullName", "minLength", "must be at least 1 character long")
    phones = contact.get("phones")
    phone = contact.get("phone")
    if phones is not None and phone is not None:
        violation(out, pointer, "not", "must not match the schema of not")
    elif phones is None and phone is None:
        violation(out, pointer, "required", 'missing required member "phones" (or Android\'s "phone")')
    if phones is not None:
        if not isinstance(phones, list):
            violation(out, pointer + "/phones", "type", f"expected array, found {kind(phones)}")
        else:
            for index, item in enumerate(phones):
                check_string(out, f"{pointer}/phones/{index}", item)
    elif phone is not None and check_string(out, pointer + "/phone", phone):
        phones = [phone]
    if "image" in contact and "icon" in contact:
        violation(out, pointer, "not", "must not match the schema of not")
    for key in ("image", "icon"):
        if key in contact:
            check_string(out, f"{pointer}/{key}", contact[key])
    return phones


def tatra_error(code, message, kind_, status, title, text):
    return {"code": code, "message": message,
            "data": {"type": kind_, "status": status, "fatal": False, "title": title, "message": text}}


def execute_payment(rules, params):
    """(result, error): the confirmation text, or a JSON-RPC error object."""
    out = []
    if params is None:
        params = {}
    if not isinstance(params, dict):
        violation(out, "", "type", f"expected object, found {kind(params)}")
        return None, {"code": -32602, "message": "Invalid params", "data": {"violations": out}}
    amount = params.get("amount")
    if amount is None:
        violation(out, "", "required", 'missing required member "amount"')
    has_contact, has_recepient = "contact" in params, "recepient" in params
    if not has_contact and not has_recepient:
        violation(out, "", "required", 'missing required member "contact" (or Android\'s "recepient")')
    elif has_contact and has_recepient:
        violation(out, "", "not", "must not match the schema of not")
    if "reference" in params and "messageForRecipient" in params:
        violation(out, "", "not", "must not match the schema of not")
    for key in params:
        if key not in PARAMS:
            violation(out, "/" + key, "additionalProperties", f'member "{key}" is not allowed')
    if amount is not None and check_string(out, "/amount", amount) and not rules.amount.match(amount):
        violation(out, "/amount", "pattern", rules.amount_message)
    name, phones = None, None
    for key in ("contact", "recepient"):
        if key in params:
            phones = check_contact(out, "/" + key, params[key])
            name = params[key].get("fullName") if isinstance(params[key], dict) else None
    reference = None
    for key in ("reference", "messageForRecipient"):
        if key in params and check_string(out, "/" + key, params[key]):
            reference = params[key]
    if out:
        return None, {"code": -32602, "message": "Invalid params", "data": {"violations": out}}
    texts = rules.texts
    value = cents(amount)
    if value is None or value < rules.min_cents or value > rules.max_cents:
        exact = Decimal(amount)
        in_range = Decimal(rules.min_text) <= exact <= Decimal(rules.max_text)
        text = ("The amount may have at most two decimals." if in_range else
                f"The amount must be from {rules.min_text} to {rules.max_text} {rules.currency}.")
        return None, tatra_error(-33003, "Amount limit", "amountLimit", "OUT_OF_RANGE", texts["amountLimit"], text)
    if not phones:
        return None, tatra_error(-33002, "Execute payment error", "executePayment", "INVALID_ARGUMENT",
                                 texts["executePayment"], "The recipient has no phone number.")
    phone = phones[0]
    if not rules.phone.fullmatch(phone):
        return None, tatra_error(-33002, "Execute payment error", "executePayment", "INVALID_ARGUMENT",
                                 texts["executePayment"], f"The recipient's phone number {phone} is not valid.")
    if phone == rules.owner_phone:
        return None, tatra_error(-33004, "Same recipient", "sameRecipient", "INVALID_ARGUMENT",
                                 texts["sameRecipient"], "The recipient is your own phone number.")
    if reference is not None:
        if len(reference.encode("utf-16-le")) // 2 > rules.description_length:
            return None, tatra_error(-33002, "Execute payment error", "executePayment", "INVALID_ARGUMENT",
                                     texts["executePayment"],
                                     f"The reference may have at most {rules.description_length} characters.")
        if not rules.description.fullmatch(reference):
            return None, tatra_error(-33002, "Execute payment error", "executePayment", "INVALID_ARGUMENT",
                                     texts["executePayment"], "The reference contains characters that are not allowed.")
    text = texts["paymentConfirmation"]
    return (text.replace("{amount}", two_decimals(value)).replace("{currency}", rules.currency)
            .replace("{name}", name).replace("{phone}", phone)), None


def answer(rules, line):
    """The response line (bytes, with its newline) to one request line, or None for a notification."""
    try:
        request = orjson.loads(line)
    except orjson.JSONDecodeError:
        return b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n'
    if not isinstance(request, dict):
        return b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}\n'
    ident = request.get("id")
    method = request.get("method")
    if request.get("jsonrpc") != "2.0" or not isinstance(method, str):
        response = {"jsonrpc": "2.0", "id": ident, "error": {"code": -32600, "message": "Invalid Request"}}
        return orjson.dumps(response) + b"\n"
    if "id" not in request:
        return None
    params = request.get("params")
    if method == "rpc.health":
        if params is None or params == {}:
            return b'{"jsonrpc":"2.0","id":' + orjson.dumps(ident) + b',"result":' + HEALTH + b"}\n"
        error = {"code": -32602, "message": "Invalid params"}
        result = None
    elif method == "tatra.executePayment":
        result, error = execute_payment(rules, params)
    else:
        result, error = None, {"code": -32601, "message": "Method not found"}
    if error is not None:
        return orjson.dumps({"jsonrpc": "2.0", "id": ident, "error": error}) + b"\n"
    return orjson.dumps({"jsonrpc": "2.0", "id": ident, "result": result}) + b"\n"


class Connection(asyncio.Protocol):
    def __init__(self, rules):
        self.rules = rules
        self.buffer = b""
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        lines = (self.buffer + data).split(b"\n")
        self.buffer = lines.pop()
        out = []
        for line in lines:
            if line.strip():
                response = answer(self.rules, line)
                if response is not None:
                    out.append(response)
        if out:
            self.transport.write(b"".join(out))


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--sandbox", required=True)
    arguments = parser.parse_args()
    rules = Rules(arguments.schema, arguments.sandbox)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Connection(rules), "127.0.0.1", arguments.port)
    print(f"listening {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
