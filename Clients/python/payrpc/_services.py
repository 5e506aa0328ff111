"""How ``client.<service>`` finds the generated proxy of that service."""

from __future__ import annotations

import importlib
from typing import Any


def service_names() -> tuple:
    """The services the generated stubs cover (``payrpc.generated.services.SERVICES``)."""
    try:
        services = importlib.import_module("payrpc.generated.services")
    except ImportError:
        return ()
    return tuple(getattr(services, "SERVICES", ()))


def service_proxy(client: Any, name: str, *, asynchronous: bool) -> Any:
    """The proxy object of service ``name`` bound to ``client``; AttributeError when there is none."""
    if name not in service_names():
        raise AttributeError(f"{type(client).__name__!s} has no attribute or service {name!r}")
    module = importlib.import_module(f"payrpc.generated.services.{name}")
    proxy_class = getattr(module, "AsyncProxy" if asynchronous else "Proxy")
    return proxy_class(client)
