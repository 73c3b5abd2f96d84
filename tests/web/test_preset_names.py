"""The built-in presets are named in the page's language
("app" and "classic" in English, «التطبيق» and «الكلاسيكية» in Arabic,
"appli" and "classique" in French) wherever a page shows them; the key a
form sends and the API speaks stays the contract's `appli` / `classique`."""

import re

import pytest

from support.page_forms import forms_of
from support.pages import text as words

NAMES = {"fr": ("appli", "classique"), "en": ("app", "classic"),
         "ar": ("التطبيق", "الكلاسيكية")}


@pytest.fixture
def pages(client, api):
    game = api.new_game(sides=["Karim", "Ali"], rules={"preset": "classique"})["id"]
    return ["/games/new", "/settings", "/rules", "/rules?preset=classique",
            f"/games/{game}?sheet=rules", "/settings/presets/new?from=appli",
            "/settings/presets/new?from=classique"]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_no_page_shows_the_french_key_of_a_built_in_preset(client, pages, language):
    client.set_cookie("lang", language)
    app_name, classic_name = NAMES[language]
    for url in pages:
        html = client.get(url).get_data(as_text=True)
        text = words(html)
        assert not re.search(r"\b(appli|classique)\b", text), (language, url)
        assert app_name in text or classic_name in text or "presets/new" in url, url
    settings = words(client.get("/settings").get_data(as_text=True))
    assert app_name in settings and classic_name in settings


@pytest.mark.parametrize("language", ["fr", "en", "ar"])
def test_a_copy_of_a_built_in_preset_is_named_in_the_pages_language(client, language):
    client.set_cookie("lang", language)
    html = client.get("/settings/presets/new?from=classique").get_data(as_text=True)
    name = dict(next(f for f in forms_of(html) if f.method == "post").fields)["name"]
    assert NAMES[language][1] in name, name


def test_the_forms_still_send_the_contracts_keys(client):
    client.set_cookie("lang", "en")
    html = client.get("/games/new").get_data(as_text=True)
    assert re.search(r'<option[^>]*value="appli"[^>]*>app</option>', html)
    assert re.search(r'<option[^>]*value="classique"[^>]*>classic</option>', html)
    html = client.get("/settings").get_data(as_text=True)
    assert 'value="appli"' in html and 'value="classique"' in html
