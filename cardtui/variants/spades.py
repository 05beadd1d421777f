"""The entries of partnership Spades and cutthroat Spades, which share their rules, engine and players."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from cardtui.bots.common import SUIT_WORDS, read_view
from cardtui.cards import DECK, Suit
from cardtui.games.base import Action, Bid, DealRecord, Game, Play, PlayerView, pass_counts
from cardtui.games.spades import SpadesGame, SpadesView, score_side, spades_breakdown
from cardtui.games.trick import winning_card
from cardtui.rules import Ruleset, SpadesRules
from cardtui.variants.base import Breakdown, CardText, GameEntry, ReviewWords, ScoreLines, TableWords, side_name
from cardtui.variants.trick import Players, play_facts, trick_fields, tricks_text

SPADES_TEXT = (
    "Spades: partners sit opposite. Each seat bids the tricks it will take; spades are trumps. "
    "A side that makes its contract scores 10 a trick plus 1 a bag; missing it loses 10 a trick. Nil bids "
    "take no trick at all."
)
CUTTHROAT_TEXT = "Cutthroat Spades: every seat for itself. Bid the tricks you will take; spades are trumps."
THRESHOLDS = {"points": (10.0, 40.0)}


def _players() -> Players:
    from cardtui.bots.spades import SpadesBot
    from cardtui.bots.spades_judge import SpadesJudge
    from cardtui.bots.spades_search import SpadesSearch

    return SpadesSearch, SpadesBot, SpadesJudge


def _figures(game: Game, counts: Sequence[int]) -> dict[str, list[int]]:
    """Per side: deals with a contract, made, set, bags taken; per seat: nils bid and made (engine's scoring)."""
    rules = game.ruleset
    assert isinstance(rules, SpadesRules)
    sides = list(rules.sides)
    contracts, made, sets, bags = ([0] * len(sides) for _ in range(4))
    nils_bid, nils_made = [0] * game.seats, [0] * game.seats
    carried = [0] * len(sides)
    for record in game.deal_records:
        assert record.bids is not None
        bids = list(record.bids)
        for i, side in enumerate(sides):
            result = score_side(rules, side, bids, list(record.tricks), carried[i])
            if any(bids[s].bid > 0 for s in side):
                contracts[i] += 1
                made[i] += result.made
                sets[i] += not result.made
            bags[i] += result.overtricks
            for s in side:
                nils_bid[s] += bids[s].bid == 0
                nils_made[s] += result.nils_made >> s & 1
        carried = list(record.bags or carried)
    return {
        "contracts": contracts,
        "made": made,
        "sets": sets,
        "bags": bags,
        "nils_bid": nils_bid,
        "nils_made": nils_made,
    }


def _stat_counts(figures: Mapping[str, list[int]], you: int, side: int) -> dict[str, int]:
    return {
        "contracts": figures["contracts"][side],
        "contracts_made": figures["made"][side],
        "sets": figures["sets"][side],
        "bags": figures["bags"][side],
        "nils_bid": figures["nils_bid"][you],
        "nils_made": figures["nils_made"][you],
    }


def _amount(view: PlayerView, points: float) -> str:
    assert isinstance(view.ruleset, SpadesRules)
    side = "the side" if view.ruleset.partnership else "the seat"
    return f"{points:+.1f} points for {side} this deal"


def _rest(view: PlayerView) -> str:
    """Bags at their price (their share of the bag penalty), the others' scores and the game's end."""
    rules = view.ruleset
    assert isinstance(rules, SpadesRules)
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    bags = f"bags at {per_bag:.1f} points each, " if per_bag else ""
    return f"{bags}the others' scores and the game's end"


def _nil_worth(rules: SpadesRules, blind: bool) -> int:
    """How far a nil's fate moves its side's score: made it scores the bonus, broken it costs as much."""
    if blind:
        failed = rules.blind_nil_failed_value
        return rules.blind_nil_value + (rules.blind_nil_value if failed is None else failed)
    return rules.nil_value + (rules.nil_value if rules.nil_failed_value is None else rules.nil_failed_value)


def _play_causes(view: SpadesView, best: Play, mine: Play, names: Sequence[str], text: CardText) -> list[str]:
    """What in the trick explains two cards: a nil still standing (the seat's own, its partner's, an opponent's),
    partner already winning the trick."""
    seen = read_view(view)
    partner = seen.partner
    causes: list[str] = []
    rules = view.ruleset
    assert isinstance(rules, SpadesRules)
    for s in (seen.seat, partner, *(s for s in range(rules.seats) if s not in (seen.seat, partner))):
        if s < 0 or seen.bids[s] != 0 or seen.state.won[s]:
            continue
        nil = "blind nil" if seen.blind[s] else "nil"
        if s == seen.seat:
            causes.append(f"your own {nil} stands: you have taken no trick, and a trick breaks it")
        elif s == partner:
            causes.append(f"{names[partner]}, your partner, bid {nil} and has taken no trick")
        else:
            causes.append(
                f"{names[s]}, an opponent, bid {nil} and has taken no trick: setting it swings their score by "
                f"{_nil_worth(rules, seen.blind[s])} points"
            )
    causes += _can_be_beaten(view, mine, names, text)
    if partner < 0 or not view.trick:
        return causes
    trump = Suit.SPADES
    cards = [c.index for _, c in view.trick]
    top = winning_card(cards, trump)
    winner = view.trick[cards.index(top)][0]
    overtakes = winning_card([*cards, mine.card.index], trump) == mine.card.index
    if winner == partner and seen.bids[partner] != 0 and overtakes:
        led = view.trick[0][1].suit
        n = rules.seats
        later = [(view.seat + k) % n for k in range(1, n - len(view.trick))]
        void = [s for s in later if seen.voids[s] >> led & 1 and not seen.voids[s] >> trump & 1]
        follow = [s for s in later if not seen.voids[s] >> led & 1]
        higher = [DECK[i] for i in range(top + 1, led * 13 + 13) if seen.unseen >> i & 1]
        said = f"{names[partner]}, your partner, was already winning the trick with {text(DECK[top])}"
        if mine.card.suit == trump and led != trump and DECK[top].suit == led and void:
            said += f", but {names[void[0]]}, still to play, {'are' if names[void[0]] == 'You' else 'is'} void in "
            said += f"{SUIT_WORDS[led]} and could trump it"
        elif mine.card.suit == trump and led != trump and DECK[top].suit == led and follow and higher:
            said += f", but {text(higher[-1])} is still out and {names[follow[0]]} is still to play"
        else:
            causes.append(said)
            return causes
        causes.append(f"{said}: your trump keeps the trick for the side")
    return causes


def _can_be_beaten(view: SpadesView, mine: Play, names: Sequence[str], text: CardText) -> list[str]:
    """A card played to win the trick (led, or on top so far) while higher cards of its suit are still out with a
    seat still to play: those cards (the lowest two), which can beat it."""
    seen = read_view(view)
    n = view.ruleset.seats
    cards = [c.index for _, c in view.trick]
    if cards and winning_card([*cards, mine.card.index], Suit.SPADES) != mine.card.index:
        return []
    later = [(view.seat + k) % n for k in range(1, n - len(view.trick))]
    suit = mine.card.suit
    led = view.trick[0][1].suit if view.trick else suit
    # a later seat beats it by following with a higher card, or (a trump on another suit led) by over-trumping
    able = [s for s in later if (not seen.voids[s] >> suit & 1) and (led == suit or seen.voids[s] >> led & 1)]
    if not able:
        return []
    higher = [DECK[i] for i in range(mine.card.index + 1, suit * 13 + 13) if seen.unseen >> i & 1]
    if not higher:
        return []
    said = " and ".join(text(c) for c in higher[:2])
    verb = "is" if len(higher) == 1 else "are"
    return [f"{said} {verb} still out, so {text(mine.card)} can be beaten"]


def _progress(view: PlayerView, names: Sequence[str]) -> list[str]:
    """Each side's contract this deal (each seat's in cutthroat): bid, tricks won, still needed, each nil, bags."""
    assert isinstance(view, SpadesView)
    rules = view.ruleset
    bids = view.detail.bids
    lines = ["Contracts this deal"]
    for i, side in enumerate(view.sides):
        name = " + ".join(names[s] for s in side)
        won = sum(view.tricks_won[s] for s in side)
        made = [b for b in (bids[s] for s in side) if b is not None]
        if not made:
            lines.append(f"{name[:16]}: to bid")
            continue
        contract = sum(b.bid for b in made)
        waiting = " + ?" if len(made) < len(side) else ""
        said = " + ".join(b.label() for b in made) if contract == 0 else str(contract)  # nil, as a nil is said
        lines.append(f"{name[:16]}: bid {said}{waiting}")
        nil_tricks = sum(view.tricks_won[b.seat] for b in made if b.is_nil)
        counted = won if rules.failed_nil_tricks_count else won - nil_tricks
        need = contract - counted
        if contract == 0:
            state = "nil"
        elif need > 0:
            state = f"need {need}"
        else:
            state = "made" + (f", {-need} over" if need < 0 else "")
        lines.append(f"  won {won} · {state}")
        for bid in made:
            if bid.is_nil:
                taken = view.tricks_won[bid.seat]
                how = "safe so far" if taken == 0 else f"broken ({taken} taken)"
                who = f"{names[bid.seat][:10]} " if len(side) > 1 else ""  # cutthroat: the line above names it
                lines.append(f"  {who}{bid.label()}: {how}")
        if rules.has_bags:
            lines.append(f"  bags {view.detail.bags[i]} carried")
    return lines


def _facts(view: PlayerView, best: Action, mine: Action, names: Sequence[str], text: CardText) -> list[str]:
    assert isinstance(view, SpadesView)
    if isinstance(best, Play) and isinstance(mine, Play):
        causes = _play_causes(view, best, mine, names, text)
        return play_facts(view, best, mine, names, text, causes=causes)
    if not isinstance(best, Bid):
        return []
    seen = read_view(view)
    facts: list[str] = []
    partner = seen.partner
    if partner >= 0 and seen.bids[partner] >= 0:
        facts.append(f"{names[partner]} bid {Bid(partner, seen.bids[partner], seen.blind[partner]).label()}")
    if isinstance(mine, Bid) and mine.blind:
        return facts  # bid with the hand face down: what it holds was not the bidder's to know
    nil = any(isinstance(b, Bid) and b.bid == 0 for b in (best, mine))
    ace = DECK[Suit.SPADES * 13 + 12]
    if nil and view.hand.mask & ace.bit:
        facts.insert(0, f"{text(ace)} is a certain trick, so a nil cannot be made")
    spades = (view.hand.mask >> (Suit.SPADES * 13) & 0x1FFF).bit_count()
    facts.append(f"the hand holds {spades} spade{'s' if spades != 1 else ''}")
    return facts


def _seat_line(view: PlayerView, seat: int) -> str:
    """A seat's bid this deal and the tricks it took."""
    assert isinstance(view, SpadesView)
    bid = view.detail.bids[seat]
    return f"bid {bid.label() if bid is not None else '-'} · {tricks_text(view.tricks_won[seat])}"


def _scores(view: PlayerView, names: Sequence[str]) -> ScoreLines:
    """Each side's total and bags, whether spades are broken (where a rule waits for it)."""
    assert isinstance(view, SpadesView)
    rows = []
    for i, side in enumerate(view.sides):
        bags = f" bags {view.detail.bags[i]}" if view.ruleset.has_bags else ""
        rows.append((side_name(names, side), f"{view.totals[i]:>4}{bags}"))
    notes = ("Spades broken" if view.broken else "Spades not broken",) if view.ruleset.spades_broken_to_lead else ()
    return ScoreLines(f"Scores (target {view.ruleset.win_target})", tuple(rows), 12, notes)


def exchange_words(counts: tuple[int, ...], back: bool, partner: str) -> str:
    """What a blind nil exchange asks of the seat: the bidder's pass (of none too, when optional), or its partner's."""
    if back:
        if counts == (0,):
            return f"your partner {partner} passed you no cards: Enter passes none back"
        return f"give {counts[-1]} cards back to your partner {partner}"
    if 0 in counts:
        return f"give {counts[-1]} cards to your partner {partner}, or none (Enter with none chosen) to keep your hand"
    return f"give {counts[-1]} cards to your partner {partner}"


def _passing(view: PlayerView, seat: int, names: Sequence[str]) -> tuple[tuple[int, ...], str]:
    """A blind nil's exchange with the partner: the bidder's cards, or the partner's back."""
    assert isinstance(view, SpadesView)
    counts = pass_counts(view.legal)
    back = counts == (0,) or len(view.hand) > 13
    partner = view.ruleset.partner_of(seat)
    assert partner is not None  # a blind nil exchange is between partners
    return counts, exchange_words(counts, back, names[partner])


def _bids_so_far(view: PlayerView, seat: int, names: Sequence[str]) -> str:
    """`Bids so far: West 3, North (your partner) nil` — in bidding order, the partner named as such."""
    assert isinstance(view, SpadesView)
    partners = next(side for side in view.sides if seat in side)
    made = []
    for i in range(1, len(names)):
        other = (seat + i) % len(names)
        bid = view.detail.bids[other]
        if bid is not None:
            partner = " (your partner)" if other in partners else ""
            made.append(f"{names[other]}{partner} {bid.label()}")
    return "Bids so far: " + ", ".join(made) if made else "Nobody has bid yet."


BAGS_TAKEN = "new bags"
"""The breakdown's heading of the bags a side took this deal (those it carries show beside its total)."""


def _bags_heading(rules: Ruleset) -> str:
    """The heading of the bags a side carries after the deal, with the limit that costs: `bags (limit 10)`, or
    `bags (no limit)` where bags only break ties."""
    assert isinstance(rules, SpadesRules)
    return f"bags (limit {rules.bag_limit})" if rules.bag_limit else "bags (no limit)"


def _breakdown(rules: Ruleset, records: Sequence[DealRecord], index: int, names: Sequence[str]) -> Breakdown:
    """Each side's contract against the tricks it took, each nil made or failed, bags taken (where the ruleset has
    bags); a line for each side that reached the bag limit this deal, and what it cost."""
    assert isinstance(rules, SpadesRules)
    bags = rules.has_bags
    columns: tuple[tuple[str, bool], ...] = (("contract", True), ("took", True), ("result", False), ("nil", False))
    if bags:
        columns += ((BAGS_TAKEN, True),)
    rows: list[tuple[str, ...]] = []
    limits: list[str] = []
    for side in spades_breakdown(rules, records, index):
        members = rules.sides[side.side]
        if side.contract:
            result = "made" if side.made else "set"
            contract, took = str(side.contract), str(side.tricks)
        else:  # no contract to take tricks for: a failed nil's tricks are in its own words
            result, contract, took = "nil only", "-", "-"
        nils = ", ".join(
            f"{names[n.seat]} {'blind nil' if n.blind else 'nil'} "
            + ("made" if n.made else f"failed (took {n.tricks})")
            for n in side.nils
        )
        row = (side_name(names, members), contract, took, result, nils or "-")
        rows.append((*row, str(side.bags_added)) if bags else row)
        if side.penalties:
            cost = side.penalties * rules.bag_penalty
            limits.append(f"{side_name(names, members)} reached {rules.bag_limit} bags: -{cost}.")
    return Breakdown(columns, tuple(rows), tuple(limits))


SPADES = GameEntry(
    **trick_fields(_players, THRESHOLDS),
    name="spades",
    title="Spades",
    presets=("spades", "spades-blind"),
    engine=SpadesGame,
    rules_text=SPADES_TEXT,
    deal_table="bids",
    review=ReviewWords(amount=_amount, points_hurt=False, own_score="your own", facts=_facts, rest=_rest),
    seat_counts=(4,),
    players_knob=None,
    figures=_figures,
    progress=_progress,
    seat_figures=("nils_bid", "nils_made"),
    side_figures=("contracts", "made", "sets", "bags"),
    stat_counts=_stat_counts,
    stat_keys=("contracts", "contracts_made", "sets", "nils_bid", "nils_made"),
    per_deal_keys=("bags",),
    stat_columns=(
        ("contracts_made", "made"),
        ("contracts", "contracts"),
        ("sets", "sets"),
        ("nils_made", "nils made"),
        ("nils_bid", "nils bid"),
        ("bags_per_deal", "bags/deal"),
    ),
    table_words=TableWords(
        seat_line=_seat_line,
        scores=_scores,
        passing=_passing,
        bids_so_far=_bids_so_far,
        bags_heading=_bags_heading,
        breakdown=_breakdown,
    ),
)

CUTTHROAT = dataclasses.replace(
    SPADES,
    name="cutthroat",
    title="Cutthroat Spades",
    presets=("cutthroat", "cutthroat-3"),
    rules_text=CUTTHROAT_TEXT,
    seat_counts=(3, 4),
    players_knob="players",
)
"""Cutthroat Spades: the same rules class, engine and players as Spades, every seat for itself."""
