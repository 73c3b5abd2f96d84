"""Offline, a tap on an announcement (or a sheet),
which the server must draw and no outbox can keep, says so in the board's
connection box instead of doing nothing; and every sentence that box shows
is read whole at 360 px, in French, Arabic and English, in its fixed box
under the deal line (the state in one line and the count in one, or a longer
state in both: nothing is cut, nothing moves)."""


import pytest
from playwright.sync_api import expect

from support.table import go_offline, go_online, open_game, wait_past_double_tap

SMALL = {"width": 360, "height": 640}


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_every_connection_sentence_is_read_whole_in_its_box_at_360_px(new_phone, language):
    phone = new_phone(viewport=SMALL)
    open_game(phone)
    phone.goto(phone.url + f"?lang={language}")
    cut = phone.evaluate("""() => {
      const box = document.getElementById('link-state');
      const texts = document.getElementById('outbox-texts').content;
      const what = box.querySelector('.link-what'), count = box.querySelector('.link-count');
      const counts = Array.from(texts.querySelectorAll('[data-plural=waiting], [data-plural=kept]'),
                                n => n.textContent.replace('{num}', '12'));
      const states = ['lost', 'lost-kept', 'busy', 'back', 'sending', 'stopped',
                      'announce-offline', 'view-offline', 'count-offline', 'waiting-first'];
      box.hidden = false;
      const cut = [];
      for (const state of [...states, 'copy']) {  // 'copy': a board a service worker reopened
        for (const waiting of counts) {
          what.textContent = texts.querySelector(`[data-text="${state}"]`).textContent;
          count.textContent = waiting;
          // As board.js does: a sentence too long for one line takes the count's too.
          box.className = 'link-state';
          if (what.scrollHeight > what.clientHeight + 1) { box.classList.add('full'); }
          const full = box.classList.contains('full');
          const inside = b => b.top >= box.getBoundingClientRect().top - 0.5 &&
                              b.bottom <= box.getBoundingClientRect().bottom + 0.5;
          if (what.scrollHeight > what.clientHeight + 1 || what.scrollWidth > what.clientWidth ||
              (!full && count.scrollWidth > count.clientWidth) ||
              !inside(what.getBoundingClientRect()) ||
              (!full && !inside(count.getBoundingClientRect()))) {
            cut.push([state, what.textContent, waiting]);
          }
        }
      }
      return cut;
    }""")
    assert cut == []
    # Between the deal line and the scores, overlapping neither: in Arabic it is
    # taller, its letters rising above a line of 1.25 (its first line was cut).
    box, deal, scores = (phone.locator(sel).bounding_box() for sel in
                         ("#link-state", ".status-text > span:first-child", "#board .scores"))
    assert deal["y"] + deal["height"] <= box["y"] + 1, (deal, box)
    assert box["y"] + box["height"] <= scores["y"], (box, scores)


WHOLE = "e => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth"
SAYS = {"fr": ("Ronda", "Fin de manche", "Les annonces ont besoin du serveur",
               "Cela a besoin du serveur"),
        "ar": ("روندا", "نهاية الجولة", "الإعلانات تحتاج إلى الخادم", "هذا يحتاج إلى الخادم"),
        "en": ("Ronda", "End of hand", "Announcements need the server",
               "This needs the server")}


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_offline_an_announcement_says_it_needs_the_server(new_phone, screenshot, language):
    ronda, end_of_hand, announcements, sheet = SAYS[language]
    phone = new_phone(viewport=SMALL)
    # A board that cannot count by itself (its engine's files never came):
    # the announcements then need the server (test_offline_announce.py: one that can).
    phone.route("**/phone/engine.*.json", lambda route: route.abort())
    open_game(phone)
    phone.goto(phone.url + f"?lang={language}")
    expect(phone.locator("html")).to_have_attribute("data-engine", "off", timeout=15000)
    buttons = phone.locator("#board .pads").bounding_box()
    go_offline(phone)
    state = phone.locator("#link-state")
    announce = phone.locator(".side-0 .announce a").filter(has_text=ronda).first
    # Off while the server is away (aria-disabled): a finger taps it anyway.
    expect(announce).to_have_attribute("aria-disabled", "true")
    announce.tap(force=True)
    expect(state).to_contain_text(announcements)
    # Read whole with no tap waiting too: cut after one line, the sentence
    # lost its instruction ("tap them again once it is back").
    assert state.locator(".link-what").evaluate(WHOLE)
    screenshot(phone, f"offline-announcement-{language}")
    assert phone.locator("#board .pads").bounding_box() == buttons  # nothing moved
    assert "a=" not in phone.url  # nothing was marked
    wait_past_double_tap(phone)
    phone.get_by_role("link", name=end_of_hand, exact=True).tap(force=True)
    expect(state).to_contain_text(sheet)
    assert state.locator(".link-what").evaluate(WHOLE)
    # Once the sentence has been read, the box says the connection again.
    expect(state).not_to_contain_text(sheet, timeout=8000)
    expect(state).to_be_visible()
    go_online(phone)
    wait_past_double_tap(phone)
    expect(announce).not_to_have_attribute("aria-disabled", "true")  # on with the server
    announce.tap()
    phone.wait_for_url("**a=0-ronda**")  # back online, the same tap marks it
