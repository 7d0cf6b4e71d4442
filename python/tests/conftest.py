import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """The gpuhist command built next to the module (GPUHIST_BINARY)."""
    path = os.environ.get("GPUHIST_BINARY")
    if not path:
        pytest.fail("GPUHIST_BINARY is not set: run the tests through ctest")
    return path


@pytest.fixture(scope="session")
def data():
    return ROOT / "data"
