"""French, Arabic and English: the catalogs cover every string, every page
answers in each language with the right lang/dir and no word of another
language left, the API's error sentences follow Accept-Language, and the
switcher's ?lang= choice is kept in a cookie."""

import re
from html.parser import HTMLParser
from itertools import permutations
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from scorekeeper import create_app
from scorekeeper.web.wording.i18n import COOKIE_AGE, LANGUAGES, RIGHT_TO_LEFT
from support.page_forms import forms_of, submit

pytestmark = pytest.mark.xdist_group("i18n")  # its module fixture, built once a run

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
# The keywords of the extract command (docs/TRANSLATIONS.md, "A new sentence"): -k N_ -k _l -k lazy_gettext.
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "_l": None, "lazy_gettext": None}
ARABIC_INDIC_DIGITS = re.compile("[\u0660-\u0669\u06f0-\u06f9]")


def catalog_of(language: str) -> Catalog:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=language)


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    return {language: catalog_of(language) for language in LANGUAGES}


def extract(tmp_path: Path) -> Catalog:
    """The strings of the code and templates, as `pybabel extract` finds them,
    through a .pot written to a temporary folder."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    template = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    pot = tmp_path / "messages.pot"
    with pot.open("wb") as f:
        write_po(f, template)
    with pot.open("rb") as f:
        return read_po(f)


def untranslated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return not all(s and s.strip() for s in strings)


# The catalogs ----------------------------------------------------------------

def test_every_string_of_the_code_and_templates_is_in_every_catalog(tmp_path, catalogs):
    found = extract(tmp_path)
    ids = [m.id for m in found if m.id]
    assert len(ids) > 100  # the extraction really ran over the code and the templates
    for language, catalog in catalogs.items():
        missing = [i for i in ids if catalog.get(i) is None]
        assert missing == [], (
            f"{language}: not in the catalog (run the extract/update command of docs/TRANSLATIONS.md, "
            f"then translate): {missing}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalog_entry_is_untranslated_or_fuzzy(language):
    catalog = catalog_of(language)
    entries = [m for m in catalog if m.id]
    assert entries
    assert [m.id for m in entries if untranslated(m)] == [], f"{language}: untranslated"
    assert [m.id for m in entries if m.fuzzy] == [], f"{language}: fuzzy"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language):
    catalog = catalog_of(language)
    assert [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()] == []


def test_the_games_own_words_keep_their_names(catalogs):
    """Ronda, Tringa, Missa and the chain's calls: the same words in French
    and English, in Arabic script in Arabic."""
    arabic = {"Ronda": "روندا", "Tringa": "ترينكا", "Missa": "ميسا",
              "Bount": "بونت", "Khamsa": "خمسة", "Âachra": "عشرة"}
    for word, written in arabic.items():
        assert catalogs["fr"][word].string == word
        assert catalogs["en"][word].string == word
        assert catalogs["ar"][word].string == written


# Letters of French words, which no English sentence needs ("barème" was one);
# the game's words keep theirs (Âachra), and names are the players'.
FRENCH_LETTERS = re.compile("[éèêëàçùûôîïœ]", re.IGNORECASE)


def test_no_english_sentence_holds_a_french_word(catalogs):
    french = [m.id for m in catalogs["en"] if m.id and FRENCH_LETTERS.search(
        " ".join(m.string) if isinstance(m.string, (list, tuple)) else m.string)]
    assert french == []


# Pages in each language --------------------------------------------------------

@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """The catalogs compiled from the .po sources, as `make test` does, so these
    tests never read a stale .mo."""
    folder = tmp_path_factory.mktemp("translations")
    for language in LANGUAGES:
        target = folder / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        with (target / "messages.mo").open("wb") as f:
            write_mo(f, catalog_of(language))
    return folder


@pytest.fixture
def app(fresh_store, compiled):
    return create_app({"TESTING": True, "DATABASE": str(fresh_store),
                       "BABEL_TRANSLATION_DIRECTORIES": str(compiled)})


class PageText(HTMLParser):
    """What a person reads or hears on a page: text and the attributes that
    are shown or spoken, one segment each."""

    SPOKEN = ("aria-label", "title", "placeholder", "alt", "data-failed")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.segments: list[str] = []
        self.hrefs: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self.skip += 1
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])
        self.segments += [attrs[name] for name in self.SPOKEN if attrs.get(name)]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.segments.append(data)


def read_page(html: str) -> PageText:
    parser = PageText()
    parser.feed(html)
    return parser


PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrs%]")


class Wording:
    """A wording's regular expression, and a word of it that any match holds:
    most wordings are on no given page, and looking for that word first is
    far quicker than the expression, which tries every start of the text."""

    def __init__(self, pattern: re.Pattern, needle: str):
        self.pattern, self.needle = pattern, needle

    def search(self, text: str) -> re.Match | None:
        return self.pattern.search(text) if self.needle in text else None


def pattern_of(text: str, python_format: bool) -> Wording | None:
    """A regular expression finding `text` in a page, its placeholders filled
    with anything; None when its words are too few to tell (no letter)."""
    parts = PLACEHOLDER.split(text) if python_format else [text]
    if not any(re.search(r"[^\W\d_]", part) for part in parts):
        return None
    literal = [r"\s+".join(re.escape(w) for w in part.split(" ")) for part in parts]
    body = ".+?".join(literal)
    # A leading or trailing placeholder only asks for a character there: the
    # same match as ".+?", without trying every start of a long text (that
    # made this check quadratic in the pages' and catalogs' length).
    if len(parts) > 1 and parts[0] == "":
        body = "(?<=.)" + body[len(".+?"):]
    if len(parts) > 1 and parts[-1] == "":
        body = body[: -len(".+?")] + "(?=.)"
    start = r"(?<!\w)" if re.match(r"\w", text) else ""
    end = r"(?!\w)" if re.search(r"\w$", text) else ""
    needle = max((w for part in parts for w in part.split(" ")), key=len)
    return Wording(re.compile(start + body + end), needle)


# Texts searched as one: no match crosses this (".+?" stops at a line's end,
# "\s+" at the NUL), and each text's ends look to the patterns as they would alone.
APART = "\n\0\n"


@pytest.fixture(scope="module")
def foreign_words(catalogs):
    return foreign_wordings(catalogs)


def foreign_wordings(catalogs: dict[str, Catalog]) -> dict[str, dict[str, Wording]]:
    """For each language, the patterns of the other languages' wordings (the
    English msgid included) that must not be left on its pages. A wording that
    also reads inside one of the language's own translations (a short word, a
    game word) cannot tell, and is left out."""
    def texts(value) -> set[str]:  # a plural entry has several
        return set(value) if isinstance(value, (list, tuple)) else {value}

    forbidden = {}
    for language in LANGUAGES:
        own = catalogs[language]
        own_texts = set().union(*(texts(m.string) for m in own if m.id))
        own_all = APART.join(own_texts)
        patterns = {}
        for message in own:
            if not message.id:
                continue
            wordings = texts(message.id).union(*(
                texts(catalogs[other][message.id].string) for other in LANGUAGES
                if other != language))
            for wording in wordings - own_texts:
                pattern = pattern_of(wording, message.python_format)
                if pattern and not pattern.search(own_all):
                    patterns[wording] = pattern
        forbidden[language] = patterns
    return forbidden


def seed(client, api) -> dict[str, str]:
    """Games in the states the pages show: fresh, mid-deal with a chain and
    ranks to settle, over; and a table preset, when the settings exist."""
    fresh = api.new_game(sides=["Ali", "Karim"])["id"]
    busy = api.new_game(sides=["Ali", "Karim"])["id"]
    api.event(busy, type="announce", announcements=[{"side": 0, "kind": "ronda"},
                                                      {"side": 1, "kind": "ronda"}])
    api.event(busy, type="hit", side=0, value=1)
    api.event(busy, type="missa", side=1)
    over = api.new_game(sides=["Ali", "Karim"])["id"]
    api.event(over, type="adjust", side=1, points=41)
    api.event(over, type="missa", side=1)
    if "settings.new_preset" in client.application.view_functions:
        html = client.get("/settings/presets/new").get_data(as_text=True)
        form = next(f for f in forms_of(html) if f.method == "post")
        # A name of no language: it shows on every page that lists the presets.
        assert submit(client, form, extra={"name": "Zaytoun 7"}).status_code == 303
    seeded = {"fresh": fresh, "busy": busy, "over": over}
    if "nights.new" in client.application.view_functions:
        # A club night with a round robin of three, its first round open.
        html = client.get("/nights/new").get_data(as_text=True)
        form = next(f for f in forms_of(html) if f.method == "post")
        response = submit(client, form, extra={"name": "Zaytoun", "e0a": "Ali", "e1a": "Karim",
                                                "e2a": "Omar"})
        seeded["night"] = response.headers["Location"].rsplit("/", 1)[1]
        html = client.get(f"/nights/{seeded['night']}/round").get_data(as_text=True)
        submit(client, next(f for f in forms_of(html) if f.method == "post"))
        # A knockout of three (a bye, a match to start) and a Swiss evening of
        # three (its first round open, a bye, a late entrant, a withdrawal).
        for kind in ("knockout", "swiss"):
            response = submit(client, form, extra={"name": "Zaytoun", "format": kind,
                                                    "more": "Ali\nKarim\nOmar"})
            seeded[kind] = response.headers["Location"].rsplit("/", 1)[1]
        html = client.get(f"/nights/{seeded['swiss']}/round").get_data(as_text=True)
        submit(client, next(f for f in forms_of(html) if f.method == "post"))
        html = client.get(f"/nights/{seeded['swiss']}").get_data(as_text=True)
        for action in ("/entrants", "/entrants/0/withdraw"):
            submit(client, next(f for f in forms_of(html) if f.action.endswith(action)),
                   extra={"first": "Nadia"})
    return seeded


def page_key(app, url: str):
    """Pages that differ only by a count or a draft show the same words."""
    parts = urlsplit(url)
    endpoint, _ = app.url_map.bind("localhost").match(parts.path, "GET")
    query = dict(parse_qsl(parts.query))
    return endpoint, query.get("sheet"), tuple(sorted(k for k in query if k != "sheet"))


def crawl(app, client, start: list[str], limit: int = 80) -> dict:
    """Every address reachable by a link from `start` (one of each kind), with
    its endpoint and whether it is a page (not a download)."""
    seen, queue, pages = set(), list(start), {}
    while queue and len(pages) < limit:
        url = queue.pop(0)
        first = url in start  # each start is a page of its own (fresh, busy, over...)
        parts = urlsplit(url)
        if parts.netloc or not parts.path.startswith("/") or \
                parts.path.startswith(("/static/", "/api/")):
            continue
        query = [(k, v) for k, v in parse_qsl(parts.query) if k != "lang"]
        url = parts.path + ("?" + urlencode(query) if query else "")
        try:
            key = page_key(app, url) + ((url,) if first else ())
        except Exception:  # a link to no route: the page test below fetches it
            key = ("?", url)
        if key in seen:
            continue
        seen.add(key)
        response = client.get(url)
        page = response.mimetype == "text/html"
        pages[url] = (key[0], page)
        if response.status_code == 200 and page:
            queue += read_page(response.get_data(as_text=True)).hrefs
    return pages


def _a_merge_page(client) -> str:
    """The confirmation of a merge the rules allow (two people who never
    shared a game): one the rules refuse is said at once, with no page."""
    for source, target in permutations(range(1, 13), 2):
        url = f"/players/{source}/merge?into={target}"
        if client.get(url).status_code == 200:
            return url
    raise AssertionError("no two players of the seed may be merged")


@pytest.fixture
def site(app, client, api):
    games = seed(client, api)
    start = [rule.rule for rule in app.url_map.iter_rules()
             if "GET" in rule.methods and not rule.arguments
             and not rule.rule.startswith(("/static", "/api"))]
    start += [f"/games/{games[name]}" for name in ("fresh", "busy", "over")]
    start += [f"/games/{games['busy']}?sheet={s}" for s in ("end", "ranks", "more")]
    start += [f"/games/{games['fresh']}?a=0-ronda"]
    # Linked from a result once its win is no longer right after the winning tap.
    start += [f"/games/{games['over']}/reopen"]
    if "night" in games:  # reached by GET forms and the screen's script, not by links
        start += [f"/nights/{games['night']}/screen.json", _a_merge_page(client)]
    for kind in ("knockout", "swiss"):  # a night's page and screen of each kind
        if kind in games:
            start += [f"/nights/{games[kind]}", f"/nights/{games[kind]}/screen"]
    if "swiss" in games:  # its second round, the first one still played
        start.append(f"/nights/{games['swiss']}/round")
    return crawl(app, client, start)


def test_the_pages_reach_every_route_that_answers_get(app, site):
    routes = {rule.endpoint for rule in app.url_map.iter_rules()
              if "GET" in rule.methods and rule.endpoint != "static"
              # The engine's files for the board's own count: a script and JSON, no words.
              and not rule.rule.startswith(("/api", "/phone/"))}
    assert routes - {endpoint for endpoint, _ in site.values()} == set(), \
        "pages the language test does not reach: seed() should make them reachable"


def check_page(html: str, language: str, foreign_words, where: str) -> None:
    direction = "rtl" if language in RIGHT_TO_LEFT else "ltr"
    assert f'<html lang="{language}" dir="{direction}">' in html, where
    text = "\n".join(" ".join(s.split()) for s in read_page(html).segments)
    left = sorted(w for w, p in foreign_words[language].items() if p.search(text))
    assert not left, f"{where} in {language}: words of another language: {left}"
    if language == "ar":
        assert not ARABIC_INDIC_DIGITS.search(text), "digits stay Western (0-9)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_answers_in_each_language(app, site, language, foreign_words):
    client = app.test_client()
    client.set_cookie("lang", language)
    pages = [url for url, (_, page) in site.items() if page]
    assert len(pages) >= 10
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        check_page(response.get_data(as_text=True), language, foreign_words, url)


@pytest.mark.parametrize("language", LANGUAGES)
def test_error_and_access_key_pages_answer_in_each_language(app, language, foreign_words):
    client = app.test_client()
    client.set_cookie("lang", language)
    response = client.get("/games/nope")
    assert response.status_code == 404
    check_page(response.get_data(as_text=True), language, foreign_words, "404")
    stranger = app.test_client()
    stranger.set_cookie("lang", language)
    for path in ("/", "/?key=wrong"):
        response = stranger.get(path, environ_base={"REMOTE_ADDR": "192.0.2.7"})
        assert response.status_code == 403
        check_page(response.get_data(as_text=True), language, foreign_words, path)


# The API, the cookie, the browser's languages -------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_the_apis_error_sentences_follow_accept_language(client, catalogs, language):
    header = {"fr": "fr-FR,fr;q=0.9", "ar": "ar-MA,ar;q=0.9", "en": "en-GB,en;q=0.8"}[language]
    response = client.get("/api/games/nope", headers={"Accept-Language": header})
    assert response.status_code == 404
    assert response.get_json() == {"error": catalogs[language]["No game has this id."].string}
    response = client.post("/api/games", json={"sides": ["A", "B"], "players": 7},
                           headers={"Accept-Language": header})
    assert response.status_code == 400
    expected = catalogs[language]["players must be 2, 3 or 4."].string
    assert response.get_json() == {"error": expected}
    if language != "en":
        assert expected != "players must be 2, 3 or 4."


@pytest.mark.parametrize("header, language", [
    ("ar-MA,ar;q=0.9,fr;q=0.8", "ar"),
    ("en-US,en;q=0.9", "en"),
    ("fr-MA", "fr"),
    ("es-ES,en;q=0.5", "en"),  # Spanish is not offered: the next choice
    ("de-DE", "fr"),  # nothing offered: French
    ("", "fr"),
])
def test_accept_language_picks_the_language(client, header, language):
    html = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    direction = "rtl" if language == "ar" else "ltr"
    assert f'<html lang="{language}" dir="{direction}">' in html


def test_lang_in_the_address_answers_in_it_and_is_kept_in_a_cookie(client):
    response = client.get("/games/new?lang=ar", headers={"Accept-Language": "en"})
    assert '<html lang="ar" dir="rtl">' in response.get_data(as_text=True)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=ar;")
    assert f"Max-Age={COOKIE_AGE}" in cookie and COOKIE_AGE == 365 * 24 * 3600
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    # The next pages, without ?lang=, stay in Arabic whatever the browser says.
    html = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="ar" dir="rtl">' in html
    # ?lang= beats the cookie, and changes it.
    response = client.get("/?lang=en")
    assert '<html lang="en" dir="ltr">' in response.get_data(as_text=True)
    assert response.headers["Set-Cookie"].startswith("lang=en;")


def test_an_unknown_lang_is_ignored(client):
    response = client.get("/?lang=xx", headers={"Accept-Language": "en"})
    assert '<html lang="en" dir="ltr">' in response.get_data(as_text=True)
    assert "Set-Cookie" not in response.headers or "lang=" not in response.headers["Set-Cookie"]


def test_pages_say_their_words_depend_on_the_language(client):
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_the_switcher_links_to_this_very_page_in_each_language(client, api):
    game = api.new_game(sides=["Ali", "Karim"])["id"]
    client.set_cookie("lang", "fr")
    home = read_page(client.get("/").get_data(as_text=True))
    assert {"/?lang=fr", "/?lang=ar", "/?lang=en"} <= set(home.hrefs)
    # The board hides the top bar: its switcher is in the "More" sheet, and keeps the sheet.
    html = client.get(f"/games/{game}?sheet=more").get_data(as_text=True)
    for language, name in (("fr", "Français"), ("ar", "العربية"), ("en", "English")):
        assert (f'<a href="/games/{game}?sheet=more&amp;lang={language}" lang="{language}" '
                f'hreflang="{language}"') in html
        assert f">{name}</a>" in html
    assert 'lang="fr" hreflang="fr" aria-current="true"' in html
    # Without JavaScript, the link itself switches.
    html = client.get(f"/games/{game}?sheet=more&lang=ar").get_data(as_text=True)
    assert '<html lang="ar" dir="rtl">' in html and "المزيد" in html


@pytest.mark.parametrize("language, errors", [
    ("fr", ["Nommez cette équipe, ou ses deux partenaires.",
            "Un nom fait au plus 40 caractères."]),
    ("ar", ["سمّوا هذا الفريق، أو شريكيه كليهما.", "الاسم من 40 حرفًا على الأكثر."]),
    ("en", ["Name this team, or both its partners.", "A name takes at most 40 characters."]),
])
def test_form_errors_are_in_the_scorers_language(app, language, errors, foreign_words):
    client = app.test_client()
    client.set_cookie("lang", language)
    form = forms_of(client.get("/games/new").get_data(as_text=True))[0]
    response = submit(client, form, extra={"name0": "", "p0a": "Karim", "name1": "x" * 41,
                                           "players": "4"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert re.findall(r'class="field-error"[^>]*>([^<]*)<', html) == errors
    check_page(html, language, foreign_words, "the new game form's errors")


def test_the_default_side_names_are_written_once_for_every_language(app, catalogs):
    """engine/names.py is the one place the default names are written, in
    every language of the app (the service reads no catalog): the pages say
    them from there, and no catalog holds a second copy."""
    from flask_babel import force_locale

    from scorekeeper.engine.names import DEFAULT_NAMES, DEFAULT_SIDE_NAMES
    from scorekeeper.web.wording.elision import default_name, default_names

    assert set(DEFAULT_NAMES) == set(LANGUAGES)
    with app.test_request_context():
        for language in LANGUAGES:
            with force_locale(language):
                assert default_names() == DEFAULT_NAMES[language]
            # Each is known for what it is (Us, Them, You), in any language.
            assert [default_name(name) for name in DEFAULT_NAMES[language]] == [0, 1, 2]
    for language in LANGUAGES:
        copies = [name for name in DEFAULT_NAMES["en"]
                  if name in catalogs[language] and not catalogs[language][name].fuzzy]
        assert not copies, (language, copies)
    assert len(DEFAULT_SIDE_NAMES) == 3 * len(LANGUAGES)


def test_the_built_in_preset_names_are_written_once_for_every_language(app, catalogs):
    """engine/houserules.py is the one place the built-in presets' names are
    written in every language: the service refuses them as a table preset's name, and
    the pages call the presets by them (web/wording/rule_texts.py)."""
    from flask_babel import force_locale

    from scorekeeper.engine.houserules import PRESET_NAMES
    from scorekeeper.service.presets import BUILT_IN_NAMES
    from scorekeeper.web.wording.rule_texts import preset_name

    assert {key: set(names) for key, names in PRESET_NAMES.items()} == {
        "appli": set(LANGUAGES), "classique": set(LANGUAGES)}
    with app.test_request_context():
        for language in LANGUAGES:
            with force_locale(language):
                assert [preset_name(key) for key in PRESET_NAMES] == [
                    PRESET_NAMES[key][language] for key in PRESET_NAMES]
                assert preset_name("Maison") == "Maison"
    assert set(BUILT_IN_NAMES) == {name for names in PRESET_NAMES.values()
                                   for name in names.values()}
    for language in LANGUAGES:
        assert "classic" not in catalogs[language] and "app" not in catalogs[language]


def test_default_side_names_are_in_the_scorers_language(client):
    for language, names in (("fr", ("Nous", "Eux")), ("ar", ("نحن", "هم")), ("en", ("Us", "Them"))):
        html = client.get(f"/games/new?lang={language}").get_data(as_text=True)
        assert f'value="{names[0]}"' in html and f'value="{names[1]}"' in html


def test_the_hit_buttons_use_the_chains_calls(client, api):
    game = api.new_game(sides=["Ali", "Karim"])["id"]
    api.event(game, type="hit", side=1, value=1)
    for language, calls in (("fr", ("Bount", "Khamsa", "Âachra")),
                            ("ar", ("بونت", "خمسة", "عشرة"))):
        html = client.get(f"/games/{game}?lang={language}").get_data(as_text=True)
        label = {"fr": "5 Khamsa pour Ali", "ar": "5 خمسة لـAli"}[language]
        assert f'aria-label="{label}"' in html
        for call in calls:
            assert f'<small class="call">{call}</small>' in html
        undo = {"fr": "Annuler : Bount (1) · <bdi>\u2068Karim\u2069</bdi>",
                "ar": "تراجع: بونت (1) · <bdi>\u2068Karim\u2069</bdi>"}[language]
        assert undo in html


def test_signed_numbers_are_isolated_for_right_to_left(client, api):
    game = api.new_game(sides=["علي", "Karim"])["id"]
    api.event(game, type="missa", side=0)
    html = client.get(f"/games/{game}?lang=ar").get_data(as_text=True)
    assert '<span class="pair"><bdi>علي</bdi> <bdi dir="ltr">+1</bdi></span>' in html
    assert '<bdi dir="ltr">1</bdi> – <bdi dir="ltr">0</bdi>' in html


def test_the_reviews_score_at_each_hands_end_runs_left_to_right(client, api):
    """Seen in Arabic: a side at -2 in the table of each hand's end read "2-"."""
    game = api.new_game(sides=["علي", "Karim"])["id"]
    api.event(game, type="adjust", side=1, points=-2)
    html = client.get(f"/games/{game}/review?lang=ar").get_data(as_text=True)
    assert '<td><bdi dir="ltr">0</bdi></td><td><bdi dir="ltr">\u22122</bdi></td>' in html
