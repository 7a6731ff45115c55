"""The league runner waits for each match's end in a long poll (Arena.WaitMatch, up to
WAIT_POLL_MS) that holds a thread for as long as the match lasts. Those threads must not come out
of trio's default pool (40 threads), which the runner's other blocking calls share (the ledger's
writes, creating matches): a league playing more games at once than that pool holds would
otherwise stop writing results until a match ended. The referee here is a fake whose matches never
end until the test says so; no timing is involved beyond a generous bound on a hang."""

from __future__ import annotations

import threading
from pathlib import Path

import trio

from mizerka_proto import arena_pb2
from tournaments.config import parse_league
from tournaments.runner import WAIT_POLL_MS, LeagueRunner
from tournaments.store import LeagueStore

HANG_S = 30  # far beyond any wait that should end; only a hang reaches it

LEAGUE = """name = "waits"
preset = "mizerka-short"
sandbox = "off"  # no bot runs: the referee is a fake
[[bots]]
name = "a"
command = ["mizerka-bot", "random"]
[[bots]]
name = "b"
command = ["mizerka-bot", "random"]
[[bots]]
name = "c"
command = ["mizerka-bot", "random"]
"""


class EndlessMatches:
    """An Arena client whose matches end only when ``release`` is set; counts the waits under way."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.waiting = 0
        self.polls: list[int] = []

    def wait(self, match_id: str, timeout_ms: int) -> arena_pb2.Match:
        with self.lock:
            self.waiting += 1
            self.polls.append(timeout_ms)
        self.release.wait(HANG_S)
        return arena_pb2.Match(match_id=match_id, status=arena_pb2.MATCH_STATUS_FINISHED)


def test_games_waiting_for_their_matches_leave_the_runners_other_threads_free(tmp_path: Path) -> None:
    path = tmp_path / "waits.toml"
    path.write_text(LEAGUE)
    store = LeagueStore(tmp_path / "league.db")
    referee = EndlessMatches()
    ended: list[arena_pb2.Match | None] = []

    async def main() -> int:
        games = trio.to_thread.current_default_thread_limiter().total_tokens + 5
        runner = LeagueRunner(parse_league(LEAGUE, path), store, referee, report=lambda event: None,  # type: ignore[arg-type]
                              slots=games)

        async def game(match_id: str) -> None:
            ended.append(await runner._finished(match_id))

        async with trio.open_nursery() as nursery:
            for n in range(games):
                nursery.start_soon(game, f"m{n}")
            with trio.fail_after(HANG_S):
                while referee.waiting < games:  # every game's wait under way at once
                    await trio.sleep(0.01)
                # ... and a blocking call of the runner's still gets a thread
                assert await trio.to_thread.run_sync(lambda: "written") == "written"
            referee.release.set()
        return games

    try:
        games = trio.run(main)
    finally:
        referee.release.set()
        store.close()
    assert referee.polls == [WAIT_POLL_MS] * games
    assert sorted(m.match_id for m in ended if m is not None) == sorted(f"m{n}" for n in range(games))
