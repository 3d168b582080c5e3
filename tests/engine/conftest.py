"""Options for the engine tests: `--many` multiplies the random playouts (see test_playouts.py)."""

import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--many",
        action="store",
        type=float,
        nargs="?",
        const=10,
        default=1,
        metavar="FACTOR",
        help="play FACTOR times as many random playouts (10 when given without a value; "
        "a fraction such as 0.05 gives a quick smoke run)",
    )


@pytest.fixture(scope="session")
def many(request) -> float:
    """How many times the normal number of playouts to play (1 in the normal run)."""
    return request.config.getoption("--many")

