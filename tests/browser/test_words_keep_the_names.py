"""Words that keep the names, at 360 px in French, Arabic and English: the
Undo's label and the last events keep every side's name (a long one cut in
its middle, none dropped: "↶ Annuler : Fin de manche : 22 cartes, …" had
lost Karim and Salma), the count's preview says each part of the points,
the result's heading and score line read whole right to left, the
3-player review's running score holds on one line, and the 4-player score
boxes show the teams' names."""

import html
import re

import pytest
from playwright.sync_api import expect

from support.table import post, without_the_engine

SMALL = {"width": 360, "height": 640}
TEAMS = ["Karim & Salma", "Abdelkader & Mohammed"]
# The line (its top, rounded) of each character of an element's text, in order.
CHAR_LINES = """e => {
  const out = [], walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    for (let i = 0; i < node.data.length; i++) {
      if (/[\\s\\u2066-\\u2069]/.test(node.data[i])) continue;
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect) out.push([node.data[i], Math.round(rect.top)]);
    }
  }
  return out; }"""
CLIPPED = "e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1"


def lines_of(locator):
    return len({top for _, top in locator.evaluate(CHAR_LINES)})


def line_starts(locator):
    """The first character of each line the element's text takes."""
    chars, starts, last = locator.evaluate(CHAR_LINES), [], None
    for char, top in chars:
        if top != last:
            starts.append(char)
            last = top
    return starts


def names_shown(locator):
    """Each name's isolate (FSI…PDI); a team's whole name is its partners'
    two, "&" between them."""
    marked = locator.evaluate("e => e.innerHTML")  # an isolate: FSI…PDI, or a <bdi>
    text = html.unescape(re.sub("<[^>]+>", "", re.sub("<bdi[^>]*>\u2068?", "\u2068", re.sub(
        "\u2069?</bdi>", "\u2069", marked))))
    return [first + (f" & {second}" if second else "") for first, second in re.findall(
        "\u2068([^\u2069]*)\u2069(?: & \u2068([^\u2069]*)\u2069)?", text)]


def kept(shown, full):
    """A name shown whole, or cut: its start, and its last words whole when
    they fit ("Abd…Mohammed"); never a word without its start (a cut in the
    middle showed نادية as "ادية")."""
    if shown == full:
        return True
    head, _, tail = shown.partition("…")
    return bool(head) and full.startswith(head) and (
        not tail or full.endswith(" " + tail))


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_undo_and_the_last_events_keep_every_teams_name(new_phone, server, screenshot,
                                                             language):
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": TEAMS, "players": 4, "rules": {"target": 41}})
    post(page, server, f"/api/games/{game['id']}/events", {"type": "end_hand", "cards": [22, None]})
    page.goto(f"/games/{game['id']}?lang={language}")
    label = page.locator(".undo-what")
    shown = names_shown(label)
    assert len(shown) == 2 and all(kept(s, f) for s, f in zip(shown, TEAMS)), shown
    assert not label.evaluate(CLIPPED) and lines_of(label) <= 2
    for name in label.locator("bdi").all():
        assert name.bounding_box()["width"] > 20  # drawn, not shrunk to nothing
    row = page.locator(".recent li").first
    assert names_shown(row.locator(".what")) == TEAMS  # whole: 26 letters or fewer
    screenshot(page, f"undo-names-{language}")
    # On the result too: the count that wins the game.
    post(page, server, f"/api/games/{game['id']}/events",
         {"type": "adjust", "side": 0, "points": 38})
    won = post(page, server, f"/api/games/{game['id']}/events",
               {"type": "end_hand", "cards": [22, None]})
    assert won["finished"]
    page.goto(f"/games/{game['id']}?lang={language}")
    shown = names_shown(page.locator(".over .undo-what"))
    assert len(shown) == 2 and all(kept(s, f) for s, f in zip(shown, TEAMS)), shown


def test_the_arabic_end_of_hand_row_takes_no_more_room_than_the_others(new_phone, server):
    page = new_phone(viewport=SMALL)
    without_the_engine(page)  # nine boards, each read as loaded
    heights = {}
    for language, sides in (("fr", ["Nous", "Eux"]), ("en", ["Us", "Them"]),
                            ("ar", ["نحن", "هم"])):
        for players, names in ((2, sides), (2, ["Karim", "Salma"]), (4, TEAMS)):
            game = post(page, server, "/api/games", {"sides": names, "players": players})
            post(page, server, f"/api/games/{game['id']}/events", {"type": "missa", "side": 0})
            post(page, server, f"/api/games/{game['id']}/events",
                 {"type": "end_hand", "cards": [25, None]})
            page.goto(f"/games/{game['id']}?lang={language}")
            row = page.locator(".recent li").first
            heights[language, players, names[0]] = row.bounding_box()["height"]
            # Its words on two lines at most, across the row (beside what it
            # gave and the score, they took four to eight narrow lines).
            assert lines_of(row.locator(".what")) <= 2, (language, names)
    for (language, players, name), height in heights.items():
        if language == "ar":
            others = [h for (lang, p, n), h in heights.items() if lang != "ar" and p == players
                      and (n == name or players == 2 and n not in TEAMS and name not in TEAMS
                           and (n in ("Nous", "Us")) == (name == "نحن"))]
            assert height <= max(others) + 1, (players, name, height, others)


@pytest.mark.parametrize("language, said", [
    ("fr", "Ali : 2 pour les cartes + 1 pour la chaîne ouverte (Bount)"),
    ("ar", "Ali: 2 للأوراق + 1 للسلسلة المفتوحة (بونت)"),
    ("en", "Ali: 2 for the cards + 1 for the open Bount"),
])
def test_the_count_preview_says_each_part_as_it_is_typed(new_phone, server, language, said):
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": ["Ali", "Badr", "Chama"], "players": 3})
    for _ in range(3):
        post(page, server, f"/api/games/{game['id']}/events", {"type": "next_deal"})
    post(page, server, f"/api/games/{game['id']}/events", {"type": "hit", "side": 0, "value": 1})
    page.goto(f"/games/{game['id']}?lang={language}&sheet=end")
    page.locator("#cards0").fill("15")
    page.locator("#cards1").fill("12")
    parts = page.locator(".parts")
    expect(parts).to_have_text(said.replace("Ali", "\u2068Ali\u2069"))
    assert not parts.evaluate(CLIPPED)
    expect(page.locator("button[value=end_hand]")).to_be_in_viewport(ratio=1)


@pytest.mark.parametrize("language", ["ar", "fr", "en"])
def test_the_result_reads_whole_at_360(new_phone, server, screenshot, language):
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": TEAMS, "players": 4})
    post(page, server, f"/api/games/{game['id']}/events",
         {"type": "adjust", "side": 0, "points": 33})
    page.goto(f"/games/{game['id']}?lang={language}")
    heading = page.locator("#winner")
    assert lines_of(heading) <= 2
    assert "!" not in line_starts(heading)  # no "!" alone on its line
    assert "–" not in line_starts(page.locator(".over .final"))  # no line starts with a dash
    for pair in page.locator(".over .final .pair").all():
        assert lines_of(pair) == 1, pair.inner_text()  # each name with its score
    screenshot(page, f"result-teams-{language}")


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_three_player_review_keeps_each_running_score_on_one_line(new_phone, server,
                                                                       language):
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": ["Ali", "Badr", "Chama"], "players": 3})
    for event in ({"type": "hit", "side": 0, "value": 1}, {"type": "missa", "side": 1},
                  {"type": "end_hand", "cards": [15, 12, None]}):
        post(page, server, f"/api/games/{game['id']}/events", event)
    page.goto(f"/games/{game['id']}/review?lang={language}")
    running = page.locator(".timeline .running")
    assert running.count() == 3
    for score in running.all():
        assert lines_of(score) == 1, score.inner_text()


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_four_player_score_boxes_show_the_teams_names(new_phone, server, screenshot,
                                                          language):
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": TEAMS, "players": 4,
                                             "rules": {"preset": "classique"}})
    page.goto(f"/games/{game['id']}?lang={language}")
    for name in page.locator(".side-name").all():
        assert not name.evaluate(CLIPPED), name.inner_text()
    for points in page.locator(".points").all():
        assert points.evaluate("e => e.scrollWidth <= e.clientWidth")
    last = page.locator("#board .actions .button, #board .actions button").last.bounding_box()
    assert last["y"] + last["height"] <= SMALL["height"]  # the board still fits the phone
    screenshot(page, f"score-boxes-teams-{language}")


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_undo_of_four_announcements_keeps_both_teams(new_phone, server, language):
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": TEAMS, "players": 4})
    post(page, server, f"/api/games/{game['id']}/events", {"type": "announce", "announcements": [
        {"side": 0, "kind": "ronda"}, {"side": 0, "kind": "tringa"},
        {"side": 1, "kind": "ronda"}, {"side": 1, "kind": "ronda"}]})
    page.goto(f"/games/{game['id']}?lang={language}")
    label = page.locator(".undo-what")
    shown = names_shown(label)
    assert len(shown) == 2 and all(kept(s, f) for s, f in zip(shown, TEAMS)), shown
    assert not label.evaluate(CLIPPED) and lines_of(label) <= 2


# Two partners' names as long as a side's name may be (40 characters).
LONG_TEAMS = ["Abdelkrim Benjelloun & Fatima-Zahra El I", "Youssef Alaoui & Salma Bennani"]


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_undo_of_one_teams_missa_keeps_its_long_name_on_one_line(new_phone, server,
                                                                     screenshot, language):
    """A name is kept on one line (style.css): one as long as a side's may be
    is cut in its middle to a line, not clipped at its start or its end."""
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games",
                {"sides": LONG_TEAMS, "players": 4, "rules": {"target": 41}})
    post(page, server, f"/api/games/{game['id']}/events", {"type": "missa", "side": 0})
    page.goto(f"/games/{game['id']}?lang={language}")
    label = page.locator(".undo-what")
    shown = names_shown(label)
    assert len(shown) == 1 and kept(shown[0], LONG_TEAMS[0]), shown
    assert not label.evaluate(CLIPPED), shown
    screenshot(page, f"undo-long-team-{language}")


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_a_long_teams_score_box_shows_both_partners(new_phone, server, screenshot, language):
    """Each partner on a line of the box, cut at its end when long: the
    second partner is seen (a long first name had pushed them out of the box,
    "Abdelkrim Benjelloun &…"), and "&" ends the first line, never starts one."""
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": LONG_TEAMS, "players": 4})
    page.goto(f"/games/{game['id']}?lang={language}")
    for box, team in zip(page.locator(".side-name").all(), LONG_TEAMS):
        assert not box.evaluate(CLIPPED), team
        first, second = box.locator(".partner").all()
        amp = box.locator(".amp").bounding_box()
        top, bottom = first.bounding_box(), second.bounding_box()
        assert bottom["y"] >= top["y"] + top["height"] - 1  # the second on a line of its own
        assert abs(amp["y"] - top["y"]) < 2  # "&" on the first partner's line
        for partner, name in zip((first, second), team.split(" & ")):
            assert partner.bounding_box()["width"] > 40, name  # seen, not squeezed out
            assert partner.inner_text() == name  # whole for a screen reader, cut by the style
    assert page.locator(".side-name").first.inner_text().replace("\u00a0", " ").replace(
        "\n", " ").split() == LONG_TEAMS[0].split()
    screenshot(page, f"score-boxes-long-teams-{language}")


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_dealers_long_name_holds_on_one_line(new_phone, server, language):
    """Cut in its middle: a team's name broken over two lines of the status
    was read in pieces, and in Arabic its end was drawn after "Game in 33"."""
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": LONG_TEAMS, "players": 4})
    page.goto(f"/games/{game['id']}?lang={language}")
    dealer = page.locator(".status-text bdi")
    shown = dealer.inner_text().strip("\u2068\u2069")
    assert kept(shown, LONG_TEAMS[0]) and shown != LONG_TEAMS[0], shown
    assert lines_of(dealer) == 1
    assert not page.locator(".status-text").evaluate(CLIPPED)
