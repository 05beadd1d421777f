"""The command line: every command, and every user error is exit 2 with one line on stderr."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cardtui import cli
from cardtui.api import open_game
from cardtui.cli import app
from cardtui.replay import Replay
from cardtui.rules import load_preset, load_ruleset
from cardtui.saves import remember_last_game
from cardtui.session import Session
from tests.support.cli import bad, ok, runner

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "saves"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CARDTUI_ASCII", "")
    return tmp_path / "home"


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[object, ...]]]:
    """Record what the commands hand to the full-screen app instead of starting it (an opened game as its path,
    its lock let go)."""
    calls: list[tuple[str, tuple[object, ...]]] = []

    def record(name: str, args: tuple[object, ...]) -> None:
        for arg in args:
            if isinstance(arg, Session):
                arg.close()
        calls.append((name, tuple(a.save_path if isinstance(a, Session) else a for a in args)))

    for name in ("launch_menu", "launch_play", "launch_resume", "launch_replay"):
        monkeypatch.setattr(cli, name, lambda *args, _name=name: record(_name, args))
    return calls


def test_help_lists_the_commands() -> None:
    out = ok("--help")
    assert "play" in out and "inspect" in out and "rules" in out


def test_each_command_is_one_line_in_the_list_of_commands() -> None:
    """On a wide terminal no description in `cardtui --help` (or `rules --help`) breaks before the line is full."""
    for command in ([], ["rules"]):
        out = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"}).stdout
        rows = [line for line in out[out.index("Commands") :].splitlines() if line.startswith("│ ")]
        assert len(rows) >= 3, out
        continued = [row for row in rows if row[2] == " " and row.strip("│ ")]  # no command name: a broken line
        assert not continued, out


def test_a_commands_help_names_the_registrys_games_and_player_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game added to the registry is named in the help of every command that takes a game."""
    import cardtui.variants

    commands = (["play"], ["host"], ["arena"], ["rules", "new"])
    for command in commands:  # shown once before: the words are filled in again, not kept from the first time
        assert "eight-of-spades" in runner.invoke(app, [*command, "--help"], env={"COLUMNS": "300"}).stdout
    names = (*cardtui.variants.game_names(), "whist")
    monkeypatch.setattr(cardtui.variants, "game_names", lambda: names)
    for command in commands:
        result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "300"})
        assert result.exit_code == 0, result.stderr
        assert "hearts, spades, cutthroat, eight-of-spades or whist" in result.stdout, command
    wide = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "300"})
    assert "players at the table (Hearts: 3-6; Cutthroat Spades: 3-4; Eight of Spades: 2-8)" in wide.stdout
    bad("host", match="say which game to host (hearts, spades, cutthroat, eight-of-spades or whist)")


def test_the_commands_list_does_not_load_the_games() -> None:
    """`cardtui --help` stays fast: the registry (every engine) is imported only once a command is chosen."""
    code = (
        "import sys\nfrom cardtui.cli import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        "print('cardtui.variants' in sys.modules, 'cardtui.games' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False False"


def test_no_command_opens_the_menu(launched: list[tuple[str, tuple[object, ...]]]) -> None:
    ok()
    assert [name for name, _ in launched] == ["launch_menu"]


def test_without_a_terminal_the_app_says_so() -> None:
    bad("play", "hearts", match="the full-screen app needs a terminal")
    bad(match="the full-screen app needs a terminal")


def test_version() -> None:
    from cardtui import __version__

    assert ok("version").strip() == __version__


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.json")))
def test_samples_inspect_json_matches_engine_and_replays(name: str) -> None:
    summary = json.loads(ok("inspect", str(SAMPLES / name), "--json"))
    game = open_game(SAMPLES / name)
    assert summary == game.summary()
    engine = game.engine
    assert summary["totals"] == list(engine.scores)
    assert summary["status"] == ("finished" if engine.is_over else "in_progress")
    assert summary["actions"] == len(game.log)
    replay = Replay.open(SAMPLES / name)
    replay.start()
    while not replay.at_end:
        replay.forward()
    assert replay.game.scores == engine.scores and replay.game.to_move == engine.to_move
    if name == "hearts-mid-deal.json":
        assert summary["status"] == "in_progress" and summary["to_move"] == {"seat": 0, "phase": "play"}
    else:
        assert summary["status"] == "finished" and summary["winner"]
    text = ok("inspect", str(SAMPLES / name))
    assert name in text and "totals:" in text


def test_inspect_says_eight_of_spades_points_once() -> None:
    lines = ok("inspect", str(SAMPLES / "eight-of-spades.json")).splitlines()
    assert "totals: South 17, West 23, North 8, East 13" in lines and "eliminated: North" in lines
    assert not any(line.startswith("points:") for line in lines), "the totals are the points"


def test_inspect_tells_a_nil_from_a_blind_nil_in_its_text_and_json() -> None:
    lines = ok("inspect", str(SAMPLES / "spades.json")).splitlines()
    assert "deal 2: dealer 1, bids 5 nil nil 4, tricks 6 0 3 4, scores -46 140" in lines
    assert "deal 7: dealer 2, bids bnil 2 2 4, tricks 0 2 6 5, scores 124 61" in lines
    assert "b = blind (bnil: a blind nil)" in lines
    assert not any(line.startswith("b = ") for line in ok("inspect", str(SAMPLES / "cutthroat.json")).splitlines())
    deals = json.loads(ok("inspect", str(SAMPLES / "spades.json"), "--json"))["deals"]
    assert (deals[1]["bids"], deals[1]["blind"]) == ([5, 0, 0, 4], [False] * 4)
    assert (deals[6]["bids"], deals[6]["blind"]) == ([0, 2, 2, 4], [True, False, False, False])


def test_inspect_errors(tmp_path: Path) -> None:
    bad("inspect", str(tmp_path / "none.json"), match="no such file")
    (tmp_path / "b.json").write_text("{")
    bad("inspect", str(tmp_path / "b.json"), match="b.json: not valid JSON")
    data = json.loads((SAMPLES / "spades.json").read_text())
    data["ruleset"]["win_target"] = "500"
    (tmp_path / "r.json").write_text(json.dumps(data))
    bad(
        "inspect",
        str(tmp_path / "r.json"),
        match='r.json: ruleset.win_target: expected an integer 50..10000, found "500"',
    )
    data = json.loads((SAMPLES / "spades.json").read_text())
    data["log"][37], data["log"][38] = data["log"][38], data["log"][37]
    (tmp_path / "o.json").write_text(json.dumps(data))
    bad("inspect", str(tmp_path / "o.json"), match="o.json: log[37]: ")


def test_rules_list_show_new_validate(tmp_path: Path) -> None:
    listing = ok("rules", "list")
    for name in ("hearts", "spades", "spades-blind", "cutthroat", "eight-of-spades"):
        assert name in listing
    shown = ok("rules", "show", "spades-blind")
    assert 'name = "spades-blind"' in shown and "# " in shown
    out = tmp_path / "mine.toml"
    assert "wrote" in ok("rules", "new", "hearts", "--out", str(out))
    assert load_ruleset(out).game == "hearts"
    assert "ok" in ok("rules", "validate", str(out))
    printed = ok("rules", "new", "cutthroat")
    assert 'game = "cutthroat"' in printed
    bad("rules", "new", "hearts", "--out", str(out), match="already exists")
    ok("rules", "new", "eight-of-spades", "--out", str(out), "--force")


def test_rules_new_for_a_player_count_starts_from_that_counts_preset(tmp_path: Path) -> None:
    out = tmp_path / "three.toml"
    ok("rules", "new", "hearts", "--players", "3", "--out", str(out))
    three = load_ruleset(out)
    assert (three.name, three.seats, three.pass_cycle) == ("my-hearts-3", 3, ("left", "right"))  # type: ignore[attr-defined]
    assert 'name = "my-cutthroat-3"' in ok("rules", "new", "cutthroat", "--players", "3")
    assert 'name = "my-hearts"' in ok("rules", "new", "hearts", "--players", "4")
    # a count with no preset of its own: the game's preset at that count, named as house rules once
    assert "The hearts preset's notes; where a knob in this file says otherwise, the knob counts." in ok(
        "rules", "new", "hearts"
    )
    six = ok("rules", "new", "eight-of-spades", "--players", "6")
    assert 'name = "my-eight-of-spades"' in six and 'title = "My Eight of Spades"' in six
    assert 'description = "Eight of Spades with players 6 (was 4)."' in six
    bad("rules", "new", "spades", "--players", "3", match="--players: Spades is played by 4 players, not 3")
    bad("rules", "new", "hearts", "--players", "7", match="--players: Hearts takes 3 to 6 players, not 7")
    bad("rules", "new", "hearts", "--players", "x", match="--players takes a whole number of players")


def test_rules_new_starts_from_any_preset_and_show_prints_a_file_whole(tmp_path: Path) -> None:
    blind = ok("rules", "new", "spades-blind")
    assert 'game = "spades"' in blind and 'name = "my-spades-blind"' in blind and "bag_limit = 7" in blind
    assert 'name = "my-hearts-5"' in ok("rules", "new", "hearts-5", "--players", "5")
    bad("rules", "new", "hearts-5", "--players", "3", match="--players: hearts-5 is for 5 players, not 3")
    partial = tmp_path / "mine.toml"
    partial.write_text('game = "spades"\nbag_limit = 5\n')
    whole = ok("rules", "show", str(partial))
    assert "bag_limit = 5" in whole and "win_target = 500" in whole and "# " in whole
    (tmp_path / "whole.toml").write_text(whole)
    assert load_ruleset(tmp_path / "whole.toml") == load_ruleset(partial)
    bad("rules", "show", str(tmp_path / "missing.toml"), match="no such file")
    bad("rules", "show", "poker", match="no preset named")


def test_rules_new_says_what_is_wrong_with_where_it_writes(tmp_path: Path) -> None:
    bad("rules", "new", "hearts", "--out", "", match="--out: no file name given: write the path of a .toml file")
    bad("rules", "new", "hearts", "--out", str(tmp_path), "--force", match=f"{tmp_path}: is a folder")
    long = tmp_path / ("y" * 300 + ".toml")
    bad("rules", "new", "hearts", "--out", str(long), match="cannot write it (File name too long)")
    # --force replaces a file, never what is not one: a link round in a loop, a FIFO, a device behind a link
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    bad("rules", "new", "hearts", "--out", str(loop), "--force", match="a link that leads round in a loop")
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    bad("rules", "new", "hearts", "--out", str(fifo), "--force", match="is a named pipe (FIFO), not a file to write")
    device = tmp_path / "device.toml"
    device.symlink_to(os.devnull)
    bad("rules", "new", "hearts", "--out", str(device), "--force", match="is a device, not a file to write")
    assert stat.S_ISFIFO(fifo.stat().st_mode) and stat.S_ISCHR(Path(os.devnull).stat().st_mode)
    # a line break in the name is shown, not printed: it cannot forge a second line of output
    broken = tmp_path / "a\nb.toml"
    assert ok("rules", "new", "hearts", "--out", str(broken)).splitlines() == [f"wrote {tmp_path}/a\\nb.toml"]
    assert ok("rules", "validate", str(broken)).splitlines()[0].startswith(f"{tmp_path}/a\\nb.toml: ok")


def test_rules_errors(tmp_path: Path) -> None:
    bad("rules", "show", "nope", match='no preset named "nope"')
    bad("rules", "new", "chess", match="unknown game 'chess'")
    bad("rules", "validate", str(tmp_path / "none.toml"), match="no such file")
    (tmp_path / "broken.toml").write_text("game = [")
    bad("rules", "validate", str(tmp_path / "broken.toml"), match="not valid TOML")
    (tmp_path / "wrong.toml").write_text('game = "spades"\nwin_target = "500"\n')
    bad("rules", "validate", str(tmp_path / "wrong.toml"), match="win_target: expected an integer 50..10000")
    bad("rules", "new", "hearts", "--out", str(tmp_path / "no" / "x.toml"), match="cannot write")


def test_play_validates_then_launches(tmp_path: Path, launched: list[tuple[str, tuple[object, ...]]]) -> None:
    ok("play", "hearts", "--seed", "3")
    name, (ruleset, seats, seed, save, speed, ascii_only) = launched[-1]
    assert name == "launch_play" and ruleset.name == "hearts" and seed == 3 and save is None  # type: ignore[attr-defined]
    assert speed is None and len(seats) == 4 and ascii_only is None  # type: ignore[arg-type]
    ok("play", "spades", "--rules", "spades-blind", "--speed", "fast")
    assert launched[-1][1][0].name == "spades-blind" and launched[-1][1][4] == "fast"  # type: ignore[attr-defined]
    ok("play", "eight-of-spades", "--players", "6", "--bots", "random")
    assert len(launched[-1][1][1]) == 6  # type: ignore[arg-type]
    for game, players, preset in (
        ("hearts", 3, "hearts-3"),
        ("hearts", 6, "hearts-6"),
        ("cutthroat", 3, "cutthroat-3"),
    ):
        ok("play", game, "--players", str(players), "--bots", "hard")
        assert launched[-1][1][0].name == preset and len(launched[-1][1][1]) == players  # type: ignore[attr-defined,arg-type]
    ok("play", "hearts", "--players", "4")
    assert launched[-1][1][0].name == "hearts"  # type: ignore[attr-defined]
    toml = tmp_path / "c.toml"
    toml.write_text(ok("rules", "show", "cutthroat"))
    ok("play", "cutthroat", "--rules", str(toml), "--save", str(tmp_path / "g.json"))
    assert launched[-1][1][3] == tmp_path / "g.json"
    ok("play", "hearts", "--ascii")
    assert launched[-1][1][5] is True
    ok("--ascii", "play", "hearts")
    assert launched[-1][1][5] is True
    assert os.environ["CARDTUI_ASCII"] == "", "the flag travels as an argument, not through the environment"


def test_play_errors(tmp_path: Path) -> None:
    bad("play", "chess", match="unknown game 'chess'")
    bad("play", "hearts", "--rules", "nope", match="no preset named")
    bad("play", "hearts", "--rules", "spades", match="are for spades, not hearts — give spades as the game to use them")
    bad("play", "hearts", "--rules", str(tmp_path / "x.toml"), match="no such file")
    (tmp_path / "broken.toml").write_text("game = [")
    bad("play", "hearts", "--rules", str(tmp_path / "broken.toml"), match="not valid TOML")
    bad("play", "hearts", "--players", "7", match="--players: Hearts takes 3 to 6 players, not 7")
    bad("play", "spades", "--players", "3", match="--players: Spades is played by 4 players, not 3")
    bad("play", "eight-of-spades", "--players", "9", match="--players")
    bad("play", "hearts", "--bots", "godlike", match="--bots: unknown level")
    bad("play", "hearts", "--speed", "warp", match="--speed")
    bad("play", "hearts", "--seed", "-1", match="--seed")
    (tmp_path / "taken.json").write_text("{}")
    bad("play", "hearts", "--save", str(tmp_path / "taken.json"), match="already exists")
    bad("play", "hearts", "--save", str(tmp_path / "no" / "g.json"), match="does not exist")


def last(launched: list[tuple[str, tuple[object, ...]]]) -> tuple[str, tuple[object, ...]]:
    """The latest launch (a call, so one comparison does not narrow the next)."""
    return launched[-1]


def test_resume_and_replay(home: Path, tmp_path: Path, launched: list[tuple[str, tuple[object, ...]]]) -> None:
    ok("resume", str(SAMPLES / "hearts-mid-deal.json"))
    ok("replay", str(SAMPLES / "hearts.json"))
    assert launched == [
        ("launch_resume", (SAMPLES / "hearts-mid-deal.json", None, None)),
        ("launch_replay", (SAMPLES / "hearts.json", None)),
    ]
    bad("resume", str(SAMPLES / "hearts.json"), match="the game is finished")
    bad("resume", match="no unfinished game")
    bad("replay", str(tmp_path / "none.json"), match="no such file")
    bad("resume", str(tmp_path / "none.json"), match="no such file")
    (home / "saves").mkdir(parents=True)
    (home / "saves" / "hearts-20260101-000000.json").write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    ok("resume")
    assert last(launched) == ("launch_resume", (home / "saves" / "hearts-20260101-000000.json", None, None))
    ok("resume", str(SAMPLES / "hearts-mid-deal.json"), "--speed", "fast")
    assert last(launched) == ("launch_resume", (SAMPLES / "hearts-mid-deal.json", "fast", None))
    bad("resume", str(SAMPLES / "hearts-mid-deal.json"), "--speed", "warp", match="--speed: expected one of")
    ok("replay", "--ascii", str(SAMPLES / "hearts.json"))
    assert last(launched) == ("launch_replay", (SAMPLES / "hearts.json", True))


def test_resume_without_a_save_opens_the_last_game_played_wherever_it_is_saved(
    home: Path, tmp_path: Path, launched: list[tuple[str, tuple[object, ...]]]
) -> None:
    (home / "saves").mkdir(parents=True)
    newer = home / "saves" / "hearts-20990101-000000.json"
    newer.write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    mine = tmp_path / "sp1.json"
    mine.write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    remember_last_game(mine)  # as the app notes it when the game opens (before any kill -9)
    ok("resume")
    assert last(launched) == ("launch_resume", (mine, None, None))
    mine.unlink()  # gone: the newest unfinished game in the saves folder, as before
    ok("resume")
    assert last(launched) == ("launch_resume", (newer, None, None))


def test_saves_listing(home: Path) -> None:
    assert "no saved games" in ok("saves")
    (home / "saves").mkdir(parents=True)
    for name in ("hearts.json", "hearts-mid-deal.json", "eight-of-spades.json"):
        (home / "saves" / name).write_bytes((SAMPLES / name).read_bytes())
    (home / "saves" / "junk.json").write_text("[]")
    out = ok("saves")
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert set(rows) == {"hearts.json", "hearts-mid-deal.json", "eight-of-spades.json", "junk.json"}
    assert "finished" in rows["hearts.json"] and rows["hearts.json"].endswith("75 / 108 / 60 / 95")
    assert "in progress" in rows["hearts-mid-deal.json"] and rows["hearts-mid-deal.json"].endswith("5 / 14 / 4 / 3")
    assert "finished" in rows["eight-of-spades.json"] and rows["eight-of-spades.json"].endswith("17 / 23 / 8 / 13")
    assert "broken: not a cardtui save" in rows["junk.json"]


def test_subprocess_python_m_cardtui(tmp_path: Path) -> None:
    env = dict(os.environ, CARDTUI_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "cardtui", "inspect", "--json", str(SAMPLES / "hearts.json")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["game"] == "hearts"
    done = subprocess.run(
        [sys.executable, "-m", "cardtui", "inspect", str(tmp_path / "none.json")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_replay_of_an_unfinished_game_shows_its_finished_deals_as_review_weighs_them(
    tmp_path: Path, launched: list[tuple[str, tuple[object, ...]]]
) -> None:
    """`replay` and `review` tell one story of a game in progress: its finished deals are watched and weighed,
    never the deal being played; with no deal finished both refuse with the same sentence."""
    import json

    from cardtui.replay import Replay

    mid = SAMPLES / "hearts-mid-deal.json"
    ok("replay", str(mid))
    assert launched[-1] == ("launch_replay", (mid, None))
    replay = Replay.open_watchable(mid)  # what the app then opens: the finished deals only
    assert replay.in_progress and 0 < len(replay) < len(json.loads(mid.read_text())["log"])
    said = ok("review", str(mid), "--budget-ms", "5").splitlines()[0]
    assert said.endswith("in progress (its finished deals reviewed)")
    early = tmp_path / "early.json"
    data = json.loads(mid.read_text())
    data["log"] = data["log"][:20]  # the first deal still being played
    early.write_text(json.dumps(data))
    said = "early.json: no deal of this game has finished yet; its finished deals can be watched and reviewed once"
    bad("replay", str(early), match=said)
    bad("review", str(early), match=said)
    assert len(launched) == 1


def test_rules_that_name_their_count_are_not_reseated_by_players(
    tmp_path: Path, launched: list[tuple[str, tuple[object, ...]]]
) -> None:
    """A preset for a count, or a file that writes `players`, plays at that count: another `--players` (or a
    `--seats` list of another length) is refused in one line naming the preset for the count asked."""
    bad(
        "play", "hearts", "--players", "3", "--rules", "hearts-5",
        match="--players: the rules hearts-5 are for 5 players, not 3 — leave --players out, or give --rules hearts-3",
    )  # fmt: skip
    bad(
        "play", "cutthroat", "--seats", "you,bot,bot,bot", "--rules", "cutthroat-3",
        match="--seats: the rules cutthroat-3 are for 3 players, but --seats lists 4 — list 3, or give --rules cut",
    )  # fmt: skip
    bad(
        "arena", "hearts", "--seats", "easy,easy,easy", "--rules", "hearts-5", "--games", "1",
        match="--seats: the rules hearts-5 are for 5 players, but --seats lists 3 — list 5, or give --rules hearts-3",
    )  # fmt: skip
    house = tmp_path / "h5.toml"
    house.write_text(ok("rules", "show", "hearts-5").replace("end_score = 100", "end_score = 50"))
    bad(
        "play", "hearts", "--rules", str(house), "--players", "3",
        match="are for 5 players, not 3 — change players in the file (a fresh one: `cardtui rules new hearts "
        "--players 3`), or leave --players out",
    )  # fmt: skip
    assert not launched
    ok("play", "hearts", "--rules", str(house), "--players", "5")
    ok("play", "hearts", "--rules", "hearts-5")
    assert [launched[-2][1][0].seats, launched[-1][1][0].seats] == [5, 5]  # type: ignore[attr-defined]


def test_rules_that_name_no_count_are_reseated_alike_for_a_preset_and_a_file(
    tmp_path: Path, launched: list[tuple[str, tuple[object, ...]]]
) -> None:
    """The game's own preset and a file without `players` take `--players`; the knobs a file leaves out come
    from the preset for that count, so nobody is told about a knob they never wrote."""
    plain = tmp_path / "plain.toml"
    plain.write_text('game = "hearts"\nend_score = 50\n')
    ok("play", "hearts", "--rules", "hearts", "--players", "3")
    ok("play", "hearts", "--rules", str(plain), "--players", "3")
    preset, mine = launched[-2][1][0], launched[-1][1][0]
    assert (preset.name, preset.seats) == ("hearts-3", 3)  # type: ignore[attr-defined]
    assert (mine.seats, mine.pass_cycle, mine.end_score) == (3, ("left", "right"), 50)  # type: ignore[attr-defined]
    three = tmp_path / "three.toml"
    three.write_text('game = "hearts"\nplayers = 3\n')
    assert ": ok — hearts rules" in ok("rules", "validate", str(three))


def test_a_file_bearing_a_presets_name_for_another_count_is_refused(
    tmp_path: Path, launched: list[tuple[str, tuple[object, ...]]]
) -> None:
    named = tmp_path / "named.toml"
    named.write_text('game = "hearts"\nname = "hearts-3"\nplayers = 4\n')
    said = 'name: "hearts-3" is the name of the preset for 3 players, but these rules have players = 4'
    bad("play", "hearts", "--rules", str(named), match=said)
    bad("rules", "validate", str(named), match=said)
    for game in ("hearts", "cutthroat"):
        own = tmp_path / f"own-{game}.toml"
        own.write_text(f'game = "{game}"\nname = "{game}"\nplayers = 3\n')
        said = f'name: "{game}" is the name of the preset for 4 players, but these rules have players = 3'
        bad("rules", "validate", str(own), match=said)
    assert not launched


def test_house_rules_for_three_that_say_across_are_told_what_pass_to_give(tmp_path: Path) -> None:
    three = tmp_path / "three.toml"
    three.write_text('game = "hearts"\nplayers = 3\npass_cycle = ["left", "across"]\n')
    bad(
        "rules",
        "validate",
        str(three),
        match='pass_cycle: with 3 players no seat sits across; allowed: "left", "right" and "none"'
        ' — give pass_cycle = ["left", "right"] as the hearts-3 preset does',
    )
    three.write_text('game = "hearts"\nplayers = 3\npass_cycle = ["left", "right"]\n')
    assert ": ok — hearts rules" in ok("rules", "validate", str(three))


def test_an_unknown_key_is_told_with_whole_key_names_and_how_many_more(tmp_path: Path) -> None:
    import dataclasses

    from cardtui.rules import HeartsRules, SpadesRules

    for game, cls in (("hearts", HeartsRules), ("cutthroat", SpadesRules)):
        path = tmp_path / f"{game}.toml"
        path.write_text(f'game = "{game}"\nremoved = ["2C"]\nbag_limt = 1\n')
        result = runner.invoke(app, ["rules", "validate", str(path)])
        assert result.exit_code == 2
        (line,) = result.stderr.strip().splitlines()
        assert "removed: unknown key; the keys allowed are " in line and not line.endswith("..."), line
        listed, _, rest = line.split("the keys allowed are ")[1].partition(" and ")
        names = {f.name for f in dataclasses.fields(cls)}
        shown = listed.split(", ")
        assert set(shown) <= names, shown
        assert rest == f"{len(names) - len(shown)} more (`cardtui rules show {game}` lists them all)"
    path = tmp_path / "typo.toml"
    path.write_text('game = "spades"\nbag_limt = 1\n')
    bad("rules", "validate", str(path), match="bag_limt: unknown key (did you mean bag_limit?); the keys allowed")


@pytest.mark.parametrize("given", ["abc", "3.5", "", "-1", "٣"])
def test_players_that_is_no_whole_number_is_told_the_counts_each_game_takes(given: str) -> None:
    bad(
        "play",
        "hearts",
        "--players",
        given,
        match="--players takes a whole number of players (Hearts 3-6, Spades 4, Cutthroat Spades 3-4, "
        f"Eight of Spades 2-8), found {given!r}",
    )


def test_bots_lists_the_menus_levels_and_still_takes_the_reference_ones(
    launched: list[tuple[str, tuple[object, ...]]],
) -> None:
    bad("play", "hearts", "--bots", "insane", match="--bots: unknown level 'insane' — choose one of easy, normal, hard")
    bad("play", "eight-of-spades", "--bots", "x", match="choose one of easy, classic, hard")
    ok("play", "hearts", "--bots", "hard-v1")
    assert len(launched) == 1


def test_save_that_is_a_folder_or_empty_is_told_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scratch").mkdir()
    bad(
        "play",
        "hearts",
        "--save",
        "scratch",
        match="--save scratch: a folder, not a save file; give a file name for the new game, like scratch/game.json",
    )
    bad("play", "hearts", "--save", ".", match="--save .: a folder, not a save file")
    bad("play", "hearts", "--save", "", match="--save: the file name is empty; give the file to save the new game in")


def test_a_device_or_a_file_on_the_way_is_no_place_for_a_new_save_or_ruleset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--save /dev/null` was offered as a game to resume, a file where a folder should be was called a missing
    folder, and `rules new --out /dev/null` suggested --force."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    device = "--save /dev/null: a device, not a save file; give a file name for the new game, like --save game.json"
    bad("play", "hearts", "--save", "/dev/null", match=device)
    bad("host", "hearts", "--save", "/dev/null", match=device)
    on_the_way = "--save notes.txt/deep/game.json: notes.txt is a file, not a folder; choose a file in a folder"
    bad("play", "hearts", "--save", "notes.txt/deep/game.json", match=on_the_way)
    bad("host", "hearts", "--save", "notes.txt/deep/game.json", match=on_the_way)
    bad("play", "hearts", "--save", "loop/game.json", match="--save loop/game.json: loop is a link that leads round")
    bad("host", "hearts", "--save", "x" * 300 + "/game.json", match="cannot be written (File name too long)")
    for force in ([], ["--force"]):
        bad("rules", "new", "hearts", "--out", "loop", *force, match="--out: loop: a link that leads round in a loop")
    for force in ([], ["--force"]):
        bad("rules", "new", "hearts", "--out", "/dev/null", *force, match="--out: /dev/null: is a device, not a file")
    bad("rules", "new", "hearts", "--out", "notes.txt/x.toml", match="notes.txt is a file, not a folder")
    assert (tmp_path / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize(
    ("command", "name", "said"),
    [
        ("play", "a\nb.json", "a\\nb.json: already exists — resume it with `cardtui resume $'a\\x0ab.json'`"),
        (
            "host",
            "my game.json",
            "my game.json: already exists — re-open it with `cardtui host --resume 'my game.json'`",
        ),
    ],
)
def test_a_taken_save_name_is_shown_escaped_with_the_commands_own_way_back_that_a_shell_runs(
    command: str, name: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("{}")
    bad(command, "hearts", "--save", name, match=said)


def test_an_error_shows_a_line_break_or_tab_in_a_name_escaped_not_as_a_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`x<newline>y.json` was said as `x y.json`, another file's name."""
    monkeypatch.chdir(tmp_path)
    bad("inspect", "x\ny.json", match="x\\ny.json: no such file")
    (tmp_path / "a\tb.json").write_text('{"a":')
    bad("replay", "a\tb.json", match="a\\tb.json: not valid JSON")


def test_a_very_long_name_keeps_the_reason_at_the_end_of_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name of thousands of characters filled the line and the reason was cut away."""
    monkeypatch.chdir(tmp_path)
    bad("inspect", "x/" * 3000, match="x/x/x: cannot be read (File name too long)")
    bad("inspect", "a" * 3000, match="aaa: cannot be read (File name too long)")


def test_a_save_name_that_is_a_dangling_link_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "already exists — resume it", and resume then said it could not write in a missing folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dl.json").symlink_to(tmp_path / "gone" / "target.json")
    said = f"--save dl.json: a link to {tmp_path}/gone/target.json, which does not exist; remove the link or choose"
    bad("play", "hearts", "--save", "dl.json", match=said)


def test_a_save_link_round_in_a_loop_is_refused_in_a_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`resume` of such a link printed a traceback; `--save` said the link's target does not exist."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.json").symlink_to("two.json")
    (tmp_path / "two.json").symlink_to("one.json")
    bad("resume", "one.json", match="one.json: a link that leads round in a loop, to no file")
    bad("play", "hearts", "--save", "one.json", match="--save one.json: a link that leads round in a loop, to no file")
    (tmp_path / "chain.json").symlink_to("dl.json")
    (tmp_path / "dl.json").symlink_to("gone.json")
    bad("play", "hearts", "--save", "chain.json", match="--save chain.json: a link to dl.json, which does not exist")


def test_inspect_shows_a_line_break_in_the_name_escaped(tmp_path: Path) -> None:
    path = tmp_path / "new\nline.json"
    Session.new(load_preset("hearts"), None, 5, save_path=path).close()
    said = ok("inspect", str(path))
    assert said.startswith("new\\nline.json: hearts, rules hearts, in progress"), said


def test_a_saves_folder_that_is_not_one_is_said_and_broken_links_are_listed(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "saves").write_text("junk")
    for command in ("saves", "stats"):
        bad(command, match=f"{home / 'saves'}: is not a folder, so it holds no saves")
    (home / "saves").unlink()
    (home / "saves").mkdir()
    (home / "saves" / "dangling.json").symlink_to(home / "nowhere.json")
    (home / "saves" / "loop.json").symlink_to(home / "saves" / "loop.json")
    listed = ok("saves")
    assert "dangling.json" in listed and "broken: no such file" in listed
    assert "loop.json" in listed and "broken: cannot be read (Too many levels of symbolic links)" in listed


def test_rules_through_a_broken_link_are_said_to_be_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    """A link named as the rules is the player's file, not a preset's name: a loop or a link to nothing says so."""
    loop, dangling = tmp_path / "loop", tmp_path / "dangling"
    loop.symlink_to(loop)
    dangling.symlink_to(tmp_path / "nowhere.toml")
    with contextlib.chdir(tmp_path):  # named as a player would, without a folder or .toml
        seats = ["--seats", "easy,easy,easy,easy"]
        bad(
            "arena",
            "hearts",
            *seats,
            "--rules",
            "loop",
            match="loop: cannot be read (Too many levels of symbolic links)",
        )
        bad("arena", "hearts", *seats, "--rules", "dangling", match="dangling: no such file")
        bad("rules", "show", "loop", match="loop: cannot be read")
