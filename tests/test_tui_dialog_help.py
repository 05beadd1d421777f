"""F1 and F2 in the pass and bid dialogs: the dialog's keys in the help, a hint with its reason."""

from __future__ import annotations

import pytest
from textual.widgets import Static

import cardtui.tui.screens.help
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import CARD_CODE, GAME_TITLES
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from tests.support.tui import dialog_message, in_front, make_app, screen_lines, settle, workers_done


@pytest.mark.parametrize(
    ("preset", "verb", "help_line"),
    [
        ("hearts", "pass", "pass the chosen cards"),
        ("spades", "bid", "the bid the computer player of your hint level (Settings) would make"),
    ],
)
async def test_dialog_help_and_hint(preset: str, verb: str, help_line: str) -> None:
    app, _session = make_app(preset, seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, PassScreen if verb == "pass" else BidScreen)
        assert not isinstance(dialog, BidScreen) or not dialog.blind_stage
        await pilot.press("f2")
        await workers_done(app)
        await pilot.pause()
        hint = dialog_message(dialog)
        assert hint.startswith(f"Hint (hard): {verb} ") and " — " in hint
        assert not CARD_CODE.search(hint), "the reason names cards as the table draws them, not as codes"
        if isinstance(dialog, PassScreen):
            passed = hint.removeprefix("Hint (hard): pass ").split(" — ")[0].split()
            assert len(passed) == 3 and all(any(c.glyph == p for c in dialog.cards) for p in passed)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert help_line in str(app.screen.query_one("#help-text", Static).content)
        await pilot.press("escape")
        assert in_front(app, dialog)


async def test_no_hint_before_a_blind_bidder_looks() -> None:
    app, _session = make_app("spades-blind", seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, BidScreen) and dialog.blind_stage
        await pilot.press("f2")
        await pilot.pause()
        assert dialog_message(dialog).startswith("A hint would look at your hand")


@pytest.mark.parametrize("key", ["ctrl+e", "f12"])
async def test_the_past_deals_key_in_the_pass_dialog_says_where_they_open(key: str) -> None:
    app, _session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, PassScreen)
        await pilot.press(key)
        await pilot.pause()
        assert in_front(app, dialog)
        assert dialog_message(dialog).startswith("Past deals open from the table")


@pytest.mark.parametrize("preset", ["hearts", "spades"])
async def test_the_claim_key_in_a_pass_or_bid_dialog_says_where_a_claim_is_made(preset: str) -> None:
    """F5 claims at the table; over the pass or the bid it did nothing at all."""
    app, _session = make_app(preset, seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, PassScreen | BidScreen)
        await pilot.press("f5")
        await pilot.pause()
        assert in_front(app, dialog)
        assert dialog_message(dialog) == "A claim is made at the table (F5), on your lead, once this choice is made."


async def test_the_help_names_the_registrys_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """F1's first line says what cardtui plays from the registry: a game registered there is named too."""
    titles = {**GAME_TITLES, "omnibus": "Omnibus Hearts"}  # the registry's titles, with one more game
    monkeypatch.setattr(cardtui.tui.screens.help, "GAME_TITLES", titles)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text", Static).content)
        said = "cardtui plays Hearts, Spades, Cutthroat Spades, Eight of Spades and Omnibus Hearts."
        assert said in " ".join(text.split())


async def test_f7_over_a_pass_at_60_columns_shows_the_scores_and_f3_brings_the_choice_back() -> None:
    app, _session = make_app("hearts", seed=7)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, PassScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen) and not table.has_class("-side-open")
        await pilot.press("f7")
        await pilot.pause()
        assert dialog.aside and table.has_class("-side-open")
        assert "Scores (game ends at 100)" in "\n".join(screen_lines(app))
        await pilot.press("f7")  # the same key folds them again, the dialog still aside
        await pilot.pause()
        assert dialog.aside and not table.has_class("-side-open")
        await pilot.press("f3")
        await pilot.pause()
        assert in_front(app, dialog) and not dialog.aside
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert "show the scores" in str(app.screen.query_one("#help-text", Static).content)
