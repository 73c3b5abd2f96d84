import pytest

from support.fuzz_site import fuzzed_site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The fuzz's app under fire (tests/support/fuzz_site.py), one per module."""
    yield from fuzzed_site(tmp_path_factory)
