"""A league's standings from its stored results: the statistics (ratings, intervals, the
sequential test's separation) over what :mod:`tournaments.store` holds. Apart from the store, so
that reading a database (``mizerka match list``) does not import the statistics (scipy)."""

from __future__ import annotations

from tournaments.config import League, StopRule
from tournaments.standings.results import GameResult
from tournaments.standings.sequential import Separation, separation
from tournaments.standings.stats import Standings, standings
from tournaments.store import LeagueStore


def stored_standings(store: LeagueStore, name: str, bot_names: list[str]) -> tuple[Standings, list[GameResult], int]:
    """League ``name``'s standings from its stored results, in schedule order (ratings depend on it),
    without the separation verdicts (they need the league file); with the finished games and the
    number of games scheduled."""
    rows = store.league_games(name)
    games = [g for r in rows if (g := r.result) is not None]
    bots = store.league_bots(name)
    table = standings(bot_names, games, {b.name: b.crashes for b in bots}, [b.name for b in bots if b.disabled])
    return table, games, len(rows)


def load_results(store: LeagueStore, league: League) -> Standings:
    """The league's standings from its stored results, with the separation of adjacent pairs."""
    result, games, scheduled = stored_standings(store, league.name, [b.name for b in league.bots])
    result.separation = separation([b.name for b in result.bots], games, league.round_games, league.confidence, scheduled)
    return result


def settled(store: LeagueStore, league: League) -> Separation | None:
    """With stop = "settled": the evidence once every adjacent pair of the standings is separated
    (the league plays no more games); None while it is not, and always for other leagues."""
    if league.stop is not StopRule.SETTLED:
        return None
    evidence = load_results(store, league).separation
    return evidence if evidence is not None and evidence.settled else None
