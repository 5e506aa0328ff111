"""The stub generator on the small fixture document: names, determinism, diagnostics, and the
generated package at work (in a fresh interpreter, against the fake server test fixture)."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FAKE_SERVER, FIXTURE_DOCUMENT, FIXTURES

CLIENT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CLIENT_DIR))
import generate  # noqa: E402


@pytest.mark.parametrize(
    "name, expected",
    [
        ("fetchSetupData", "fetch_setup_data"),
        ("orderID", "order_id"),
        ("isCFIAppAvailable", "is_cfi_app_available"),
        ("showPBBAPopup", "show_pbba_popup"),
        ("pbba.approvePayment", "pbba_approve_payment"),
        ("redirectionUri", "redirection_uri"),
        ("from", "from_"),
    ],
)
def test_snake_case_names(name: str, expected: str) -> None:
    assert generate.identifier(name) == expected


@pytest.mark.parametrize(
    "message, expected",
    [("Wrong PIN", "WrongPin"), ("Amount limit", "AmountLimit"), ("bankTempOOS", "BankTempOOS"), ("3DS failed", "E3dsFailed")],
)
def test_error_class_names(message: str, expected: str) -> None:
    assert generate.camel(message) == expected


def test_output_is_deterministic() -> None:
    first = generate.render(FIXTURE_DOCUMENT)
    assert first == generate.render(FIXTURE_DOCUMENT)
    assert sorted(first) == [
        "__init__.py", "errors/__init__.py", "errors/_index.py", "errors/tatra.py", "openrpc.json",
        "services/__init__.py", "services/dotpay.py", "services/pbba.py", "services/rpc.py", "services/sandbox.py",
        "services/tatra.py",
    ]


def test_every_generated_python_file_says_so_on_its_first_line() -> None:
    # The form tools recognise as generated code: "Code generated ... DO NOT EDIT."
    for relative, data in generate.render(FIXTURE_DOCUMENT).items():
        if relative.endswith(".py"):
            first = data.decode("utf-8").split("\n", 1)[0]
            assert re.fullmatch(r"# Code generated .* DO NOT EDIT\.", first), (relative, first)


def test_a_name_clash_is_reported_with_the_model(tmp_path: Path) -> None:
    document = json.loads(FIXTURE_DOCUMENT.read_text())
    document["components"]["schemas"]["tatra.Proxy"] = {"type": "object", "properties": {}}
    with pytest.raises(generate.GenerationError, match=r"tatra\.Proxy.*'Proxy'"):
        generate.Generator(document).files()


def test_an_unsupported_ref_is_reported_with_where_it_is() -> None:
    document = json.loads(FIXTURE_DOCUMENT.read_text())
    bad = copy.deepcopy(document)
    bad["components"]["schemas"]["tatra.Contact"]["properties"]["image"] = {"$ref": "other.json#/x"}
    with pytest.raises(generate.GenerationError, match=r"tatra\.Contact/properties/image: unsupported \$ref"):
        generate.Generator(bad).files()


def test_the_script_removes_stale_generated_files(tmp_path: Path) -> None:
    out = tmp_path / "payrpc" / "generated"
    (out / "services").mkdir(parents=True)
    (out / "errors").mkdir()
    stale = out / "services" / "gone.py"
    stale.write_text(generate.HEADER + "x = 1\n")
    handwritten = out / "errors" / "keep.py"
    handwritten.write_text("y = 2\n")
    assert generate.main(["--schema", str(FIXTURE_DOCUMENT), "--out", str(out)]) == 0
    assert not stale.exists() and handwritten.exists()
    assert (out / "services" / "tatra.py").exists()


def test_generated_fixture_package_works(tmp_path: Path) -> None:
    package = tmp_path / "payrpc"
    source = CLIENT_DIR / "payrpc"
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(package / "generated")
    assert generate.main(["--schema", str(FIXTURE_DOCUMENT), "--out", str(package / "generated")]) == 0
    outcome = subprocess.run(
        [sys.executable, str(FIXTURES / "generated_checks.py"), str(FAKE_SERVER)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert outcome.returncode == 0, outcome.stdout + outcome.stderr
    assert "generated stubs OK" in outcome.stdout
