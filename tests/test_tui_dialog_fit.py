"""The pass and bid dialogs fit the terminal as the table does: below 60x20 only a notice shows, and no key
decides anything unseen; made big enough, the dialog is back as it was and takes keys again."""

from __future__ import annotations

from cardtui.games.base import Bid, Pass
from cardtui.rules import load_preset
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.widgets.size_notice import SizeNotice
from tests.support.tui import make_app, pass_first_cards, settle, settled_at, type_text


async def test_a_pass_is_not_made_below_60x20_and_is_once_the_terminal_fits() -> None:
    app, session = make_app("hearts", seed=7)
    async with app.run_test(size=(50, 15)) as pilot:
        dialog = await settled_at(pilot, app, PassScreen)
        assert dialog.query_one("#size-notice", SizeNotice).display
        assert "make it at least 60x20" in dialog.query_one(SizeNotice).text()
        await type_text(pilot, dialog.cards[0].code)
        await pilot.press("enter", "enter", "space", "enter")
        await settle(pilot, app)
        assert not any(isinstance(a, Pass) and a.seat == 0 for a in session.log), "a key passed unseen"
        await pilot.resize_terminal(100, 30)
        await settle(pilot, app)
        assert not dialog.query_one(SizeNotice).display
        await pass_first_cards(pilot, dialog)
        await settle(pilot, app)
        assert any(isinstance(a, Pass) and a.seat == 0 for a in session.log)


async def test_a_bid_is_not_made_below_60x20() -> None:
    app, session = make_app("spades", seed=7, ruleset=load_preset("spades"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, BidScreen)
        await pilot.resize_terminal(59, 30)
        await settle(pilot, app)
        await type_text(pilot, "3")
        await pilot.press("enter")
        await settle(pilot, app)
        assert not any(isinstance(a, Bid) and a.seat == 0 for a in session.log)
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        assert isinstance(app.screen, BidScreen)
        await pilot.press("backspace", "backspace", "backspace")
        await type_text(pilot, "3")
        await pilot.press("enter")
        await settle(pilot, app)
        assert any(isinstance(a, Bid) and a.seat == 0 for a in session.log)


async def test_a_bid_dialog_opening_on_a_40x12_terminal_shows_the_notice() -> None:
    """Its first layout was its whole self, before the size classes came: the button grid had no room and crashed."""
    app, session = make_app("spades", seed=7, ruleset=load_preset("spades"))
    async with app.run_test(size=(40, 12)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        await pilot.pause()
        assert dialog.query_one("#size-notice", SizeNotice).display
        assert not dialog.query_one("#bid-dialog").display
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        assert not dialog.query_one(SizeNotice).display
        await type_text(pilot, "3")
        await pilot.press("enter")
        await settle(pilot, app)
        assert any(isinstance(a, Bid) and a.seat == 0 for a in session.log)


async def test_a_bid_dialog_shrunk_to_40x12_shows_the_notice_and_grows_back() -> None:
    """Textual lays a screen out at its new size before it changes the screen's size classes: shrunk under the
    dialog, the button grid had no room for its labels and crashed the app."""
    app, _ = make_app("spades", seed=9, ruleset=load_preset("spades"))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        await pilot.resize_terminal(40, 12)
        await settle(pilot, app)
        assert dialog.query_one("#size-notice", SizeNotice).display
        assert not dialog.query_one("#bid-dialog").display
        await pilot.resize_terminal(100, 30)
        await settle(pilot, app)
        assert dialog.query_one("#bid-dialog").display and not dialog.query_one(SizeNotice).display


async def test_the_hand_over_shows_the_notice_below_60x20_and_waits_for_the_terminal() -> None:
    """Cutthroat for three at one keyboard on a 40x12 terminal: the hand-over was drawn clipped, and a key there
    opened a bid dialog that crashed. Now the hand-over is the notice, takes no key until the terminal fits, and
    the bid dialog after it fits as well."""
    app, session = make_app("cutthroat", seed=5, humans=(0, 1, 2), ruleset=load_preset("cutthroat-3"))
    async with app.run_test(size=(40, 12)) as pilot:
        hand_over = await settled_at(pilot, app, HotSeatScreen)
        assert hand_over.query_one("#size-notice", SizeNotice).display
        assert not hand_over.query_one("#hot-seat-dialog").display
        await pilot.press("x")
        await settle(pilot, app)
        assert app.screen is hand_over, "a key passed the keyboard unseen"
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        assert not hand_over.query_one(SizeNotice).display
        await pilot.press("x")
        dialog = await settled_at(pilot, app, BidScreen)
        await pilot.resize_terminal(40, 12)
        await settle(pilot, app)
        assert dialog.query_one("#size-notice", SizeNotice).display
        assert not any(isinstance(a, Bid) for a in session.log)


async def test_the_hand_over_shrunk_to_40x12_shows_the_notice() -> None:
    app, _session = make_app("spades", seed=5, humans=(0, 1, 2, 3), ruleset=load_preset("spades"))
    async with app.run_test(size=(80, 24)) as pilot:
        hand_over = await settled_at(pilot, app, HotSeatScreen)
        assert not hand_over.query_one("#size-notice", SizeNotice).display
        await pilot.resize_terminal(40, 12)
        await settle(pilot, app)
        assert hand_over.query_one(SizeNotice).display
        await pilot.press("x")
        await settle(pilot, app)
        assert app.screen is hand_over
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        await pilot.press("x")
        await settled_at(pilot, app, BidScreen)


async def test_no_key_opens_or_asks_anything_over_a_hidden_dialog() -> None:
    """Esc asked to leave, F3 set the dialog aside, F1 and F6 opened their screens over a dialog no one could see."""
    app, _session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, PassScreen)
        await pilot.resize_terminal(59, 19)
        await pilot.pause()
        for key in ("escape", "f3", "f1", "question_mark", "f2", "f6"):
            await pilot.press(key)
            await settle(pilot, app)
            assert app.screen_stack[-1] is dialog and not dialog.aside, key
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        assert dialog.aside  # keys act again once the dialog can be seen


async def test_a_claims_thirteen_tricks_at_60x20_keep_its_title_and_keys_in_view() -> None:
    """A claim's play-out is a dialog of lines: its lines scroll, its title and its keys never do."""
    from textual.containers import VerticalScroll

    from cardtui.tui.app import CardtuiApp, Start
    from cardtui.tui.screens.claimed import ClaimedScreen
    from cardtui.tui.screens.lines import MORE
    from tests.support.tui import drawn_when

    tricks = [f"Trick {n}: You led A♠, West 2♠, North 3♠, East 4♠ — You took it" for n in range(1, 14)]
    app = CardtuiApp(Start())
    async with app.run_test(size=(60, 20)) as pilot:
        await app.push_screen(ClaimedScreen("You claimed the remaining 13 tricks", tricks))
        text = await drawn_when(pilot, app, lambda t: MORE in t)
        assert "You claimed the remaining 13 tricks" in text and f"{MORE}Enter: go on" in text, text
        assert app.screen.query_one("#claimed-tricks", VerticalScroll).max_scroll_y > 0
        await pilot.press("end")
        text = await drawn_when(pilot, app, lambda t: "Trick 13:" in t)
        assert "Trick 13:" in text and "You claimed the remaining 13 tricks" in text and MORE in text, text
