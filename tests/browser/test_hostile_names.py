"""Names holding markup and scripts are shown as text, everywhere they appear."""

from playwright.sync_api import expect

from support.table import tap

SCRIPT = "<script>alert('x')</script>"
BOLD = "<b>Eux</b>"


def test_names_with_markup_are_shown_as_text(phone, server):
    dialogs = []
    phone.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    response = phone.request.post(f"{server.url}/api/games", data={"sides": [SCRIPT, BOLD]})
    game = response.json()
    phone.goto(f"/games/{game['id']}")
    expect(phone.locator(".side-name").first).to_have_text(SCRIPT)
    expect(phone.locator(".side-name").nth(1)).to_have_text(BOLD)
    tap(phone, f"Missa pour {SCRIPT}")
    # As text, cut (the last events keep 26 characters of a name; one word: its start).
    expect(phone.locator(".recent li").first).to_contain_text("Missa · <script>alert('x')</scrip…")
    assert phone.locator("#board b").count() == 0
    for address in ("/", f"/games/{game['id']}?sheet=end", f"/games/{game['id']}?sheet=more",
                    "/games/new"):
        phone.goto(address)
        assert phone.locator("main b, main script").count() == 0, address
    assert dialogs == []
