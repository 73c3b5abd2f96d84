"""A club night started through its page, and the games of its tables."""

import sqlite3

from support.page_forms import forms_of, submit
from support.pages import text


def start_night(client, players="2", entrants=(), name="Friday club", preset="appli"):
    html = client.get("/nights/new").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.method == "post")
    extra = {"name": name, "date": "2026-12-04", "players": players, "preset": preset}
    for number, names in enumerate(entrants):
        extra[f"e{number}a"] = names[0]
        extra[f"e{number}b"] = names[1] if len(names) > 1 else ""
    response = submit(client, form, extra=extra)
    assert response.status_code == 303, text(response.get_data(as_text=True))[:400]
    return response.headers["Location"].rsplit("/", 1)[1]


def night_games(app, night_id):
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return [row[0] for row in conn.execute(
            "SELECT game_id FROM night_tables WHERE night_id = ? ORDER BY number", [night_id])]
