#!/usr/bin/env python3
"""Checks that the peers of bench/peers answer what payrpc answers.

Starts payrpc (`serve --stdio`, a temporary data directory) and each peer (TCP on a free loopback
port), sends every request of CASES to each, and compares each peer's answer with payrpc's: the
`result` exactly; for an error, the code, and for -32602 the violations' pointers and keywords (the
messages may be worded differently), for a Tatra error its whole `data`. Prints one line per peer
and exits 1 at the first difference.

Usage: check.py --payrpc BIN [--peers python,node,go] [--go-binary PATH]
Run it with a Python that has orjson (bench/peers/requirements.txt): the Python peer runs with the
same interpreter. The Go peer is built with `go build` into a temporary directory unless
--go-binary is given. Run from anywhere: paths are found from this file's place in the repository.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEMA = os.path.join(ROOT, "Schemas", "models", "tatra.ExecutePaymentParams.json")
SANDBOX = os.path.join(ROOT, "Sources", "TatraService", "Resources", "tatra-sandbox.json")
CONTACT = {"fullName": "Jana Nováková", "phones": ["+421900123456"]}
CASES = [
    ("rpc.health", None),
    ("tatra.executePayment", {"amount": "12.50", "contact": CONTACT, "reference": "Invoice 2026-001 for services"}),
    ("tatra.executePayment", {"amount": "7", "recepient": {"fullName": "Peter", "phone": "+421905111222"},
                              "messageForRecipient": "Lunch"}),
    ("tatra.executePayment", {"amount": "12.5x", "contact": {"fullName": "", "phones": [1]}, "bogus": 1}),
    ("tatra.executePayment", {"amount": "1234567890123456789", "contact": CONTACT}),
    ("tatra.executePayment", {"amount": 12.5, "contact": CONTACT}),
    ("tatra.executePayment", {"amount": "12.50"}),
    ("tatra.executePayment", {"amount": "12.50", "contact": CONTACT, "recepient": CONTACT}),
    ("tatra.executePayment", {"amount": "12.50", "contact": {"fullName": "J", "phones": ["+421900123456"],
                                                             "phone": "+421900123456"}}),
    ("tatra.executePayment", {"amount": "6000", "contact": CONTACT}),
    ("tatra.executePayment", {"amount": "10.001", "contact": CONTACT}),
    ("tatra.executePayment", {"amount": "10", "contact": {"fullName": "J", "phones": []}}),
    ("tatra.executePayment", {"amount": "10", "contact": {"fullName": "J", "phones": ["+420900123456"]}}),
    ("tatra.executePayment", {"amount": "10", "contact": {"fullName": "J", "phones": ["+421900000001"]}}),
    ("tatra.executePayment", {"amount": "10", "contact": CONTACT, "reference": "a_b"}),
    ("tatra.executePayment", {"amount": "10", "contact": CONTACT, "reference": "x" * 141}),
    ("no.suchMethod", None),
]


def requests():
    lines = []
    for number, (method, params) in enumerate(CASES, 1):
        request = {"jsonrpc": "2.0", "id": number, "method": method}
        if params is not None:
            request["params"] = params
        lines.append(json.dumps(request, ensure_ascii=False))
    return "".join(line + "\n" for line in lines).encode()


def comparable(line):
    """What must be equal between payrpc's answer and a peer's."""
    response = json.loads(line)
    if "result" in response:
        return response["id"], "result", response["result"]
    error = response["error"]
    if error["code"] == -32602:
        violations = sorted((v["pointer"], v["keyword"]) for v in error.get("data", {}).get("violations", []))
        return response["id"], error["code"], violations
    if error["code"] <= -33000:
        return response["id"], error["code"], error["data"]
    return response["id"], error["code"]


def read_answers(stream, count):
    answers = []
    while len(answers) < count:
        line = stream.readline()
        if not line:
            raise RuntimeError(f"connection closed after {len(answers)} of {count} answers")
        answers.append(line)
    return answers


def payrpc_answers(binary, data):
    """payrpc's answers over stdio; its input stays open until every answer is read."""
    process = subprocess.Popen([binary, "serve", "--stdio", "--data", data], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        process.stdin.write(requests())
        process.stdin.flush()
        return [line.decode() for line in read_answers(process.stdout, len(CASES))]
    finally:
        process.stdin.close()
        process.wait(timeout=120)


def peer_answers(command):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline().split()
        if len(first) != 2 or first[0] != "listening":
            raise RuntimeError(f"did not start: {first} {process.stderr.read() if process.poll() is not None else ''}")
        with socket.create_connection(("127.0.0.1", int(first[1])), timeout=60) as connection:
            connection.sendall(requests())
            return [line.decode() for line in read_answers(connection.makefile("rb"), len(CASES))]
    finally:
        process.kill()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--payrpc", required=True)
    parser.add_argument("--peers", default="python,node,go")
    parser.add_argument("--go-binary")
    arguments = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="payrpc-peers-check.")
    try:
        expected = payrpc_answers(arguments.payrpc, os.path.join(scratch, "data"))
        if len(expected) != len(CASES):
            print(f"payrpc answered {len(expected)} of {len(CASES)} requests", file=sys.stderr)
            return 1
        expected = {comparable(line)[0]: comparable(line) for line in expected}
        arguments_common = ["--port", "0", "--schema", SCHEMA, "--sandbox", SANDBOX]
        for peer in arguments.peers.split(","):
            if peer == "python":
                command = [sys.executable, os.path.join(HERE, "peer.py")]
            elif peer == "node":
                command = ["node", os.path.join(HERE, "peer.js")]
            elif peer == "go":
                binary = arguments.go_binary
                if binary is None:
                    binary = os.path.join(scratch, "peer-go")
                    environment = dict(os.environ, GOPROXY="off", GOFLAGS="-mod=mod", GO111MODULE="on")
                    subprocess.run(["go", "build", "-o", binary, os.path.join(HERE, "peer.go")], check=True,
                                   cwd=scratch, env=environment, timeout=600)
                command = [binary]
            else:
                print(f"unknown peer {peer}", file=sys.stderr)
                return 2
            answers = peer_answers(command + arguments_common)
            ids = sorted(comparable(line)[0] for line in answers)
            if ids != sorted(expected):
                print(f"{peer}: answered the ids {ids}, not each of {sorted(expected)} once", file=sys.stderr)
                return 1
            for line in answers:
                got = comparable(line)
                if got != expected.get(got[0]):
                    print(f"{peer}: request {got[0]} {CASES[got[0] - 1]}\n  payrpc: {expected.get(got[0])}\n"
                          f"  {peer}: {got}\n  line: {line.strip()}", file=sys.stderr)
                    return 1
            print(f"{peer}: {len(answers)} answers as payrpc's")
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
