"""Knockout and Swiss nights through the service: seeding, a match's table
started from the bracket, its result sending the winner on, a corrected
result moved through the bracket, the best of three, Swiss rounds with a
withdrawal and a late entrant, a round that waits for its tables, and the
export's round trip."""

import random
import sqlite3

import pytest

from scorekeeper import create_app, engine
from scorekeeper.service import games, night_transfer, nights, tournaments, transfer
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect

NOW = "2026-12-04T20:00:00+00:00"
PRESETS = engine.BUILT_IN_PRESETS


@pytest.fixture
def store(app):
    connection = connect(app.config["DATABASE"])
    yield connection
    connection.close()


def night_of(store, entrants, kind="knockout", players=2, **more):
    data = {"name": "Tournoi", "date": "2026-12-04", "preset": "appli", "players": players,
            "format": kind, "entrants": [[n] if isinstance(n, str) else list(n)
                                         for n in entrants], **more}
    return nights.create(store, data, NOW, PRESETS, draw=random.Random(4))


def finish(store, game_id, side, points=40):
    games.record(store, game_id, {"type": "adjust", "side": side, "points": points}, None, NOW)


def win(store, night, round_, slot, winner_label, points=40, key=None):
    """The match's next table started from the bracket, won by `winner_label`."""
    game = tournaments.start_match(store, night, round_, slot, key or f"k{round_}.{slot}."
                                   f"{random.random()}", NOW, PRESETS)
    finish(store, game.id, list(game.setup.sides).index(winner_label), points)
    return game


def test_seeding_by_rating_puts_the_strongest_first(store):
    for _ in range(3):  # Nadia beats Ali three times: she rises, he falls
        game, _ = games.create(store, {"sides": ["Nadia", "Ali"]}, None, NOW)
        finish(store, game.id, 0)
    night = night_of(store, ["Ali", "Karim", "Nadia"], seeding="rating")
    assert night.entrants == [["Nadia"], ["Karim"], ["Ali"]]  # Karim, new, sits between


def test_a_drawn_seeding_is_a_draw_of_every_entrant(store):
    night = night_of(store, ["A", "B", "C", "D", "E"], seeding="draw")
    assert sorted(map(tuple, night.entrants)) == [(n,) for n in "ABCDE"]
    assert night.entrants != [[n] for n in "ABCDE"]  # random.Random(4) moves them


def test_a_knockout_of_five_plays_through_to_one_champion(store):
    night = night_of(store, ["S1", "S2", "S3", "S4", "S5"], seeding="rating")
    bracket = tournaments.bracket(store, night)
    first = bracket.rounds[0]
    assert [m.match.bye for m in first] == [True, False, True, True]
    with pytest.raises(engine.RuleViolation):  # a bye is not played
        tournaments.start_match(store, night, 1, 1, "bye", NOW, PRESETS)
    with pytest.raises(engine.RuleViolation):  # S1's opponent is not known yet
        tournaments.start_match(store, night, 2, 1, "early", NOW, PRESETS)
    game = tournaments.start_match(store, night, 1, 2, "one-tap", NOW, PRESETS)
    assert game.setup.sides == ("S4", "S5")
    again = tournaments.start_match(store, night, 1, 2, "one-tap", NOW, PRESETS)
    assert again.id == game.id  # the same tap twice: one table
    with pytest.raises(engine.RuleViolation, match="being played at table 1"):
        tournaments.start_match(store, night, 1, 2, "other", NOW, PRESETS)
    assert tournaments.bracket(store, night).rounds[0][1].playing.game_id == game.id
    finish(store, game.id, 1)  # S5 wins: on to meet S1 at once
    semi = tournaments.bracket(store, night).rounds[1][0]
    assert semi.match.entrants == (0, 4) and semi.match.ready
    win(store, night, 2, 1, "S1")
    win(store, night, 2, 2, "S3")
    win(store, night, 3, 1, "S3")
    assert tournaments.bracket(store, night).champion == 2


def test_a_corrected_result_moves_the_bracket_and_names_the_table_it_undid(store):
    night = night_of(store, ["S1", "S2", "S3", "S4", "S5"], seeding="rating")
    first = win(store, night, 1, 2, "S5")
    semi = win(store, night, 2, 1, "S5")  # S5 beats S1 in the semi-final
    assert tournaments.bracket(store, night).rounds[2][0].match.entrants[0] == 4
    # S4 had won the first match: the director corrects it through the history.
    games.correct(store, first.id, {"seq": 1, "event": {"type": "adjust", "side": 0,
                                                        "points": 40}}, None, NOW)
    bracket = tournaments.bracket(store, night)
    assert bracket.rounds[0][1].match.winner == 3
    assert bracket.rounds[1][0].match.entrants == (0, 3) and bracket.rounds[1][0].match.ready
    assert [t.game_id for t in bracket.stale] == [semi.id]
    assert bracket.rounds[2][0].match.entrants[0] is None


def test_the_best_of_three_goes_on_through_the_rematch(store):
    night = night_of(store, ["Karim", "Ali"], match_games=3)
    first = win(store, night, 1, 1, "Karim")
    rematch, _ = games.rematch(store, first.id, NOW)
    tournaments.add_rematch(store, night, first.id, rematch.id, NOW)
    finish(store, rematch.id, list(rematch.setup.sides).index("Ali"))
    final = tournaments.bracket(store, night).rounds[0][0]
    assert final.match.wins == (1, 1) and final.match.winner is None
    third = tournaments.start_match(store, night, 1, 1, "third", NOW, PRESETS)
    assert third.setup.first_dealer == 0  # the dealer alternates from game to game
    finish(store, third.id, list(third.setup.sides).index("Ali"))
    assert tournaments.bracket(store, night).champion == 1
    fourth, _ = games.rematch(store, third.id, NOW)  # the match is over: a free table
    tournaments.add_rematch(store, night, third.id, fourth.id, NOW)
    row = store.execute("SELECT slot FROM night_tables WHERE game_id = ?", [fourth.id]).fetchone()
    assert row == (None,)


def test_teams_of_two_enter_a_knockout(store):
    night = night_of(store, [("Karim", "Salma"), ("Ali", "Omar"), ("Nadia", "Leila")],
                     players=4)
    game = tournaments.start_match(store, night, 1, 2, "teams", NOW, PRESETS)
    assert game.setup.players == 4 and " & " in game.setup.sides[0]
    seats = store.execute("SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id"
                          " WHERE s.game_id = ? ORDER BY s.side, s.seat", [game.id]).fetchall()
    assert len(seats) == 4


def swiss_round(store, night, number, force=False):
    return tournaments.start_swiss_round(store, nights.get(store, night.id), number,
                                         f"swiss{number}", NOW, PRESETS, force)


def test_a_swiss_round_waits_for_its_tables_or_the_director(store):
    night = night_of(store, ["A", "B", "C", "D", "E"], kind="swiss", seeding="rating")
    assert night.rounds == 3
    tables = swiss_round(store, night, 1)
    assert [t.setup.sides for t in tables] == [("A", "C"), ("B", "D")]
    view = tournaments.swiss(store, night)
    assert view.rounds[0][2].match.bye and view.rounds[0][2].match.winner == 4
    finish(store, tables[0].id, 0, 40)
    with pytest.raises(nights.RoundNotDone) as refused:
        swiss_round(store, night, 2)
    assert refused.value.tables == [2]  # B–D is still being played
    finish(store, tables[1].id, 1, 35)
    second = swiss_round(store, night, 2)
    assert [t.setup.sides for t in second] == [("A", "D"), ("E", "B")]  # C has the bye
    view = tournaments.swiss(store, nights.get(store, night.id))
    assert [(view_line.standing.entrant, view_line.standing.wins)
            for view_line in view.standings][:3] == [(0, 1), (3, 1), (4, 1)]


def test_a_withdrawal_and_a_late_entrant_change_the_next_round(store):
    night = night_of(store, ["A", "B", "C", "D"], kind="swiss", seeding="rating", rounds=3)
    for table in swiss_round(store, night, 1):
        finish(store, table.id, 0)
    tournaments.withdraw(store, night, 1)  # B leaves after round 1
    with pytest.raises(engine.InvalidInput):
        tournaments.add_entrant(store, night, ["a"])  # A is in already (case aside)
    assert tournaments.add_entrant(store, night, ["F"]) == 4
    night = nights.get(store, night.id)
    view = tournaments.swiss(store, night)
    number, pairs, bye = view.next
    assert number == 2 and bye is None
    assert {e for pair in pairs for e in pair} == {0, 2, 3, 4}  # F plays, B does not
    tables = swiss_round(store, night, 2)
    assert all("B" not in t.setup.sides for t in tables) and len(tables) == 2
    assert [line.withdrawn for line in tournaments.swiss(store, nights.get(
        store, night.id)).standings if line.standing.entrant == 1] == [True]
    tournaments.withdraw(store, night, 1, back=True)
    night = nights.get(store, night.id)
    for table in tables:
        finish(store, table.id, 0)
    number, pairs, bye = tournaments.swiss(store, night).next
    assert number == 3 and 1 in {e for pair in pairs for e in pair} | {bye}  # back in round 3


def test_a_late_entrant_and_a_withdrawal_are_for_a_swiss_evening_only(store):
    night = night_of(store, ["A", "B"])
    with pytest.raises(engine.RuleViolation):
        tournaments.withdraw(store, night, 0)
    with pytest.raises(engine.RuleViolation):
        tournaments.add_entrant(store, night, ["C"])


@pytest.mark.parametrize("data, says", [
    ({"format": "cup"}, "round robin, a knockout or a Swiss"),
    ({"format": "knockout", "entrants": [["A"]]}, "two entrants at least"),
    ({"format": "knockout", "entrants": [[f"P{n}"] for n in range(129)]}, "at most 128"),
    ({"format": "knockout", "match_games": 2}, "best of three"),
    ({"format": "swiss", "seeding": "age"}, "seeded"),
    ({"format": "swiss", "rounds": 4}, "1 to 3 rounds"),
    ({"format": "round_robin", "entrants": [[f"P{n}"] for n in range(9)]}, "at most 8"),
    ({"format": "round_robin", "entrants": [["A"]]}, "two entrants at least (or none"),
    ({"format": "knockout", "match_games": True}, "best of three"),
    ({"format": "swiss", "rounds": 2.0}, "1 to 3 rounds"),
    ({"preset": "nope"}, "no such preset"),
    ({"players": 3}, "two players, or teams of two"),
    ({"date": None}, "The date must be a day"),
])
def test_a_bad_tournament_is_refused_with_a_sentence(store, data, says):
    body = {"name": "Tournoi", "date": "2026-12-04", "preset": "appli", "players": 2,
            "entrants": [["A"], ["B"], ["C"], ["D"]], **data}
    with pytest.raises(engine.InvalidInput) as refused:
        nights.parse_night(body, PRESETS)
    assert says in refused.value.sentence()


def standings_and_brackets(store):
    found = {}
    for night, _ in nights.every_night(store):
        night = nights.get(store, night.id)
        if night.format == "knockout":
            b = tournaments.bracket(store, night)
            found[night.id] = ([[(m.match.entrants, m.match.wins, m.match.winner,
                                  [t.number for t in m.tables]) for m in r] for r in b.rounds],
                               b.champion, night.entrants)
        else:
            s = tournaments.swiss(store, night)
            found[night.id] = ([(line.standing, line.withdrawn) for line in s.standings],
                               [[(m.match.entrants, m.match.wins) for m in r] for r in s.rounds],
                               s.next, night.entrants)
    return found


def test_an_export_gives_back_the_same_brackets_and_standings(store, tmp_path):
    knockout = night_of(store, ["S1", "S2", "S3", "S4", "S5"], match_games=3)
    win(store, knockout, 1, 2, "S5")
    win(store, knockout, 1, 2, "S4")
    tournaments.start_match(store, knockout, 1, 2, "running", NOW, PRESETS)
    swiss = night_of(store, ["A", "B", "C", "D", "E"], kind="swiss")
    for table in swiss_round(store, swiss, 1):
        finish(store, table.id, 1)
    tournaments.withdraw(store, swiss, 0)
    tournaments.add_entrant(store, swiss, ["F"])
    swiss_round(store, nights.get(store, swiss.id), 2)
    document = transfer.document(transfer.export_all(store), NOW,
                                 night_transfer.export_nights(store))
    before = standings_and_brackets(store)
    fresh = create_app({"TESTING": True, "DATABASE": str(tmp_path / "fresh.sqlite3")})
    with fresh.app_context():
        other = connect(str(tmp_path / "fresh.sqlite3"))
        imported, _ = transfer.import_document(other, document)
        assert standings_and_brackets(other) == before
        assert night_transfer.export_nights(other) == document["nights"]
        assert transfer.import_document(other, document)[0] == []  # identical: skipped
        other.close()


@pytest.mark.parametrize("change", [
    lambda t: t.update(format="league"),
    lambda t: t.update(joined=[1]),
    lambda t: t["pairings"].append({"round": 1, "slot": 1, "entrants": [0, 1]}),
    lambda t: t["matches"].append({"game": "nope", "slot": 1, "entrants": [0, 1]}),
    lambda t: t["matches"][0].update(entrants=[0, 0]),
    lambda t: t.update(rounds=None),
    lambda t: t.pop("seeding"),
])
def test_a_bad_tournament_in_an_export_imports_nothing(store, tmp_path, change):
    swiss = night_of(store, ["A", "B", "C"], kind="swiss")
    swiss_round(store, swiss, 1)
    document = transfer.document(transfer.export_all(store), NOW,
                                 night_transfer.export_nights(store))
    change(document["nights"][0]["tournament"])
    path = tmp_path / "fresh.sqlite3"
    fresh = create_app({"TESTING": True, "DATABASE": str(path)}).test_client()
    response = fresh.post("/api/games/import", json=document)
    assert response.status_code == 400, response.get_json()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM nights").fetchone() == (0,)


def test_a_night_stored_before_tournaments_is_the_round_robin_it_was(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = connect(str(path))
    steps = migrations.migrations._migrations
    before = migrations.Migrations("scorekeeper")
    for step in steps[:[s.name for s in steps].index("0010_tournaments")]:
        before(name=step.name, transactional=step.transactional)(step.fn)
    before.apply(db)
    db.execute("INSERT INTO nights (id, name, date, preset, players, created_at)"
               " VALUES ('oldnight1', 'Vendredi', '2026-01-02', 'appli', 2, ?)", [NOW])
    db.execute("INSERT INTO night_entrants (night_id, position, names) VALUES"
               " ('oldnight1', 0, '[\"Karim\"]'), ('oldnight1', 1, '[\"Ali\"]')")
    db.conn.commit()
    migrations.migrate(db)
    night = nights.get(db, "oldnight1")
    assert (night.format, night.match_games, night.joined, night.withdrawn) == (
        "round_robin", 1, [1, 1], [None, None])
    assert nights.next_round(db, night)[0] == 1
    db.close()
