"""Validation of messages against the OpenRPC document, with ``jsonschema`` (draft-07).

The document's ``$ref``s point at ``#/components/schemas/<service>.<Model>``; every schema is
validated inside a root that carries the document's ``components``, so those references
resolve without a resolver of our own.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from jsonschema import Draft7Validator
from jsonschema import validators as _validators
from jsonschema.exceptions import ValidationError as _SchemaError

from .errors import ValidationError, Violation

_BUNDLED = Path(__file__).parent / "generated" / "openrpc.json"
log = logging.getLogger("payrpc")
_unsupported_patterns: set = set()


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    """``pattern`` as draft-07 says, except that a pattern Python's ``re`` cannot compile (an
    ECMA-262 ``\\p{L}`` class, say) is not checked here — the server still checks it."""
    if not validator.is_type(instance, "string"):
        return
    try:
        found = re.search(pattern, instance)
    except re.error:
        if pattern not in _unsupported_patterns:
            _unsupported_patterns.add(pattern)
            log.debug("payrpc: pattern %r is not a Python regular expression; left to the server", pattern)
        return
    if found is None:
        yield _SchemaError(f"{instance!r} does not match {pattern!r}")


_Validator = _validators.extend(Draft7Validator, {"pattern": _pattern})


def bundled_document() -> Optional[Dict[str, Any]]:
    """The OpenRPC document the stubs were generated from (``payrpc/generated/openrpc.json``), if any."""
    try:
        with _BUNDLED.open("r", encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None


def _escape(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _pointer(path: Any) -> str:
    return "".join("/" + _escape(part) for part in path)


class SchemaSet:
    """The schemas of one OpenRPC document: params, results and notifications by method name.

    Validators are compiled on first use and cached; methods the document does not describe
    are not validated (the server answers them with -32601).
    """

    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self._components = document.get("components", {})
        self._methods = {m["name"]: m for m in document.get("methods", []) if isinstance(m, dict) and "name" in m}
        self._notifications = {
            n["name"]: n for n in document.get("x-notifications", []) if isinstance(n, dict) and "name" in n
        }
        self._cache: Dict[Tuple[str, str], Optional[Any]] = {}
        self._lock = threading.Lock()

    @classmethod
    def load(cls, source: Union[None, str, Path, Dict[str, Any]]) -> Optional["SchemaSet"]:
        """A schema set from a document, a path to one, or (None) the bundled document."""
        if source is None:
            document = bundled_document()
            return cls(document) if document is not None else None
        if isinstance(source, dict):
            return cls(source)
        with open(source, "r", encoding="utf-8") as handle:
            return cls(json.load(handle))

    def method(self, name: str) -> Optional[Dict[str, Any]]:
        """The OpenRPC entry of a method, by canonical name."""
        return self._methods.get(name)

    def _validator(self, kind: str, name: str) -> Optional[Any]:
        key = (kind, name)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        schema = self._schema(kind, name)
        validator = None
        if schema is not None:
            root = {"allOf": [schema], "components": self._components}
            validator = _Validator(root)
        with self._lock:
            self._cache[key] = validator
        return validator

    def _schema(self, kind: str, name: str) -> Optional[Any]:
        if kind == "result":
            entry = self._methods.get(name)
            if entry is None or "result" not in entry:
                return None
            return entry["result"].get("schema", {})
        entry = self._methods.get(name) if kind in ("params", "positional") else self._notifications.get(name)
        if entry is None:
            return None
        descriptors = entry.get("params", [])
        if kind == "positional":
            required = 0
            for index, descriptor in enumerate(descriptors):
                if descriptor.get("required"):
                    required = index + 1
            return {
                "type": "array",
                "items": [d.get("schema", {}) for d in descriptors],
                "additionalItems": False,
                "minItems": required,
            }
        return {
            "type": "object",
            "properties": {d["name"]: d.get("schema", {}) for d in descriptors},
            "required": [d["name"] for d in descriptors if d.get("required")],
            "additionalProperties": False,
        }

    def _check(self, kind: str, name: str, instance: Any, what: str) -> None:
        validator = self._validator(kind, name)
        if validator is None:
            return
        errors = sorted(validator.iter_errors(instance), key=lambda e: (list(e.absolute_path), e.validator))
        if not errors:
            return
        violations: List[Violation] = []
        for error in errors:
            path = list(error.absolute_path)
            if error.validator == "required" and isinstance(error.instance, dict):
                missing = [p for p in error.validator_value if p not in error.instance]
                if missing:
                    path.append(missing[0])
            violations.append(Violation(_pointer(path), str(error.validator), error.message))
        raise ValidationError(what, violations)

    def validate_params(self, method: str, params: Any) -> None:
        """Checks params (without ``_meta``), by name or by position; raises ValidationError."""
        if isinstance(params, list):
            self._check("positional", method, params, f"params of {method}")
        else:
            self._check("params", method, {} if params is None else params, f"params of {method}")

    def validate_result(self, method: str, result: Any) -> None:
        """Checks a method's result; raises ValidationError."""
        self._check("result", method, result, f"result of {method}")

    def validate_notification(self, method: str, params: Any) -> None:
        """Checks a server notification's params; raises ValidationError."""
        self._check("notification", method, {} if params is None else params, f"notification {method}")
