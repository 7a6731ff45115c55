"""`mizerka league run` on a PostgreSQL database: submit the league to the workers and follow it.

The submitter stores the schedule and registers the league's bots (their tokens kept in the league's
rows, as one runner does), opens the league to the workers with its league file's text, then shows
every worker's progress by reading the database, until every game has its result: then it
publishes the league's matches (sealed until then) and prints the standings. Stopping it (Ctrl-C)
stops nothing but the view: the workers go on; run the same command again to follow them.

With ``stop = "settled"`` it looks at the standings whenever games come in; once every adjacent pair
is separated it closes the league (the workers claim no more of it, its other games stay PENDING),
waits for the games still under a lease, and publishes.
"""

from __future__ import annotations

import secrets

import trio

from server.storage.database import DB_ERRORS, db_error_text
from server.storage.store import FINISHED, StoreError
from tournaments import progress
from tournaments.config import League
from tournaments.progress import Report
from tournaments.runner import fingerprint, name_variants
from tournaments.schedule import match_group, schedule
from tournaments.standings.league import load_results, settled
from tournaments.standings.stats import Standings
from tournaments.store import LeagueStore
from tournaments.workers.leases import LeagueState, close, in_flight, submit
from tournaments.workers.leases import progress as game_counts


def prepare(store: LeagueStore, league: League, fresh: bool) -> str:
    """Store the league, its schedule and its bots (registered in the database: no referee is
    needed to submit); returns the league's secret."""
    remote = [b.name for b in league.bots if b.remote]
    if remote:
        raise StoreError(f"bot {remote[0]} is remote (it connects by itself, to one referee): a league with remote bots "
                         "is played against that referee with `league run --server HOST:PORT` (docs/scale-out.md)")
    if fresh:
        store.drop_league(league.name)
    elif store.league_state(league.name) is None and store.league_games(league.name):
        raise StoreError(f"league {league.name!r} was started on one host (`league run --here`); go on with --here, "
                         "or start it over for the workers with --fresh")
    secret = store.open_league(league.name, fingerprint(league),
                               league.seed if league.seed is not None else secrets.token_hex(32))
    store.add_schedule(league.name, schedule(league, secret))
    for spec in league.bots:
        if store.league_bot(league.name, spec.name) is None:
            bot, token = _register(store, f"{spec.name}@{league.name}")
            store.add_league_bot(league.name, spec.name, bot.id, token)
    return secret


def _register(store: LeagueStore, name: str) -> tuple[object, str]:
    """Register under the first free of :func:`~tournaments.runner.name_variants`."""
    for variant in name_variants(name):
        try:
            return store.add_bot(variant)
        except StoreError as e:
            if "already registered" not in str(e):
                raise
    raise StoreError(f"cannot register bot {name!r}: every variant of the name is taken")


async def submit_league(league: League, report: Report, fresh: bool = False, poll_s: float = 0.5) -> Standings:
    """Submit ``league`` (or find it submitted), follow the workers until it is done, publish it."""
    store = await trio.to_thread.run_sync(LeagueStore, league.database)
    try:
        secret = await trio.to_thread.run_sync(prepare, store, league, fresh)
        state = await trio.to_thread.run_sync(store.league_state, league.name)
        evidence = await trio.to_thread.run_sync(settled, store, league)  # stop = "settled", and it did
        if state != LeagueState.DONE and evidence is None:
            await trio.to_thread.run_sync(submit, store, league.name, league.path.read_text(encoding="utf-8"), league.path)
        seen = await trio.to_thread.run_sync(game_counts, store, league.name)
        report(progress.Start(total=seen.total, done=seen.finished, todo=seen.total - seen.finished))
        if evidence is None:
            report(progress.Submitted(league.name))
        else:
            await trio.to_thread.run_sync(close, store, league.name)
            report(progress.Settled.of(evidence))
        finished = {r.key for r in store.league_games(league.name) if r.status == FINISHED}
        workers: dict[str, dict[str, int]] = {}
        while seen.finished < seen.total:
            try:
                await trio.sleep(poll_s)
                # settled, and the games the workers held have ended: stop once the rows read below
                # (after this check, so they include every game that ended) are reported
                idle = evidence is not None and await trio.to_thread.run_sync(in_flight, store, league.name) == 0
                seen = await trio.to_thread.run_sync(game_counts, store, league.name)
                rows = await trio.to_thread.run_sync(store.league_games, league.name)
                new = [g for r in rows if r.key not in finished and (g := r.result) is not None]
                if new and evidence is None:
                    evidence = await trio.to_thread.run_sync(settled, store, league)
                    if evidence is not None:
                        await trio.to_thread.run_sync(close, store, league.name)  # the workers claim no more
                        report(progress.Settled.of(evidence))
            except DB_ERRORS as e:  # the workers go on without us: keep following once it is back
                report(progress.DatabaseUnreachable(db_error_text(e)))
                await trio.sleep(min(5.0, 10 * poll_s))
                continue
            for game in new:
                finished.add(game.key)
                report(progress.Game(game.key, game.seats, game.totals))
            if seen.by_worker != workers:
                workers = {k: dict(v) for k, v in seen.by_worker.items()}
                report(progress.Workers(workers, seen.running))
            if idle:
                break
        await trio.to_thread.run_sync(store.publish, match_group(league, secret))
        await trio.to_thread.run_sync(close, store, league.name)
        report(progress.Published(match_group(league, secret)))
        result = await trio.to_thread.run_sync(load_results, store, league)
        report(progress.End(result.games))
        return result
    finally:
        store.close()
