"""rpc.discover (the JSON-RPC face) and tools/list (the MCP face) agree: the same methods, the
same params and result schemas, the same marks; and the committed Schemas/mcp-tools.json is
what the server lists."""

import json
import subprocess

import pytest

from support import BIN, ROOT, RawPeer

NOT_TOOLS = {"$/cancelRequest"}  # MCP cancels with notifications/cancelled
MCP_ONLY = {"session_takeNotifications"}


def discover(data) -> dict:
    """rpc.discover from a plain `payrpc serve --stdio`."""
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}) + "\n"
    out = subprocess.run([BIN, "serve", "--stdio", "--data", str(data)], input=line.encode(),
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60, check=True).stdout
    return json.loads(out)["result"]


def listed_tools(data) -> list:
    peer = RawPeer(data)
    peer.initialize()
    tools = peer.request(1, "tools/list")["result"]["tools"]
    peer.close()
    return tools


def normalized(schema, prefix: str):
    """`schema` with its references reduced to the model name (`#/$defs/X`, `#/components/schemas/X` → `X`)."""
    if isinstance(schema, list):
        return [normalized(item, prefix) for item in schema]
    if isinstance(schema, dict):
        out = {}
        for key, value in schema.items():
            if key == "$ref":
                assert value.startswith(prefix), value
                out[key] = value[len(prefix):]
            elif key != "$defs":
                out[key] = normalized(value, prefix)
        return out
    return schema


def references(schema) -> set:
    if isinstance(schema, list):
        return set().union(*map(references, schema)) if schema else set()
    if isinstance(schema, dict):
        found = {schema["$ref"]} if isinstance(schema.get("$ref"), str) else set()
        for key, value in schema.items():
            if key != "$ref":
                found |= references(value)
        return found
    return set()


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    document = discover(tmp_path_factory.mktemp("discover"))
    tools = {tool["name"]: tool for tool in listed_tools(tmp_path_factory.mktemp("mcp"))}
    return document, tools


def test_the_same_methods(both):
    document, tools = both
    methods = {m["name"].replace(".", "_") for m in document["methods"] if m["name"] not in NOT_TOOLS}
    assert set(tools) == methods | MCP_ONLY
    assert list(tools) == sorted(tools), "tools are listed in a deterministic order"


def test_the_same_schemas_and_marks(both):
    document, tools = both
    components = document["components"]["schemas"]
    for method in document["methods"]:
        if method["name"] in NOT_TOOLS:
            continue
        tool = tools[method["name"].replace(".", "_")]
        definitions = {name: normalized(schema, "#/$defs/") for name, schema in tool["inputSchema"].get("$defs", {}).items()}
        definitions.update({name: normalized(schema, "#/$defs/") for name, schema in tool["outputSchema"].get("$defs", {}).items()})
        # Every model a tool refers to is the model rpc.discover publishes.
        for name, schema in definitions.items():
            assert schema == normalized(components[name], "#/components/schemas/"), (method["name"], name)

        # Params: each content descriptor is the tool's property, required alike.
        input_schema = normalized(tool["inputSchema"], "#/$defs/")
        assert input_schema["type"] == "object"
        forms = input_schema.get("oneOf")
        if forms:
            forms = [definitions[form["$ref"]] if "$ref" in form else form for form in forms]
            properties = {}
            for form in forms:  # as rpc.discover lists them: each member once, from the first form that has it
                for name, schema in form["properties"].items():
                    properties.setdefault(name, schema)
            required = set.intersection(*(set(form.get("required", [])) for form in forms))
        else:
            properties, required = input_schema.get("properties", {}), set(input_schema.get("required", []))
        assert set(properties) == {p["name"] for p in method["params"]}, method["name"]
        for param in method["params"]:
            assert properties[param["name"]] == normalized(param["schema"], "#/components/schemas/"), (method["name"], param["name"])
            assert (param["name"] in required) == param["required"], (method["name"], param["name"])

        # Result: the same schema, wrapped as {"result": …} where it is not an object.
        result = normalized(method["result"]["schema"], "#/components/schemas/")
        resolved = normalized(components[result["$ref"]], "#/components/schemas/") if "$ref" in result else result
        output = normalized(tool["outputSchema"], "#/$defs/")
        if resolved.get("type") == "object":
            assert output == resolved, method["name"]
        else:
            assert output == {"type": "object", "properties": {"result": result}, "required": ["result"],
                              "additionalProperties": False}, method["name"]
        assert references(tool["inputSchema"]) | references(tool["outputSchema"]) <= {f"#/$defs/{n}" for n in definitions}

        # Marks: read-only from x-mutates, destructive from x-destructive, sandbox-only.
        annotations = tool["annotations"]
        assert annotations["readOnlyHint"] is (not method["x-mutates"])
        if method["x-mutates"]:
            assert annotations["destructiveHint"] is method.get("x-destructive", False)
        assert tool["_meta"]["payrpc/method"] == method["name"]
        assert tool["_meta"].get("payrpc/sandboxOnly", False) is method.get("x-sandbox-only", False)
        assert tool["description"].startswith(("Sandbox only. " if method.get("x-sandbox-only") else "") + method["summary"])
        assert all(str(e["code"]) in tool["description"] for e in method["errors"])


def test_tool_names_suit_every_host(both):
    _, tools = both
    import re
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name) for name in tools)


def test_the_committed_tool_list_is_what_the_server_lists(both):
    _, tools = both
    committed = json.loads((ROOT / "Schemas/mcp-tools.json").read_text())
    assert committed == {"tools": list(tools.values())}
