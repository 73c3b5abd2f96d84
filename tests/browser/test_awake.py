"""The screen stays awake while a game is open, so a phone left on the table
between taps still shows the score: the Wake Lock API on a secure context
(the server on the phone itself, 127.0.0.1), a muted video started by the
first tap on the local network's plain http, which is none. The root
element says which: data-awake="wakelock" | "video" | "off".

Headless Chromium has no screen to keep on: what is checked is what makes
Chromium hold its screen wake lock for a video (blink's VideoWakeLock: a
video playing, on a visible page, at least 75 % on screen and covering at
least a fifth of it, when muted), and that nothing is asked of another host.
"""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from scorekeeper.testing.chromium import TABLE_HOST
from scorekeeper.testing.live_server import serving
from support.accessibility import check as check_accessible
from support.table import TABLE_ENV, open_game, table_phone, tap
from support.timings import QUICK_ENV

pytestmark = pytest.mark.xdist_group("awake")  # its module fixture, built once a run


@pytest.fixture(scope="module")
def table_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("awake"), "awake", **TABLE_ENV, **QUICK_ENV) as live:
        yield live


def awake(page):
    return expect(page.locator("html"))


def set_visibility(page, state: str) -> None:
    """The page hidden or shown again, as when the phone's screen is switched
    off or another app comes to the front (headless Chromium never hides a page)."""
    page.evaluate("""state => {
        Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});
        Object.defineProperty(document, 'hidden', {value: state === 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""", state)


def test_on_the_local_network_a_muted_video_keeps_the_screen_awake(browser, table_server):
    context = table_phone(browser, table_server)
    page = context.new_page()
    hosts = set()
    page.on("request", lambda request: hosts.add(request.url.split("/")[2]))
    open_game(page, server=table_server)
    assert page.evaluate("[isSecureContext, 'wakeLock' in navigator]") == [False, False]
    awake(page).to_have_attribute("data-awake", "off")  # a video needs a first tap
    tap(page, "Missa pour Nous")
    awake(page).to_have_attribute("data-awake", "video")
    video = page.evaluate("""() => new Promise(resolve => {
        const video = document.querySelector('video.awake-video');
        new IntersectionObserver(entries => {
            const rect = video.getBoundingClientRect();
            resolve({muted: video.muted, paused: video.paused, width: video.videoWidth,
                     ratio: entries[0].intersectionRatio,
                     share: rect.width * rect.height / (innerWidth * innerHeight),
                     events: getComputedStyle(video).pointerEvents,
                     opacity: getComputedStyle(video).opacity, src: video.currentSrc});
        }).observe(video);
    })""")
    assert video["muted"] and not video["paused"] and video["width"] > 0
    assert video["ratio"] > 0.75 and video["share"] >= 0.2  # blink's VideoWakeLock thresholds
    assert video["events"] == "none" and video["opacity"] == "0"
    assert "/static/awake." in video["src"]
    check_accessible(page, "the board with its video")
    # The video takes no tap: the buttons under it still score.
    tap(page, "Missa pour Eux")
    # Hidden: stopped; shown again: started again, without a new tap.
    set_visibility(page, "hidden")
    awake(page).to_have_attribute("data-awake", "off")
    assert page.evaluate("document.querySelector('video.awake-video').paused")
    set_visibility(page, "visible")
    awake(page).to_have_attribute("data-awake", "video")
    # The game over (another phone scores the rest): stopped.
    game = page.locator("#board").get_attribute("data-game")
    request = urllib.request.Request(
        f"{table_server.url}/api/games/{game}/events", method="POST",
        data=json.dumps({"type": "adjust", "side": 0, "points": 40}).encode(),
        headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()
    expect(page.locator("#board")).to_have_attribute("data-live", "0", timeout=5000)
    awake(page).to_have_attribute("data-awake", "off")
    assert hosts == {f"{TABLE_HOST}:{table_server.port}"}
    context.close()


@pytest.mark.whole_browser  # the headless shell refuses every wake lock
def test_on_loopback_the_wake_lock_keeps_the_screen_awake(new_phone):
    page = new_phone()  # http://127.0.0.1:PORT/, a secure context
    open_game(page)
    assert page.evaluate("isSecureContext")
    awake(page).to_have_attribute("data-awake", "wakelock")
    tap(page, "Missa pour Nous")
    awake(page).to_have_attribute("data-awake", "wakelock")
    assert page.locator("video").count() == 0
    set_visibility(page, "hidden")
    awake(page).to_have_attribute("data-awake", "off")
    set_visibility(page, "visible")
    awake(page).to_have_attribute("data-awake", "wakelock")


def test_pages_without_a_game_keep_nothing_awake(new_phone):
    page = new_phone()
    page.goto("/")
    awake(page).to_have_attribute("data-awake", "off")
