"""Conversions between Python values and their JSON wire form, shared by the client and the
generated stubs.

Money is a decimal string on the wire (``"10.00"``) and a :class:`decimal.Decimal` in Python,
never a float; dates are RFC 3339 strings and :class:`datetime.datetime` values.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import decimal
import enum
import re
from typing import Any

#: The pattern of a decimal string, as the server's schemas spell it.
DECIMAL_PATTERN = r"^-?(0(\.[0-9]{1,18})?|[1-9](\.[0-9]{1,17})?|[1-9][0-9]{1}(\.[0-9]{1,16})?|[1-9][0-9]{2}(\.[0-9]{1,15})?|[1-9][0-9]{3}(\.[0-9]{1,14})?|[1-9][0-9]{4}(\.[0-9]{1,13})?|[1-9][0-9]{5}(\.[0-9]{1,12})?|[1-9][0-9]{6}(\.[0-9]{1,11})?|[1-9][0-9]{7}(\.[0-9]{1,10})?|[1-9][0-9]{8}(\.[0-9]{1,9})?|[1-9][0-9]{9}(\.[0-9]{1,8})?|[1-9][0-9]{10}(\.[0-9]{1,7})?|[1-9][0-9]{11}(\.[0-9]{1,6})?|[1-9][0-9]{12}(\.[0-9]{1,5})?|[1-9][0-9]{13}(\.[0-9]{1,4})?|[1-9][0-9]{14}(\.[0-9]{1,3})?|[1-9][0-9]{15}(\.[0-9]{1,2})?|[1-9][0-9]{16}(\.[0-9]{1,1})?|[1-9][0-9]{17})$"

_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)


def decimal_to_json(value: decimal.Decimal) -> str:
    """Writes a Decimal as a plain decimal string (never in exponent notation)."""
    if not value.is_finite():
        raise ValueError(f"{value} cannot be sent: money and amounts must be finite")
    text = format(value, "f")
    if text.startswith("-") and text.strip("-0.") == "":
        text = text[1:]  # "-0.00" → "0.00"
    return text


def decimal_from_json(value: Any) -> decimal.Decimal:
    """Reads a decimal string; raises ValueError for anything else (floats included)."""
    if not isinstance(value, str):
        raise ValueError(f"expected a decimal string, found {value!r}")
    try:
        return decimal.Decimal(value)
    except decimal.InvalidOperation:
        raise ValueError(f"not a decimal string: {value!r}") from None


def datetime_to_json(value: _dt.datetime) -> str:
    """Writes an RFC 3339 timestamp; a naive datetime is taken to be UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.timezone.utc)
    text = value.isoformat()
    if text.endswith("+00:00"):
        text = text[:-6] + "Z"
    return text


def datetime_from_json(value: Any) -> _dt.datetime:
    """Reads an RFC 3339 timestamp (``Z`` or an offset; fractions kept to the microsecond)."""
    if not isinstance(value, str):
        raise ValueError(f"expected an RFC 3339 string, found {value!r}")
    match = _RFC3339.match(value)
    if match is None:
        raise ValueError(f"not an RFC 3339 date-time: {value!r}")
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    micros = int((fraction[1:] + "000000")[:6]) if fraction else 0
    if zone in ("Z", "z"):
        tz = _dt.timezone.utc
    else:
        sign = 1 if zone[0] == "+" else -1
        offset = _dt.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
        tz = _dt.timezone(sign * offset)
    return _dt.datetime(
        int(year), int(month), int(day), int(hour), int(minute), min(int(second), 59), micros, tzinfo=tz
    )


def to_wire(value: Any) -> Any:
    """Turns a Python value into plain JSON data: generated models through their ``to_json``,
    Decimal → decimal string, datetime → RFC 3339, enums → their value, tuples → lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, enum.Enum):
            return to_wire(value.value)
        return value
    if isinstance(value, decimal.Decimal):
        return decimal_to_json(value)
    if isinstance(value, _dt.datetime):
        return datetime_to_json(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return to_wire(value.value)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(value, dict):
        return {str(k): to_wire(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_wire(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_wire(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"cannot send a {type(value).__name__} as JSON")


def lenient(convert: Any, value: Any) -> Any:
    """``convert(value)``, or the raw value when it is None or cannot be converted (error data
    is read as leniently as possible: an exception must never fail to build)."""
    if value is None:
        return None
    try:
        return convert(value)
    except (TypeError, ValueError, KeyError, AttributeError):
        return value
