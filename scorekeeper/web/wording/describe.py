"""Events and gains in the scorer's words, for the board and the history."""

import unicodedata

from markupsafe import Markup

from ... import engine
from ...engine.errors import N_, ScoringError
from ...engine.moves import Step, ToWin, points_of
from ...engine.names import PARTNERS_JOINER
from . import elision
from .elision import PRONOUNS, form_of, say
from .i18n import join_list, right_to_left
from .translate import _, ngettext

WINS = (N_("We win!"), N_("They win!"), N_("You win!"))
# The Spanish deck's figures (valet, cavalier, roi in French).
RANK_NAMES = {10: N_("Jack"), 11: N_("Knight"), 12: N_("King")}
# Unicode's directional isolates: the plain-text <bdi>. Around a number they
# keep "+2" and "-3" whole in a right-to-left page; around a name and its
# points, the pairs follow the page's direction. Invisible otherwise.
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
# The calls of the hit chain, by the value they score. The game's own words:
# the same in every language, in Arabic script in Arabic.
CALLS = {1: N_("Bount"), 5: N_("Khamsa"), 10: N_("Âachra")}


# How the dealer's last trick went, as its buttons say it.
LAST_TRICK_WORDS = {"twelve": N_("Taken with a 12"), "one": N_("Taken with a 1"),
                    "missed": N_("Missed")}
LAST_TRICK_TO = N_("%(outcome)s → +%(points)s to %(to)s")
LAST_TRICK_TO_BOTH = N_("%(outcome)s → +%(points)s each to %(first)s and %(second)s")

# Each kind of gain a side's summary counts (engine.tally.COUNTS), by name.
GAIN_NAMES = {
    "ronda": N_("Ronda"),
    "double_ronda": N_("Double Ronda"),
    "tringa": N_("Tringa"),
    "missa": N_("Missa"),
    "bount": N_("Hit of 1 (Bount)"),
    "khamsa": N_("Hit of 5 (Khamsa)"),
    "aachra": N_("Hit of 10 (Âachra)"),
    "cards": N_("Card bonus"),
    "adjust": N_("Correction or penalty"),
    "hidden_ronda": N_("Hidden Ronda penalty"),
    "dealer_last_trick": N_("Dealer's last trick"),
}


# Each kind of event, by name: a column of the CSV export (for people, in
# their language; scripts read the JSON export's types).
EVENT_KINDS = {
    "announce": N_("Announcements"),
    "reveal": N_("Ranks"),
    "hit": N_("Hit of the chain"),
    "chain_end": N_("Chain over"),
    "missa": N_("Missa"),
    "next_deal": N_("Next deal"),
    "end_hand": N_("End of hand"),
    "adjust": N_("Correction or penalty"),
    "hidden_ronda": N_("Hidden Ronda found out"),
    "dealer_last_trick": N_("Dealer's last trick"),
}


def event_kind(event: engine.Event) -> str:
    """What kind of event it is, in a word or two: "End of hand"."""
    return _(EVENT_KINDS[event.type])


def gain_name(kind: str) -> str:
    return _(GAIN_NAMES[kind])


def kind_name(kind: str) -> str:
    """An announcement's kind: Ronda, Double Ronda, Tringa."""
    return gain_name(kind)


def hit_call(value: int) -> str | None:
    """What the players call a hit of `value` (1 Bount, 5 Khamsa, 10 Âachra);
    None for a house rule's other values."""
    return _(CALLS[value]) if value in CALLS else None


def rank_name(rank: int) -> str:
    return f"{rank} ({_(RANK_NAMES[rank])})" if rank in RANK_NAMES else str(rank)


def partners_of(name: str) -> tuple[str, str] | None:
    """The two partners a team's name holds ("Karim & Salma"); None for a
    name of its own ("Les Tigres") or one of more parts."""
    parts = name.split(PARTNERS_JOINER)
    return (parts[0], parts[1]) if len(parts) == 2 and all(parts) else None


def isolated(name: str) -> str:
    """A name as a direction isolate (FSI…PDI), for text that is not HTML: a
    Latin name in an Arabic sentence stays whole and in its place. A team's
    partners each in their own, "&" between them in the text's direction
    (as `bdi`)."""
    partners = partners_of(name)
    if partners:
        return f"{FSI}{partners[0]}{PDI}{PARTNERS_JOINER}{FSI}{partners[1]}{PDI}"
    return f"{FSI}{name}{PDI}"


def bdi(name: str) -> Markup:
    """A name isolated in a page: `<bdi>`, the name escaped. A team's name
    is its partners, each isolated, joined in the page's direction: read in
    the order they were typed, in Arabic as in French, as the score box
    shows them one above the other ("Karim & سلمى" read Karim first, where
    one isolate read from the right said "سلمى & Karim")."""
    partners = partners_of(name)
    if partners:
        return Markup('<bdi dir="%s"><bdi>%s</bdi>%s<bdi>%s</bdi></bdi>') % (
            "rtl" if right_to_left() else "ltr", partners[0], PARTNERS_JOINER, partners[1])
    return Markup("<bdi>%s</bdi>") % name


def event_html(event: engine.Event, sides: tuple[str, ...]) -> Markup:
    """`event_words` for a page: each name in a <bdi> (names hold no isolate
    of their own: engine/names.py takes no format character)."""
    words = Markup.escape(event_words(event, sides))
    # A number a catalog isolates left to right (LRI…PDI) becomes its own <bdi dir="ltr">.
    return Markup(str(words).replace(FSI, "<bdi>").replace(LRI, '<bdi dir="ltr">')
                  .replace(PDI, "</bdi>"))


# The Undo's label takes two lines of its 48 px button at 360 px: about this
# many characters, "Undo: " included, in the widest of the three languages.
UNDO_LABEL_CHARS = 56
# A name is never cut shorter than this (its start, "…", its end): it stays
# someone, and the label may then take its two lines whole.
SHORTEST_NAME = 7
# A name is kept on one line of the label (style.css), so never longer than a
# line: a team's 40 characters, whole, were clipped at its start or its end.
UNDO_NAME_CHARS = UNDO_LABEL_CHARS // 2 - 2
# The fewest letters of a first word kept before "…" and a last word ("Abd…Mohammed").
SHORTEST_START = 3
# A name in the board's last events: a long one is cut in its middle there too.
RECENT_NAME_CHARS = 26


def short_name(name: str, length: int) -> str:
    """`name` in at most `length` characters, cut between its words: its
    first words and its last, "…" between ("Youssef…نادية"), so that its
    start and its end tell two long names apart; when they do not fit, the
    start of its first word and its last word ("Abd…Mohammed"), else its
    first words, or its first word's start ("Abdelka…"), cut between two
    letters as drawn. No word is shown without its start: a cut in a
    word's middle showed نادية as "ادية", a name without its first letter."""
    if len(name) <= length:
        return name
    words = name.split(" ")
    head, tail = _ends(words, length)
    if tail:
        return " ".join(head) + "…" + " ".join(tail)
    last = words[-1]
    if len(words) > 1 and length - 1 - len(last) >= SHORTEST_START:  # "Abd…Mohammed"
        return _start(name, length - 1 - len(last)) + "…" + last
    if head:
        return " ".join(head) + "…"
    return _start(name, length - 1) + "…"


def _ends(words: list[str], length: int) -> tuple[list[str], list[str]]:
    """As many of the first and of the last words as hold in `length`
    characters with "…" between, one more at each end in turn; (first
    words, last words), or (first words, []) when the last one does not fit."""
    def size(head, tail):
        return len(" ".join(head)) + 1 + len(" ".join(tail))
    head, tail, grown = [], [], True
    while grown:
        grown = False
        for end in ("tail", "head") if head else ("head", "tail"):
            rest = words[len(head):len(words) - len(tail)]
            if not rest:
                break
            more = (head + [rest[0]], tail) if end == "head" else (head, [rest[-1]] + tail)
            if size(*more) <= length and (more[0] or not more[1]):
                head, tail, grown = more[0], more[1], True
    while head and head[-1] in ("&", ""):  # "Karim &…": the joiner with nothing after it
        head = head[:-1]
    return head, tail


def _start(name: str, length: int) -> str:
    """The start of `name` in at most `length` characters, never parting a
    letter from its marks (an Arabic vowel sign, an accent, a joiner)."""
    end = length
    while end > 1 and (unicodedata.combining(name[end]) or unicodedata.category(name[end])
                       in ("Mn", "Me", "Cf")):
        end -= 1
    return name[:end].rstrip()


def short_names(sides: tuple[str, ...], length: int = RECENT_NAME_CHARS) -> tuple[str, ...]:
    return tuple(short_name(side, length) for side in sides)


def line_name(name: str) -> str:
    """A name on a line of the board's small text (the dealer, as the last
    events): cut in its middle when long, so that it holds on that line."""
    return short_name(name, RECENT_NAME_CHARS)


def dealer_line(name: str, target: int) -> Markup:
    """The board's second line: who deals, and the game's target. The board
    draws it, and the phone's own count draws it for the next hand's dealer
    while its taps wait (each side's, in the outbox's words)."""
    return Markup.escape(_("Dealer: %(name)s")) % {"name": bdi(line_name(name))} + \
        Markup(" · ") + Markup.escape(_("Game in %(target)s")) % {"target": target}


def fitted_names(words: str, sides: tuple[str, ...], room: int) -> tuple[str, ...]:
    """`sides` with their longest names cut in the middle, the same length
    for all that are cut, so that `words` (a text that holds each name as an
    isolate, FSI…PDI) said with them takes at most `room` characters; never
    a name shorter than SHORTEST_NAME, and never a name left out."""
    shown = len(words) - words.count(FSI) - words.count(PDI)  # the isolates take no room
    if shown <= room:
        return sides
    uses = [words.count(isolated(side)) for side in sides]
    fixed = shown - sum(use * len(side) for use, side in zip(uses, sides))
    longest = max(len(side) for side in sides)
    cap = longest
    while cap > SHORTEST_NAME and fixed + sum(
            use * min(len(side), cap) for use, side in zip(uses, sides)) > room:
        cap -= 1
    return tuple(short_name(side, cap) for side in sides)


def undo_words(event: engine.Event, sides: tuple[str, ...]) -> str:
    """The event as the Undo's label says it after "Undo: " (event_label):
    compact, each name isolated (FSI…PDI), the longest names cut in their
    middle so the label takes two lines at most. The page's script says a
    counted event it will take back offline in these very words."""
    def what(names):
        return event_text(event, tuple(isolated(name) for name in names), compact=True)
    sides = short_names(sides, UNDO_NAME_CHARS)
    names = fitted_names(_("Undo: %(what)s") % {"what": what(sides)}, sides, UNDO_LABEL_CHARS)
    return what(names)


def event_label(event: engine.Event, sides: tuple[str, ...]) -> Markup:
    """The Undo's label, "Undo: " and the event (undo_words): its text the
    script's own (FSI…PDI), each name also in a <bdi>. It takes two lines at
    most, so every name is kept (a card count's label once lost both teams'
    names to its "…")."""
    words = Markup.escape(_("Undo: %(what)s") % {"what": undo_words(event, sides)})
    return Markup(str(words).replace(FSI, "<bdi>" + FSI).replace(LRI, '<bdi dir="ltr">' + LRI)
                  .replace(PDI, PDI + "</bdi>"))


def event_words(event: engine.Event, sides: tuple[str, ...]) -> str:
    """`event_text` with each name isolated (FSI…PDI): what the page's script
    shows as text (a tap waiting, the undo it will offer)."""
    return event_text(event, tuple(isolated(side) for side in sides))


def event_text(event: engine.Event, sides: tuple[str, ...], compact: bool = False) -> str:
    """What happened, in a few words: "Missa · Eux", "Hit of 5 · Nous".
    `compact`: for a label of two lines, a count's sides without "cards"."""
    if isinstance(event, engine.Announce):
        return _announce_text(event, sides, compact)
    if isinstance(event, engine.Reveal):
        return _reveal_text(event, sides, compact)
    if isinstance(event, engine.Hit):
        return _hit_text(event, sides)
    if isinstance(event, engine.ChainEnd):
        return _("Chain over")
    if isinstance(event, engine.Missa):
        return _missa_text(event, sides)
    if isinstance(event, engine.NextDeal):
        return _("Next deal")
    if isinstance(event, engine.EndHand):
        return _end_hand_text(event, sides, compact)
    if isinstance(event, engine.Adjust):
        return _adjust_text(event, sides)
    if isinstance(event, engine.HiddenRonda):
        return _hidden_ronda_text(event, sides)
    if isinstance(event, engine.DealerLastTrick):
        return _dealer_last_trick_text(event)
    return event.type


def _announce_text(event: engine.Announce, sides: tuple[str, ...], compact: bool) -> str:
    if compact:  # each side once: "Karim & Salma Ronda ×2"
        return _("Announcements: %(list)s") % {"list": join_list(
            f"{sides[side]} {kinds}" for side, kinds in _kinds_by_side(event))}
    return _("Announcements: %(list)s") % {"list": join_list(
        announcement_text(a, sides) for a in event.announcements
    )}


def _reveal_text(event: engine.Reveal, sides: tuple[str, ...], compact: bool) -> str:
    return _("Ranks shown: %(list)s") % {"list": join_list(
        f"{sides[s]} {r if compact else rank_name(r)}"
        for s, r in enumerate(event.ranks) if r is not None
    )}


def _hit_text(event: engine.Hit, sides: tuple[str, ...]) -> str:
    call = hit_call(event.value)
    if call:
        return _("%(call)s (%(value)s) · %(side)s") % {
            "call": call, "value": event.value, "side": sides[event.side]}
    return _("Hit of %(value)s · %(side)s") % {"value": event.value, "side": sides[event.side]}


def _missa_text(event: engine.Missa, sides: tuple[str, ...]) -> str:
    if event.last_card:
        return _("Missa with the last card · %(side)s") % {"side": sides[event.side]}
    return _("Missa · %(side)s") % {"side": sides[event.side]}


def _end_hand_text(event: engine.EndHand, sides: tuple[str, ...], compact: bool) -> str:
    def each(side: str, count: int) -> str:
        if compact:
            return f"{side} {count}"
        # A count's own plural: Arabic says 3 to 10 cards otherwise.
        return ngettext("%(side)s %(num)s card", "%(side)s %(num)s cards", count, side=side)
    return _("End of hand: %(list)s") % {"list": join_list(
        each(sides[s], c) for s, c in enumerate(event.counts()))}


def _adjust_text(event: engine.Adjust, sides: tuple[str, ...]) -> str:
    text = _("Correction %(points)+d · %(side)s") % {
        "points": event.points, "side": sides[event.side]}
    return f"{text} ({event.note})" if event.note else text


def _hidden_ronda_text(event: engine.HiddenRonda, sides: tuple[str, ...]) -> str:
    if event.to is None and len(sides) == 3:  # recorded before the receiver was named
        return _("Hidden Ronda found out · %(side)s (penalty to each opponent)") % {
            "side": sides[event.side]}
    to = event.receivers(len(sides))[0]
    return _("Hidden Ronda found out · %(side)s → %(to)s") % {
        "side": sides[event.side], "to": sides[to]}


def _dealer_last_trick_text(event: engine.DealerLastTrick) -> str:
    return {
        "twelve": _("Dealer's last trick with a 12"),
        "one": _("Dealer's last trick with a 1"),
        "missed": _("Dealer's last trick missed"),
    }[event.outcome]


def _kinds_by_side(event: engine.Announce) -> list[tuple[int, str]]:
    """Each side's announcements of a deal in a few words: "Ronda ×2", "Ronda + Tringa"."""
    kinds: dict[int, dict[str, int]] = {}
    for a in event.announcements:
        counted = kinds.setdefault(a.side, {})
        counted[a.kind] = counted.get(a.kind, 0) + 1
    return [(side, " + ".join(kind_name(kind) + (f" ×{count}" if count > 1 else "")
                              for kind, count in counted.items()))
            for side, counted in kinds.items()]


def side_points(step: Step, sides: tuple[str, ...]) -> list[tuple[str, int]]:
    """The sides an event gave points to, with their points."""
    totals = points_of(step.gains, len(sides))
    return [(sides[s], p) for s, p in enumerate(totals) if p]


def points_text(step: Step, sides: tuple[str, ...]) -> Markup:
    """What an event gave, for a page: "Nous +2", with why a part of it
    scored nothing ("last card: 0"), or "—" when it scored nothing and needs
    no reason. Each pair and each number isolated for right-to-left pages by
    the page's markup (<bdi>), never by invisible characters that a copied
    text or a screen reader would get."""
    parts = [Markup('<span class="pair">%s <bdi dir="ltr">%s</bdi></span>') % (
        bdi(name), f"{p:+d}") for name, p in side_points(step, sides)]
    parts += [Markup.escape(note) for note in notes_text(step)]
    return Markup(" · ").join(parts) or Markup("—")


# Why an event scored less than it might have (the engine's State.notes).
NOTES = {
    "chain_open": N_("counts when the chain stops"),
    "chain_counted": N_("counted when the chain stopped"),
    "chain_passed": N_("not counted: the chain went on"),
    "chain_lost": N_("not counted: the game was over first"),
    "awaiting_ranks": N_("waits for the ranks"),
    "missa_last_card": N_("last card: 0"),
    "missa_last_deal": N_("last deal: 0"),
    "cards_none_over": N_("no card bonus"),
    "missa_after_end": N_("the Missa: not counted, the game was over first"),
    "cards_after_end": N_("the cards: not counted, the game was over first"),
}


def notes_text(step: Step) -> list[str]:
    """The engine's notes on an event, in words."""
    return [_(NOTES[note]) for note in step.notes if note in NOTES]


def parts_text(preview, sides: tuple[str, ...]) -> list[str]:
    """The end-of-hand preview's sides whose points are more than their
    cards, part by part: "Ali: 2 for the cards + 1 for the open Bount" (the
    count closes the open chain, whose hit the side's points include). Each
    name isolated, for a right-to-left page."""
    said = []
    for side, parts in enumerate(preview.parts):
        if all(kind == "cards" for kind, _, _ in parts):
            continue
        # The cards first: the count is what the scorer is typing.
        ordered = sorted(parts, key=lambda part: part[0] != "cards")
        words = " + ".join(_part_text(kind, value, points) for kind, value, points in ordered)
        said.append(_("%(side)s: %(parts)s") % {"side": isolated(sides[side]), "parts": words})
    return said


def _part_text(kind: str, value: int | None, points: int) -> str:
    if kind == "cards":
        return _("%(points)s for the cards") % {"points": points}
    if kind == "hit" and hit_call(value):
        return _("%(points)s for the open %(call)s") % {"points": points, "call": hit_call(value)}
    if kind == "hit":
        return _("%(points)s for the open hit of %(value)s") % {"points": points, "value": value}
    return f"{points} {gain_name(kind)}"


def to_win_words() -> dict[str, str]:
    """Each line a side's score card may say under its score, by its
    standing (engine.moves.ToWin.standing); "behind" takes the points."""
    return {
        "ahead": _("ahead: wins at the count"),
        # One more point is not the win: the count at the hand's end decides.
        "tied_at_count": _("tied: the count decides"),
        "tied": _("tied: one more to win"),
        "behind": _("needs %(points)s", points="{points}"),
    }


def to_win_text(to_win: ToWin | None) -> str:
    """What a side needs to win, from the engine's answer."""
    if to_win is None:
        return ""
    return to_win_words()[to_win.standing].replace("{points}", str(to_win.points))


def score_text(scores: tuple[int, ...]) -> Markup:
    """The running score, "21 – 17", for a page: each number in a
    left-to-right <bdi> (no invisible character in a copied text)."""
    return Markup(" – ").join(Markup('<bdi dir="ltr">%s</bdi>') % score_number(s)
                              for s in scores)


def score_number(score: int) -> str:
    """A side's score, below zero with a real minus sign: "3 – −1", where a
    hyphen beside the dash read as "3 – -1"."""
    return f"\u2212{-score}" if score < 0 else str(score)


def announcement_text(announcement: engine.Announcement, sides: tuple[str, ...]) -> str:
    return f"{sides[announcement.side]} {kind_name(announcement.kind)}"


def announcement_html(announcement: engine.Announcement, sides: tuple[str, ...]) -> Markup:
    """An announcement for a page, its side's name isolated."""
    return Markup("%s %s") % (bdi(sides[announcement.side]), kind_name(announcement.kind))


def predicted(choice) -> Markup:
    """` data-scores="a b"`: the scores a button's move would leave (a Move,
    or the end-of-hand preview), for the page's script to show at once, before
    the server has stored it; nothing when the move changes no score."""
    scores = getattr(choice, "scores", None)
    if not scores:
        return Markup("")
    shown = Markup(' data-scores="%s"') % " ".join(str(score) for score in scores)
    wins = getattr(choice, "to_win", None)
    if wins:  # and the lines under the scores, which must agree with them
        shown += Markup(' data-needs="%s"') % "|".join(to_win_text(win) for win in wins)
    return shown


def move_words(move, setup: engine.Setup) -> Markup:
    """A board button's `data-what`: its event as the Undo will say it once
    recorded ("Missa · Eux", undo_words: a long name cut the same way), so
    that a tap waiting for the server is named as it will be then (the undo
    button, the refusal sheet, the waiting taps' list)."""
    try:
        event = engine.parse_event(move.event, setup) if move.event else None
    except engine.InvalidInput:
        event = None
    if event is None:
        return Markup("")
    return Markup(' data-what="%s"') % undo_words(event, setup.sides)


def last_trick_outcome(outcome: str) -> str:
    return _(LAST_TRICK_WORDS[outcome])


def last_trick_text(last, sides: list[str]) -> str:
    """A dealer's-last-trick button (board.LastTrick): how the trick went, who
    scores and how much ("Manqué → +5 pour Eux"), as the hidden Ronda's say it;
    with three sides a miss gives each of the two opponents the points."""
    outcome = last_trick_outcome(last.outcome)
    names = [isolated(sides[side]) for side in last.to]  # a Latin name stays whole in Arabic
    if len(names) == 1:
        return say(LAST_TRICK_TO, outcome=outcome, points=last.points, to=names[0])
    first, second = names
    return say(LAST_TRICK_TO_BOTH, outcome=outcome, points=last.points, first=first,
               second=second)


def winner_text(name: str, team: bool = False) -> Markup:
    """The result's heading, a team's verb in the plural ("Omar & Leila
    gagnent !"); the name isolated (<bdi>), so that a Latin name in an Arabic
    sentence stays whole and in its place."""
    form = form_of(name, team)  # the one rule of a sentence about a side (web/wording/elision.py)
    if form in PRONOUNS:
        return Markup.escape(_(WINS[PRONOUNS.index(form)]))
    sentence = _("%(name)s win!") if team else _("%(name)s wins!")
    return Markup.escape(sentence) % {"name": bdi(name)}


def sentence_of(error: ScoringError) -> str:
    """A refusal's sentence in the page's language, its events in words."""
    return elision.sentence(error, _, event_text)
