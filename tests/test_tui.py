"""Pilot tests: whole deals of every game played with typed card codes against computer players."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input, Select, Static

from cardtui.games.base import Bid
from cardtui.rules import load_preset, load_ruleset
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.screens.new_game import NewGameScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.prompt_bar import PromptBar
from tests.support.tui import (
    dialog_message,
    game_screen,
    laid_out,
    make_app,
    open_rules_editor,
    pass_first_cards,
    play_turns,
    settle,
    settled_at,
    type_text,
)

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


@pytest.mark.parametrize("preset", ["hearts", "spades", "cutthroat", "spades-blind"])
async def test_a_whole_deal_with_typed_codes(preset: str) -> None:
    app, session = make_app(preset)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, until_deals=1)
        assert len(session.game.deal_records) >= 1  # type: ignore[attr-defined]
        assert any(isinstance(s, TableScreen) for s in app.screen_stack)
        assert session.save_path is not None and session.save_path.exists()


async def test_eight_of_spades_whole_game_with_calls_and_coordinates() -> None:
    app, session = make_app("eight-of-spades", level="easy")
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, until_deals=1)
        await settle(pilot, app)
        assert session.is_over
        assert isinstance(app.screen, GameEndScreen)
        await pilot.press("r")
        assert isinstance(app.screen, ReplayScreen)


async def test_bad_input_says_why_and_changes_nothing() -> None:
    app, session = make_app("hearts", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await settled_at(pilot, app, PassScreen)
        await type_text(pilot, "zz")
        assert "not a card" in dialog_message(dialog)
        held = dialog.cards
        missing = next(c for c in session.game.hand(1) if c not in held)  # type: ignore[attr-defined]
        await type_text(pilot, missing.code)
        assert f"you don't hold {missing.code}" in dialog_message(dialog)
        await type_text(pilot, held[0].code)
        await type_text(pilot, held[0].code.lower())  # typed again: unselected
        assert dialog.chosen == []
        await pilot.press("enter")
        assert app.screen is dialog and "choose exactly 3" in dialog_message(dialog)
        for card in held[:3]:
            await type_text(pilot, card.code)
        await pilot.press("enter")
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, TableScreen)
        before = len(session.log)
        hand = session.game.hand(0)  # type: ignore[attr-defined]
        legal = {a.card for a in session.game.legal_actions()}  # type: ignore[attr-defined]
        illegal = [c for c in hand if c not in legal]
        if illegal:
            await type_text(pilot, illegal[0].code)
            assert table.query_one(PromptBar).message
            assert len(session.log) == before
        await type_text(pilot, "11x")
        assert "not a card" in table.query_one(PromptBar).message
        assert len(session.log) == before
        # arrows and Enter play the card under the cursor (the first legal one)
        await pilot.press("right", "left", "enter")
        await settle(pilot, app)
        assert len(session.log) > before


async def test_hint_last_trick_speed_and_help() -> None:
    app, session = make_app("cutthroat", seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        await type_text(pilot, "fourteen")
        assert "not a bid" in dialog_message(dialog)
        await type_text(pilot, "nil")
        await settle(pilot, app)
        bids = [b for b in session.game.view(0).detail.bids if b is not None]  # type: ignore[attr-defined]
        assert Bid(0, 0, False) in bids
        table = app.screen
        assert isinstance(table, TableScreen)
        await pilot.press("f2")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert table.query_one(PromptBar).message.startswith("Hint (hard):")
        await pilot.press("f4")  # faster than instant: there is none, and it says so
        assert app.settings.speed == "instant"
        assert table.query_one(PromptBar).message == "Speed: instant already, the fastest; shift+F4 slows down."
        await pilot.press("shift+f4")
        assert app.settings.speed == "fast"
        await pilot.press("f4", "shift+f4", "shift+f4")
        assert app.settings.speed == "normal"
        await pilot.press("f1")
        assert app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.press("f3")
        assert "No trick" in table.query_one(PromptBar).message


async def test_blind_bid_before_the_hand_is_shown() -> None:
    app, session = make_app("spades-blind", seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        bid_screen = app.screen
        assert isinstance(bid_screen, BidScreen) and bid_screen.blind_stage
        table = app.screen_stack[-2]
        assert table.query_one(Hand).face_down
        await type_text(pilot, "blind 4")
        await settle(pilot, app)
        assert session.game.view(0).detail.bids[0] == Bid(0, 4, True)  # type: ignore[attr-defined]
        assert not table.query_one(Hand).face_down


async def test_hot_seat_hides_the_hand_between_people() -> None:
    app, _session = make_app("hearts", seed=2, humans=(0, 2))
    async with app.run_test(size=(100, 30)) as pilot:
        seen: set[int] = set()
        for _ in range(12):
            await settle(pilot, app)
            if isinstance(app.screen, HotSeatScreen):
                table = app.screen_stack[-2]
                assert isinstance(table, TableScreen)
                assert table.viewer is None and table.query_one(Hand).cards == []
                await pilot.press("space")
                await settle(pilot, app)
                seen.add(table.viewer or 0)
            elif isinstance(app.screen, PassScreen):
                await pass_first_cards(pilot, app.screen)
            else:
                break
        assert seen == {0, 2}


async def test_quit_says_where_the_save_is_and_resume_shows_the_same_hand(home: Path) -> None:
    app, session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=3)
        await settle(pilot, app)
        shown = list(app.screen.query_one(Hand).cards)
        await pilot.press("ctrl+q")
    assert app.return_value is not None
    assert f"cardtui resume {session.save_path}" in app.return_value
    again = Session.resume(session.save_path)  # type: ignore[arg-type]
    app2 = CardtuiApp(Start(session=again, resumed=True), Settings(speed="instant"))
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app2)
        assert list(app2.screen.query_one(Hand).cards) == shown


async def test_replay_steps_by_action_trick_and_deal() -> None:
    from cardtui.replay import Replay

    replay = Replay.open(SAMPLES / "hearts.json")
    app = CardtuiApp(Start(replay_path=SAMPLES / "hearts.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.replay.at_end
        await pilot.press("home")
        assert screen.replay.position == 0
        await pilot.press("pagedown")
        assert screen.replay.position == replay.deal_starts[0] + 1
        await pilot.press("down")
        assert screen.replay.position == replay.trick_ends[0]
        await pilot.press("right", "left", "left")
        assert screen.replay.position == replay.trick_ends[0] - 1
        await pilot.press("up", "end")
        assert screen.replay.at_end
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_menu_new_game_form_starts_a_game() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("enter")  # New game
        await pilot.pause()
        assert app.screen.__class__.__name__ == "NewGameScreen"
        app.screen.query_one("#seed", Input).value = "42"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert isinstance(app.screen, PassScreen)
        assert app.session is not None and app.session.seed == 42


async def test_continue_and_open_from_the_menu(home: Path) -> None:
    saves = home / "saves"
    saves.mkdir(parents=True)
    (saves / "hearts-20260101-000000.json").write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # Continue the last game
        await settle(pilot, app)
        assert app.session is not None and app.session.save_path == saves / "hearts-20260101-000000.json"


async def test_rules_editor_checks_as_you_type_and_saves_valid_toml(home: Path) -> None:

    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        knob = editor.query_one("#knob-win_target", Input)
        knob.value = "abc"
        await pilot.pause()
        assert "expected an integer 50..10000" in str(editor.query_one("#error-win_target", Static).content)
        assert knob.has_class("-invalid")
        await pilot.press("ctrl+s")
        assert "win_target" in str(editor.query_one("#form-message", Static).content)
        knob.value = "300"
        editor.query_one("#knob-name", Input).value = "house"
        minimum = editor.query_one("#knob-min_side_bid", Input)
        minimum.value = "18"
        await pilot.pause()
        assert "expected an integer 0..17" in str(editor.query_one("#error-min_side_bid", Static).content)
        minimum.value = "4"
        editor.query_one("#knob-on_tie", Input).value = "play_on"
        await pilot.pause()
        assert not knob.has_class("-invalid") and not minimum.has_class("-invalid")
        editor.query_one("#rules-path", Input).value = str(home / "house.toml")
        await pilot.click("#play")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "NewGameScreen"
    ruleset = load_ruleset(home / "house.toml")
    assert ruleset.win_target == 300 and ruleset.name == "house"  # type: ignore[attr-defined]
    assert ruleset.min_side_bid == 4 and ruleset.on_tie == "play_on"  # type: ignore[attr-defined]
    preset = load_preset("cutthroat")
    assert ruleset.game == preset.game and ruleset.notes.endswith(preset.notes)  # the preset's reading, kept
    assert ruleset.notes.startswith("The cutthroat preset's notes; where a knob in this file says otherwise")


async def test_a_preset_chosen_and_saved_in_one_burst_of_keys_is_the_one_saved(home: Path) -> None:
    """Down, Enter, ctrl+s typed fast at the open list of presets: ctrl+s reaches the screen before the list has
    made its choice, and the save waits for the chosen preset's rows instead of writing the one before."""
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        presets = editor.query_one("#preset", Select)
        presets.focus()
        await pilot.press("enter")
        assert presets.expanded and editor.base.name == "cutthroat"
        for key in ("down", "enter", "ctrl+s"):
            app.post_message(events.Key(key, "\r" if key == "enter" else None))
        message = editor.query_one("#form-message", Static)
        await laid_out(pilot, lambda: "Saved" in str(message.content), "the save's message")
        assert editor.base.name == presets.value == "cutthroat-3"
    saved = sorted((home / "rules").glob("*.toml"))
    assert [p.name for p in saved] == ["my-cutthroat-3.toml"]
    assert load_ruleset(saved[0]).players == 3  # type: ignore[attr-defined]


async def test_save_and_play_rules_for_three_opens_a_game_for_three(home: Path) -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        editor.query_one("#preset", Select).value = "cutthroat-3"
        # its rows in, as a person sees them before clicking
        await laid_out(pilot, lambda: editor.base.name == "cutthroat-3" and not editor.loading, "the preset's rows")
        await pilot.click("#play")
        await laid_out(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new-game form")
        assert app.screen.query_one("#players", Select).value == 3
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert game_screen(app).session.ruleset.seats == 3


async def test_the_rules_editor_names_a_missing_file_name_or_a_folder(home: Path, tmp_path: Path) -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        message = editor.query_one("#form-message", Static)
        for path, said in (("", "no file name given"), (str(tmp_path), "is a folder")):
            editor.query_one("#rules-path", Input).value = path
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert said in str(message.content)
            assert app.screen is editor, "nothing to ask about replacing"


async def test_the_rules_editor_names_and_describes_changed_rules(home: Path) -> None:
    """The form shows the name and title the file will get; changing a knob gives a description that says what
    changed."""

    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        shown = {k: editor.query_one(f"#knob-{k}", Input).value for k in ("name", "title", "description")}
        assert shown == {
            "name": "my-cutthroat",
            "title": "My Cutthroat Spades",
            "description": "House rules started from the cutthroat preset, Cutthroat Spades.",
        }
        assert editor.query_one("#rules-path", Input).value.endswith("my-cutthroat.toml")
        editor.query_one("#knob-win_target", Input).value = "300"
        editor.query_one("#rules-path", Input).value = str(home / "short.toml")
        await pilot.press("ctrl+s")
        await pilot.pause()
    ruleset = load_ruleset(home / "short.toml")
    base = load_preset("cutthroat")
    assert ruleset.win_target == 300  # type: ignore[attr-defined]
    assert (ruleset.name, ruleset.title) == ("my-cutthroat", f"My {base.title}")
    assert ruleset.description == f"{base.title} with win_target 300 (was 250)."


async def test_the_rules_editor_shows_and_checks_the_exchange_knob(home: Path) -> None:
    # The spades preset: the bidder "may exchange two cards with partner" (seed 002).
    from textual.widgets import Input, Select, Static

    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        editor.query_one("#preset", Select).value = "spades"
        for _ in range(100):  # the rows are mounted again for the new preset, a few turns of the loop later
            await pilot.pause()
            knob = editor.query_one("#knob-blind_nil_exchange_mode", Input)
            if knob.value != "none":
                break
        assert knob.value == "optional"
        row = knob.parent
        assert row is not None
        doc = str(row.query_one(".knob-doc", Static).content)
        assert doc.startswith('Whether the blind nil exchange is made: always ("required"), if the bidder chooses')
        assert doc.endswith('Allowed: one of "required", "optional", "none".')
        knob.value = "sometimes"
        await pilot.pause()
        error = str(editor.query_one("#error-blind_nil_exchange_mode", Static).content)
        assert error == 'expected one of "required", "optional", "none"'
