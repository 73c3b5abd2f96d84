# Our own, not a chart library: a few coordinates for SVG that the templates draw with style.css's classes.
"""The geometry of the server-drawn SVG charts: numbers in, coordinates out;
and the QR codes, drawn by segno.

The templates draw them (templates/history/_score_chart.html,
templates/stats/_bars.html) with classes from style.css: the page's
Content-Security-Policy forbids inline styles, and no script is needed.
"""

from dataclasses import dataclass

import segno

WIDTH = 360
HEIGHT = 200
# A line has at most this many points (two per pixel of the plot), however
# long the game; and the x axis at most this many hand labels.
MAX_POINTS = 2 * WIDTH
MAX_TICKS = 40
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 26  # margins around the plot, for the axes' labels


@dataclass(frozen=True, slots=True)
class Tick:
    at: float  # x for the x axis, y for the y axis
    label: str


@dataclass(frozen=True, slots=True)
class Line:
    side: int
    points: str  # "x,y x,y ..." for <polyline points>
    end: tuple[float, float]


@dataclass(frozen=True, slots=True)
class LineChart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    target: float | None  # y of the target line, if within the plot


def _step(span: int) -> int:
    """A round gap between the y axis's labels: about four of them."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if span / step <= 5:
            return step
    return 200


def score_chart(scores: list[tuple[int, ...]], target: int,
                hand_starts: list[tuple[int, int]]) -> LineChart:
    """The running score of each side: `scores` from the start (all 0) to
    after the last event; `hand_starts` (x index, hand number) mark the hands."""
    count = max(1, len(scores) - 1)
    low = min(0, *(min(s) for s in scores))
    high = max(target, *(max(s) for s in scores))
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def x(index: int) -> float:
        return round(left + (right - left) * index / count, 1)

    def y(value: int) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    sides = len(scores[0])
    stride = -(-len(scores) // MAX_POINTS)
    shown = list(range(0, len(scores), stride))
    if shown[-1] != len(scores) - 1:
        shown.append(len(scores) - 1)  # the line always ends at the score now
    lines = []
    for side in range(sides):
        points = [(x(i), y(scores[i][side])) for i in shown]
        lines.append(Line(side, " ".join(f"{px},{py}" for px, py in points), points[-1]))
    step = _step(high - low)
    first = -(-low // step) * step
    y_ticks = [Tick(y(v), str(v)) for v in range(first, high + 1, step)]
    x_ticks = [Tick(x(index), str(hand))
               for index, hand in hand_starts[::-(-len(hand_starts) // MAX_TICKS)]]
    return LineChart(WIDTH, HEIGHT, left, right, top, bottom, lines, x_ticks, y_ticks,
                     y(target) if low <= target <= high else None)


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    text: str  # the value as the bar's end shows it
    y: float
    width: float
    # The label's lines and each one's baseline: a long label wraps between
    # its words ("Coup de 10 / (Âachra)"), never cut nor split inside a word.
    lines: tuple[tuple[str, float], ...] = ()
    x: float = 0.0  # where the bar starts, on the left (its label's side, or the value's)


@dataclass(frozen=True, slots=True)
class BarChart:
    width: int
    height: int
    label_width: int
    bar_height: int
    bars: list[Bar]
    # Right to left, the chart is mirrored: the labels on the right, ending at
    # label_x, the bars growing leftwards, the values on the left.
    right_to_left: bool = False
    label_x: float = 4
    track_x: float = 0.0
    track_width: float = 0.0
    value_x: float = 0.0


def label_lines(label: str, chars: int) -> list[str]:
    """`label` in lines of at most `chars` characters, broken between words
    (a word longer than that keeps a line of its own, whole)."""
    lines: list[str] = []
    for word in label.split():
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def bar_chart(rows: list[tuple[str, float, str]], scale: float | None = None,
              label_chars: int = 14, right_to_left: bool = False) -> BarChart:
    """Horizontal bars: (label, value, value's text) each; `scale` is the
    value of a full bar (the largest value when None). A row is as tall as
    its label's lines."""
    row_height, bar_height, label_width, line_height, value_width = 28, 18, 120, 15, 56
    room = WIDTH - label_width - value_width  # leaves the value's text room after the bar
    track_x = value_width if right_to_left else label_width
    top = max((value for _, value, _ in rows), default=0)
    scale = scale or top or 1
    bars, row_top = [], 0
    for label, value, text in rows:
        lines = label_lines(label, label_chars)
        height = row_height + line_height * (len(lines) - 1)
        bar_y = row_top + (height - bar_height) / 2
        first = bar_y + bar_height - 4 - line_height * (len(lines) - 1) / 2
        width = round(room * max(0.0, value) / scale, 1)
        bars.append(Bar(label, text, bar_y, width,
                        tuple((line, first + line_height * index)
                              for index, line in enumerate(lines)),
                        round(track_x + room - width, 1) if right_to_left else track_x))
        row_top += height
    return BarChart(WIDTH, max(row_height, row_top), label_width, bar_height, bars,
                    right_to_left, WIDTH - 4 if right_to_left else 4, track_x, room,
                    value_width - 4 if right_to_left else WIDTH - value_width + 4)


@dataclass(frozen=True, slots=True)
class BandChart:
    """A rating over games: its mean (a line) and mean ± σ (a band)."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    line: str  # polyline points
    band: str  # polygon points
    x_ticks: list[Tick]
    y_ticks: list[Tick]


def band_chart(values: list[tuple[float, float]]) -> BandChart:
    """(mean, spread) after each game, oldest first; the start (game 0) is
    the first value's before, so `values` should begin with it."""
    count = max(1, len(values) - 1)
    low = min(m - s for m, s in values)
    high = max(m + s for m, s in values)
    low, high = int(low // 5 * 5), int(-(-high // 5) * 5)
    high = max(high, low + 5)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def x(index: int) -> float:
        return round(left + (right - left) * index / count, 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    line = " ".join(f"{x(i)},{y(m)}" for i, (m, _) in enumerate(values))
    upper = [f"{x(i)},{y(m + s)}" for i, (m, s) in enumerate(values)]
    lower = [f"{x(i)},{y(m - s)}" for i, (m, s) in enumerate(values)][::-1]
    step = _step(high - low)
    y_ticks = [Tick(y(v), str(v)) for v in range(-(-low // step) * step, high + 1, step)]
    every = max(1, count // 5)
    x_ticks = [Tick(x(i), str(i)) for i in range(0, count + 1, every)]
    return BandChart(WIDTH, HEIGHT, left, right, top, bottom, line, " ".join(upper + lower),
                     x_ticks, y_ticks)


def qr_code(url: str, scale: int = 6, border: int = 3) -> tuple[str, int]:
    """The QR code of `url` as an inline SVG image (a data: address), and
    its width in pixels: a phone's to scan, or a TV's browser's to be
    pointed at. White around dark modules whatever the page's theme: a
    scanner needs the contrast."""
    code = segno.make(url, error="m")
    return (code.svg_data_uri(scale=scale, border=border, dark="#000", light="#fff"),
            code.symbol_size(scale=scale, border=border)[0])

