"""The scoreboard: start a game, keep its score one tap at a time, see the result.

Every action is a CSRF-protected form POST answered by a redirect; a
request from the page's script (header X-Board) gets the updated board
instead, to swap in place.
"""

import re
from collections import Counter
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.datastructures import MultiDict
from wtforms.fields.choices import SelectChoice

from ... import engine
from ...engine import RANKS, stale
from ...engine.errors import N_, InvalidInput, RuleViolation, ScoringError
from ...engine.limits import DECK, NAME_LENGTH
from ...service import (
    games,
    nights,
    players,
    presets,
    reopening,
    scoreboard,
    side_names,
    tournaments,
)
from ...service.clock import utc_now
from ...service.history import NoSuchPage
from ..pages import board, resume
from ..pages.forms import (
    NewGameRulesForm,
    PlayForm,
    UndoForm,
    fill_rules,
    one_time_token,
    rule_field_list,
    rule_values,
)
from ..plumbing.db import get_db
from ..plumbing.errors import status_of
from ..wording import rule_texts
from ..wording.describe import isolated, rank_name, sentence_of
from ..wording.elision import default_name, default_names
from ..wording.translate import gettext
from .shared import (
    INCOMPLETE_FORM,
    POINTS_WORDS,
    in_page_words,
    load_game_or_404,
    no_such_page,
    review_context,
)

bp = Blueprint("games", __name__)

SAFE_BACK = re.compile(r"\?[\w=&.\-%]*")
# A count in the query. Not str.isdigit: "²" is a digit that int() refuses,
# and 5,000 digits are past int()'s limit.
CARD_COUNT = re.compile(r"-?\d{1,4}")
_INDEX = re.compile(r"\d")
_HAND = re.compile(r"[1-9]\d{0,5}")
_DEAL = re.compile(r"(\d{1,6})\.(\d{1,3})")
RANK_VALUES = {str(rank) for rank in RANKS}
COUNTED_OTHERWISE = N_("Counted otherwise on another phone (%(what)s cards): not counted. Check "
                       "the score.")
HAND_COUNTED = N_("Hand %(hand)s is already counted: nothing counted again. Check the score.")


def _wants_board() -> bool:
    return request.headers.get("X-Board") == "1"




def _cards_from_query(args: MultiDict, setup) -> list[int | None] | None:
    """The end-of-hand sheet's counts so far, one per side but the last
    (None until typed: the sheet starts empty)."""
    if args.get("sheet") != "end":
        return None
    counts = []
    for side in range(setup.side_count - 1):
        value = args.get(f"cards{side}", "")
        # As typed, 45 too: the sheet says why it cannot be (not a count of 40).
        counts.append(int(value) if CARD_COUNT.fullmatch(value) else None)
    return counts


def _ranks_from_query(args: MultiDict) -> dict[int, int]:
    """The ranks picked on a refused ranks sheet (`rank<side>` in the query),
    shown picked again: a mis-tap is one rank to change, not all to pick anew."""
    picked = {}
    for key, value in args.items():
        if key.startswith("rank") and _INDEX.fullmatch(key[4:]) and value in RANK_VALUES:
            picked[int(key[4:])] = int(value)
    return picked


def _counted_otherwise(error: ScoringError, setup) -> ScoringError:
    """A count refused because another phone counted that hand otherwise, in
    words that say which count stands: "tap again if needed" sent scorers to
    End of hand, which counted the next hand."""
    kept = getattr(error, "kept", None)
    if getattr(error, "reason", None) != stale.SAME_KIND or not kept \
            or kept.get("type") != "end_hand":
        return error
    try:
        counts = engine.parse_event(kept, setup).counts()
    except ScoringError:  # a stored count this setup cannot read: the general words
        return error
    # The counts alone, in the sides' order, left to right in every language:
    # with the sides' names the sentence outgrew the notice's lines.
    return RuleViolation(COUNTED_OTHERWISE,
                         what="\u2066" + " – ".join(str(count) for count in counts) + "\u2069")


def _with_draft(back: str, draft: list) -> str:
    """`back` (a board query) with `draft` marked instead of its own."""
    kept = [(k, v) for k, v in parse_qsl(_safe(back)) if k != "a"]
    return urlencode(kept + [("a", f"{a.side}-{a.kind}") for a in draft])


def _with_picks(back: str, event: dict) -> str:
    """`back` (a board query) with the ranks of a refused reveal picked."""
    kept = [(k, v) for k, v in parse_qsl(_safe(back)) if not k.startswith("rank")]
    picks = [(f"rank{side}", str(rank)) for side, rank in enumerate(event.get("ranks") or [])
             if rank is not None]
    return urlencode(kept + picks)


def shown_or_404(game_id: str) -> scoreboard.Shown:
    """What the service shows of the game on its board, or a 404."""
    try:
        return scoreboard.shown(get_db(), game_id)
    except games.GameNotFound:
        abort(404)


def render_board(
    shown: scoreboard.Shown, args: MultiDict | None = None, error: str | None = None,
    status: int = 200, template: str | None = None, **context,
):
    """The board page, or only the board for the page's script. `args` are the
    board's own query (draft announcements, open sheet, `why` a link is off);
    `template` and `context`, another page around the board (the result and
    the review)."""
    game = shown.game
    args = request.args if args is None else args
    # A board the script draws keeps a count's sheet open, also of a hand
    # another phone has counted meanwhile (the board followed it, the count
    # typed or stepped reached the server after it): closed under the
    # finger, it left the Undo of that count where Confirm was, and the next
    # tap took it back. Its Confirm is then refused (the count's hand is
    # over) and that answer closes it. A whole page (a reload, Back) opens
    # no sheet of a hand now over.
    following = request.headers.get("X-Board-Follows") == "1"
    # Announcements marked on a deal the other phone has since closed are of
    # no deal now: kept, their Confirm recorded them in the next deal.
    gone = following and args.getlist("a") and _deal_gone(
        request.headers.get("X-Board-Deal", ""), game.state)
    if following and not gone and args.getlist("a") and game.state.announced and \
            _marks_recorded(shown, board.parse_draft(args.getlist("a"), game.setup)):
        # The same marks, confirmed on the other phone: done here too, not a
        # draft whose Confirm is off and that holds Next deal back.
        gone = gettext(stale.SENTENCES[stale.ALREADY])
    if gone:
        args = MultiDict([(key, value) for key, value in args.items(multi=True) if key != "a"])
        error = error or gone
    if not _wants_board():
        asked = args
        args = _of_this_hand(args, game.state.hand)
        if args is not asked and not error and not _refused():
            error = _why_no_sheet(asked, game.state.hand)
    draft = board.parse_draft(args.getlist("a"), game.setup)
    why = args.get("why", "")[:40] or None
    drawn = board.scoreboard_of(shown, draft, gettext, _cards_from_query(args, game.setup), why,
                             utc_now())
    count_hand = _hand_of(args) or game.state.hand
    if drawn.end_preview is not None and count_hand != game.state.hand:
        # Nothing predicted of the hand now played from a count of another.
        drawn.end_preview = replace(drawn.end_preview, points=None, scores=None, parts=(),
                                    reason=_why_no_sheet(args, game.state.hand), hand_over=True)
    if error:
        drawn.notice = error
    if template is None:
        template = "games/_board.html" if _wants_board() else "games/board.html"
    html = render_template(
        template,
        board=drawn,
        sheet=args.get("sheet"),
        ask_early=args.get("ask") == "early",
        count_hand=count_hand,
        picked_ranks=_ranks_from_query(args),
        play_form=PlayForm(formdata=None, token=one_time_token(), expected_version=game.version),
        undo_form=UndoForm(formdata=None, token=one_time_token(),
                           expected_version=game.version),
        rematch_form=PlayForm(formdata=None, token=one_time_token()),
        # Where a refused tap comes back to: this board's query (a draft, a sheet).
        back=urlencode([(k, v) for k, v in args.items(multi=True) if k not in ("why", "ask")])[:300],
        # Once over, a club night's table leads back to its night (no query before that).
        night=shown.night,
        friendly_rematch=shown.friendly_rematch,
        match=shown.match,  # a knockout's or a Swiss night's: said on the board
        # Once over, Undo takes the win back with one tap only on the page
        # drawn right after it (not one opened later from the history), and
        # not on a board that says its own tap was refused or that follows
        # another phone: the win was that phone's (the same Missa on both),
        # and this phone's next tap where its button was reopened the game.
        undo_at_once=not (error or _refused() or following)
        and reopening.undo_at_once(
            get_db(), game, game.version, utc_now(), within=reopening.SHOWN_AT_ONCE),
        **context,
    )
    response = Response(html, status=status, headers={"Cache-Control": "no-store"})
    if gone:  # its address without them, too
        response.headers["X-Board-URL"] = _url(game.id, urlencode(list(args.items(multi=True))))
    return response


def _marks_recorded(shown: scoreboard.Shown, draft: list) -> bool:
    """Whether every announcement marked on this board is among this deal's
    confirmed ones (their Confirm, among the last events)."""
    state = shown.game.state
    for step in shown.recent:
        if (step.hand, step.deal) != (state.hand, state.deal):
            return False
        if isinstance(step.event, engine.Announce):
            recorded = Counter((a.side, a.kind) for a in step.event.announcements)
            marked = Counter((a.side, a.kind) for a in draft)
            return bool(marked) and not marked - recorded
    return False


def _deal_gone(seen: str, state) -> str | None:
    """Why announcements marked on the board of deal `seen` ("hand.deal")
    are no longer of the deal played; None when they still are (or unsaid)."""
    found = _DEAL.fullmatch(seen)
    if found is None:
        return None
    shown, now = (int(found[1]), int(found[2])), (state.hand, state.deal)
    if shown == now:
        return None
    return gettext(stale.SENTENCES[stale.DEAL_MOVED if shown < now else stale.UNDONE])


@bp.get("/games/<game_id>")
def show(game_id: str):
    shown = shown_or_404(game_id)
    if shown.game.state.finished and not _wants_board():
        return render_finished(shown)  # once over: the result, then the review
    return render_board(shown)


def render_finished(shown: scoreboard.Shown):
    """A game that is over: its result (the board's), then its review."""
    try:
        context = review_context(shown.game)
    except NoSuchPage as error:
        return no_such_page(error.pages)
    # A page of its own (the review below): its forms lead to other pages,
    # so a reopened game's board is the board's page, not this one's.
    return render_board(shown, MultiDict(), template="history/finished.html",
                        pages_of="games.show", whole_page=True, **context)


def _show(game_id: str, query: str):
    """The board with its own query (an open sheet): the board itself for the
    page's script, with its address; else a redirect to it."""
    url = _url(game_id, query)
    if _wants_board():
        response = render_board(shown_or_404(game_id), MultiDict(parse_qsl(query)))
        response.headers["X-Board-URL"] = url
        return response
    return redirect(url, 303)


def _refused() -> bool:
    """Whether this page follows a refused action (its sentence, flashed)."""
    return any(category == "error" for category, _ in get_flashed_messages(with_categories=True))


def _after_action(game_id: str, error: ScoringError | None = None, back: str = "",
                  stay: str = "", refused: str | None = None):
    """Where an action leads: the updated board for the script, else a redirect.
    A refused action goes back to the board as it was (`back`, its query),
    saying why; a done one closes the draft and the sheet it came from,
    unless it asks to `stay` on its sheet (a query too). `refused`: why a tap
    no longer meant what it meant (engine.stale), when the error's words
    were made the board's own."""
    if error is not None:
        refused = refused or getattr(error, "reason", None)
        sentence = sentence_of(error)
        if _wants_board():
            shown = shown_or_404(game_id)
            args = MultiDict(parse_qsl(_safe(back)))
            drawn = _of_this_hand(args, shown.game.state.hand)
            response = render_board(shown, drawn, error=sentence, status=status_of(error))
            # The board's address is the one it is drawn for: a count of a
            # hand now over, its sheet closed; the other phone's announcements
            # marked with this one's (a follow at the old address dropped them).
            response.headers["X-Board-URL"] = _url(game_id, urlencode(
                list(drawn.items(multi=True))))
            # For the script's outbox: a tap refused because that very tap
            # stands (recorded on another phone) leaves the game as the taps
            # that wait after it expect; the record it stands as is theirs.
            if refused in stale.STANDS:
                stands = getattr(error, "stands", None)
                response.headers["X-Tap-Stands"] = "yes" if stands is None else str(stands)
            return response
        flash(sentence, "error")
        return redirect(_url(game_id, _safe(back)), 303)
    return _show(game_id, _safe(stay))


def _safe(query: str | None) -> str:
    """A board query taken from a form, if it is one (else none)."""
    query = (query or "")[:300]
    return query if SAFE_BACK.fullmatch("?" + query) else ""


def _url(game_id: str, query: str) -> str:
    return url_for("games.show", game_id=game_id) + ("?" + query if query else "")


def _count_query(counts: list, hand: int, ask: bool = False) -> str:
    """The end-of-hand sheet's query with these counts, of this hand."""
    pairs = [("sheet", "end")] + [(f"cards{side}", "" if count is None else str(count))
                                  for side, count in enumerate(counts)]
    return urlencode(pairs + [("hand", str(hand))] + ([("ask", "early")] if ask else []))


def _of_this_hand(args: MultiDict, hand: int) -> MultiDict:
    """The board's query without its count if that count was of a hand now
    over: the address of a count (an early end's question, its Yes armed)
    opened again, by a reload or Back, would count it for the next hand."""
    if args.get("hand", str(hand)) == str(hand):
        return args
    return MultiDict([(key, value) for key, value in args.items(multi=True)
                      if key not in ("hand", "ask") and not key.startswith("cards")
                      and (key, value) != ("sheet", "end")])


def _why_no_sheet(args: MultiDict, hand: int) -> str | None:
    """Why a page opened a count's sheet closed: without a word, a scorer
    whose count (a stepper without the script) came after the other phone's
    opened the sheet again, on the next hand. The address can be this very
    phone's (Back after its count): the words say what is so, not who."""
    counted = _hand_of(args)
    if counted is not None and counted < hand:
        return gettext(HAND_COUNTED, hand=counted)
    return None


def _end_sheet(game_id: str, game: games.Game, move: str, form) -> Response | None:
    """The end-of-hand sheet's own buttons, which record nothing: the
    steppers and the preview (the board's query keeps the typed counts);
    and the count's Confirm when it must ask first. None: record the count."""
    setup = game.setup
    counts = [c if type(c) is int else None for c in board.card_counts(form, setup)]
    # The hand the sheet counts stays its own: stepped after another phone
    # counted it, the sheet became the next hand's, and its Confirm ended that.
    hand = _hand_of(form) or game.state.hand
    name, *args = move.split(".")
    if name == "end_step" and len(args) == 2 and _INDEX.fullmatch(args[0]) \
            and args[1] in ("-1", "1") and int(args[0]) < len(counts):
        side = int(args[0])
        # An empty count steps from the count that is worth nothing (20 of 40 for two sides).
        worth_nothing = setup.rules.card_threshold_for(setup.side_count)
        start = worth_nothing if counts[side] is None else max(0, min(DECK, counts[side]))
        counts[side] = max(0, min(DECK, start + int(args[1])))
        return _show(game_id, _count_query(counts, hand))
    if name in ("end_step", "end_preview"):
        return _show(game_id, _count_query(counts, hand))
    typed = board.card_counts(form, setup)
    missing = [side for side, count in enumerate(typed) if count is None]
    if missing:
        error = InvalidInput(board.MISSING_COUNT, side=isolated(setup.sides[missing[0]]))
        return _after_action(game_id, error, _count_query(counts, hand))
    beyond = board.count_beyond_the_deck(typed, setup)
    if beyond is not None:
        return _after_action(game_id, beyond, _count_query(counts, hand))
    shown = form.get("shown")
    if shown is not None and shown != board.counts_text(typed):
        return _after_action(game_id, InvalidInput(board.COUNT_CHANGED), _count_query(counts, hand))
    # A count of a hand another phone has counted since is judged by the
    # tap's rules (refused), not asked about as an early end of the next
    # hand; nor after a count that ended the game (the result, with nothing
    # said, read as if this one had counted).
    if not game.state.last_deal and form.get("early") != "1" \
            and hand == game.state.hand and not game.state.finished:
        return _show(game_id, _count_query(counts, hand, ask=True))
    return None


def _hand_of(form) -> int | None:
    """The hand a count's sheet showed (its hidden field), None when not said."""
    hand = form.get("hand", "")
    return int(hand) if _HAND.fullmatch(hand) else None


@bp.post("/games/<game_id>/play")
def play(game_id: str):
    game = load_game_or_404(game_id)
    form = PlayForm()
    if not form.validate():
        return _after_action(game_id, InvalidInput(INCOMPLETE_FORM))
    move = form.move.data
    draft = _draft_of(form.back.data, game.setup)
    waits = board.draft_in_the_way(move, draft)
    if waits is not None:
        return _after_action(game_id, InvalidInput(waits), form.back.data or "")
    if move.split(".")[0] in ("end_hand", "end_step", "end_preview"):
        shown = _end_sheet(game_id, game, move, request.form)
        if shown is not None:
            return shown
    event = board.event_for_move(move, request.form, game.setup)
    doubt = board.ranks_in_doubt(game.state, event, rank_name)
    if doubt is not None:
        return _after_action(game_id, doubt, _with_picks(form.back.data or "", event))
    try:
        scoreboard.tap(get_db(), game_id, event, tap_key(form.token.data, move), utc_now(),
                       form.expected_version.data, page_of(form.token.data),
                       form.followed_from.data, _hand_of(request.form),
                       *_waited_after(form))
    except ScoringError as error:
        back = form.back.data or ""
        reason = getattr(error, "reason", None)
        if reason == stale.ANNOUNCED and error.kept:
            back = _with_draft(back, board.marked_with(draft, error.kept, game.setup))
        elif reason in stale.STANDS and move == "announce":
            # The same marks, confirmed on the other phone: they are done
            # here too, not a draft that holds the next deal back.
            back = _with_draft(back, [])
        error = _counted_otherwise(error, game.setup)
        return _after_action(game_id, in_page_words(error, FORM_WORDS, INCOMPLETE_FORM), back,
                             refused=reason)
    # A done tap closes its sheet but keeps the deal's marked announcements
    # (once confirmed, they are no longer a draft).
    kept = "" if move == "announce" else board.draft_query(draft)
    return _after_action(game_id, stay=request.form.get("stay", "") or kept)


def _draft_of(back: str | None, setup) -> list:
    """The announcements marked on the board a form came from (its query)."""
    return board.parse_draft(MultiDict(parse_qsl(_safe(back))).getlist("a"), setup)


# The board's own words for the engine's sentences about an API field (by its name).
FORM_WORDS = {
    **POINTS_WORDS,
    "announcements": N_("Tap the deal's announcements first, then Confirm."),
}


def tap_key(token: str, move: str) -> str:
    """A board tap's Idempotency-Key: its form's one-time token and its move
    (a double tap on one button is one key; another button of the page is
    another)."""
    return f"form:{token}:{move}"


def page_of(token: str) -> str:
    """The beginning of the keys of the taps made from one page: its token,
    also when a waiting tap of the page's script made it its own (the same
    button again while the board could not follow: "<token>.<more>")."""
    return f"form:{token.split('.')[0]}"


def _waited_after(form) -> tuple[tuple[str, ...], frozenset[int]]:
    """A waiting tap's own taps before it: the pages they were made on
    (as page_of), and the records they stood as."""
    return (tuple(page_of(token) for token in (form.after.data or "").split()),
            frozenset(int(seq) for seq in (form.known.data or "").split()))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    game = load_game_or_404(game_id)
    form = UndoForm()
    if not form.validate():
        return _after_action(game_id, InvalidInput(INCOMPLETE_FORM))
    kept = board.draft_query(_draft_of(request.form.get("back"), game.setup))
    if game.state.finished and form.reopen.data != "1" and not reopening.undo_at_once(
            get_db(), game, form.expected_version.data, utc_now()):
        if not _wants_board():
            return redirect(url_for("games.reopen", game_id=game_id), 303)
        return _after_action(game_id, RuleViolation(ASK_BEFORE_REOPENING))
    try:
        scoreboard.undo(get_db(), game_id, tap_key(form.token.data, "undo"), utc_now(),
                        form.expected_version.data, page_of(form.token.data),
                        form.followed_from.data, *_waited_after(form))
    except ScoringError as error:
        return _after_action(game_id, error, kept)
    return _after_action(game_id, stay=kept)


ASK_BEFORE_REOPENING = N_("The game is over: undoing its last point reopens it. Tap Undo again "
                          "to see what that changes.")


@bp.get("/games/<game_id>/reopen")
def reopen(game_id: str):
    """The question before an Undo reopens a finished game: what it takes
    back and what follows (its ratings, its club night's standings)."""
    game = load_game_or_404(game_id)
    asked = reopening.reopening(get_db(), game)
    if asked is None:  # running again (another phone undid it): nothing to ask
        return redirect(url_for("games.show", game_id=game_id), 303)
    form = UndoForm(formdata=None, token=one_time_token(), expected_version=game.version,
                    reopen="1")
    return render_template("games/reopen.html", asked=asked, form=form)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str):
    """The game's rematch (engine.rematch), started once: a second tap, or
    another phone's, leads to the same new game. A page navigation, also
    with the page's script, so the address is the new game's."""
    load_game_or_404(game_id)
    form = PlayForm()
    if not form.validate():
        abort(400)
    game, _ = tournaments.rematch(get_db(), game_id, utc_now())
    return redirect(url_for("games.show", game_id=game.id), 303)


def _last_names(players: int) -> list[str]:
    """The names the form offers for that many players: this phone's last
    game's if it had that count (never another phone's: a newcomer finds the
    default names), its default names said in the scorer's language."""
    names = side_names.names_played(get_db(), resume.wanted(), players)
    defaults = list(default_names())
    # The fields the last game had no name for: a default name beside people's
    # would be nobody ("Nadia, Samir, Us", as a table read it), so left for the scorer.
    people = any(default_name(name) is None for name in names)
    padding = [""] * 3 if people else defaults
    return [name if (index := default_name(name)) is None else defaults[index]
            for name in (names + padding[len(names):])[:3]]


NAME_FIELDS = ("name0", "name1", "name2", "p0a", "p0b", "p1a", "p1b")
PARTNER_FIELDS = (("p0a", "p0b"), ("p1a", "p1b"))


def _picked(args: MultiDict) -> dict[str, str]:
    """A recent player's button (`pick=field:name`, a GET of the form without
    JavaScript) fills that field."""
    field, _, name = args.get("pick", "").partition(":")
    return {field: name[:NAME_LENGTH]} if field in NAME_FIELDS else {}


def _sides_and_partners(form) -> tuple[list[str], list[list[str]] | None]:
    """The sides' labels (side_names: as typed, a team after its partners,
    a side left empty its default name) and, with four players, each side's
    partners."""
    count = int(form.players.data) if form.players.data in ("2", "3", "4") else 2
    sides = 3 if count == 3 else 2
    typed = [form.name0.data, form.name1.data, form.name2.data][:sides]
    offered = [form.given0.data, form.given1.data, ""][:sides]
    partners = [[form[f].data or "" for f in fields] for fields in PARTNER_FIELDS] \
        if count == 4 else None
    labels = side_names.side_names(typed, offered, partners, list(default_names())[:sides])
    seated = None if partners is None else [[p.strip() for p in names if p.strip()]
                                            for names in partners]
    return labels, seated


# An identical Start while that game runs (games.same_start): said on its board.
ALREADY_STARTED = N_("This game had already started: here it is again, no second game was made.")
NO_THIRD_DEALER = N_("With two sides, one of the two deals first: pick the first or the second.")
# What the form's reloads (another preset, a recent player's button: GETs of
# the whole form) keep in the address: what was typed. Not its tokens, which
# an address would leave in the history, nor the rules, the preset's again.
# The names the page offered (given0, given1) too: a team's name typed over
# them stays the team's after a reload, as on the page before it.
KEPT_ON_RELOAD = ("players", *NAME_FIELDS, "given0", "given1", "first_dealer", "preset", "night",
                  "pick", "lang")


def _clean_reload():
    """The same form at an address without the rest, if it had more."""
    if all(name in KEPT_ON_RELOAD for name in request.args):
        return None
    kept = [(k, v) for k, v in request.args.items(multi=True) if k in KEPT_ON_RELOAD]
    return redirect(url_for("games.new") + ("?" + urlencode(kept) if kept else ""), 303)


@bp.route("/games/new", methods=["GET", "POST"])
def new():
    """Sides, players, first dealer and the rules: a preset, which the scorer
    may change for this game only. Choosing another preset reloads the form
    (a GET that keeps what was typed)."""
    if request.method == "GET" and (clean := _clean_reload()) is not None:
        return clean
    offers = None
    db = get_db()
    available = presets.all_presets(db)
    form = NewGameRulesForm(formdata=request.form if request.method == "POST" else None)
    form.preset.choices = [SelectChoice(name, rule_texts.preset_name(name)) for name in available]
    # A table of a club night: the night's rules unless another preset is chosen.
    night = nights.get(db, request.values.get("night", ""))
    chosen = request.values.get("preset")
    if chosen not in available:
        chosen = night.preset if night and night.preset in available else presets.default_preset(db)
    if request.method == "GET":
        offers = _fill_new_game(form, night, chosen, available[chosen])
    elif form.validate():
        started = _start_game(db, form, night, available)
        if started is not None:
            return started
    status = 400 if form.errors or form.form_errors else 200
    return render_template(
        "games/new.html", form=form, fields=rule_field_list(form),
        # The first-dealer choice says what the sides will be called (the
        # page's script follows the fields as they change).
        dealer_names=_sides_and_partners(form)[0] + [""], defaults=list(default_names()),
        summary=rule_texts.summary(available[chosen]), recent=players.recent(db), night=night,
        offers=offers, running=_own_running(db),
    ), status


def _fill_new_game(form, night: nights.Night | None, chosen: str, rules) -> dict[str, list[str]]:
    """The new game's form as a GET shows it: what the address kept, else this
    phone's last names, the preset `chosen` and its `rules`. Returns each
    count's names, for the page's script while the scorer picks the count."""
    count = request.args.get("players", str(night.players) if night else "2")
    offers = {str(n): _last_names(n) for n in (2, 3, 4)}
    names = offers.get(count) or offers["2"]
    args = MultiDict(request.args)
    for field, name in _picked(request.args).items():
        args.setlist(field, [name])
    for index, field in enumerate((form.name0, form.name1, form.name2)):
        field.data = args.get(field.name, names[index])[:NAME_LENGTH]
    for name in NAME_FIELDS[3:]:
        form[name].data = args.get(name, "")[:NAME_LENGTH]
    form.given0.data = args.get("given0", form.name0.data)[:NAME_LENGTH]
    form.given1.data = args.get("given1", form.name1.data)[:NAME_LENGTH]
    form.players.data = count
    form.first_dealer.data = request.args.get("first_dealer", "0")
    form.preset.data = chosen
    fill_rules(form, rules)
    form.token.data = one_time_token()
    return offers


def _start_game(db, form, night: nights.Night | None, available: dict):
    """Starts the game the valid form asks for (a table of `night` if there is
    one): the redirect to its board, or to the same game's if that Start was
    already taken; None when refused, the form then saying why."""
    sides, partners = _sides_and_partners(form)
    first_dealer = int(form.first_dealer.data)
    body = {
        "sides": sides,
        "players": int(form.players.data),
        "rules": {"preset": form.preset.data, **rule_values(form)},
        "first_dealer": first_dealer,
    }
    if partners is not None:
        body["partners"] = partners
    again = games.same_start(db, body, resume.wanted(), utc_now(), available)
    if again is not None:
        flash(gettext(ALREADY_STARTED), "info")
        return redirect(url_for("games.show", game_id=again.id), 303)
    try:
        if first_dealer >= len(sides):  # the third side, picked before choosing 2 or 4 players
            form.first_dealer.errors = [gettext(NO_THIRD_DEALER)]
            raise InvalidInput(NO_THIRD_DEALER)
        if night is not None:
            game = nights.start_table(db, night, body, f"new:{form.token.data}", utc_now(),
                                      available)
        else:
            game, _ = games.create(db, body, f"new:{form.token.data}", utc_now(), available)
    except ScoringError as error:
        if not form.first_dealer.errors:
            form.form_errors.append(sentence_of(error))
        return None
    return redirect(url_for("games.show", game_id=game.id), 303)


def _own_running(db) -> games.Game | None:
    """This device's last game while it runs: the form says so at its top,
    with the way back to it (not another device's game)."""
    wanted = resume.wanted()
    game = games.running(db, wanted) if wanted else None
    return game if game is not None and game.id == wanted else None
