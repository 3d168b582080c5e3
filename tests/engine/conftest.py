"""Options for the engine tests: `--many` multiplies the random playouts (see test_playouts.py)."""

import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--many",
        action="store",
        type=int,
        nargs="?",
        const=10,
        default=1,
        metavar="FACTOR",
        help="play FACTOR times as many random playouts (default 10 when given without a value)",
    )


@pytest.fixture(scope="session")
def many(request) -> int:
    """How many times the normal number of playouts to play (1 in the normal run)."""
    return request.config.getoption("--many")
