"""Who may do what with phones: any phone let in may turn itself away;
turning another away, marking hosts and showing pairing codes belong to
this machine and to the phones it marked as the table's hosts. A phone
turned away takes with it every code it showed and every pass those codes
gave; each phone keeps its own few live codes, so none evicts another's.
A guest on the club's Wi-Fi cannot lock the table out or keep a way back in."""

import dataclasses
import html
import re

from scorekeeper.service import phones
from scorekeeper.web.guard import access, pairing
from support.page_forms import forms_of, submit

HOST = {"REMOTE_ADDR": "192.168.1.10"}
GUEST = {"REMOTE_ADDR": "192.168.1.66"}
NEWCOMER = {"REMOTE_ADDR": "192.168.1.77"}
TABLE = "192.168.1.50"
ON_THE_TABLE = {"Host": f"{TABLE}:5000"}
MACHINE = None  # this machine asking itself: loopback, a loopback name


def where(environ) -> dict:
    """A phone on the table's address, or this machine."""
    return {} if environ is None else {"environ_base": environ, "headers": ON_THE_TABLE}


def pass_of(response) -> str:
    return re.match(rf"{access.COOKIE}=([^;]+)", response.headers["Set-Cookie"]).group(1)


def typed_key(app, environ):
    """A phone that typed the access key: let in as a guest; (client, phone)."""
    client = app.test_client()
    response = client.post("/key", data={"key": app.config["ACCESS_KEY"], "next": "/"},
                           environ_base=environ, headers=ON_THE_TABLE)
    assert response.status_code == 303
    return client, phone_of(app, pass_of(response))


def phone_of(app, token):
    with app.app_context():
        from scorekeeper.web.plumbing.db import get_db
        return phones.holder(get_db(), token, access.gate(app).mark)


def code_from(client, environ) -> str:
    """The code of the /pair page `client` shows (its QR code's address)."""
    page = client.get("/pair", **where(environ))
    assert page.status_code == 200
    return re.search(r'href="http://[^"]+/pair/([\w-]+)"', page.get_data(as_text=True)).group(1)


def spend(app, code, environ):
    """A fresh browser spends the code; (client, response)."""
    client = app.test_client()
    return client, client.post(f"/pair/{code}", environ_base=environ, headers=ON_THE_TABLE)


def a_form_of(client, environ, action: str):
    """The Phones page's form pointed at `action`: its keys are the page's
    own, so only who asks can make it fail."""
    page = client.get("/phones", **where(environ))
    form = next(f for f in forms_of(page.get_data(as_text=True)) if f.method == "post")
    return dataclasses.replace(form, action=action)


def opens(client, environ) -> bool:
    return client.get("/", **where(environ)).status_code == 200


def setup_table(app, client):
    """A host's phone (this machine presses "Make host" on its Phones page) and a guest's."""
    access.allow_host(app, TABLE)
    host, host_phone = typed_key(app, HOST)
    guest, guest_phone = typed_key(app, GUEST)
    # Its answer is the subject of test_a_host_turns_a_guest_away_and_marks_another_host.
    submit(client, a_form_of(client, MACHINE, f"/phones/{host_phone.id}/host"))
    return (host, host_phone), (guest, guest_phone)


def test_a_guest_cannot_turn_the_hosts_phone_away(app, client):
    """Before: the guest posted /phones/<id>/away for each listed id and
    locked the host's phone out, keeping its own pass."""
    (host, host_phone), (guest, guest_phone) = setup_table(app, client)
    for target in (host_phone.id, 1, 2, 3):
        if target == guest_phone.id:
            continue
        refused = submit(guest, a_form_of(guest, GUEST, f"/phones/{target}/away"),
                         **where(GUEST))
        assert refused.status_code == 403
        assert "hôtes" in html.unescape(refused.get_data(as_text=True))
    assert opens(host, HOST) and opens(guest, GUEST)
    page = guest.get("/phones", **where(GUEST)).get_data(as_text=True)
    actions = [f.action for f in forms_of(page)]
    assert actions == [f"/phones/{guest_phone.id}/away"]  # only its own button
    # Nor can it make itself a host.
    assert submit(guest, a_form_of(guest, GUEST, f"/phones/{guest_phone.id}/host"),
                  **where(GUEST)).status_code == 403
    assert not phone_of_id(app, guest_phone.id).host


def phone_of_id(app, phone_id):
    with app.app_context():
        from scorekeeper.web.plumbing.db import get_db
        return phones.get(get_db(), phone_id)


def test_a_host_turns_a_guest_away_and_marks_another_host(app, client):
    (host, host_phone), (guest, guest_phone) = setup_table(app, client)
    other, other_phone = typed_key(app, NEWCOMER)
    assert submit(host, a_form_of(host, HOST, f"/phones/{other_phone.id}/host"),
                  **where(HOST)).status_code == 303
    assert phone_of_id(app, other_phone.id).host
    assert submit(host, a_form_of(host, HOST, f"/phones/{guest_phone.id}/away"),
                  **where(HOST)).status_code == 303
    assert not opens(guest, GUEST) and opens(host, HOST) and opens(other, NEWCOMER)


def test_a_guest_shows_no_pairing_code(app, client):
    _, (guest, _) = setup_table(app, client)
    page = guest.get("/pair", **where(GUEST))
    assert page.status_code == 403 and "/pair/" not in page.get_data(as_text=True)
    home = guest.get("/", **where(GUEST)).get_data(as_text=True)
    assert 'href="/pair"' not in home and 'href="/phones"' in home


def test_a_phone_turned_away_takes_its_codes_and_the_passes_they_gave(app, client):
    """Before: a phone showed codes ahead; turned away, it spent one in a
    fresh browser and was back in; the phones its codes let in stayed in."""
    (host, host_phone), _ = setup_table(app, client)
    codes = [code_from(host, HOST) for _ in range(3)]
    joined, response = spend(app, codes[0], NEWCOMER)
    assert response.status_code == 303 and opens(joined, NEWCOMER)
    # This machine turns the phone that showed the codes away.
    assert submit(client, a_form_of(client, MACHINE, f"/phones/{host_phone.id}/away")) \
        .status_code == 303
    assert not opens(host, HOST) and not opens(joined, NEWCOMER)
    # Its codes shown ahead open nothing, in a fresh browser.
    for code in codes[1:]:
        fresh, response = spend(app, code, {"REMOTE_ADDR": "192.168.1.90"})
        assert response.status_code == 403 and not opens(fresh, {"REMOTE_ADDR": "192.168.1.90"})
        assert fresh.get("/games/export.json", **where({"REMOTE_ADDR": "192.168.1.90"})) \
            .status_code == 403


def test_turning_a_host_away_takes_the_phones_of_its_codes_and_of_theirs(app, client):
    (host, host_phone), (guest, _) = setup_table(app, client)
    joined, response = spend(app, code_from(host, HOST), NEWCOMER)
    newcomer = phone_of(app, pass_of(response))
    assert newcomer.minted_by == host_phone.id
    submit(client, a_form_of(client, MACHINE, f"/phones/{newcomer.id}/host"))
    third_env = {"REMOTE_ADDR": "192.168.1.78"}
    third, response = spend(app, code_from(joined, NEWCOMER), third_env)
    assert response.status_code == 303 and opens(third, third_env)
    submit(client, a_form_of(client, MACHINE, f"/phones/{host_phone.id}/away"))
    assert not opens(host, HOST) and not opens(joined, NEWCOMER) and not opens(third, third_env)
    assert opens(guest, GUEST)  # let in by the key: nobody's code


def test_codes_of_a_phone_turned_away_from_the_command_line_open_nothing(app, client):
    """`flask phones --away` runs in another process: the server's memory
    keeps the codes, the store says their phone is gone."""
    (host, host_phone), _ = setup_table(app, client)
    code = code_from(host, HOST)
    assert app.test_cli_runner().invoke(args=["phones", "--away", str(host_phone.id)]) \
        .exit_code == 0
    assert client.get(f"/pair/{code}", **where(NEWCOMER)).status_code == 403
    fresh, response = spend(app, code, NEWCOMER)
    assert response.status_code == 403 and not opens(fresh, NEWCOMER)


def test_the_command_line_marks_a_host(app):
    access.allow_host(app, TABLE)
    phone, found = typed_key(app, GUEST)
    assert phone.get("/pair", **where(GUEST)).status_code == 403
    done = app.test_cli_runner().invoke(args=["phones", "--host", str(found.id)])
    assert done.exit_code == 0 and "host" in done.output
    assert phone.get("/pair", **where(GUEST)).status_code == 200
    assert "\thost" in app.test_cli_runner().invoke(args=["phones"]).output
    again = app.test_cli_runner().invoke(args=["phones", "--host", "999"])
    assert again.exit_code == 1 and "no such phone" in again.output


def test_no_phone_evicts_another_ones_codes(app, client):
    """Before, 32 codes in all: a phone asking /pair 32 times forgot every
    other code, the one this machine's screen showed included."""
    (host, _), (guest, _) = setup_table(app, client)
    mine = code_from(client, MACHINE)  # this machine's screen shows it
    for phone, environ in ((host, HOST), (guest, GUEST)):
        for _ in range(40):
            phone.get("/pair", **where(environ))  # a host gets codes, a guest a refusal
    joined, response = spend(app, mine, NEWCOMER)
    assert response.status_code == 303 and opens(joined, NEWCOMER)


def test_each_phone_keeps_its_own_few_live_codes():
    codes = pairing.Codes()
    theirs = [codes.new(by=None), codes.new(by=7)]
    mine = [codes.new(by=3) for _ in range(pairing.MAX_CODES_EACH + 2)]
    assert all(codes.valid(code) for code in theirs)
    assert not codes.valid(mine[0]) and not codes.valid(mine[1])
    assert all(codes.valid(code).by == 3 for code in mine[2:])
    codes.forget_shown_by({3})
    assert not any(codes.valid(code) for code in mine) and codes.valid(theirs[1])


def test_a_turned_away_pass_is_refused_at_its_very_next_request_everywhere(app, client, api):
    game = api.new_game(sides=["Samira", "Youssef"])
    access.allow_host(app, TABLE)
    guest, phone = typed_key(app, GUEST)
    paths = ["/", f"/games/{game['id']}", "/games/export.json", "/phones"]
    for path in paths:
        assert guest.get(path, **where(GUEST)).status_code == 200
    assert guest.get(f"/api/games/{game['id']}", environ_base=GUEST,
                     headers=ON_THE_TABLE).status_code == 200
    submit(client, a_form_of(client, MACHINE, f"/phones/{phone.id}/away"))
    for path in paths + [f"/api/games/{game['id']}"]:
        assert guest.get(path, **where(GUEST)).status_code == 403, path
    refused = guest.post("/api/games", json={"sides": ["A", "B"]}, environ_base=GUEST,
                         headers=ON_THE_TABLE)
    assert refused.status_code == 403 and refused.get_json()["error"]
