"""A phone joins the table as at a café: on a network name (`table.lan`,
mapped to loopback, so it needs the key), by the typed key; this machine's
own browser marks it as a host on its Phones page; then the next phone by
the QR code of its "Add a phone", which works once (the key never in an
address). A guest's home offers the Phones page instead."""

import pytest
from playwright.sync_api import expect

from scorekeeper.testing.chromium import FLAGS, PHONE, TABLE_HOST
from scorekeeper.testing.live_server import LiveServer
from support.accessibility import check

pytestmark = pytest.mark.xdist_group("pairing")  # its module fixture, built once a run

KEY = "abcdefghjkmn"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pairing")
    live = LiveServer(folder, folder / "pairing.sqlite3", FLASK_ALLOWED_HOSTS="table.lan",
                      FLASK_ACCESS_KEY=KEY)
    live.start()
    live.get("/")
    yield f"http://table.lan:{live.port}"
    live.kill()


@pytest.fixture(scope="module")
def chromium(shell_browser):
    """The session's Chromium, which maps table.lan to loopback (conftest.FLAGS)."""
    assert f"--host-resolver-rules=MAP {TABLE_HOST} 127.0.0.1" in FLAGS
    return shell_browser


def test_a_phone_types_the_key_and_the_next_one_scans_a_code_once(chromium, table, screenshot):
    small = dict(PHONE, viewport={"width": 360, "height": 640})
    first = chromium.new_context(**small).new_page()
    first.goto(f"{table}/games/new")
    expect(first.get_by_role("heading", name="La feuille de marque de cette table")).to_be_visible()
    check(first, "key page")
    screenshot(first, "pairing-key-page")
    first.get_by_label("Clé d'accès").fill(KEY.upper())
    first.get_by_role("button", name="Entrer").click()
    expect(first).to_have_url(f"{table}/games/new")  # back where it was going, key not in it
    assert KEY not in "".join(first.evaluate("() => [location.href, document.cookie]"))

    first.goto(f"{table}/")
    expect(first.get_by_role("link", name="Ajouter un téléphone")).to_have_count(0)  # a guest
    # This machine (loopback, by its loopback name) makes it a host.
    machine = chromium.new_context(**small).new_page()
    machine.goto(table.replace(TABLE_HOST, "127.0.0.1") + "/phones")
    machine.get_by_role("button", name="Nommer hôte").click()
    expect(machine.get_by_text("hôte de la table")).to_be_visible()
    machine.context.close()
    first.goto(f"{table}/")
    first.get_by_role("link", name="Ajouter un téléphone").click()
    url = first.locator(".pairing-url a").inner_text()
    assert url.startswith(f"{table}/pair/")
    expect(first.get_by_role("img", name="QR code de l'adresse ci-dessous")).to_be_visible()
    check(first, "pair page")
    screenshot(first, "pairing-add-a-phone")

    second = chromium.new_context(**small).new_page()
    second.goto(url)
    check(second, "join page")
    screenshot(second, "pairing-join")
    second.get_by_role("button", name="Rejoindre la table").click()
    expect(second.get_by_role("link", name="Nouvelle partie")).to_be_visible()
    assert "/pair/" not in second.url

    # The address, found later in a history or scanned by a third phone: nothing.
    third = chromium.new_context(**small).new_page()
    third.goto(url)
    expect(third.get_by_text("a été utilisé ou a expiré")).to_be_visible()
    third.goto(f"{table}/")
    expect(third.get_by_label("Clé d'accès")).to_be_visible()
    for page in (first, second, third):
        page.context.close()
