"""Schema-driven property tests against the spawned binary (issue 20, part 3).

For every method of ``Schemas/methods/*.json`` (the per-method draft-07 documents that
``Schemas/openrpc.json`` is assembled from), hypothesis-jsonschema generates params valid against
the method's params schema. Each call must answer either a result valid against the method's
result schema or one of the errors the method declares, never an internal error (-32603) or a
crashed handler (-32007), and never hang. Then the valid params are mutated into invalid ones
(a member of the wrong type, a missing required member, an unknown member), and the answer
must be -32602 whose violations point at places that exist in what was sent, each message at
most 200 characters. (Params that are not structured at all, a string, a number or a boolean,
are an invalid request, -32600, by JSON-RPC 2.0, and null params read as absent: the engine's
tests cover those.)

Bounded for CI: ``PAYRPC_PROPERTY_EXAMPLES`` examples per method (default 8) from a fixed seed
(hypothesis' ``derandomize``); ``PAYRPC_PROPERTY_EXAMPLES=500`` for a long run.

These talk raw JSON lines to the server (not through the client), so that nothing on the client
side validates or reshapes what is sent.
"""

from __future__ import annotations

import copy
import json
import os
import pathlib
import select
import subprocess
import tempfile
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

ROOT = pathlib.Path(__file__).resolve().parents[3]
METHODS_DIR = ROOT / "Schemas" / "methods"
EXAMPLES = int(os.environ.get("PAYRPC_PROPERTY_EXAMPLES", "8"))
#: Answers any call may get whatever it declares: none but the method's own errors and these.
#: -32602: what the schema cannot say (a rule across members the validator leaves to the handler
#: is reported as invalid params with the member's pointer; checked below to point into the
#: sent params). -32003: the server's own deadline for a call (none is sent here, so only a
#: method that waits, such as sandbox.delay, may meet it).
GATEWAY_ANSWERS = {-32602}
NEVER = {-32603, -32007}
#: Seconds a call may take before it counts as a hang.
ANSWER_TIMEOUT = 20.0
#: The longest violation message a person should have to read (issue 26): a broken format is
#: named in words with an example, never quoted as its pattern.
MAX_MESSAGE_LENGTH = 200
#: Methods whose generated params must be narrowed so the run stays bounded, and why.
BOUNDS = {
    # Waits `ms` before answering (up to ten minutes by its schema).
    "sandbox.delay": lambda schema: _with(schema, ["properties", "ms", "maximum"], 20),
    # Waits up to `timeoutMs` (ten minutes by its schema, five seconds when it is left out) for
    # entries that random params never match: always given, and short.
    "sandbox.calls.wait": lambda schema: _with(
        _with(schema, ["properties", "timeoutMs", "maximum"], 20), ["required"], [*schema.get("required", []), "timeoutMs"]
    ),
}


def _with(schema: Dict[str, Any], path: List[str], value: Any) -> Dict[str, Any]:
    narrowed = copy.deepcopy(schema)
    node = narrowed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return narrowed


class Method:
    """One method's self-contained schemas, as Schemas/methods/<name>.json gives them."""

    def __init__(self, path: pathlib.Path) -> None:
        document = json.loads(path.read_text())
        self.name: str = document["title"] if "title" in document else path.stem
        self.definitions: Dict[str, Any] = document.get("definitions", {})
        self.params: Optional[Dict[str, Any]] = self._resolve(document.get("params"))
        self.result: Optional[Dict[str, Any]] = document.get("result")
        self.errors = {error["code"] for error in document.get("errors", [])}
        if self.params is not None and self.name in BOUNDS:
            self.params = BOUNDS[self.name](self.params)

    def _resolve(self, schema: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
        if schema is None:
            return None
        if set(schema) == {"$ref"} and schema["$ref"].startswith("#/definitions/"):
            return copy.deepcopy(self.definitions[schema["$ref"][len("#/definitions/"):]])
        return copy.deepcopy(schema)

    def with_definitions(self, schema: Dict[str, Any]) -> Dict[str, Any]:
        return {**schema, "definitions": self.definitions}

    def __repr__(self) -> str:
        return self.name


def load_methods() -> List[Method]:
    methods = []
    for path in sorted(METHODS_DIR.glob("*.json")):
        method = Method(path)
        if method.name.startswith("$/"):
            continue  # notifications: no answer to check
        methods.append(method)
    return methods


METHODS = load_methods()


class RawServer:
    """`payrpc serve --stdio` spoken to in raw lines."""

    def __init__(self, binary: str, data: str) -> None:
        self.process = subprocess.Popen(
            [binary, "serve", "--stdio", "--data", data, "--seed", "20"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )
        self.next_id = 0
        self.buffer = b""

    def call(self, method: str, params: Any) -> Dict[str, Any]:
        self.next_id += 1
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while True:
            line = self._line(deadline, method, params)
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                return answer

    def _line(self, deadline: float, method: str, params: Any) -> bytes:
        assert self.process.stdout is not None
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                pytest.fail(f"{method} did not answer within {ANSWER_TIMEOUT}s: params {json.dumps(params)}")
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    pytest.fail(f"the server exited (status {self.process.poll()}) on {method} {json.dumps(params)}")
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    binary = os.environ["PAYRPC_BIN"]
    with tempfile.TemporaryDirectory() as data:
        raw = RawServer(binary, data)
        yield raw
        raw.close()
        assert raw.process.returncode == 0, "the server did not exit cleanly after the property run"


def pointer_exists(document: Any, pointer: str) -> bool:
    """Whether the RFC 6901 pointer names a place in `document`."""
    if pointer == "":
        return True
    if not pointer.startswith("/"):
        return False
    node = document
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def check_valid_call(server: RawServer, method: Method, params: Any) -> None:
    answer = server.call(method.name, params)
    sent = json.dumps(params)
    if "error" in answer:
        code = answer["error"]["code"]
        assert code not in NEVER, f"{method.name} answered {answer['error']} to valid params {sent}"
        assert code in method.errors or code in GATEWAY_ANSWERS, (
            f"{method.name} answered {code} {answer['error'].get('message')}, which it does not declare "
            f"(declared: {sorted(method.errors)}), to valid params {sent}")
        if code == -32602:
            for violation in answer["error"].get("data", {}).get("violations", []):
                check_violation(method, violation, params)
        return
    if method.result is not None:
        schema = method.with_definitions(method.result.get("schema", method.result))
        try:
            jsonschema.Draft7Validator(schema).validate(answer["result"])
        except jsonschema.ValidationError as error:
            pytest.fail(f"{method.name}: result {json.dumps(answer['result'])} breaks its schema: {error.message}")


# Mutations: each turns valid params into params the schema refuses, or returns None when it
# does not apply to this method.


def mutate_drop_required(params: Any, schema: Dict[str, Any]) -> Optional[Any]:
    required = [name for name in schema.get("required", []) if isinstance(params, dict) and name in params]
    if not required:
        return None
    mutated = dict(params)
    del mutated[required[0]]
    # An alias of the dropped member would stand in for it: drop every spelling.
    for alias in _aliases(schema, required[0]):
        mutated.pop(alias, None)
    return mutated


def mutate_unknown_member(params: Any, schema: Dict[str, Any]) -> Optional[Any]:
    if schema.get("additionalProperties") is not False or not isinstance(params, dict):
        return None
    return {**params, "zzNotAMember": 1}


def mutate_wrong_type(params: Any, schema: Dict[str, Any]) -> Optional[Any]:
    if not isinstance(params, dict):
        return None
    wrong = {"string": 12345, "integer": "x", "number": "x", "boolean": "x", "array": {"a": 1}, "object": [1]}
    for name, member in sorted(schema.get("properties", {}).items()):
        kind = member.get("type")
        if name in params and isinstance(kind, str) and kind in wrong:
            return {**params, name: wrong[kind]}
    return None


def _aliases(schema: Dict[str, Any], name: str) -> List[str]:
    spellings = []
    for other, member in schema.get("properties", {}).items():
        description = member.get("description", "")
        if other != name and f"`{name}`" in description and "spelling" in description:
            spellings.append(other)
    return spellings


MUTATIONS = [mutate_drop_required, mutate_unknown_member, mutate_wrong_type]


def check_invalid_call(server: RawServer, method: Method, params: Any) -> None:
    answer = server.call(method.name, params)
    sent = json.dumps(params)
    assert "error" in answer, f"{method.name} accepted invalid params {sent}: {json.dumps(answer.get('result'))}"
    error = answer["error"]
    assert error["code"] == -32602, f"{method.name} answered {error} to invalid params {sent}"
    violations = error.get("data", {}).get("violations", [])
    assert violations, f"{method.name}: -32602 without violations for {sent}"
    for violation in violations:
        check_violation(method, violation, params)


def check_violation(method: Method, violation: Dict[str, Any], params: Any) -> None:
    """A violation points into what was sent and says what is wrong in a short message."""
    sent = json.dumps(params)
    assert pointer_exists(params, violation["pointer"]), (
        f"{method.name}: violation {violation} points outside the sent params {sent}")
    assert len(violation["message"]) <= MAX_MESSAGE_LENGTH, (
        f"{method.name}: a message of {len(violation['message'])} characters for {sent}: {violation['message']}")


SETTINGS = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("method", [m for m in METHODS if m.params is not None], ids=repr)
def test_valid_params_get_a_declared_answer(server: RawServer, method: Method) -> None:
    assert method.params is not None

    @SETTINGS
    @given(from_schema(method.with_definitions(method.params)))
    def run(params: Any) -> None:
        check_valid_call(server, method, params)

    run()


@pytest.mark.parametrize("method", [m for m in METHODS if m.params is not None], ids=repr)
def test_invalid_params_are_refused_with_pointers_into_them(server: RawServer, method: Method) -> None:
    assert method.params is not None
    schema = method.params
    validator = jsonschema.Draft7Validator(method.with_definitions(schema))
    applied: List[str] = []

    @SETTINGS
    @given(from_schema(method.with_definitions(schema)), st.sampled_from(MUTATIONS))
    def run(params: Any, mutation: Any) -> None:
        mutated = mutation(params, schema)
        if mutated is None or validator.is_valid(mutated):
            return  # this mutation does not apply here, or happens to stay valid
        applied.append(mutation.__name__)
        check_invalid_call(server, method, mutated)

    run()
    # An unknown member is refused by every closed params object: at least that one ran.
    if schema.get("additionalProperties") is False:
        assert applied, f"{method.name}: no mutation produced invalid params"


def test_every_method_is_covered() -> None:
    document = json.loads((ROOT / "Schemas" / "openrpc.json").read_text())
    named = {m["name"] for m in document["methods"] if not m["name"].startswith("$/")}
    assert named == {m.name for m in METHODS}
    # Every method publishes a params schema (an empty object for none), so every one is generated for.
    assert [m.name for m in METHODS if m.params is None] == []
