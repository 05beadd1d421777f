"""`cardtui stats`: your record counted from hand-built games played through the API and saved."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtui import cli
from cardtui.api import ApiGame, new_game
from cardtui.cards import DECK
from cardtui.catalog import SeatSummary, list_entries
from cardtui.measure import wilson
from cardtui.rules import load_preset
from cardtui.saves import write_save
from cardtui.stats import compute, opponents_of, render, you_of
from tests.support.scripted import bid, moon_deal, scripted_deal

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "saves").mkdir(parents=True)
    return tmp_path / "home"


def seats(*kinds: str) -> list[dict[str, Any]]:
    """Seat dicts: "human", or a computer player's level."""
    names = ("South", "West", "North", "East", "P5", "P6", "P7", "P8")
    return [
        {"name": n, "kind": "human"} if k == "human" else {"name": n, "kind": "bot", "level": k}
        for n, k in zip(names, kinds, strict=False)
    ]


def seat_kinds(*kinds: str) -> tuple[SeatSummary, ...]:
    """The seats as the statistics read them from a save's summary."""
    return tuple(SeatSummary.from_json(seat) for seat in seats(*kinds))


def save(home: Path, name: str, game: ApiGame, updated: str | None = None) -> None:
    data = game.to_save()
    if updated is not None:
        data["updated"] = updated
    write_save(home / "saves" / name, data)


def figures(**kw: Any) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["game"], r["opponents"]): r for r in compute(list_entries(), **kw).to_json()["rows"]}


# ---------------------------------------------------------------- hearts


def test_hearts_moons_queens_and_points_per_deal(home: Path) -> None:
    g = new_game("hearts", ruleset={"pass_cycle": ["none"]}, seats=seats("human", "hard", "hard", "hard"))
    moon_deal(g, 0)
    moon_deal(g, 2)
    deals = g.summary()["deals"]
    assert [d["scores"][0] for d in deals] == [0, 26]
    save(home, "hearts-1.json", g)
    row = figures()[("hearts", "hard")]
    assert row["games"] == 0 and row["in_progress"] == 1 and row["win_rate"] is None
    assert row["deals"] == 2 and row["points_per_deal"] == 13.0
    assert (row["moons_shot"], row["moons_against"], row["queens_taken"]) == (1, 1, 1)


def test_a_finished_hearts_game_counts_a_win_or_a_loss(home: Path) -> None:
    won = new_game("hearts", ruleset={"pass_cycle": ["none"], "end_score": 26}, seats=seats("human", *["easy"] * 3))
    moon_deal(won, 0)  # the others reach 26: the game ends, lowest (you, 0) wins
    lost = new_game("hearts", ruleset={"pass_cycle": ["none"], "end_score": 26}, seats=seats("human", *["easy"] * 3))
    moon_deal(lost, 1)
    assert won.is_over and lost.is_over
    save(home, "hearts-won.json", won)
    save(home, "hearts-lost.json", lost)
    row = figures()[("hearts", "easy")]
    assert (row["games"], row["wins"], row["win_rate"]) == (2, 1, 0.5)
    assert row["win_rate_95"] == [round(x, 4) for x in wilson(1, 2)]


# ---------------------------------------------------------------- spades


def spades(target: int, *kinds: str) -> ApiGame:
    ruleset = load_preset("spades").replace(win_target=target)
    return new_game("spades", ruleset=ruleset, seats=seats(*kinds))


def spades_deal(game: ApiGame, bids: list[int | str], tricks: list[int]) -> None:
    dealer = game.legal_actions()[0]["dealer"]
    leader = (dealer + 1) % 4
    hands, plays = scripted_deal(leader, tricks)
    game.apply({"type": "deal", "dealer": dealer, "hands": hands})
    for i in range(4):
        bid(game, (leader + i) % 4, bids[(leader + i) % 4])
    for card in plays:
        assert game.to_move is not None
        game.apply({"type": "play", "seat": game.to_move["seat"], "card": card})


def test_spades_contracts_nils_bags_and_sets(home: Path) -> None:
    # You (seat 0) bid nil twice: made (partner 4, takes 5: one bag), then failed (one trick: a bag, and set).
    a = spades(500, "human", "hard", "hard", "hard")
    spades_deal(a, ["nil", 3, 4, 3], [0, 4, 5, 4])
    spades_deal(a, ["nil", 3, 5, 2], [1, 4, 4, 4])
    assert [d["scores"][0] for d in a.summary()["deals"]] == [141, -149]
    b = spades(100, "human", "hard", "hard", "hard")
    spades_deal(b, ["nil", 3, 4, 3], [0, 4, 5, 4])
    c = spades(50, "human", "normal", "normal", "normal")
    spades_deal(c, [4, 3, 4, 3], [3, 5, 3, 2])
    assert b.summary()["winner"] == [0] and c.summary()["winner"] == [1] and not a.is_over
    for name, g in (("a.json", a), ("b.json", b), ("c.json", c)):
        save(home, name, g)
    rows = figures()
    hard = rows[("spades", "hard")]
    assert (hard["games"], hard["in_progress"], hard["wins"], hard["deals"]) == (1, 1, 1, 3)
    assert hard["points_per_deal"] == round((141 - 149 + 141) / 3, 2)
    assert (hard["contracts"], hard["contracts_made"], hard["sets"]) == (3, 2, 1)
    assert (hard["nils_bid"], hard["nils_made"], hard["bags_per_deal"]) == (3, 2, 1.0)
    normal = rows[("spades", "normal")]
    assert (normal["games"], normal["wins"], normal["points_per_deal"]) == (1, 0, -80.0)
    assert (normal["contracts"], normal["contracts_made"], normal["sets"], normal["nils_bid"]) == (1, 0, 1, 0)
    both = rows[("spades", "all")]
    assert (both["games"], both["wins"], both["deals"], both["sets"]) == (2, 1, 4, 2)


def test_partnership_opponents_are_the_other_side() -> None:
    assert opponents_of(seat_kinds("human", "hard", "easy", "hard"), [[0, 2], [1, 3]], 0) == "hard"


# ---------------------------------------------------------------- eight of spades


def test_eight_of_spades_points_and_ace_hits(home: Path) -> None:
    g = new_game("eight-of-spades", seats=seats("human", "classic", "classic", "classic"))
    codes = [str(c) for c in DECK if str(c) != "AS"]
    cards = ["AS", *codes]
    grid = [cards[r * 7 : r * 7 + 7] for r in range(7)]
    g.apply({"type": "deal", "grid": grid, "illuminati": cards[49:52]})
    g.apply({"type": "flip", "seat": 0, "call": "C", "at": "grid", "row": 0, "col": 0})
    while g.to_move is not None:
        g.apply(g.legal_actions()[0])
    save(home, "eight.json", g)
    row = figures()[("eight-of-spades", "classic")]
    assert row["ace_hits"] == 1
    assert row["average_points"] == g.summary()["points"][0]
    assert row["wins"] == int(0 in g.summary()["winner"])


# ---------------------------------------------------------------- who "you" are, and filters


def test_you_are_seat_zero_or_the_first_person() -> None:
    assert you_of(seat_kinds("human", "human", "hard", "hard")) == 0
    assert you_of(seat_kinds("hard", "easy", "human", "human")) == 2
    assert you_of(seat_kinds("hard", "hard", "hard", "hard")) is None


def test_hot_seat_games_count_once_and_computer_only_games_not_at_all(home: Path) -> None:
    hot = new_game("hearts", ruleset={"pass_cycle": ["none"]}, seats=seats("human", "human", "hard", "hard"))
    moon_deal(hot, 1)
    bots = new_game("hearts", ruleset={"pass_cycle": ["none"]}, seats=seats("hard", "hard", "hard", "hard"))
    moon_deal(bots, 0)
    save(home, "hot.json", hot)
    save(home, "bots.json", bots)
    (home / "saves" / "broken.json").write_text("{")
    out = compute(list_entries()).to_json()
    assert [(r["opponents"], r["in_progress"], r["moons_against"]) for r in out["rows"]] == [("hard+human", 1, 1)]
    assert (out["broken"], out["without_a_person"]) == (1, 1)


def test_game_and_since_filters(home: Path) -> None:
    old = new_game("hearts", ruleset={"pass_cycle": ["none"]}, seats=seats("human", "hard", "hard", "hard"))
    moon_deal(old, 0)
    save(home, "old.json", old, updated="2026-01-01T10:00:00Z")
    new = spades(500, "human", "hard", "hard", "hard")
    spades_deal(new, [4, 3, 4, 3], [3, 5, 3, 2])
    save(home, "new.json", new, updated="2026-03-01T10:00:00Z")
    assert set(figures()) == {("hearts", "hard"), ("spades", "hard")}
    assert set(figures(game="hearts")) == {("hearts", "hard")}
    assert set(figures(since=dt.date(2026, 2, 1))) == {("spades", "hard")}
    assert set(figures(since=dt.date(2026, 3, 1))) == {("spades", "hard")}  # on the day counts
    assert figures(since=dt.date(2026, 3, 2)) == {}


def test_games_of_another_number_of_players_are_their_own_rows(home: Path) -> None:
    """A 3-player Hearts game is never counted with 4-player ones: a win among three is not a win among four."""
    for name, kinds in (("three.json", ("human", "easy", "easy")), ("four.json", ("human", "easy", "easy", "easy"))):
        g = new_game("hearts", ruleset={"players": len(kinds), "pass_cycle": ["none"]}, seats=seats(*kinds))
        save(home, name, g)
    rows = compute(list_entries()).to_json()["rows"]
    assert [(r["opponents"], r["players"], r["in_progress"]) for r in rows] == [("easy", 3, 1), ("easy", 4, 1)]
    # Beside another number's rows, the usual number's rows say theirs too.
    text = render(compute(list_entries()))
    assert "easy, 3 players" in text and "easy, 4 players" in text
    (home / "saves" / "three.json").unlink()
    assert "players" not in render(compute(list_entries()))


def test_an_empty_report_names_the_game_asked_for_and_counts_in_words(home: Path) -> None:
    assert render(compute(list_entries(), game="spades")) == "no spades games played yet"
    (home / "saves" / "broken.json").write_text("{")
    said = "no games played yet\n1 broken save not counted (see `cardtui saves`)"
    assert render(compute(list_entries())) == said, "a broken save is counted even with no game to count"
    g = new_game("hearts", ruleset={"pass_cycle": ["none"]}, seats=seats("human", "easy", "easy", "easy"))
    save(home, "h.json", g)
    assert render(compute(list_entries())).endswith("1 broken save not counted (see `cardtui saves`)")


# ---------------------------------------------------------------- the command


def test_the_stats_command(home: Path) -> None:
    g = new_game("hearts", ruleset={"pass_cycle": ["none"]}, seats=seats("human", "hard", "hard", "hard"))
    moon_deal(g, 0)
    save(home, "h.json", g, updated="2026-02-01T00:00:00Z")
    result = runner.invoke(cli.app, ["stats", "--json"])
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert out == compute(list_entries()).to_json()
    assert out["rows"][0]["moons_shot"] == 1
    text = runner.invoke(cli.app, ["stats"])
    assert text.exit_code == 0 and text.output == render(compute(list_entries())) + "\n"
    assert "moons shot" in text.output and "hard" in text.output
    empty = runner.invoke(cli.app, ["stats", "--since", "2026-03-01"])
    assert empty.exit_code == 0 and empty.output.strip() == "no games played yet since 2026-03-01"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--game", "bridge"], "unknown game 'bridge'"),
        (["--since", "yesterday"], "--since: expected a date like"),
        (["--since", "2026-13-01"], "--since: expected a date like"),
    ],
)
def test_bad_stats_input_is_one_line_and_status_2(args: list[str], says: str) -> None:
    result = runner.invoke(cli.app, ["stats", *args])
    assert result.exit_code == 2
    assert says in result.output and result.output.count("\n") == 1 and "Traceback" not in result.output


def test_the_saves_command_reads_the_catalog(home: Path) -> None:
    g = new_game("hearts", ruleset={"pass_cycle": ["none"]}, seats=seats("human", "hard", "hard", "hard"))
    moon_deal(g, 0)
    save(home, "h.json", g)
    (home / "saves" / "broken.json").write_text("{")
    first = runner.invoke(cli.app, ["saves"])
    assert first.exit_code == 0
    assert (home / "catalog.sqlite").is_file()
    (home / "saves" / "broken.json").unlink()
    second = runner.invoke(cli.app, ["saves"])
    lines = second.output.splitlines()
    assert lines[0].split() == ["FILE", "GAME", "UPDATED", "STATUS", "SCORE"]
    assert (
        len(lines) == 2
        and lines[1].startswith("h.json")
        and "in progress" in lines[1]
        and "0 / 26 / 26 / 26" in lines[1]
    )
    assert "broken.json" in first.output and "broken: not valid JSON" in first.output


def test_a_link_round_in_a_loop_in_the_saves_folder_is_a_broken_save(home: Path) -> None:
    """The statistics (the screen and the command) ended in a traceback over such a link."""
    saves = home / "saves"
    saves.mkdir(parents=True, exist_ok=True)
    (saves / "a.json").symlink_to("b.json")
    (saves / "b.json").symlink_to("a.json")
    for args in (["stats"], ["stats", "--json"]):
        result = runner.invoke(cli.app, args)
        assert result.exit_code == 0 and result.exception is None, result.output
    assert json.loads(result.output)["broken"] == 2
