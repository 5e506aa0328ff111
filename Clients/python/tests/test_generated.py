"""The committed stubs are exactly what generate.py writes from Schemas/openrpc.json."""

from __future__ import annotations

import sys
from pathlib import Path

CLIENT_DIR = Path(__file__).resolve().parent.parent
SCHEMA = CLIENT_DIR.parent.parent / "Schemas" / "openrpc.json"
PACKAGE = CLIENT_DIR / "payrpc" / "generated"
FIX = "python3 Clients/python/generate.py"

sys.path.insert(0, str(CLIENT_DIR))
import generate  # noqa: E402


def test_committed_stubs_match_the_schema(tmp_path: Path) -> None:
    assert SCHEMA.exists(), f"{SCHEMA} is missing: build the server's Schemas/ first"
    out = tmp_path / "generated"
    assert generate.main(["--schema", str(SCHEMA), "--out", str(out)]) == 0
    expected = {path.relative_to(out).as_posix(): path.read_bytes() for path in generate.generated_paths(out)}
    committed = {path.relative_to(PACKAGE).as_posix(): path.read_bytes() for path in generate.generated_paths(PACKAGE)}
    missing = sorted(set(expected) - set(committed))
    extra = sorted(set(committed) - set(expected))
    changed = sorted(name for name in set(expected) & set(committed) if expected[name] != committed[name])
    assert not (missing or extra or changed), (
        f"the Python stubs are out of date with Schemas/openrpc.json "
        f"(missing: {missing}, no longer generated: {extra}, different: {changed}); "
        f"run `{FIX}` from the repository root and commit the result"
    )
