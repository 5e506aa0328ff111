"""Validation against an OpenRPC document, without a server."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

import payrpc
from payrpc import _runtime

DOCUMENT = {
    "methods": [
        {
            "name": "a.pay",
            "params": [
                {"name": "amount", "required": True, "schema": {"type": "string", "pattern": _runtime.DECIMAL_PATTERN}},
                {"name": "note", "required": False, "schema": {"type": "string", "pattern": "^[\\p{L} ]*$"}},
                {"name": "to", "required": False, "schema": {"$ref": "#/components/schemas/a.Who"}},
            ],
            "result": {"name": "result", "schema": {"type": "string"}},
        }
    ],
    "components": {"schemas": {"a.Who": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
}


def test_params_by_name_and_by_position() -> None:
    schemas = payrpc.SchemaSet(DOCUMENT)
    schemas.validate_params("a.pay", {"amount": "1.50"})
    schemas.validate_params("a.pay", ["1.50", "hi"])
    with pytest.raises(payrpc.ValidationError) as raised:
        schemas.validate_params("a.pay", ["1.5.0"])
    assert raised.value.pointer == "/0"
    with pytest.raises(payrpc.ValidationError) as raised:
        schemas.validate_params("a.pay", {"amount": "1", "to": {}, "extra": 1})
    assert {v.pointer for v in raised.value.violations} == {"", "/to/name"}
    with pytest.raises(payrpc.ValidationError):
        schemas.validate_params("a.pay", [])


def test_a_pattern_python_cannot_compile_is_left_to_the_server() -> None:
    payrpc.SchemaSet(DOCUMENT).validate_params("a.pay", {"amount": "1", "note": "Ján Novák"})


def test_unknown_methods_are_not_validated() -> None:
    payrpc.SchemaSet(DOCUMENT).validate_params("b.other", {"anything": 1})


def test_wire_forms_of_money_and_dates() -> None:
    assert _runtime.to_wire(Decimal("1E+2")) == "100"
    assert _runtime.to_wire(Decimal("-0.00")) == "0.00"
    assert _runtime.to_wire(dt.datetime(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05Z"
    assert _runtime.datetime_from_json("2026-01-02T03:04:05.123456789Z").microsecond == 123456
    with pytest.raises(ValueError):
        _runtime.decimal_from_json(1.5)
    with pytest.raises(ValueError):
        _runtime.to_wire(Decimal("NaN"))
    with pytest.raises(TypeError):
        _runtime.to_wire(object())
