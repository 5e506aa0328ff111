"""Where a spawned server keeps its state: ephemeral by default, kept with data_dir= or
ephemeral=False (against the real binary)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Dict, List

import pytest

import payrpc
import readme_example
from payrpc import _process
from payrpc.generated.errors.tatra import WrongPin


def wrong_pins(client: payrpc.Client, count: int) -> List[bool]:
    """``application_blocked`` after each of ``count`` wrong PINs."""
    blocked = []
    for _ in range(count):
        with pytest.raises(WrongPin) as wrong:
            client.tatra.authorize("0000")
        blocked.append(wrong.value.application_blocked)
    return blocked


def test_state_arguments() -> None:
    assert _process.state_arguments([], None, None) == ["--ephemeral"]
    assert _process.state_arguments([], None, True) == ["--ephemeral"]
    assert _process.state_arguments(["--ephemeral"], None, None) == []
    assert _process.state_arguments([], None, False) == []
    assert _process.state_arguments([], Path("/d"), None) == ["--data", "/d"]
    assert _process.state_arguments([], "d", False) == ["--data", "d"]
    assert _process.state_arguments(["--data", "d"], None, None) == []
    assert _process.state_arguments(["--data=d"], None, None) == []
    for args, data_dir, ephemeral in [([], "d", True), (["--data", "x"], "d", None), (["--data", "x"], None, True)]:
        with pytest.raises(ValueError):
            _process.state_arguments(args, data_dir, ephemeral)


def test_spawned_servers_start_clean_and_leave_nothing(payrpc_bin: str, tmp_path: Path) -> None:
    env = readme_example.environment(payrpc_bin, tmp_path)
    with payrpc.Client.spawn(env=env) as client:
        assert wrong_pins(client, 3) == [False, False, True]
    with payrpc.Client.spawn(env=env) as client:
        assert wrong_pins(client, 1) == [False]
    assert readme_example.leftovers(tmp_path) == []


def test_the_async_client_spawns_ephemeral_servers_too(payrpc_bin: str, tmp_path: Path) -> None:
    env = readme_example.environment(payrpc_bin, tmp_path)

    async def blocked_after_wrong_pins(count: int) -> List[Any]:
        answers = []
        async with await payrpc.AsyncClient.spawn(env=env) as client:
            for _ in range(count):
                answers.append((await client.batch([("tatra.authorize", {"pincode": "0000"})]))[0])
        return [answer.application_blocked for answer in answers]

    assert asyncio.run(blocked_after_wrong_pins(3)) == [False, False, True]
    assert asyncio.run(blocked_after_wrong_pins(1)) == [False]
    assert readme_example.leftovers(tmp_path) == []


def test_data_dir_keeps_the_state_there(payrpc_bin: str, tmp_path: Path) -> None:
    env = readme_example.environment(payrpc_bin, tmp_path)
    state = tmp_path / "state"
    with payrpc.Client.spawn(env=env, data_dir=state) as client:
        assert wrong_pins(client, 3) == [False, False, True]
    assert (state / "payrpc.sqlite").exists()
    with payrpc.Client.spawn(env=env, data_dir=state) as client:
        assert wrong_pins(client, 1) == [True]


def test_ephemeral_false_keeps_the_state_in_the_default_data_directory(payrpc_bin: str, tmp_path: Path) -> None:
    env: Dict[str, str] = readme_example.environment(payrpc_bin, tmp_path)
    with payrpc.Client.spawn(env=env, ephemeral=False) as client:
        assert wrong_pins(client, 3) == [False, False, True]
    assert (tmp_path / "data" / "payrpc" / "payrpc.sqlite").exists()
    with payrpc.Client.spawn(env=env, ephemeral=False) as client:
        assert wrong_pins(client, 1) == [True]
    with payrpc.Client.spawn(env=env) as client:  # the default again: a clean server
        assert wrong_pins(client, 1) == [False]
