"""The client against the real binary on a shared PostgreSQL store that goes away and comes back:
-32009 is raised as :class:`payrpc.StoreUnavailable`, and a retry with the same idempotency key
goes through once the database is back."""

from __future__ import annotations

import os
from decimal import Decimal

import pytest

import payrpc

from conftest import PostgresCluster

#: A store key, as ``openssl rand -hex 32`` makes one.
STORE_KEY = "5a17c0de" * 8


def test_a_stopped_database_raises_store_unavailable_and_a_retry_goes_through_after(
    payrpc_bin: str, postgres_cluster: PostgresCluster
) -> None:
    env = {**os.environ, "PAYRPC_STORE_KEY": STORE_KEY}
    with payrpc.Client.spawn(payrpc_bin, ["--store", postgres_cluster.url], env=env) as client:
        # The first call connects and prepares: it may take a while on a loaded machine.
        before = client.pbba.submit_payment_request(
            amount=Decimal("7.00"), currency="GBP", reference="before", timeout=60
        )
        postgres_cluster.stop()
        with pytest.raises(payrpc.StoreUnavailable) as down:
            client.pbba.submit_payment_request(
                amount=Decimal("8.00"), currency="GBP", reference="while down", idempotency_key="retry-1"
            )
        assert down.value.code == -32009
        assert down.value.retryable
        assert down.value.data["type"] == "storeUnavailable"
        # Not a generic error: the class is looked up by code.
        assert payrpc.errors.error_class(-32009) is payrpc.StoreUnavailable
        # The server kept serving what needs no store.
        assert client.call("rpc.health") == {"status": "SERVING"}
        postgres_cluster.restart()
        retried = client.pbba.submit_payment_request(
            amount=Decimal("8.00"), currency="GBP", reference="while down", idempotency_key="retry-1", timeout=60
        )
        # The retry ran once: the same key answers the same payment request again.
        again = client.pbba.submit_payment_request(
            amount=Decimal("8.00"), currency="GBP", reference="while down", idempotency_key="retry-1"
        )
        assert again == retried
        # What was written before the database went away is still there.
        assert client.pbba.get_payment_status(before.secure_token).status == "inProgress"
    assert client.returncode == 0
