"""A very long game's review stays small: its events by pages, its chart
sampled (20,000 events made one page of 9.8 MB in 1.9 s)."""

import re
import sys
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.service import review
from scorekeeper.web.pages import charts

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.long_review import long_game  # noqa: E402  the benchmark's own game


@pytest.fixture
def long_store(tmp_path):
    def make(events: int):
        path = str(tmp_path / f"long{events}.sqlite3")
        game = long_game(path, events)
        return create_app({"TESTING": True, "DATABASE": path}).test_client(), game
    return make


def test_a_long_games_review_is_paged_and_its_weight_does_not_grow(long_store, monkeypatch):
    monkeypatch.setattr(review, "PAGE_ENTRIES", 50)
    short, short_id = long_store(1000)
    long, long_id = long_store(4000)
    first = long.get(f"/games/{long_id}/review")
    page = first.get_data(as_text=True)
    assert first.status_code == 200 and page.count('class="entry ') == 50
    assert "Page 1 sur 80" in page and f'href="/games/{long_id}/review?page=2"' in page
    last = long.get(f"/games/{long_id}/review?page=80").get_data(as_text=True)
    assert last.count('class="entry ') == 50 and 'rel="next"' not in last
    numbers = [int(n) for n in re.findall(r'<span class="number">(\d+)</span>', last)]
    assert numbers == list(range(3951, 4001))  # the game's last events, numbered as in the game
    assert long.get(f"/games/{long_id}/review?page=81").status_code == 404
    assert long.get(f"/games/{long_id}/review?page=0").status_code == 400
    short_page = short.get(f"/games/{short_id}/review").data
    # Four times the events, about the same page: not four times the bytes.
    assert len(first.data) < 1.3 * len(short_page), (len(first.data), len(short_page))


def test_a_short_game_is_one_page_without_a_pager(long_store):
    client, game = long_store(40)
    page = client.get(f"/games/{game}/review").get_data(as_text=True)
    assert page.count('class="entry ') == 40 and 'class="pager"' not in page


def test_a_long_chart_is_sampled_and_ends_at_the_score_now():
    scores = [(n, n // 2) for n in range(20_001)]
    starts = [(n, n // 50 + 1) for n in range(0, 20_000, 50)]
    chart = charts.score_chart(scores, 33, starts)
    for line in chart.lines:
        assert len(line.points.split()) <= charts.MAX_POINTS + 1
    assert chart.lines[0].end == (charts.WIDTH - charts.RIGHT, charts.TOP)
    assert len(chart.x_ticks) <= charts.MAX_TICKS
