"""Property tests: random legal games of every preset and of random option combinations.

After every action an independent replay of the game log checks card conservation and what each
seat may know (docs/rules.md §10); at the end the results are checked against the scoring,
rotation, contract-use and tie-break rules, recomputed here from the rules text, not the engine.
"""

from __future__ import annotations

import random
from typing import Any

from conftest import snapshot
from hypothesis import Phase as Stage
from hypothesis import given, settings
from hypothesis import strategies as st

from mizerka_engine.cards import FULL_DECK, card_mask, mask_cards
from mizerka_engine.dealing import seeded_deal
from mizerka_engine.events import (
    ContractAnnounced,
    DealScored,
    Dealt,
    Event,
    Exchanged,
    GameOver,
    MajorAnnounced,
    Played,
    Revoked,
    Settled,
    TrickTaken,
)
from mizerka_engine.game import Choose, DealResult, Exchange, Game, IllegalAction, Major, Phase, Play
from mizerka_engine.rules import MAJOR_QUOTA, PRESETS, DeclarerMode, Ruleset, load_ruleset
from mizerka_engine.views import SPECTATOR, cards_in, project, project_events
from server.policies import random_action

# Event types a seat may receive from project_events; anything new must be vetted for leaks.
PUBLIC_EVENT_TYPES = {Dealt, ContractAnnounced, MajorAnnounced, Settled, Exchanged, Played, TrickTaken, Revoked, DealScored, GameOver}
# A failing example is (preset, options, seed): it replays exactly, while shrinking whole games takes
# minutes (longer than the per-test timeout), so these properties report the first failure unshrunk.
NO_SHRINK = (Stage.explicit, Stage.reuse, Stage.generate)
# docs/rules.md §6.2: a third player's contest must rank above C; null is never a major.
MAJOR_ORDER = ["clubs", "diamonds", "spades", "hearts", "grand"]


# ------------------------------------------------------------------------------ strategies
@st.composite
def quota_tables(draw: st.DrawFn, players: int, tricks: int) -> list[int]:
    """A valid quota override: ``players`` non-negative whole numbers summing to ``tricks``."""
    cuts = sorted(draw(st.lists(st.integers(0, tricks), min_size=players - 1, max_size=players - 1)))
    bounds = [0, *cuts, tricks]
    return [bounds[i + 1] - bounds[i] for i in range(players)]


@st.composite
def option_sets(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A preset and a valid combination of the options of docs/rules.md §9."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    base = PRESETS[preset]
    n, k = base.players, len(base.contracts)
    opts: dict[str, Any] = {}
    if draw(st.booleans()):
        opts["declarer"] = draw(st.sampled_from([m.value for m in DeclarerMode]))
    if draw(st.booleans()):
        opts["deals"] = n * draw(st.integers(1, k))
    if draw(st.booleans()):
        opts["revoke"] = draw(st.sampled_from(["reject", "penalty"]))
    if draw(st.booleans()):
        opts["tiebreak"] = draw(st.sampled_from(["none", "random", "lowest"]))
        if draw(st.booleans()):
            opts["tiebreak_max"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        opts["misere_quotas"] = draw(st.sampled_from(["reversed", "same"]))
    if draw(st.booleans()):
        opts["choose_after"] = draw(st.sampled_from([6, "all"]))
    if draw(st.booleans()):
        opts["trumps_allow_spades"] = draw(st.booleans())
    if draw(st.booleans()):
        opts["quotas_plus"] = draw(quota_tables(n, base.hand_size))
    if draw(st.booleans()):
        opts["quotas_minus"] = draw(quota_tables(n, base.hand_size))
    return preset, opts


# ------------------------------------------------------------------- independent log replay
class Replay:
    """Follows ``game.log`` entry by entry and keeps, for the current deal, who holds and saw what."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.pos = 0
        self.n = game.n
        self.used: list[set[str]] = [set() for _ in range(game.n)]  # contracts used up, from the results

    def update(self) -> None:
        for entry in self.game.log[self.pos :]:
            self._consume(entry)
        self.pos = len(self.game.log)

    def _consume(self, e: Event) -> None:
        n = self.n
        match e:
            case Dealt(_, _, tiebreak, dealer, caller, hands, talon):
                assert hands is not None and talon is not None, "the engine's own log holds every card"
                self.tiebreak, self.dealer, self.caller = tiebreak, dealer, caller
                self.dealt = [tuple(h) for h in hands]
                self.talon = tuple(talon)
                assert sorted([c for h in hands for c in h] + list(talon)) == list(range(52)), "a deal is not the 52 cards, each once"
                self.hands = [set(h) for h in hands]
                self.discards: list[set[int]] = [set() for _ in range(n)]
                self.taken: list[set[int]] = [set() for _ in range(n)]
                self.exchanged: list[int | None] = [None] * n
                self.played: set[int] = set()
                self.announced = False
                self.declarer: int | None = None
                self.contract = ""
                self.major = False
                self.trump: int | None = None
                self.trick: list[tuple[int, int]] = []
                self.tricks = [0] * n
                self.leader: int | None = None
                self.major_by: int | None = None
            case ContractAnnounced(_, contract):
                self.announced = True
                self.called = contract
            case MajorAnnounced(seat, contract):
                if contract is not None and self.major_by is None:
                    self.major_by = seat
            case Settled(declarer, contract, major, trump):
                self.declarer, self.contract, self.major, self.trump = declarer, contract, major, trump
                self.leader = self.declarer
            case Exchanged(seat, count, discard, take):
                assert discard is not None and take is not None and count == len(discard)
                assert set(discard) <= self.hands[seat]
                self.hands[seat] = self.hands[seat] - set(discard) | set(take)
                self.discards[seat] |= set(discard)
                self.taken[seat] |= set(take)
                self.exchanged[seat] = len(discard)
            case Played(seat, card):
                expected = self.leader if not self.trick else (self.trick[-1][0] + 1) % n
                assert seat == expected, f"seat {seat} played out of turn (expected {expected})"
                if self.trick:
                    led = self.trick[0][1] // 13
                    assert card // 13 == led or not any(c // 13 == led for c in self.hands[seat]), "a play failed to follow suit"
                self.hands[seat].remove(card)
                self.played.add(card)
                self.trick.append((seat, card))
            case TrickTaken(won):
                assert len(self.trick) == n
                winner = trick_winner(self.trick, self.trump)
                assert won == winner, f"trick {self.trick} won by {won}, the rules say {winner}"
                self.tricks[winner] += 1
                self.leader, self.trick = winner, []
            case DealScored(r):
                assert list(r.tricks) == self.tricks, "reported tricks differ from the tricks won"
                if not r.void:
                    assert (r.declarer, r.contract, r.major, r.trump) == (self.declarer, self.contract, self.major, self.trump)
                    if not r.tiebreak:
                        self.used[r.declarer].add(r.contract)

    # What a seat may legitimately know in the current deal (docs/rules.md §10).
    def known(self, seat: int) -> set[int]:
        rules = self.game.rules
        before_contract = not self.announced and not self.tiebreak
        if before_contract and rules.choose_after == 6:
            own = set(self.dealt[seat][:6]) if seat == self.caller else set()
        else:
            own = set(self.hands[seat])
        out = own | self.discards[seat] | self.taken[seat] | self.played
        if rules.exchange == "pick" and seat == self.declarer:
            out |= set(self.talon)
        return out

    def expected_options(self, seat: int) -> set:
        """The legal contract or major announcements of ``seat`` now, from docs/rules.md §4.2 and §6."""
        rules = self.game.rules
        free = [c for c in rules.contracts if c.name not in self.used[seat]]
        if self.game.phase == Phase.CONTRACT:
            return {Choose(c.name, t) for c in free for t in (rules.trump_suits() if c.names_trump else (None,))}
        if self.major_by is None:  # the announcing round: only "C major"
            names = [self.called] if self.called not in self.used[seat] else []
        elif seat == self.caller:  # the declarer's contest: any unused suit or grand
            names = [c.name for c in free if c.name in MAJOR_ORDER]
        else:  # the third player's contest: only above C
            names = [c.name for c in free if c.name in MAJOR_ORDER and MAJOR_ORDER.index(c.name) > MAJOR_ORDER.index(self.called)]
        return {Major(x) for x in names} | {Major(None)}

    def quotas(self) -> tuple[int, ...] | None:
        """Quotas by position from the effective declarer once the contract is settled."""
        if self.declarer is None:
            return None
        rules, n, E = self.game.rules, self.n, self.declarer
        if self.major:
            return tuple(MAJOR_QUOTA if s == E else 1 for s in range(n))
        contract = rules.contract(self.contract)
        assert contract is not None
        table = rules.quotas_minus if contract.minus else rules.quotas_plus
        return tuple(table[(s - E) % n] for s in range(n))

    def check_conservation(self) -> None:
        """hands + discards + talon remainder + played = the 52 cards, each exactly once."""
        groups = [*self.hands, *self.discards, set(self.talon) - set().union(*self.taken), self.played]
        assert sum(len(g) for g in groups) == 52, "a card is in two places or lost"
        assert set().union(*groups) == set(range(52))
        for s in range(self.n):
            assert self.game.hands[s] == card_mask(self.hands[s]), f"seat {s}'s hand differs from its replayed log"


def trick_winner(trick: list[tuple[int, int]], trump: int | None) -> int:
    """docs/rules.md §4.5: the highest trump if any was played, else the highest card of the led suit."""
    suit = trump if any(c // 13 == trump for _, c in trick) else trick[0][1] // 13
    return max((c, s) for s, c in trick if c // 13 == suit)[1]


def check_views(game: Game, replay: Replay, event_pos: list[int]) -> None:
    """No view or event stream holds a card its audience may not know."""
    n = game.n
    for seat in range(n):
        view = project(game, seat)
        leaked = cards_in(view) - replay.known(seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)} in phase {game.phase.name}"
        assert all(view.hands[s] is None for s in range(n) if s != seat), "a view shows another seat's hand"
        assert all(view.discards[s] is None and view.taken[s] is None for s in range(n) if s != seat)
        if game.phase in (Phase.MAJOR, Phase.EXCHANGE, Phase.PLAY):
            assert set(view.hands[seat] or ()) == replay.hands[seat], "a seat must see its own hand"
            assert view.quotas == replay.quotas(), f"view quotas {view.quotas}, expected {replay.quotas()}"
        elif game.phase == Phase.CONTRACT and seat == replay.caller:
            seen = rules_seen(game.rules)
            assert set(view.hands[seat] or ()) == set(replay.dealt[seat][:seen]), "the declarer must see its first cards"
    spectator = project(game, SPECTATOR)
    assert cards_in(spectator) <= replay.played, "the spectator sees unplayed cards"
    assert spectator.decision is None and spectator.talon is None

    for audience in [*range(n), SPECTATOR]:
        for e in project_events(game, audience, event_pos[0]):
            assert type(e) in PUBLIC_EVENT_TYPES, f"unvetted event {e!r}"
            if isinstance(e, Dealt):
                assert e.hands is None and e.talon is None, "a deal event shows cards"
            elif isinstance(e, Exchanged) and e.seat != audience:
                assert e.discard is None and e.take is None, "another seat's discards leaked"
    event_pos[0] = len(game.log)


def rules_seen(rules: Ruleset) -> int:
    return rules.hand_size if rules.choose_after == "all" else 6


# --------------------------------------------------------------------------- one game
def run_random_game(rules: Ruleset, seed: int, revoke_rate: float, first_dealer: int | None = None) -> Game:
    """Play random legal actions (and sometimes a revoke or an out-of-turn action), checking as we go."""
    game = Game(rules, seed=seed, first_dealer=first_dealer)
    rng = random.Random(seed)
    replay = Replay(game)
    event_pos = [0]
    replay.update()
    check_views(game, replay, event_pos)
    steps = 0
    while not game.finished:
        steps += 1
        assert steps < 20_000, "the game does not end"
        seat = game.to_act
        decision = game.decision()
        assert decision is not None and decision.seat == seat
        if game.phase in (Phase.CONTRACT, Phase.MAJOR):
            assert set(decision.actions) == replay.expected_options(seat), f"{game.phase.name} options of seat {seat}"
        if game.phase == Phase.PLAY:
            legal = {a.card for a in game.legal_actions()}
            hand = set(mask_cards(game.hands[seat]))
            assert legal == set(mask_cards(game.legal_plays())) and legal <= hand and legal
            off_suit = sorted(hand - legal)
            if off_suit and rng.random() < revoke_rate:
                card = rng.choice(off_suit)
                if rules.revoke == "reject":
                    before = snapshot(game)
                    try:
                        game.apply(seat, Play(card))
                    except IllegalAction as e:
                        assert e.code == "MUST_FOLLOW"
                    else:
                        raise AssertionError("a revoke was accepted under revoke = reject")
                    assert snapshot(game) == before
                else:
                    done = len(game.results)
                    game.apply(seat, Play(card))
                    r = game.results[done]
                    assert r.void and r.revoker == seat and r.points[seat] == -10
                    replay.update()
                    check_views(game, replay, event_pos)
                    continue
        if game.phase == Phase.EXCHANGE and rng.random() < 0.1:  # one card too many: refused
            hand = mask_cards(game.hands[seat])
            k = decision.max_exchange + 1
            if k <= len(hand):
                discard = tuple(rng.sample(hand, k))
                take = (tuple(decision.talon) * 2)[:k] if decision.pick else None
                before = snapshot(game)
                try:
                    game.apply(seat, Exchange(discard, take))
                except IllegalAction as e:
                    assert e.code == "BAD_EXCHANGE"
                else:
                    raise AssertionError(f"an exchange of {k} cards was accepted (limit {k - 1})")
                assert snapshot(game) == before
        if rng.random() < 0.02:  # somebody else tries to act: refused, nothing changes
            other = (seat + 1) % game.n
            before = snapshot(game)
            action = random_action(game, random.Random(steps))
            try:
                game.apply(other, action)
            except IllegalAction as e:
                assert e.code == "NOT_YOUR_TURN"
            else:
                raise AssertionError("an out-of-turn action was accepted")
            assert snapshot(game) == before
        game.apply(seat, random_action(game, rng))
        replay.update()
        if game.phase < Phase.WAITING:
            replay.check_conservation()
        check_views(game, replay, event_pos)
    check_results(game)
    return game


# ------------------------------------------------------------------- end-of-game checks
def expected_points(rules: Ruleset, r: DealResult) -> list[int]:
    """docs/rules.md §5 and §6.4: plus t - q, minus q - t, quotas by position from the declarer; majors 14/1/1 with bonuses."""
    n, E, t = rules.players, r.declarer, r.tricks
    if r.major:
        if t[E] == rules.tricks:
            return [8 if s == E else -4 for s in range(n)]
        if t[E] == rules.tricks - 1:
            return [4 if s == E else -2 for s in range(n)]
        return [t[s] - (MAJOR_QUOTA if s == E else 1) for s in range(n)]
    contract = rules.contract(r.contract)
    assert contract is not None, f"unknown contract {r.contract!r}"
    if contract.minus:
        return [rules.quotas_minus[(s - E) % n] - t[s] for s in range(n)]
    return [t[s] - rules.quotas_plus[(s - E) % n] for s in range(n)]


def check_results(game: Game) -> None:
    rules, n, results = game.rules, game.n, game.results
    assert game.finished and game.decision() is None
    totals = [0] * n
    for r in results:
        if r.void:
            assert r.revoker is not None and list(r.points) == [-10 if s == r.revoker else 0 for s in range(n)]
            assert sum(r.tricks) < rules.tricks
        else:
            assert sum(r.tricks) == rules.tricks, f"tricks {r.tricks} do not sum to {rules.tricks}"
            assert sum(r.points) == 0
            assert list(r.points) == expected_points(rules, r), f"deal {r.deal_no}: {r}"
        totals = [a + b for a, b in zip(totals, r.points)]
        assert r.dealer == (r.caller if rules.dealer_declares else (r.caller - 1) % n)
        contract = rules.contract(r.contract)
        assert contract is not None
        if contract.names_trump:
            assert r.trump in rules.trump_suits()
        else:
            assert r.trump == contract.trump
        if not rules.majors:
            assert r.declarer == r.caller and not r.major
    assert totals == game.totals

    # A void deal is redealt by the same dealer and declarer.
    for a, b in zip(results, results[1:]):
        if a.void:
            assert (b.deal_no, b.redeal, b.caller, b.dealer, b.tiebreak) == (a.deal_no, a.redeal + 1, a.caller, a.dealer, a.tiebreak)

    regular = [r for r in results if not r.void and not r.tiebreak]
    assert len(regular) == rules.deals, f"{len(regular)} regular deals, expected {rules.deals}"
    assert all(not r.tiebreak for r in results[: results.index(regular[-1]) + 1])
    pairs = [(r.declarer, r.contract) for r in regular]
    assert len(set(pairs)) == len(pairs), "a player used a contract twice"
    if not rules.majors:
        per_seat = rules.deals // n
        for s in range(n):
            assert sum(1 for d, _ in pairs if d == s) == per_seat
        if rules.deals == n * len(rules.contracts):
            assert set(pairs) == {(s, c.name) for s in range(n) for c in rules.contracts}
    check_rotation(game, regular)
    check_tiebreaks(game)


def check_rotation(game: Game, regular: list[DealResult]) -> None:
    """Who declares each regular deal (docs/rules.md §3.3, §6.5 and §9)."""
    rules, n = game.rules, game.n
    callers = [r.caller for r in regular]
    first = game.first_dealer if rules.dealer_declares else (game.first_dealer + 1) % n
    assert callers[0] == first
    if not rules.majors:
        run = rules.deals // n if rules.continuous else 1
        assert callers == [(first + i // run) % n for i in range(len(regular))]
        return
    budget = len(rules.contracts)
    for i in range(len(regular) - 1):
        left = [budget - sum(1 for r in regular[: i + 1] if r.declarer == s) for s in range(n)]
        D = callers[i]
        order = [D] if rules.continuous else []
        order += [(D + j) % n for j in range(1, n + 1)]
        assert callers[i + 1] == next(p for p in order if left[p] > 0), f"deal {i + 1}: wrong declarer"


def check_tiebreaks(game: Game) -> None:
    """Extra notrump deals happen exactly while the top is shared, at most tiebreak_max of them."""
    rules, n, results = game.rules, game.n, game.results
    last_regular = max(i for i, r in enumerate(results) if not r.tiebreak)
    totals = [0] * n
    for r in results[: last_regular + 1]:
        totals = [a + b for a, b in zip(totals, r.points)]
    extra = results[last_regular + 1 :]
    if rules.tiebreak == "none":
        assert not extra
        return
    done = 0
    i = 0
    while True:
        wants_more = totals.count(max(totals)) > 1 and done < rules.tiebreak_max
        if not wants_more:
            assert i == len(extra), "a tie-break deal was played without a shared top, or beyond tiebreak_max"
            break
        assert i < len(extra), "the top is shared but no tie-break deal followed"
        expected_caller = (
            seeded_deal(game.seed, extra[i].deal_no, 0, n, rules.hand_size).declarer
            if rules.tiebreak == "random"
            else totals.index(min(totals))
        )
        while True:  # one tie-break deal, possibly after void attempts
            r = extra[i]
            assert r.tiebreak and r.contract == rules.notrump and r.caller == expected_caller
            totals = [a + b for a, b in zip(totals, r.points)]
            i += 1
            if not r.void:
                break
            assert i < len(extra), "a void tie-break deal was not redealt"
        done += 1
    assert done <= rules.tiebreak_max


# --------------------------------------------------------------------------------- tests
@settings(max_examples=30, phases=NO_SHRINK)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**31 - 1))
def test_random_games_of_every_preset(preset: str, seed: int) -> None:
    """Every preset with its defaults: conservation, views, scoring, rotation, contract use."""
    run_random_game(load_ruleset(preset), seed, revoke_rate=0.0)


@settings(max_examples=60, phases=NO_SHRINK)
@given(
    choice=option_sets(),
    seed=st.integers(0, 2**31 - 1),
    revoke_rate=st.sampled_from([0.0, 0.02, 0.1]),
    first_dealer=st.none() | st.integers(0, 3),
)
def test_random_games_over_option_combinations(
    choice: tuple[str, dict[str, Any]], seed: int, revoke_rate: float, first_dealer: int | None
) -> None:
    """Random option combinations, with revokes attempted (refused or voiding, per the option)."""
    preset, opts = choice
    rules = load_ruleset(preset, opts)
    if first_dealer is not None:
        first_dealer %= rules.players
    run_random_game(rules, seed, revoke_rate, first_dealer)


@settings(max_examples=40, phases=NO_SHRINK)
@given(
    preset=st.sampled_from(["mizerka", "mizerka-short", "mizerka-4p", "spoileri", "trjamann", "manni-major"]),
    tiebreak=st.sampled_from(["random", "lowest"]),
    seed=st.integers(0, 2**31 - 1),
    revoke_rate=st.sampled_from([0.0, 0.1]),
)
def test_short_games_with_tiebreaks(preset: str, tiebreak: str, seed: int, revoke_rate: float) -> None:
    """One deal per player (deals = n) makes shared tops, and so tie-break deals, frequent."""
    n = PRESETS[preset].players
    rules = load_ruleset(preset, {"deals": n, "tiebreak": tiebreak, "tiebreak_max": 3, "revoke": "penalty"})
    run_random_game(rules, seed, revoke_rate)


def test_tiebreak_deals_actually_occur() -> None:
    """Guards the property above against silently never producing a tie-break deal."""
    rules = load_ruleset("mizerka-short", {"deals": 3, "tiebreak": "lowest", "tiebreak_max": 3})
    seen = 0
    for seed in range(60):
        game = run_random_game(rules, seed, revoke_rate=0.0)
        seen += sum(1 for r in game.results if r.tiebreak)
    assert seen > 0


def test_full_deck_constant_matches_52_cards() -> None:
    """The conservation checks above compare against range(52); the engine's deck mask agrees."""
    assert FULL_DECK == card_mask(range(52))
