"""A tap that changes the score shows the new score at once, marked as not yet
stored; the server's answer confirms it, a refusal puts the old score back,
and a tap the server cannot take yet keeps its score, marked, until it counts."""

from playwright.sync_api import expect

from support.table import expect_scores, open_game, tap, wait_for_engine, wait_past_double_tap


def test_the_new_score_shows_before_the_server_answers_then_is_confirmed(phone):
    open_game(phone)
    version = phone.locator("#board").get_attribute("data-version")
    network = phone.context.new_cdp_session(phone)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", {  # a slow network: 1.5 s each way
        "offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1})
    phone.get_by_role("button", name="Missa pour Nous").tap()
    expect(phone.locator("#score-0")).to_have_text("1", timeout=1000)
    # Still the board the server drew before the tap: the server has not answered.
    assert phone.locator("#board").get_attribute("data-version") == version
    expect(phone.locator(".scores")).to_have_class("scores pending")
    expect(phone.locator(".scores")).to_have_attribute("aria-busy", "true")
    expect(phone.locator("#board")).not_to_have_attribute("data-version", version, timeout=8000)
    expect(phone.locator(".scores")).to_have_class("scores")  # confirmed
    expect_scores(phone, 1, 0)
    network.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    game = phone.locator("#board").get_attribute("data-game")
    assert phone.request.get(f"/api/games/{game}").json()["scores"] == [1, 0]


TAPS = "**/games/*/play"


def second_missa_answered(phone, status: int, sentence: str) -> None:
    """A game with one Missa for Eux, then another, which the server answers
    with `status` and an error page saying `sentence`."""
    open_game(phone)
    tap(phone, "Missa pour Eux")
    wait_for_engine(phone)  # the board's own count ready: what a waiting tap shows is known
    phone.route(TAPS, lambda route: route.fulfill(
        status=status, content_type="text/html", body=f'<p role="alert">{sentence}</p>'))
    wait_past_double_tap(phone)  # a second Missa, not a double tap on the first
    phone.get_by_role("button", name="Missa pour Eux").tap()


def test_a_tap_the_server_refuses_puts_the_old_score_back(phone):
    second_missa_answered(phone, 403, "Cet appareil ne peut pas faire cela.")
    expect(phone.get_by_role("alert")).to_contain_text("ne peut pas faire cela")
    expect_scores(phone, 0, 1)
    expect(phone.locator(".scores")).to_have_class("scores")


def test_a_tap_the_server_cannot_take_yet_waits_then_counts(phone):
    second_missa_answered(phone, 503, "Le registre des scores est injoignable.")
    notice = phone.locator("#link-state")
    expect(notice).to_contain_text("Le serveur ne peut pas prendre les touches pour l'instant")
    expect(notice).to_contain_text("1 touche en attente")
    # While it waits, the board shows the phone's own count of it, marked.
    expect_scores(phone, 0, 2)
    expect(phone.locator(".scores")).to_have_class("scores pending")
    expect(phone.locator(".needs").last).to_contain_text("pas encore enregistré")
    phone.unroute(TAPS)  # the store is back: the next poll sends it
    expect(phone.locator("#board")).to_have_attribute("data-version", "2", timeout=8000)
    expect(phone.locator(".scores")).to_have_class("scores")
    expect_scores(phone, 0, 2)


def test_a_tap_that_changes_no_score_predicts_nothing(phone):
    open_game(phone)
    assert phone.get_by_role("button", name="1 Bount pour Nous").get_attribute("data-scores") is None
    assert phone.get_by_role("button", name="Missa pour Nous").get_attribute("data-scores") == "1 0"
    tap(phone, "1 Bount pour Nous")
    # Closing the open chain would score it: Donne suivante predicts Nous +1.
    assert phone.get_by_role("button", name="Donne suivante").get_attribute("data-scores") == "1 0"
