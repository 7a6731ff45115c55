"""Card notation, seeded dealing, and rulesets: presets, options and their validation (docs/rules.md §1, §2, §9)."""

from __future__ import annotations

import random

import pytest
from conftest import finish_deal

from mizerka_engine.actions import PLAY_FIELD, PLAYS
from mizerka_engine.cards import (
    FIELD_CARDS,
    CardError,
    card_mask,
    format_card,
    format_cards,
    mask_cards,
    parse_card,
    parse_cards,
    parse_suit,
)
from mizerka_engine.dealing import seeded_deal
from mizerka_engine.events import Dealt
from mizerka_engine.game import Game, Phase, Play
from mizerka_engine.rules import (
    PRESETS,
    DeclarerMode,
    ExchangeKind,
    MisereQuotas,
    RevokeMode,
    RulesError,
    TiebreakMode,
    load_ruleset,
    ruleset_from_toml,
)
from server.policies import random_action

# ------------------------------------------------------------------------------ card notation


def test_card_notation_rank_then_suit() -> None:
    """`AS`, `TD`, `2C`: rank 23456789TJQKA then suit SHDC, every card distinct."""
    texts = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    parsed = [parse_card(t) for t in texts]
    assert sorted(parsed) == list(range(52))
    assert parse_card("AS") != parse_card("KS") != parse_card("AH")
    assert [format_card(c) for c in parsed] == texts


def test_card_notation_accepts_10_and_lowercase() -> None:
    """Parsers may accept `10D` and lower case; writers always emit `TD`."""
    assert parse_card("10D") == parse_card("TD") == parse_card("td") == parse_card("10d")
    assert parse_card("as") == parse_card("AS")
    assert format_card(parse_card("10D")) == "TD"
    assert format_cards(parse_cards(["10h", "qs"])) == ["TH", "QS"]


def test_card_ranks_order_within_a_suit() -> None:
    """2 < 3 < ... < T < J < Q < K < A: a higher rank is a higher number within its suit."""
    spades = [parse_card(r + "S") for r in "23456789TJQKA"]
    assert spades == sorted(spades)


@pytest.mark.parametrize("garbage", ["", "A", "1S", "11D", "AX", "ZS", "ASS", "10", "T D", "joker"])
def test_card_notation_rejects_garbage_with_card_error(garbage: str) -> None:
    """Anything else is a CardError whose message quotes the text and shows the notation."""
    with pytest.raises(CardError) as info:
        parse_card(garbage)
    assert repr(garbage) in str(info.value)
    assert "TD" in str(info.value)  # the example of the expected notation


@pytest.mark.parametrize("not_text", [None, 12, ["AS"]])
def test_card_notation_rejects_non_text(not_text: object) -> None:
    """A non-string is not a card either (and is still a CardError, not a crash)."""
    with pytest.raises(CardError):
        parse_card(not_text)  # type: ignore[arg-type]


def test_card_error_is_a_value_error() -> None:
    """Callers that catch ValueError (e.g. input parsing) also catch bad cards."""
    assert issubclass(CardError, ValueError)


def test_masks_round_trip_in_ascending_order() -> None:
    """mask_cards lists a hand suit by suit, low to high; card_mask is its inverse."""
    hand = parse_cards(["AC", "2S", "KH", "TD", "3S"])
    assert mask_cards(card_mask(hand)) == sorted(hand)
    assert format_cards(mask_cards(card_mask(hand))) == ["2S", "3S", "KH", "TD", "AC"]
    assert mask_cards(card_mask(range(52))) == list(range(52))


def test_every_suit_field_lists_its_cards_and_the_plays_are_the_interned_ones() -> None:
    """The lookup tables behind mask_cards and the legal plays, all 4 x 8,192 entries."""
    for suit in range(4):
        for field in range(1 << 13):
            cards = tuple(13 * suit + r for r in range(13) if field >> r & 1)
            assert FIELD_CARDS[suit][field] == cards
            assert all(play is PLAYS[card] for play, card in zip(PLAY_FIELD[suit][field], cards, strict=True))


def test_suit_notation() -> None:
    """Trump suits are written S/H/D/C (names accepted); anything else is a CardError."""
    assert [parse_suit(s) for s in "SHDC"] == [0, 1, 2, 3]
    assert parse_suit("hearts") == parse_suit("h") == 1
    with pytest.raises(CardError, match="not a suit"):
        parse_suit("X")


# ---------------------------------------------------------------------------- seeded dealing


def test_seeded_deal_is_reproducible() -> None:
    """The same (seed, deal number, redeal) always gives the same cards (duplicate play needs it)."""
    assert seeded_deal(7, 3, 0, 3, 13) == seeded_deal(7, 3, 0, 3, 13)
    assert seeded_deal("league-1", 0, 2, 4, 10) == seeded_deal("league-1", 0, 2, 4, 10)


def test_seeded_deal_is_stable_across_machines() -> None:
    """A pinned deal: string seeding hashes with SHA-512, so this may never change between runs or hosts."""
    deal = seeded_deal(1, 0, 0, 3, 13)
    assert format_cards(deal.hands[0]) == ["3S", "9D", "AD", "9S", "4C", "TD", "QH", "8D", "JC", "QC", "2D", "7H", "2C"]
    assert format_cards(deal.talon[:3]) == ["5C", "6H", "QD"]


def test_seeded_deal_differs_by_redeal_deal_number_and_seed() -> None:
    """A redeal, the next deal or another seed gives other cards."""
    base = seeded_deal(7, 3, 0, 3, 13)
    assert seeded_deal(7, 3, 1, 3, 13).hands != base.hands
    assert seeded_deal(7, 4, 0, 3, 13).hands != base.hands
    assert seeded_deal(8, 3, 0, 3, 13).hands != base.hands


@pytest.mark.parametrize(("players", "hand_size"), [(3, 13), (4, 10), (3, 16)])
def test_seeded_deal_is_52_distinct_cards(players: int, hand_size: int) -> None:
    """Hands of the preset's size, the rest to the talon, every card exactly once."""
    for deal_no in range(20):
        deal = seeded_deal(99, deal_no, 0, players, hand_size)
        assert [len(h) for h in deal.hands] == [hand_size] * players
        assert len(deal.talon) == 52 - players * hand_size
        assert sorted([c for h in deal.hands for c in h] + list(deal.talon)) == list(range(52))
        assert deal.declarer in range(players)


def _deal_entries(game: Game) -> dict[tuple[int, int], tuple]:
    return {(e.deal_no, e.redeal): (e.hands, e.talon) for e in game.log if isinstance(e, Dealt)}


def test_game_deals_are_independent_of_play() -> None:
    """Two games with one seed and different players get the same cards in every deal."""
    rules = load_ruleset("mizerka", {"deals": 6})
    games = []
    for policy_seed in (1, 2):
        game = Game(rules, seed=42)
        rng = random.Random(policy_seed)
        while not game.finished:
            game.apply(game.to_act, random_action(game, rng))
        games.append(game)
    a, b = (_deal_entries(g) for g in games)
    assert [r.points for r in games[0].results] != [r.points for r in games[1].results]  # the play differed
    assert a == b
    for (deal_no, redeal), (hands, talon) in a.items():
        assert (hands, talon) == seeded_deal(42, deal_no, redeal, 3, 13)[:2]


def test_redeal_after_a_void_deal_uses_the_next_redeal_number() -> None:
    """A revoked deal is redealt from (seed, same deal number, redeal + 1)."""
    game = Game(load_ruleset("mizerka", {"revoke": "penalty"}), seed=5)
    rng = random.Random(0)
    while True:  # play randomly until the player to act could revoke, then revoke
        if game.phase == Phase.PLAY:
            hand = set(mask_cards(game.hands[game.to_act]))
            legal = {a.card for a in game.legal_actions()}
            if hand - legal:
                game.apply(game.to_act, Play(min(hand - legal)))
                break
        game.apply(game.to_act, random_action(game, rng))
    assert game.results[-1].void
    deal_no = game.results[-1].deal_no
    assert (game.deal_no, game.redeal) == (deal_no, 1)
    assert _deal_entries(game)[(deal_no, 1)] == seeded_deal(5, deal_no, 1, 3, 13)[:2]
    finish_deal(game)
    assert not game.results[-1].void and game.results[-1].redeal == 1


# ------------------------------------------------------------------------- presets (docs/rules.md §2)

PRESET_TABLE = {
    # preset: players, hand size, talon, contracts, quotas plus, quotas minus, exchange, deals, choose_after
    "mizerka": (3, 13, 13, "spades hearts diamonds clubs notrump mizerka", (7, 5, 1), (1, 5, 7), "blind", 18, 6),
    "mizerka-4p": (4, 10, 12, "spades hearts diamonds clubs notrump mizerka", (4, 3, 2, 1), (1, 2, 3, 4), "blind", 24, 6),
    "mizerka-short": (3, 13, 13, "hearts notrump mizerka", (7, 5, 1), (1, 5, 7), "blind", 9, 6),
    "spoileri": (3, 13, 13, "nolo rami spades trumps", (7, 4, 2), (2, 4, 7), "blind", 12, "all"),
    "trjamann": (3, 16, 4, "grand spades trumps null", (8, 4, 4), (4, 6, 6), "pick", 12, "all"),
    "manni-major": (3, 16, 4, "spades hearts diamonds clubs grand null", (8, 4, 4), (4, 6, 6), "pick", 18, "all"),
}
MINUS = {"mizerka": "mizerka", "mizerka-4p": "mizerka", "mizerka-short": "mizerka", "spoileri": "nolo", "trjamann": "null", "manni-major": "null"}
NOTRUMP = {"mizerka": "notrump", "mizerka-4p": "notrump", "mizerka-short": "notrump", "spoileri": "rami", "trjamann": "grand", "manni-major": "grand"}


def test_every_preset_is_in_the_table() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize("preset", sorted(PRESET_TABLE))
def test_presets_are_ready_to_play(preset: str) -> None:
    """PRESETS[name] is the loaded ruleset (deals filled in), so Game(PRESETS[name]) plays a whole game."""
    assert PRESETS[preset] == load_ruleset(preset)
    assert PRESETS[preset].deals == PRESET_TABLE[preset][7]
    game = Game(PRESETS[preset], seed=1)
    rng = random.Random(1)
    while not game.finished:
        game.apply(game.to_act, random_action(game, rng))
    assert len(game.results) >= PRESET_TABLE[preset][7]


@pytest.mark.parametrize("preset", sorted(PRESET_TABLE))
def test_preset_shape(preset: str) -> None:
    """Each preset matches its row of the docs/rules.md §2.1 table."""
    players, hand, talon, contracts, plus, minus, exchange, deals, choose_after = PRESET_TABLE[preset]
    r = load_ruleset(preset)
    assert (r.players, r.hand_size, r.talon_size, r.tricks) == (players, hand, talon, hand)
    assert [c.name for c in r.contracts] == contracts.split()
    assert (r.quotas_plus, r.quotas_minus) == (plus, minus)
    assert sum(plus) == sum(minus) == hand
    assert (r.exchange, r.deals, r.choose_after) == (exchange, deals, choose_after)
    assert r.majors == (preset == "manni-major")
    assert [c.name for c in r.contracts if c.minus] == [MINUS[preset]]
    assert r.notrump == NOTRUMP[preset]
    notrump = r.contract(r.notrump)
    assert notrump is not None and notrump.trump is None and not notrump.minus
    # defaults of docs/rules.md §9
    assert (r.declarer, r.revoke, r.tiebreak, r.tiebreak_max, r.misere_quotas, r.trumps_allow_spades) == (
        "alternate", "reject", "none", 5, "reversed", False,
    )


@pytest.mark.parametrize("preset", sorted(PRESET_TABLE))
def test_suit_contracts_have_their_suit_as_trump(preset: str) -> None:
    """`spades` trumps S, ...; `trumps` names its suit; no-trump and minus contracts have no trump."""
    for c in load_ruleset(preset).contracts:
        if c.name in ("spades", "hearts", "diamonds", "clubs"):
            assert c.trump == "SHDC".index(c.name[0].upper()) and not c.names_trump
        elif c.name == "trumps":
            assert c.names_trump and c.trump is None
        else:
            assert c.trump is None and not c.names_trump


def test_major_ranking_is_grand_hearts_spades_diamonds_clubs() -> None:
    """docs/rules.md §6.2: contests must rank above C in grand > hearts > spades > diamonds > clubs; null is never major."""
    r = load_ruleset("manni-major")
    ranked = sorted((c for c in r.contracts if c.major_rank), key=lambda c: -c.major_rank)
    assert [c.name for c in ranked] == ["grand", "hearts", "spades", "diamonds", "clubs"]
    assert r.contract("null").major_rank == 0  # type: ignore[union-attr]


def test_trump_suits_for_the_trumps_contract() -> None:
    """`trumps` names hearts, diamonds or clubs; spades only with trumps_allow_spades."""
    assert load_ruleset("trjamann").trump_suits() == (1, 2, 3)
    assert load_ruleset("trjamann", {"trumps_allow_spades": True}).trump_suits() == (0, 1, 2, 3)


# ---------------------------------------------------------------------------------- options


@pytest.mark.parametrize("mode", ["alternate", "continuous", "dealer", "continuous-dealer"])
def test_option_declarer(mode: str) -> None:
    r = load_ruleset("mizerka", {"declarer": mode})
    assert r.declarer == mode
    assert r.continuous == mode.startswith("continuous")
    assert r.dealer_declares == mode.endswith("dealer")


@pytest.mark.parametrize(("preset", "deals"), [("mizerka", 3), ("mizerka", 9), ("mizerka", 18), ("mizerka-4p", 8), ("trjamann", 6)])
def test_option_deals(preset: str, deals: int) -> None:
    assert load_ruleset(preset, {"deals": deals}).deals == deals


def test_options_revoke_tiebreak_choose_after_spades() -> None:
    """Every remaining option is taken over as given."""
    r = load_ruleset(
        "spoileri",
        {"revoke": "penalty", "tiebreak": "random", "tiebreak_max": 2, "choose_after": 6, "trumps_allow_spades": True},
    )
    assert (r.revoke, r.tiebreak, r.tiebreak_max, r.choose_after, r.trumps_allow_spades) == ("penalty", "random", 2, 6, True)
    assert r.seen_before_choice == 6
    assert load_ruleset("mizerka", {"choose_after": "all"}).seen_before_choice == 13
    assert load_ruleset("mizerka", {"tiebreak": "lowest"}).tiebreak == "lowest"


def test_option_quota_overrides() -> None:
    r = load_ruleset("mizerka", {"quotas_plus": [6, 5, 2], "quotas_minus": (2, 5, 6)})
    assert (r.quotas_plus, r.quotas_minus) == ((6, 5, 2), (2, 5, 6))
    assert load_ruleset("trjamann", {"quotas_minus": [3, 6, 7]}).quotas_plus == (8, 4, 4)


def test_misere_quotas_same_copies_the_plus_table() -> None:
    """`same` keeps 7,5,1 for the minus contract too (the Spanish/French reading)."""
    assert load_ruleset("mizerka", {"misere_quotas": "same"}).quotas_minus == (7, 5, 1)
    assert load_ruleset("mizerka", {"misere_quotas": "reversed"}).quotas_minus == (1, 5, 7)
    assert load_ruleset("mizerka-4p", {"misere_quotas": "same"}).quotas_minus == (4, 3, 2, 1)


def test_misere_quotas_same_follows_an_overridden_plus_table() -> None:
    """`same` makes the minus table equal to the plus table *in force*."""
    r = load_ruleset("mizerka", {"misere_quotas": "same", "quotas_plus": [6, 5, 2]})
    assert r.quotas_minus == (6, 5, 2)


def test_explicit_quotas_minus_wins_over_misere_same() -> None:
    r = load_ruleset("mizerka", {"misere_quotas": "same", "quotas_minus": [3, 4, 6]})
    assert r.quotas_minus == (3, 4, 6)


def test_options_do_not_change_the_presets() -> None:
    """Rulesets are values: loading with options leaves the shared preset untouched."""
    before = PRESETS["mizerka"]
    load_ruleset("mizerka", {"deals": 3, "quotas_plus": [6, 5, 2], "revoke": "penalty"})
    assert PRESETS["mizerka"] == before and PRESETS["mizerka"].revoke == "reject"
    assert load_ruleset("mizerka").deals == 18


def test_describe_lists_every_option_in_force() -> None:
    d = load_ruleset("mizerka", {"deals": 9, "revoke": "penalty"}).describe()
    assert d["preset"] == "mizerka" and d["deals"] == 9 and d["revoke"] == "penalty"
    assert d["contracts"] == ["spades", "hearts", "diamonds", "clubs", "notrump", "mizerka"]
    assert "seed" not in d


def test_option_values_are_parsed_once_into_enums_spelled_as_written() -> None:
    """The ruleset holds enum members (the engine compares members, never text), each equal to the
    option's text; describe() gives the plain text back, as logs and views have always shown it."""
    r = ruleset_from_toml('preset = "trjamann"\n[options]\ndeclarer = "continuous-dealer"\nrevoke = "penalty"\n'
                          'tiebreak = "lowest"\nmisere_quotas = "same"\n')
    assert r.declarer is DeclarerMode.CONTINUOUS_DEALER and r.revoke is RevokeMode.PENALTY
    assert r.tiebreak is TiebreakMode.LOWEST and r.misere_quotas is MisereQuotas.SAME and r.exchange is ExchangeKind.PICK
    assert r.pick and not load_ruleset("mizerka").pick and r.choose_after_all and not load_ruleset("mizerka").choose_after_all
    d = r.describe()
    written = {"declarer": "continuous-dealer", "revoke": "penalty", "tiebreak": "lowest", "misere_quotas": "same",
               "exchange": "pick"}
    assert {k: d[k] for k in written} == written and all(type(d[k]) is str for k in written)
    assert r.options["declarer"] == "continuous-dealer" and type(r.options["declarer"]) is str  # the options as given
    assert load_ruleset("mizerka") == PRESETS["mizerka"] and PRESETS["mizerka"].declarer is DeclarerMode.ALTERNATE


def test_ruleset_from_toml() -> None:
    r = ruleset_from_toml('preset = "mizerka"\n[options]\ndeals = 9\ndeclarer = "continuous"\n')
    assert (r.preset, r.deals, r.declarer) == ("mizerka", 9, "continuous")
    with pytest.raises(RulesError, match="'deals'"):
        ruleset_from_toml('preset = "mizerka"\n[options]\ndeals = 10\n')


# ------------------------------------------------------------------------- option validation


def _error(preset: str, options: dict) -> str:
    with pytest.raises(RulesError) as info:
        load_ruleset(preset, options)
    return str(info.value)


def test_unknown_preset_is_named() -> None:
    with pytest.raises(RulesError, match="'whist'"):
        load_ruleset("whist")


def test_unknown_option_is_named() -> None:
    assert "unknown option 'colour'" in _error("mizerka", {"colour": "red"})


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("deals", "9"),
        ("deals", 9.0),
        ("deals", True),  # a bool is not a number of deals
        ("tiebreak_max", 2.5),
        ("trumps_allow_spades", "yes"),
        ("trumps_allow_spades", 1),
        ("declarer", 1),
        ("quotas_plus", "7,5,1"),
        ("quotas_minus", 13),
        ("choose_after", True),
    ],
)
def test_wrong_type_names_the_option(option: str, value: object) -> None:
    message = _error("mizerka", {option: value})
    assert f"'{option}'" in message and repr(value) in message


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("declarer", "sideways"),
        ("revoke", "sometimes"),
        ("tiebreak", "coin"),
        ("misere_quotas", "mirror"),
        ("choose_after", 7),
        ("choose_after", "some"),
        ("tiebreak_max", 0),
    ],
)
def test_bad_choice_names_the_option(option: str, value: object) -> None:
    message = _error("mizerka", {option: value})
    assert f"'{option}'" in message and repr(value) in message


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("declarer", "sideways",
         "option 'declarer' must be one of 'alternate', 'continuous', 'dealer', 'continuous-dealer', got 'sideways'"),
        ("revoke", "Penalty", "option 'revoke' must be one of 'reject', 'penalty', got 'Penalty'"),
        ("tiebreak", "LOWEST", "option 'tiebreak' must be one of 'none', 'random', 'lowest', got 'LOWEST'"),
        ("misere_quotas", "mirror", "option 'misere_quotas' must be one of 'reversed', 'same', got 'mirror'"),
    ],
)
def test_bad_choice_lists_the_values_as_written(option: str, value: str, message: str) -> None:
    """The values in the message are the option's text (not the enum's names), case-sensitive as before."""
    assert _error("mizerka", {option: value}) == message


@pytest.mark.parametrize("option", ["quotas_plus", "quotas_minus"])
@pytest.mark.parametrize("value", [[7, 6], [7, 5, 1, 0], [], [7, 5, "1"], [7, 5, True]])
def test_quotas_of_wrong_length_or_type(option: str, value: list) -> None:
    message = _error("mizerka", {option: value})
    assert f"'{option}'" in message and "3" in message


@pytest.mark.parametrize("option", ["quotas_plus", "quotas_minus"])
def test_quotas_must_sum_to_the_tricks(option: str) -> None:
    message = _error("mizerka", {option: [7, 5, 2]})
    assert f"'{option}'" in message and "13" in message and "14" in message
    message = _error("trjamann", {option: [8, 4, 3]})
    assert f"'{option}'" in message and "16" in message


def test_quotas_may_not_be_negative() -> None:
    assert "'quotas_plus'" in _error("mizerka", {"quotas_plus": [9, 5, -1]})


@pytest.mark.parametrize(("preset", "deals"), [("mizerka", 10), ("mizerka", 1), ("mizerka-4p", 6), ("mizerka", 0), ("mizerka", -3)])
def test_deals_must_be_a_multiple_of_the_players(preset: str, deals: int) -> None:
    message = _error(preset, {"deals": deals})
    assert "'deals'" in message and "multiple" in message


@pytest.mark.parametrize(("preset", "deals"), [("mizerka", 21), ("mizerka-short", 12), ("spoileri", 15), ("mizerka-4p", 28)])
def test_deals_may_not_exceed_players_times_contracts(preset: str, deals: int) -> None:
    message = _error(preset, {"deals": deals})
    assert "'deals'" in message and str(PRESETS[preset].players * len(PRESETS[preset].contracts)) in message
