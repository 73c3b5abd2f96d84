"""The new-game form's reloads (another preset, a recent player's button)
are GETs of the whole form: the address they lead to keeps what was typed,
never the form's CSRF and one-time tokens, which a shared address would give
away."""

from urllib.parse import parse_qs, urlsplit

from support.page_forms import forms_of, submit


def _choose_preset(client, preset):
    form = forms_of(client.get("/games/new").get_data(as_text=True))[0]
    data = [(k, v) for k, v in form.fields if k not in ("preset", "name0")]
    data += [("preset", preset), ("name0", "Karim")]
    return client.get("/games/new", query_string=data)


def test_choosing_a_preset_leaves_no_token_in_the_address(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    response = _choose_preset(client, "classique")
    assert response.status_code == 303
    query = parse_qs(urlsplit(response.headers["Location"]).query)
    assert "csrf_token" not in query and "token" not in query and "target" not in query
    assert query["preset"] == ["classique"] and query["name0"] == ["Karim"]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    form = forms_of(page)[0]
    assert ("name0", "Karim") in form.fields and ("preset", "classique") in form.fields


def test_the_cleaned_form_still_starts_the_game(client):
    location = _choose_preset(client, "classique").headers["Location"]
    form = forms_of(client.get(location).get_data(as_text=True))[0]
    started = submit(client, form, extra={"name1": "Samira"})
    assert started.status_code == 303
    state = client.get("/api" + started.headers["Location"]).get_json()
    assert state["sides"] == ["Karim", "Samira"] and state["rules"]["target"] == 41
