"""The end of a game: a winner line, places with their ties, scores as the game counts them, on the page
and in the mail alike (no "1. Rank 1", no "3.0")."""

from __future__ import annotations

from app.services.players.ratings import RankMove
from app.web.emails import make_environment
from app.web.standings import final_places, score_text

STANDINGS = [
    {"seat": 2, "place": 2, "score": 0.0},
    {"seat": 0, "place": 1, "score": 6.0},
    {"seat": 1, "place": 2, "score": 0.0},
]
NAMES = ["Alice", "Bruno", None]


def test_places_keep_their_ties_and_scores_read_as_counted() -> None:
    places = final_places(STANDINGS, NAMES)
    assert [(p.place, p.tied, p.name, p.score) for p in places] == [
        (1, False, "Alice", "6"),
        (2, True, "Bruno", "0"),
        (2, True, None, "0"),
    ]
    assert (score_text(2.5), score_text(3)) == ("2.5", "3")


def test_the_mail_says_who_won_and_each_place_once() -> None:
    env = make_environment()
    context = {
        "_": lambda text, **values: text % values if values else text,
        "game": {"name": "Windy Wadi", "title": "Fake", "players": NAMES},
        "standings": STANDINGS,
        "url": "https://example.com/games/1",
    }
    text = env.get_template("emails/game_over.txt").render(context)
    assert "Alice wins." in text
    assert "1 · Alice · 6" in text and "2 (tied) · Bruno · 0" in text and "2 (tied) · seat 3 · 0" in text
    assert "Rank" not in text and "6.0" not in text
    html = env.get_template("emails/game_over.html").render(context)
    assert "Alice wins." in html and "<td>1</td>" in html and "6.0" not in html


def test_the_mail_gives_each_ranking_move_and_the_way_to_play_again() -> None:
    env = make_environment()
    context = {
        "_": lambda text, **values: text % values if values else text,
        "game": {"name": "Windy Wadi", "title": "Fake", "players": NAMES},
        "standings": STANDINGS,
        "moves": {0: RankMove(3, 1, 7), 1: RankMove(None, 5, 7), 2: RankMove(4, 6, 7)},
        "url": "https://example.com/games/1",
        "again_url": "https://example.com/games/1#play-again",
    }
    text = env.get_template("emails/game_over.txt").render(context)
    assert "1 · Alice · 6 · ranking ↑ 3 → 1 of 7\n" in text
    assert "2 (tied) · Bruno · 0 · ranking new: 5 of 7\n" in text
    assert "2 (tied) · seat 3 · 0 · ranking ↓ 4 → 6 of 7\n" in text
    assert "Play again with the same players: https://example.com/games/1#play-again" in text
    html = env.get_template("emails/game_over.html").render(context)
    assert "↑ 3 → 1 of 7" in html and 'href="https://example.com/games/1#play-again"' in html
