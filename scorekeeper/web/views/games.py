"""The scoreboard: start a game, keep its score one tap at a time, see the result.

Every action is a CSRF-protected form POST answered by a redirect; a
request from the page's script (header X-Board) gets the updated board
instead, to swap in place.
"""

import hashlib
import re
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
    session,
    url_for,
)
from werkzeug.datastructures import MultiDict
from wtforms.fields.choices import SelectChoice

from ... import engine
from ...engine import RANKS, merge
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
from ..guard import access
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
from ..wording.describe import event_text, isolated, rank_name, sentence_of
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
    if getattr(error, "reason", None) != merge.COUNTED_OTHERWISE or not kept:
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
    status: int = 200, template: str | None = None, said: str | None = None, **context,
):
    """The board page, or only the board for the page's script. `args` are the
    board's own query (draft announcements, open sheet, `why` a link is off);
    `error`, a refusal to say; `said`, a sentence that is no refusal (the tap
    counted once, or placed); `template` and `context`, another page around
    the board (the result and the review)."""
    game = shown.game
    args = request.args if args is None else args
    if not _wants_board():
        asked = args
        args = _of_this_hand(args, game.state.hand)
        if args is not asked and not error and not _refused():
            error = _why_no_sheet(asked, game.state.hand)
    drawn = _drawn(shown, args)
    if error or said:
        drawn.notice, drawn.notice_info = error or said, not error
    error = error or said
    if template is None:
        template = "games/_board.html" if _wants_board() else "games/board.html"
    html = render_template(template, board=drawn, **_board_forms(game), **_board_context(
        shown, args, error), **context)
    return Response(html, status=status, headers={"Cache-Control": "no-store"})


def _drawn(shown: scoreboard.Shown, args: MultiDict):
    """The board's data for its query: the draft, the count's sheet (nothing
    predicted of the hand now played from a count of another)."""
    game = shown.game
    draft = board.parse_draft(args.getlist("a"), game.setup)
    why = args.get("why", "")[:40] or None
    drawn = board.scoreboard_of(shown, draft, gettext, _cards_from_query(args, game.setup), why,
                                utc_now(), board.draft_at(args.getlist("at"), game.version))
    if drawn.end_preview is not None and (_hand_of(args) or game.state.hand) != game.state.hand:
        drawn.end_preview = replace(drawn.end_preview, points=None, scores=None, parts=(),
                                    reason=_why_no_sheet(args, game.state.hand), hand_over=True)
    return drawn


def _board_forms(game: games.Game) -> dict:
    """The board's forms, each with a one-time token, the version shown and
    the phone's device id: its browser's, kept in its session, so that the
    taps of its pages are one phone's, in order (docs/BOARD.md). The page's
    script sends its tab's own instead."""
    device = session.setdefault("device", one_time_token()[:16])
    return {
        "play_form": PlayForm(formdata=None, token=one_time_token(),
                              expected_version=game.version, device=device),
        "undo_form": UndoForm(formdata=None, token=one_time_token(),
                              expected_version=game.version, device=device),
        "rematch_form": PlayForm(formdata=None, token=one_time_token()),
    }


def _board_context(shown: scoreboard.Shown, args: MultiDict, error: str | None) -> dict:
    """What the board's template reads beside the board and its forms."""
    game = shown.game
    following = request.headers.get("X-Board-Follows") == "1"
    return {
        "sheet": args.get("sheet"),
        "ask_early": args.get("ask") == "early",
        "count_hand": _hand_of(args) or game.state.hand,
        "picked_ranks": _ranks_from_query(args),
        # Where a refused tap comes back to: this board's query (a draft, a sheet).
        "back": urlencode([(k, v) for k, v in args.items(multi=True)
                           if k not in ("why", "ask")])[:300],
        # Once over, a club night's table leads back to its night (no query before that).
        "night": shown.night,
        "friendly_rematch": shown.friendly_rematch,
        "match": shown.match,  # a knockout's or a Swiss night's: said on the board
        # Once over, Undo takes the win back with one tap only on the page
        # drawn right after it (not one opened later from the history), and
        # not on a board that says its own tap was refused or that follows
        # another phone: the win was that phone's (the same Missa on both),
        # and this phone's next tap where its button was reopened the game
        # (a tap that was the other phone's record is not its own win either).
        "undo_at_once": not (error or _flashed() or following) and game.state.finished
        and reopening.won_just_now(_last_record(shown), utc_now(),
                                   within=reopening.SHOWN_AT_ONCE),
    }


def _last_record(shown: scoreboard.Shown) -> tuple[str, dict, str] | None:
    """The log's last record as the board read it: (action, payload, created_at)."""
    last = shown.last_record
    return None if last is None else (last.action, last.payload, last.created_at)


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


def _show(game_id: str, query: str, said: str | None = None,
          shown: scoreboard.Shown | None = None):
    """The board with its own query (an open sheet): the board itself for the
    page's script, with its address; else a redirect to it. `said`: a
    sentence the board says (not a refusal); `shown`: the board's data when
    the tap's own transaction read it."""
    url = _url(game_id, query)
    if _wants_board():
        response = render_board(shown or shown_or_404(game_id), MultiDict(parse_qsl(query)),
                                said=said)
        response.headers["X-Board-URL"] = url
        return response
    if said:
        flash(said, "info")
    return redirect(url, 303)


def _flashed() -> bool:
    """Whether this page says something of the tap before it (a refusal, or
    that another phone's record already did it): not its own win."""
    return bool(get_flashed_messages())


def _refused() -> bool:
    """Whether this page follows a refused action (its sentence, flashed)."""
    return any(category == "error" for category, _ in get_flashed_messages(with_categories=True))


def _after_action(game_id: str, error: ScoringError | None = None, back: str = "",
                  stay: str = "", said: str | None = None,
                  shown: scoreboard.Shown | None = None):
    """Where an action leads: the updated board for the script, else a redirect.
    A refused action goes back to the board as it was (`back`, its query),
    saying why; a done one closes the draft and the sheet it came from,
    unless it asks to `stay` on its sheet (a query too). `said`: what a done
    tap says (it was another phone's record: counted once); `shown`, the
    board it left, read in its own transaction."""
    if error is not None:
        sentence = sentence_of(error)
        if _wants_board():
            shown = shown_or_404(game_id)
            args = MultiDict(parse_qsl(_safe(back)))
            drawn = _of_this_hand(args, shown.game.state.hand)
            response = render_board(shown, drawn, error=sentence, status=status_of(error))
            # The board's address is the one it is drawn for: a count of a
            # hand now over, its sheet closed.
            response.headers["X-Board-URL"] = _url(game_id, urlencode(
                list(drawn.items(multi=True))))
            return response
        flash(sentence, "error")
        return redirect(_url(game_id, _safe(back)), 303)
    return _show(game_id, _safe(stay), said, shown)


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
    name = move.split(".")[0]
    if name in ("end_step", "end_preview"):
        return _show(game_id, _count_query(_stepped(counts, move, setup), hand))
    refusal = _count_refused(board.card_counts(form, setup), form.get("shown"), setup)
    if refusal is not None:
        return _after_action(game_id, refusal, _count_query(counts, hand))
    # A count of a hand another phone has counted since is judged by the
    # tap's rules (refused), not asked about as an early end of the next
    # hand; nor after a count that ended the game (the result, with nothing
    # said, read as if this one had counted).
    if not game.state.last_deal and form.get("early") != "1" \
            and hand == game.state.hand and not game.state.finished:
        return _show(game_id, _count_query(counts, hand, ask=True))
    return None


def _stepped(counts: list, move: str, setup) -> list:
    """The counts after a stepper's tap (`end_step.<side>.<±1>`); as they are
    for anything else (the preview)."""
    _, *args = move.split(".")
    if len(args) != 2 or not _INDEX.fullmatch(args[0]) or args[1] not in ("-1", "1") \
            or int(args[0]) >= len(counts):
        return counts
    side = int(args[0])
    # An empty count steps from the count that is worth nothing (20 of 40 for two sides).
    worth_nothing = setup.rules.card_threshold_for(setup.side_count)
    start = worth_nothing if counts[side] is None else max(0, min(DECK, counts[side]))
    return counts[:side] + [max(0, min(DECK, start + int(args[1])))] + counts[side + 1:]


def _count_refused(typed: list, shown: str | None, setup) -> ScoringError | None:
    """Why the typed count cannot be confirmed as it is: a side's count
    missing, more cards than the deck, or not the count the sheet showed."""
    missing = [side for side, count in enumerate(typed) if count is None]
    if missing:
        return InvalidInput(board.MISSING_COUNT, side=isolated(setup.sides[missing[0]]))
    beyond = board.count_beyond_the_deck(typed, setup)
    if beyond is not None:
        return beyond
    if shown is not None and shown != board.counts_text(typed):
        return InvalidInput(board.COUNT_CHANGED)
    return None


def _hand_of(form) -> int | None:
    """The hand a count's sheet showed (its hidden field), None when not said."""
    hand = form.get("hand", "")
    return int(hand) if _HAND.fullmatch(hand) else None


@bp.post("/games/<game_id>/play")
def play(game_id: str):
    form = PlayForm()
    if not form.validate():
        return _after_action(game_id, InvalidInput(INCOMPLETE_FORM))
    move = form.move.data
    if move.split(".")[0] in ("end_hand", "end_step", "end_preview"):
        return _play_count(game_id, form, move)
    return _tap(game_id, form, move, _Meant(form, move))


def _play_count(game_id: str, form: PlayForm, move: str):
    """The end-of-hand sheet's moves: its steppers and preview, and the
    count's Confirm, which asks first when the hand is not over."""
    game = load_game_or_404(game_id)
    meant = _Meant(form, move)
    waits = board.draft_in_the_way(move, meant.draft_of(game))
    if waits is not None:
        return _after_action(game_id, InvalidInput(waits), form.back.data or "")
    shown = _end_sheet(game_id, game, move, request.form)
    if shown is not None:
        return shown
    return _tap(game_id, form, move, meant)


class _Meant:
    """What a board's tap means, read off the game inside the tap's write
    (the game loaded once): its event and the version its finger saw; what
    a refusal needs to go back to its board is kept here."""

    def __init__(self, form: PlayForm, move: str):
        self.form, self.move = form, move
        self.back = form.back.data or ""
        self.draft: list = []
        self.setup = None
        self.at: int | None = None

    def draft_of(self, game: games.Game) -> list:
        self.setup = game.setup
        self.draft = _draft_of(self.back, game.setup)
        return self.draft

    def __call__(self, game: games.Game) -> tuple[dict, int | None]:
        waits = board.draft_in_the_way(self.move, self.draft_of(game))
        if waits is not None:
            raise InvalidInput(waits)
        event = board.event_for_move(self.move, request.form, game.setup)
        doubt = board.ranks_in_doubt(game.state, event, rank_name)
        if doubt is not None:
            self.back = _with_picks(self.back, event)
            raise doubt
        self.at = _draft_at_of(self.back, game.version)
        return event, _seen(self.form.expected_version.data, self.move, self.at)


def _tap(game_id: str, form: PlayForm, move: str, meant: _Meant):
    """A board's tap: one write, the game read once in it, its board drawn
    from what that write read."""
    try:
        tapped = scoreboard.tap(get_db(), game_id, meant, tap_key(form.token.data, move),
                                utc_now(), None, device_of(form), _hand_of(request.form))
    except games.GameNotFound:
        abort(404)
    except ScoringError as error:
        if meant.setup is None:  # refused before its game was read
            return _after_action(game_id, error, meant.back)
        back = _back_for_choice(error, meant.back, meant.draft, meant.setup)
        error = _counted_otherwise(error, meant.setup)
        return _after_action(game_id, in_page_words(error, FORM_WORDS, INCOMPLETE_FORM), back)
    # A done tap closes its sheet but keeps the deal's marked announcements
    # (once confirmed, they are no longer a draft).
    kept = "" if move == "announce" else board.draft_query(meant.draft, meant.at)
    return _after_action(game_id, stay=request.form.get("stay", "") or kept,
                         said=_said(tapped.action, move=move), shown=tapped.shown)


def _draft_at_of(back: str | None, version: int) -> int | None:
    """The version the draft of a board query (a form's `back`) was first marked on."""
    return board.draft_at(MultiDict(parse_qsl(_safe(back))).getlist("at"), version)


def _seen(expected: int | None, move: str, at: int | None) -> int | None:
    """The version a tap's finger saw; a Confirm's is the draft's: what it
    confirms was marked in the deal of that version, even when the board
    has followed the other phone's Next deal since."""
    if move == "announce" and at is not None and expected is not None:
        return min(expected, at)
    return expected


def _back_for_choice(error: ScoringError, back: str, draft: list, setup) -> str:
    """The board a refused tap goes back to: for announcements another phone
    confirmed otherwise, both phones' marked, so that Undo, then Confirm,
    records them all (the refusal's choice)."""
    kept = getattr(error, "kept", None)
    if getattr(error, "reason", None) != merge.ANNOUNCED_OTHERWISE or not kept:
        return back
    return _with_draft(back, board.marked_with(draft, kept, setup))


# What the board says of a tap the rule did not simply count (merge's actions).
_SAID = {merge.PLACE: merge.PLACED, merge.AFTER: merge.CLOSED_AFTER, merge.JOIN: merge.JOINED}


def _said(action: str, undo: bool = False, move: str = "") -> str | None:
    """What the board says of a tap that another phone's record already did,
    that counted in a deal another phone had left, that closed a deal
    holding another phone's taps its board had not shown, or whose
    announcements joined those another phone confirmed."""
    if action in _SAID:
        return sentence_of(RuleViolation(_SAID[action]))
    if action not in (merge.SAME, merge.DONE):
        return None
    if undo:
        return sentence_of(RuleViolation(merge.ALREADY_UNDONE))
    # A hand has one count and a deal one Confirm; a Missa or a hit may
    # happen again, and the other phone's may have been an earlier one.
    if action == merge.SAME and move.split(".")[0] not in merge.ONCE:
        return gettext(ANOTHER_ONE)
    return sentence_of(RuleViolation(merge.ALREADY_COUNTED))


ANOTHER_ONE = N_("Already recorded on another phone: counted once. Another one? Tap it again.")


def device_of(form) -> str | None:
    """The tapping phone: its pass (a phone let in with one), else the
    device id its page or its script keeps."""
    held = request.cookies.get(access.COOKIE)
    if held:
        return "pass-" + hashlib.sha256(held.encode()).hexdigest()[:16]
    return form.device.data or None


def _draft_of(back: str | None, setup) -> list:
    """The announcements marked on the board a form came from (its query)."""
    return board.parse_draft(MultiDict(parse_qsl(_safe(back))).getlist("a"), setup)


# The board's own words for the engine's sentences about an API field (by its name).
FORM_WORDS = {
    **POINTS_WORDS,
    "announcements": N_("Tap the deal's announcements first, then Confirm."),
}


def tap_key(token: str, move: str) -> str:
    """A board tap's id (its Idempotency-Key): its form's one-time token and
    its move (a double tap on one button is one key; another button of the
    page is another)."""
    return f"form:{token}:{move}"


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    form = UndoForm()
    if not form.validate():
        if not games.exists(get_db(), game_id):
            abort(404)
        return _after_action(game_id, InvalidInput(INCOMPLETE_FORM))
    meant = _UndoMeant(form)
    try:
        tapped = scoreboard.tap(get_db(), game_id, meant, tap_key(form.token.data, "undo"),
                                utc_now(), None, device_of(form), undoes=form.undoes.data)
    except games.GameNotFound:
        abort(404)
    except _AskFirst:
        if not _wants_board():
            return redirect(url_for("games.reopen", game_id=game_id), 303)
        return _after_action(game_id, RuleViolation(ASK_BEFORE_REOPENING))
    except ScoringError as error:
        return _after_action(game_id, error, meant.kept)
    said = _said(tapped.action, undo=True)
    if said is None and not _wants_board():
        said = _undone_words(tapped)
    return _after_action(game_id, stay=meant.kept, said=said, shown=tapped.shown)


class _AskFirst(Exception):
    """An Undo of a finished game's win that must ask before reopening it."""


class _UndoMeant:
    """What a board's Undo means, read off the game inside its write: an
    Undo (no event) of the version its finger saw; once the game is over,
    unless asked or right after the win, a question first (_AskFirst). The
    marked announcements it keeps are kept here."""

    def __init__(self, form: UndoForm):
        self.form = form
        self.kept = ""

    def __call__(self, game: games.Game) -> tuple[None, int | None]:
        back = request.form.get("back")
        self.kept = board.draft_query(_draft_of(back, game.setup),
                                      _draft_at_of(back, game.version))
        seen = self.form.expected_version.data
        if game.state.finished and self.form.reopen.data != "1" and \
                not reopening.undo_at_once(get_db(), game, seen, utc_now()):
            raise _AskFirst
        return None, seen


UNDONE = N_("Undone: %(what)s")


def _undone_words(tapped: scoreboard.Tapped) -> str | None:
    """On a whole page (without the script), what an Undo took back: the
    score changed and its label moved on to the event before, but nothing
    named what was undone."""
    undone = scoreboard.undone_by(get_db(), tapped)
    if undone is None:
        return None
    return gettext(UNDONE, what=event_text(undone, tapped.game.setup.sides))
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
