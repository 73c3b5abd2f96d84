"""The refusals: bad input, a name of nothing, a move the rules refuse.

Each carries a sentence for the scorer as a message template with named
parameters, so the web layer can translate the template before filling it in.
The engine itself never imports a translation library.
"""


def N_(message: str) -> str:
    """Mark a message for translation extraction; returns it unchanged."""
    return message


class ScoringError(Exception):
    """A sentence a scorer can act on: `message % params` once translated.

    `field`: the input field the sentence is about, when it names one (the
    API's words, "points must be…"): a page, whose form has no such field,
    says it in its own words by this name, never by matching the sentence.
    It is also the sentence's `%(field)s`. `subject`: the parameter that names
    the side the sentence is about, and `team` whether that side is two
    partners: a page says such a side its own way (a default name, "Us", as
    a pronoun: "We…")."""

    def __init__(self, message: str, *, field: str | None = None, subject: str | None = None,
                 team: bool = False, **params):
        super().__init__(message)
        self.message = message
        self.field = field
        self.subject, self.team = subject, team
        self.params = params if field is None else dict(params, field=field)

    def sentence(self, translate=lambda message: message, event_text=None) -> str:
        """The sentence, through `translate` (a gettext) when given.
        `event_text(event, sides)` words an event, for the refusals that name
        one (the web layer passes its own; the engine words nothing)."""
        text = translate(self.message)
        return text % self.params if self.params else text

    def __str__(self) -> str:
        return self.sentence()


class InvalidInput(ScoringError):
    """The input is malformed or out of range, whatever the game's state."""


class NotFound(ScoringError):
    """The input names something (a game, a player) that does not exist.
    Raised by the shell, which looks things up; declared here beside the
    other refusals so that one place maps them all to answers."""


class RuleViolation(ScoringError):
    """The input is well formed but the game's state or the rules refuse it."""


class GameOver(RuleViolation):
    """An event sent to a game that is already over."""
