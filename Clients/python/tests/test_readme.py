"""The README's examples, extracted and run as written against the real binary: the first,
three runs in a row, prints exactly the output the README shows and leaves nothing behind; the
call journal's prints the failure message the README shows."""

from __future__ import annotations

import sys
from pathlib import Path

import readme_example


def test_the_readme_example_prints_what_the_readme_shows_every_time(payrpc_bin: str, tmp_path: Path) -> None:
    code, expected = readme_example.example()
    assert len(code.strip().splitlines()) <= 10, "the first example stays short"
    env = readme_example.environment(payrpc_bin, tmp_path)
    outputs = [readme_example.run(sys.executable, code, env, tmp_path) for _ in range(3)]
    assert outputs == [expected] * 3
    # Each spawned server was ephemeral: nothing in the default data directory, and each one
    # removed its temporary directory when it exited.
    assert readme_example.leftovers(tmp_path) == []


def test_the_call_journal_example_prints_the_failure_the_readme_shows(payrpc_bin: str, tmp_path: Path) -> None:
    code, expected = readme_example.example("The call journal in tests")
    env = readme_example.environment(payrpc_bin, tmp_path)
    assert readme_example.run(sys.executable, code, env, tmp_path) == expected
