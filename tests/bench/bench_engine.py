"""Engine throughput: random full deals per second, side by side with OpenSpiel's ``oh_hell``.

A benchmark, not a timed test (``make bench-engine``). Each measurement plays for a fixed wall
budget and reports finished deals per second. Our side drives :class:`mizerka_engine.Game` through
its public API only: ``legal_actions()`` (``decision()`` for the exchange, whose actions are not
enumerated) and ``apply(seat, action)``, choosing uniformly at random. A deal runs from the contract
choice through the last trick; new games start as old ones finish, so dealing and game setup count.

When the optional ``bench`` extra (open_spiel) is installed, the same process also plays random
``oh_hell`` deals of the same shape (3 players, 52 cards, 13 tricks) from ``new_initial_state()`` to
terminal, sampling every chance outcome with its probability, in rounds alternating with the first
preset (so a busy machine slows both alike), and prints our rate as a ratio. Both drivers are plain
Python loops of the same shape, so the ratio compares the engines.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import os
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial

from sysinfo import machine

from mizerka_engine import Exchange, Game, Phase, load_ruleset
from mizerka_engine.cards import mask_cards

PRESETS = ("mizerka", "mizerka-4p", "spoileri", "trjamann", "manni-major")
OH_HELL = {"players": 3, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": 13}
BAR, GOAL = 0.3, 1.0


def engine_deals(preset: str, seconds: float, seed: int) -> tuple[int, float]:
    """Play random games of ``preset`` for about ``seconds``: (finished deals, elapsed seconds)."""
    rules = load_ruleset(preset)
    rng = random.Random(seed)
    choice, randint, sample = rng.choice, rng.randint, rng.sample
    exchange = Phase.EXCHANGE
    deals = game_no = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = Game(rules, seed=f"bench:{seed}:{game_no}")
        game_no += 1
        legal_actions, apply = game.legal_actions, game.apply
        while not game.finished:
            if game.phase == exchange:  # random count, then random cards (as server.policies.random_action)
                d = game.decision()
                assert d is not None
                hand = mask_cards(game.hands[d.seat])
                k = randint(0, min(d.max_exchange, len(hand)))
                apply(d.seat, Exchange(tuple(sample(hand, k)), tuple(sample(d.talon, k)) if d.pick else None))
            else:
                apply(game.to_act, choice(legal_actions()))
        deals += len(game.results)
        now = time.perf_counter()
        if now >= deadline:
            return deals, now - start


def openspiel_deals(seconds: float, seed: int) -> tuple[int, float]:
    """Play random ``oh_hell`` deals for about ``seconds``: (finished deals, elapsed seconds)."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", OH_HELL)
    rng = random.Random(seed)
    choice, uniform = rng.choice, rng.random
    deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                u = uniform()
                action = outcomes[-1][0]  # guards against the probabilities summing to a hair under 1
                for a, p in outcomes:
                    u -= p
                    if u < 0:
                        action = a
                        break
            else:
                action = choice(state.legal_actions())
            state.apply_action(action)
        deals += 1
        now = time.perf_counter()
        if now >= deadline:
            return deals, now - start


def have_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def measure(runs: Sequence[Callable[[float], tuple[int, float]]], seconds: float, rounds: int) -> list[float]:
    """Deals/s of each run, interleaved: ``rounds`` rounds of ``seconds / rounds`` each, so drift hits all alike."""
    deals = [0] * len(runs)
    elapsed = [0.0] * len(runs)
    for _ in range(rounds):
        for i, run in enumerate(runs):
            d, e = run(seconds / rounds)
            deals[i] += d
            elapsed[i] += e
    return [d / e for d, e in zip(deals, elapsed, strict=True)]


def profile(preset: str, seconds: float, seed: int) -> None:
    """cProfile one engine measurement and print the 15 most expensive functions."""
    profiler = cProfile.Profile()
    profiler.runcall(engine_deals, preset, seconds, seed)
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall budget of each measurement (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random players and the deals")
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=PRESETS, metavar="PRESET",
                        help=f"presets to measure; the first is compared with OpenSpiel (default: {' '.join(PRESETS)})")
    parser.add_argument("--rounds", type=int, default=5,
                        help="the first preset and OpenSpiel alternate in this many rounds (default 5)")
    parser.add_argument("--profile", action="store_true", help="profile the first preset (cProfile, top 15) instead")
    args = parser.parse_args(argv)

    if args.profile:
        profile(args.presets[0], args.seconds, args.seed)
        return 0
    print(f"machine: {machine()}")
    print(f"date:    {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")
    print(f"budget:  {args.seconds:g} s per measurement, seed {args.seed}, load average {os.getloadavg()[0]:.2f} at start")
    first, *others = args.presets
    pyspiel_ok = have_openspiel()
    runs = [partial(engine_deals, first, seed=args.seed)]
    if pyspiel_ok:
        runs.append(partial(openspiel_deals, seed=args.seed))
    for run in runs:  # warm up caches, tables and the allocator
        run(min(0.5, args.seconds))
    rates = measure(runs, args.seconds, args.rounds)
    print(f"engine    {first:<12} {rates[0]:>9,.0f} deals/s")
    for preset in others:
        (ours,) = measure([partial(engine_deals, preset, seed=args.seed)], args.seconds, 1)
        print(f"engine    {preset:<12} {ours:>9,.0f} deals/s")
    if not pyspiel_ok:
        print("openspiel: pyspiel is not importable (the optional 'bench' extra: pip install -e '.[bench]'); no comparison")
        return 0
    params = ", ".join(f"{k}={v}" for k, v in OH_HELL.items())
    print(f"openspiel oh_hell      {rates[1]:>9,.0f} deals/s  ({params})")
    ratio = rates[0] / rates[1]
    verdict = "meets the goal" if ratio >= GOAL else "meets the bar" if ratio >= BAR else "BELOW THE BAR"
    print(f"ratio     {first} / oh_hell = {ratio:.2f}x  (bar {BAR}x, goal {GOAL}x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
