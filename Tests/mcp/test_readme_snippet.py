"""The README's MCP host snippet, as a host would use it: its command and arguments, spawned by the
SDK client in both eras (the host's `payrpc` is the binary under test)."""

import json
import re

import pytest
from mcp import Client, StdioServerParameters

from support import BIN, ROOT, ok


def readme_snippet() -> dict:
    """The `mcpServers` entry of README.md's JSON snippet."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)\n```", text, re.S)
    snippets = [json.loads(block) for block in blocks if "mcpServers" in block]
    assert len(snippets) == 1, "README.md shows one MCP host snippet"
    return snippets[0]["mcpServers"]["payrpc"]


@pytest.mark.anyio
async def test_the_readme_snippet_starts_a_server_a_host_can_use(mode):
    entry = readme_snippet()
    assert entry["command"] == "payrpc"
    async with Client(StdioServerParameters(command=BIN, args=entry["args"]), mode=mode) as session:
        tools = await session.list_tools()
        assert "tatra_executePayment" in {tool.name for tool in tools.tools}
        assert await ok(session, "rpc_health") == {"status": "SERVING"}
