"""The phone's Python (MicroPython's wasm, static/vendor/micropython/) is
served by the app itself, whole and with the types a browser needs to run
it (a module script, a streamed wasm compile): no CDN, no npm at run time."""

import pytest

from support.paths import ROOT

VENDOR = ROOT / "static" / "vendor" / "micropython"


@pytest.mark.parametrize("name, kind", [("micropython.mjs", "text/javascript"),
                                        ("micropython.wasm", "application/wasm")])
def test_the_phone_runtime_is_served_whole_with_its_type(client, name, kind):
    answer = client.get(f"/static/vendor/micropython/{name}")
    assert answer.status_code == 200
    assert answer.mimetype == kind
    assert answer.data == (VENDOR / name).read_bytes()

