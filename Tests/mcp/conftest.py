import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(params=["legacy", "auto"])
def mode(request):
    """Each journey runs in both eras: the initialize handshake, and the stateless revision the
    SDK client's default probe (server/discover) settles on."""
    return request.param
