"""A phone over https, as a club serves it: Chromium, trusting the local
authority of a real Caddy (`tls internal`) in its own profile, reaches the
real server through it on `table.lan` (mapped to loopback). The key page,
"Add a phone" and its QR code, a second phone joining, a tap and the
export, all through the proxy; the page is a secure context and the pass a
Secure cookie."""

import json

import pytest
from playwright.sync_api import expect

from scorekeeper.testing.chromium import PHONE
from scorekeeper.web.guard import access
from support.https import served_over_https
from support.passes import host_by_command
from support.table import tap

pytestmark = pytest.mark.xdist_group("over_https")  # its module fixture, built once a run

KEY, SECRET = "httpskey2345", "a secret for the https test only"


@pytest.fixture(scope="module")
def https_table(tmp_path_factory):
    with served_over_https(tmp_path_factory.mktemp("https"), "https", FLASK_ACCESS_KEY=KEY,
                            FLASK_SECRET_KEY=SECRET) as (browser, live, caddy):
        yield browser, caddy, live


def test_a_phone_gets_in_pairs_another_taps_and_exports_over_https(https_table):
    browser, caddy, live = https_table
    first = browser.new_context(**PHONE, base_url=caddy.url).new_page()
    first.goto("/games/new")
    assert first.evaluate("isSecureContext")  # a real certificate, trusted: not an exception
    first.get_by_label("Clé d'accès").fill(KEY)
    first.get_by_role("button", name="Entrer").click()
    expect(first).to_have_url(f"{caddy.url}/games/new")
    (cookie,) = [c for c in first.context.cookies() if c["name"] == access.COOKIE]
    assert cookie["secure"] and cookie["httpOnly"] and KEY not in cookie["value"]

    host_by_command(live)  # through the proxy nothing is this machine: its command marks the host
    first.goto("/pair")
    url = first.locator(".pairing-url a").inner_text()
    assert url.startswith(f"{caddy.url}/pair/")  # the QR code's address is https too
    second = browser.new_context(**PHONE).new_page()
    second.goto(url)
    second.get_by_role("button", name="Rejoindre la table").click()
    expect(second.get_by_role("link", name="Nouvelle partie")).to_be_visible()

    second.get_by_role("link", name="Nouvelle partie").click()
    second.get_by_label("Premier camp").fill("Samira")
    second.get_by_label("Deuxième camp").fill("Youssef")
    second.get_by_role("button", name="Commencer la partie").click()
    expect(second.locator("#board")).to_be_visible()
    tap(second, "Missa pour Samira")
    expect(second.locator("#score-0")).to_have_text("1")

    status, text = first.evaluate(
        "fetch('/games/export.json').then(async r => [r.status, await r.text()])")
    assert status == 200
    (game,) = [g for g in json.loads(text)["games"] if g["sides"] == ["Samira", "Youssef"]]
    assert game["result"]["scores"] == [1, 0]
    # The Phones page lists both, never their passes.
    first.goto("/phones")
    expect(first.locator(".phones li")).to_have_count(2)
    assert cookie["value"] not in first.content()
    for page in (first, second):
        page.context.close()
