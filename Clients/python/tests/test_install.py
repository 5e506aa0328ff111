"""``pip install ./Clients/python`` into a clean virtual environment, then the README example
run with that environment's Python, from outside the source tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import readme_example

CLIENT_DIR = Path(__file__).resolve().parent.parent
#: What a checkout holds besides the sources: environments, caches, build output.
NOT_SOURCES = shutil.ignore_patterns(".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis")


def test_pip_install_into_a_clean_venv_runs_the_readme_example(payrpc_bin: str, tmp_path: Path) -> None:
    # A copy of the client as a fresh checkout has it, so that nothing built earlier (pip
    # copies what it finds in build/) slips into the package.
    source = tmp_path / "checkout" / "Clients" / "python"
    shutil.copytree(CLIENT_DIR, source, ignore=NOT_SOURCES)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "./Clients/python"],
        cwd=tmp_path / "checkout", capture_output=True, text=True, timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    # The installed package, not the source tree, and with every file of the source package.
    located = subprocess.run(
        [python, "-c", "import payrpc, pathlib; print(pathlib.Path(payrpc.__file__).parent)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True,
    )
    installed = Path(located.stdout.strip())
    assert installed.is_relative_to(venv), installed

    def files(root: Path) -> set:
        return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}

    assert files(installed) == files(source / "payrpc")
    code, expected = readme_example.example()
    env = readme_example.environment(payrpc_bin, tmp_path)
    assert readme_example.run(python, code, env, tmp_path) == expected
