"""Tournaments' pairing rules: who meets whom, who goes on (docs/PLAYERS.md,
"Tournaments", has the worked examples).

Pure: plain data in and out, no clock, no store, no chance (a drawn seeding
is drawn by the caller and handed in as the entrants' order). Entrants are
numbers 0 to n-1 in seed order: 0 is the first seed. A match is one game, or
the best of three (`best_of`): the first to win `best_of // 2 + 1` games.

- A knockout is a bracket of the next power of two: seed 1 meets the last,
  seed 2 the one before last, and so on, placed so that the first two seeds
  can meet only in the final. The places of missing entrants are byes, which
  go to the top seeds: they go through without playing.
- A Swiss evening pairs by standing (match wins, then the sum of the games'
  margins, then seed), each entrant with the best-placed one it has not met;
  the first round, the top half of the seeds against the bottom half. With an
  odd number, the bye goes to the lowest-placed entrant not yet given one. No
  pair meets twice while a pairing without a rematch exists.

A bracket or a standing is never stored: it is this module's reading of the
entrants, the pairings a Swiss round was given and the games played.
"""

from dataclasses import dataclass, field
from typing import Callable, Iterable

# Pairing a Swiss round tries at most this many partial pairings before it
# settles for the fewest rematches it finds: far beyond any club's evening
# (128 entrants pair in a few hundred steps), a bound on a pathological one.
SEARCH_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class MatchGame:
    """A game of a match as played: the entrants of its two sides (side 0
    first) and, once it is over, the winner's entrant and lead."""

    round: int
    slot: int
    entrants: tuple[int, int]
    winner: int | None = None  # None while it is played
    margin: int = 0  # the winner's lead once over


@dataclass(frozen=True, slots=True)
class Match:
    """Two entrants (one, for a bye; None where it is not known yet) and
    what their games decided."""

    round: int
    slot: int
    entrants: tuple[int | None, int | None]
    wins: tuple[int, int] = (0, 0)
    winner: int | None = None
    running: bool = False  # one of its games is being played
    margins: tuple[int, int] = (0, 0)  # each entrant's margins, summed over its won games
    games: int = 0  # its games that count (over, between these two)
    bye: bool = False  # one entrant, and no other can come: it goes through

    @property
    def ready(self) -> bool:
        """Both entrants known, not decided yet: its next game can start."""
        return None not in self.entrants and self.winner is None and not self.bye

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.bye:
            return None
        return self.entrants[1] if self.winner == self.entrants[0] else self.entrants[0]


def wins_needed(best_of: int) -> int:
    return best_of // 2 + 1


def decide(round_: int, slot: int, entrants: tuple[int | None, int | None],
           games: Iterable[MatchGame], best_of: int) -> Match:
    """A match between `entrants` from the games of its round and slot: only
    the games between these two count (a game between others is of a pairing
    a corrected result undid), in the order given, until one has won enough."""
    first, second = entrants
    if first is None or second is None:
        alone = first if second is None else second
        return Match(round_, slot, entrants, winner=alone, bye=alone is not None and round_ == 1)
    wins, margins, running, counted, winner = [0, 0], [0, 0], False, 0, None
    for game in games:
        if set(game.entrants) != {first, second}:
            continue
        if game.winner is None:
            running = running or winner is None
            continue
        if winner is not None:
            continue  # the match was over: a game more is not of it
        side = 0 if game.winner == first else 1
        wins[side] += 1
        margins[side] += game.margin
        counted += 1
        if wins[side] == wins_needed(best_of):
            winner = game.winner
    return Match(round_, slot, entrants, (wins[0], wins[1]), winner,
                 running and winner is None, (margins[0], margins[1]), counted)


def _by_match(games: Iterable[MatchGame]) -> dict[tuple[int, int], list[MatchGame]]:
    found: dict[tuple[int, int], list[MatchGame]] = {}
    for game in games:
        found.setdefault((game.round, game.slot), []).append(game)
    return found


# -- the knockout ------------------------------------------------------------------------------

def bracket_size(count: int) -> int:
    """The smallest power of two that holds `count` entrants (2 at least)."""
    size = 2
    while size < count:
        size *= 2
    return size


def seed_lines(size: int) -> list[int]:
    """The bracket's lines from top to bottom, each a seed (from 0): two
    neighbours meet in the first round, and seeds 0 and 1 only in the final."""
    lines = [0, 1]
    while len(lines) < size:
        total = 2 * len(lines) - 1
        lines = [seed for line in lines for seed in (line, total - line)]
    return lines


@dataclass(frozen=True, slots=True)
class Knockout:
    rounds: tuple[tuple[Match, ...], ...]  # the first round first; the final last
    champion: int | None
    # Games of a slot between two entrants that no longer meet there: a
    # corrected result sent another entrant on (the director may bin them).
    stale: tuple[MatchGame, ...] = field(default_factory=tuple)


def knockout(count: int, games: Iterable[MatchGame], best_of: int = 1) -> Knockout:
    """The bracket of `count` entrants after `games` (a round and a slot each:
    slot 1 is the top match of its round)."""
    played = _by_match(games)
    size = bracket_size(count)
    lines = [seed if seed < count else None for seed in seed_lines(size)]
    rounds, stale = [], []
    previous: list[int | None] = lines
    number = 1
    while len(previous) > 1:
        matches = []
        for slot in range(1, len(previous) // 2 + 1):
            entrants = (previous[2 * slot - 2], previous[2 * slot - 1])
            if number > 1 and None in entrants:
                # An entrant not known yet: its match before is undecided.
                matches.append(Match(number, slot, entrants))
            else:
                matches.append(decide(number, slot, entrants, played.get((number, slot), ()),
                                      best_of))
            pair = set(entrants)
            stale += [g for g in played.get((number, slot), ()) if set(g.entrants) != pair]
        rounds.append(tuple(matches))
        previous = [m.winner for m in matches]
        number += 1
    return Knockout(tuple(rounds), previous[0], tuple(stale))


# -- the Swiss evening -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Pairing:
    """A Swiss round's match, as the round was given it: two entrants, or
    one and None for the bye."""

    round: int
    slot: int
    entrants: tuple[int, int | None]


@dataclass(frozen=True, slots=True)
class EntrantStanding:
    entrant: int
    wins: int  # matches won, a bye counting as one
    played: int  # matches decided, byes included
    margin: int  # the sum of the margins of every game it played (its lead, or minus)
    byes: int
    place: int = 0


def swiss_matches(pairings: Iterable[Pairing], games: Iterable[MatchGame],
                  best_of: int = 1) -> list[Match]:
    """Each pairing's match, decided by its games; a bye is won at once."""
    played = _by_match(games)
    found = []
    for p in pairings:
        if p.entrants[1] is None:
            found.append(Match(p.round, p.slot, p.entrants, winner=p.entrants[0], bye=True))
        else:
            found.append(decide(p.round, p.slot, p.entrants, played.get((p.round, p.slot), ()),
                                best_of))
    return found


def swiss_standings(count: int, matches: Iterable[Match]) -> list[EntrantStanding]:
    """Every entrant, best first: match wins, then margin, then seed; equal
    wins and margin share a place."""
    wins, played, margin, byes = [0] * count, [0] * count, [0] * count, [0] * count
    for match in matches:
        if match.bye:
            wins[match.winner] += 1
            played[match.winner] += 1
            byes[match.winner] += 1
            continue
        for side, entrant in enumerate(match.entrants):
            # Every counted game's margin, won (+) or lost (-), decided or not.
            margin[entrant] += match.margins[side] - match.margins[1 - side]
        if match.winner is not None:
            wins[match.winner] += 1
            for entrant in match.entrants:
                played[entrant] += 1
    order = sorted(range(count), key=lambda e: (-wins[e], -margin[e], e))
    standings: list[EntrantStanding] = []
    for index, entrant in enumerate(order):
        level = standings and (standings[-1].wins, standings[-1].margin) == (wins[entrant],
                                                                             margin[entrant])
        place = standings[-1].place if level else index + 1
        standings.append(EntrantStanding(entrant, wins[entrant], played[entrant], margin[entrant],
                                  byes[entrant], place))
    return standings


def _pairs(order: list[int], allowed: Callable[[int, int], bool],
           budget: list[int]) -> list[tuple[int, int]] | None:
    """Every entrant of `order` with another, each with the first of those
    after it that `allowed` lets it meet and that leaves the rest pairable;
    None when there is no such pairing (or the budget ran out)."""
    failed: set[tuple[int, ...]] = set()

    def solve(remaining: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not remaining:
            return []
        if remaining in failed or budget[0] <= 0:
            return None
        budget[0] -= 1
        first, rest = remaining[0], remaining[1:]
        for index, other in enumerate(rest):
            if allowed(first, other):
                found = solve(rest[:index] + rest[index + 1:])
                if found is not None:
                    return [(first, other)] + found
        failed.add(remaining)
        return None

    return solve(tuple(order))


def swiss_pairing(ranked: list[int], met: set[frozenset[int]], had_bye: set[int],
                  first_round: bool = False) -> tuple[list[tuple[int, int]], int | None]:
    """A Swiss round for the entrants of `ranked` (who play it, best placed
    first): its pairs (the better placed on side 0) and its bye.

    The first round meets the top half against the bottom half. Later ones
    pair by standing with no rematch while one can be avoided; the bye goes
    to the lowest-placed entrant not yet given one whose leaving out lets the
    rest pair without a rematch (else the lowest-placed entrant at all whose
    leaving out does). When every pairing has a rematch (more rounds than the
    entrants allow), down the order each meets the first it has not met, else
    the first."""
    if first_round:
        half = len(ranked) // 2
        return [(ranked[i], ranked[i + half]) for i in range(half)], (
            ranked[-1] if len(ranked) % 2 else None)
    if len(ranked) % 2 == 0:
        found = _pairs(ranked, _not_met(met), [SEARCH_BUDGET])
        return (found, None) if found is not None else (_few_rematches(ranked, met), None)
    return _pairs_and_bye(ranked, met, had_bye)


def _pairs_and_bye(ranked: list[int], met: set[frozenset[int]],
                   had_bye: set[int]) -> tuple[list[tuple[int, int]], int]:
    """A later round of an odd count: the bye to the lowest-placed entrant not
    yet given one whose leaving out lets the rest pair with no rematch (else
    the lowest-placed whose leaving out does), and the rest's pairs."""
    budget = [SEARCH_BUDGET]  # one search's, shared by every bye tried
    lowest_first = ranked[::-1]
    candidates = [e for e in lowest_first if e not in had_bye] + [
        e for e in lowest_first if e in had_bye]
    for bye in candidates:
        found = _pairs([e for e in ranked if e != bye], _not_met(met), budget)
        if found is not None:
            return found, bye
    bye = candidates[0]
    return _few_rematches([e for e in ranked if e != bye], met), bye


def _not_met(met: set[frozenset[int]]) -> Callable[[int, int], bool]:
    """Whether two entrants have not met yet: who may meet in a round with no rematch."""
    def fresh(a: int, b: int) -> bool:
        return frozenset((a, b)) not in met
    return fresh


def _few_rematches(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]]:
    """Down the order, each with the first it has not met, else the first."""
    left, pairs = list(order), []
    while left:
        first = left.pop(0)
        other = next((e for e in left if frozenset((first, e)) not in met), left[0])
        left.remove(other)
        pairs.append((first, other))
    return pairs


def swiss_rounds(count: int) -> int:
    """The rounds a Swiss evening of `count` entrants plays unless told:
    enough for one unbeaten entrant (log2, rounded up), 1 at least."""
    rounds = 1
    while 2 ** rounds < count:
        rounds += 1
    return rounds
