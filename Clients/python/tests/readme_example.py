"""The README's examples and the output each shows, for the tests that replay them."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Dict, Tuple

README = Path(__file__).resolve().parent.parent / "README.md"


def example(section: str = "") -> Tuple[str, str]:
    """The first ```python block of the README (or of its ``## section``) and the ```text block
    right after it."""
    text = README.read_text(encoding="utf-8")
    if section:
        start = text.find(f"\n## {section}\n")
        assert start >= 0, f"README.md has no section '## {section}'"
        end = text.find("\n## ", start + 1)
        text = text[start : end if end >= 0 else len(text)]
    match = re.search(r"```python\n(.*?)```\n(?:(?!```).)*?```text\n(.*?)```", text, re.DOTALL)
    assert match, f"README.md{' ' + section if section else ''} has no ```python example followed by a ```text block of its output"
    return match.group(1), match.group(2)


def environment(binary: str, home: Path) -> Dict[str, str]:
    """A child's environment: the binary under test, and a home, data home and temporary
    directory of the test's own, so that what the example leaves behind can be seen."""
    for name in ("home", "data", "tmp"):
        (home / name).mkdir(exist_ok=True)
    return {
        **os.environ,
        "PAYRPC_BIN": binary,
        "HOME": str(home / "home"),
        "XDG_DATA_HOME": str(home / "data"),
        "TMPDIR": str(home / "tmp"),
    }


def run(python: str, code: str, env: Dict[str, str], cwd: Path) -> str:
    """Runs ``code`` with ``python`` and returns its stdout; fails with its stderr."""
    done = subprocess.run([python, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"the README example exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done.stdout


def leftovers(home: Path) -> list:
    """What the runs left in the data home and the temporary directory (nothing, when every
    spawned server was ephemeral and removed its directory)."""
    return sorted(str(path.relative_to(home)) for folder in ("data", "tmp") for path in (home / folder).iterdir())

