"""The league report (`mizerka report`): the step-by-step replay behind the match pages, escaping,
and the site itself in a real browser.

The browser test plays a real 12-game league with built-in bots, writes the report, serves it on
127.0.0.1 and drives Debian's chromium through Playwright: the index's standings must be those of
`mizerka league standings --json`, the chart must be drawn, and a match page must step through the
first deal's contract, exchanges and first trick to the winner the stored log names, and back.
"""

from __future__ import annotations

import functools
import http.server
import json
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mizerka_engine.cards import SUIT_NAMES, mask_cards
from mizerka_engine.events import ACTION_EVENTS, ContractAnnounced, Dealt, TrickTaken, contract_text
from mizerka_engine.game import Game, Phase, Play
from mizerka_engine.rules import PRESETS, load_ruleset
from mizerka_engine.views import FULL, project_events
from server.codec import matchlog
from server.logverify import replay_log
from server.policies import random_action
from server.storage.store import Store
from tournaments.config import load_league
from tournaments.report import copy_assets, embed_json, game_frames, game_page_data, load_game, page_name, render_page
from tournaments.store import LeagueGame, LeagueStore

from browser import Labels, assert_board_shows, board_contracts, launch, mark, new_page, relabel
from harness import ROOT, need_sandbox

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
# A bot name is user input: this one would make an element, or break out of an attribute, if a page
# ever put it in as markup (names may hold no blank, slash or control character, so no <img src=x>).
EVIL = 'rnd<img>"onmouseover="window.__xss=1"&amp;'
BOTS = {"heuristic": "heuristic", "greedy": "greedy", "cautious": "cautious", EVIL: "random"}


# ---------------------------------------------------------------------------- without a browser
def test_embedded_json_cannot_end_its_script_element() -> None:
    data = {"name": "</script><script>alert(1)</script>&<!--", "line": "\u2028"}
    text = embed_json(data)
    assert not set("<>&") & set(text) and "\u2028" not in text
    assert json.loads(text) == data
    page = render_page("index", "a <b> & 'c'", data)
    assert "<title>a &lt;b&gt; &amp; &#x27;c&#x27;</title>" in page
    assert page.count("</script>") == 3  # the data element's and the two script tags' own (the board, the report)


def test_page_names_are_plain_and_unique() -> None:
    taken: set[str] = set()
    assert page_name("t0/g1/s2", taken) == "t0-g1-s2.html"
    assert page_name("t0/g1/s2", taken) == "t0-g1-s2-2.html"
    assert page_name("../<x>", taken) == "x.html"


def _play_randomly(preset: str, seed: int, **options: Any) -> Game:
    """A whole game of random players; under revoke = penalty they sometimes revoke on purpose."""
    game = Game(load_ruleset(preset, options), seed=seed)
    rng = random.Random(seed)
    while not game.finished:
        if game.phase == Phase.PLAY and game.rules.revoke == "penalty" and rng.random() < 0.03:
            action: Any = Play(rng.choice(mask_cards(game.hands[game.to_act])))
        else:
            action = random_action(game, rng)
        game.apply(game.to_act, action)
    return game


@pytest.mark.parametrize("preset", list(PRESETS))
def test_stepping_through_a_game_shows_every_action_and_every_deal_end(preset: str) -> None:
    game = _play_randomly(preset, 7, revoke="penalty", tiebreak="random")
    frames = game_frames(game)  # raises if the steps do not give the logged game back
    json.dumps(frames)
    actions = [e for e in game.log if isinstance(e, ACTION_EVENTS)]
    deals = [e for e in game.log if isinstance(e, Dealt)]
    assert len(frames) == 1 + len(actions) + len(deals) - 1  # each later deal is a step of its own
    assert [f["act"]["type"] for f in frames if f["act"]["type"] != "deal"] == [e.kind for e in actions]
    # an act is the action's match log line (no turn metadata: the page has none), a result the log's
    lines = matchlog.log_lines(project_events(game, FULL), game.rules)
    acts = [{k: v for k, v in f["act"].items() if k != "label"} for f in frames if f["act"]["type"] != "deal"]
    assert acts == [{k: v for k, v in line.items() if k not in matchlog.TURN_KEYS} for line in lines
                    if line["type"] in matchlog.ACTION_KINDS]
    ended = [f for f in frames if "result" in f]
    assert [{"type": "result", **{k: v for k, v in f["result"].items() if k != "label"}} for f in ended] == \
        [line for line in lines if line["type"] == "result"]
    assert len(ended) == len(game.results)
    for f, r in zip(ended, game.results):
        assert f["phase"] == ("over" if f is frames[-1] else "end")
        assert (f["result"]["points"], f["deal"], f["declarer"]) == (list(r.points), r.deal_no, r.declarer)
        assert f["result"]["label"] == contract_text(r.contract, r.major, r.trump, game.rules)
        if not r.void:  # the deal is shown as it ended: its last trick complete, with its winner
            assert len(f["tricks"]) == game.rules.tricks and f["tricks"][-1]["winner"] is not None
            assert f["tricks_won"] == list(r.tricks)
    for f in frames:
        assert all(h is not None for h in f["hands"])  # FULL: every hand is shown
        if f["act"]["type"] == "play" and "result" not in f:
            trick = f["tricks"][-1]
            assert trick["cards"][-1] == [f["act"]["seat"], f["act"]["card"]]
    assert frames[-1]["finished"] and frames[-1]["totals"] == list(game.totals)


def test_stepping_covers_void_deals_and_tie_breaks() -> None:
    """Seeds found with random play: a revoke voids a deal, and a shared top forces a tie-break."""
    kinds = set()
    for seed in range(300):  # ties are rare under random play: seed 69 has one
        game = _play_randomly("mizerka-short", seed, revoke="penalty", tiebreak="random")
        frames = game_frames(game)
        for f in frames:
            if f.get("result", {}).get("void"):
                kinds.add("void")
                assert f["act"]["type"] == "revoke"
            if f["tiebreak"] and f["act"]["type"] == "deal":
                kinds.add("tiebreak")
                assert f["phase"] == "exchange" and f["contract"] == "notrump"
        if kinds == {"void", "tiebreak"}:
            return
    pytest.fail(f"300 random games showed only {sorted(kinds)}")


def test_contract_text_names_the_suit_only_where_the_declarer_names_it() -> None:
    """The one text of a contract (the pages, the score sheets, the game's story): its label, with
    the suit where the declarer named it, and "major"; with no ruleset any suit given (an action
    as sent)."""
    for preset in PRESETS:
        rules = load_ruleset(preset)
        for c in rules.contracts:
            for trump in (None, 0, 1, 2, 3):
                named = c.names_trump and trump is not None
                assert contract_text(c.name, False, trump, rules) == (f"{c.name} ({SUIT_NAMES[trump]})" if named else c.name)
                assert contract_text(c.name, True, trump, rules).startswith(f"{c.name} major")
            assert contract_text(c.name, True, None, rules) == f"{c.name} major"
        # A live frame labels an announced contract with the view's trump (server/frames.py): no major
        # settled after it can have changed the suit its declarer named.
        assert not (rules.majors and any(c.names_trump for c in rules.contracts))
    assert contract_text("hearts", False, 1) == "hearts (hearts)"
    assert contract_text("trumps", False, 3, load_ruleset("trjamann")) == "trumps (clubs)"


def _label_game(preset: str) -> Game:
    """A random game of ``preset`` with every kind of contract text it has: a suit named (every
    game plays each contract, `trumps` too), and a major played where the ruleset has majors."""
    for seed in range(50):
        game = _play_randomly(preset, seed)
        if not game.rules.majors or any(r.major for r in game.results):
            return game
    raise AssertionError(f"50 random games of {preset} played no major")


def test_a_log_written_before_the_major_flag_gives_the_same_pages() -> None:
    """An old log (a major's contract as "hearts major", no flag): its pages, labels and all, are
    those of the game (frames are made from the log, so a page of an old game has the labels too)."""
    game = _label_game("manni-major")
    stored = matchlog.log_lines(project_events(game, FULL), game.rules)
    for line in stored:
        if line["type"] in ("settled", "result"):
            line["contract"] += " major" if line.pop("major") else ""
    assert any(e["type"] == "settled" and e["contract"].endswith(" major") for e in stored)
    old = replay_log(game.rules, game.seed, [matchlog.entry_from_line(line, game.rules) for line in stored])
    names = ["a", "b", "c"]
    assert game_page_data(old, names) == game_page_data(game, names)


def test_report_needs_a_played_league(tmp_path: Path) -> None:
    path = _league_file(tmp_path)
    out = subprocess.run([MIZERKA, "report", str(path), "--out", str(tmp_path / "site")], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 2 and "has no results yet" in out.stderr


# -------------------------------------------------------------------------------- a real league
def _league_file(tmp: Path) -> Path:
    lines = ['name = "web"', 'preset = "mizerka-short"', 'seed = "browser"', f'data = "{tmp / "data"}"',
             "[clock]", "decision_ms = 5000", "bank_ms = 30000"]
    for name, style in BOTS.items():
        lines += ["[[bots]]", f"name = {json.dumps(name)}", f'command = ["mizerka-bot", "{style}", "--seed", "1"]']
    path = tmp / "web.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    need_sandbox()
    tmp = tmp_path_factory.mktemp("report")
    path = _league_file(tmp)
    run = subprocess.run([MIZERKA, "league", "run", str(path)], capture_output=True, text=True, timeout=240, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    out = tmp / "site"
    made = subprocess.run([MIZERKA, "report", str(path), "--out", str(out)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    standings = subprocess.run([MIZERKA, "league", "standings", str(path), "--json"], capture_output=True, text=True,
                               check=True)
    return {"tmp": tmp, "league": path, "out": out, "standings": json.loads(standings.stdout)}


def test_the_site_has_an_index_a_page_per_game_and_its_assets(site: dict[str, Any]) -> None:
    out: Path = site["out"]
    pages = sorted((out / "matches").glob("*.html"))
    assert len(pages) == 12 and (out / "assets" / "report.js").is_file() and (out / "assets" / "report.css").is_file()
    for name in ("board.js", "board.css"):  # the web page's board, the one file both draw with
        assert (out / "assets" / name).read_bytes() == (ROOT / "server" / "web" / "assets" / name).read_bytes()
    for page in [out / "index.html", *pages]:
        text = page.read_text()
        assert "<img" not in text  # the name is only ever data
        assert "http://" not in text and "https://" not in text  # nothing to fetch from anywhere
    assert "onmouseover" in (out / "index.html").read_text()  # ... but it is there, as escaped JSON


def _first_trick(league_path: Path, match_id: str) -> tuple[int, int, list[str]]:
    """How many actions lead to the first trick's end, and its winner, from the stored log."""
    store = Store(load_league(league_path).db_path)
    try:
        _rules, _names, game = load_game(store, match_id, 0)
    finally:
        store.close()
    steps = 0
    for i, entry in enumerate(game.log):
        if isinstance(entry, ACTION_EVENTS):
            steps += 1
        elif isinstance(entry, TrickTaken):
            return steps, entry.winner, [e.kind for e in game.log[:i] if isinstance(e, ACTION_EVENTS)]
    raise AssertionError("the game has no trick")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MIZERKA, *args], capture_output=True, text=True, timeout=120, check=False)


def _games(league_path: Path) -> tuple[str, list[LeagueGame]]:
    league = load_league(league_path)
    store = LeagueStore(league.database)
    try:
        return league.database, store.league_games(league.name)
    finally:
        store.close()


def test_match_list_names_each_match_by_its_league_game_with_its_totals(site: dict[str, Any]) -> None:
    db, games = _games(site["league"])
    listed = _cli("match", "list", "--db", db)
    assert listed.returncode == 0, listed.stderr
    head, *lines = listed.stdout.splitlines()
    assert "league game" in head and "seats (totals)" in head
    by_id = {line.split()[0]: line for line in lines}
    assert len(by_id) == len(games) == 12
    for g in games:
        assert g.match_id is not None and g.totals is not None
        line = by_id[g.match_id]
        assert f" web {g.key} " in line
        assert line.endswith(", ".join(f"{name}@web {total:+d}" for name, total in zip(g.seats, g.totals)))


def test_replay_and_export_take_a_league_game_by_its_key(site: dict[str, Any]) -> None:
    db, games = _games(site["league"])
    game = games[5]
    assert game.match_id is not None
    by_key = _cli("replay", "--league", str(site["league"]), game.key, "--text")
    by_id = _cli("replay", game.match_id, "--db", db, "--text")
    assert by_key.returncode == 0, by_key.stderr
    assert f"of match {game.match_id}" in by_key.stdout and "verified:" in by_key.stdout
    assert by_key.stdout == by_id.stdout
    exported = _cli("match", "export", "--league", str(site["league"]), game.key)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout == _cli("match", "export", game.match_id, "--db", db).stdout
    seat = _cli("replay", "--league", str(site["league"]), game.key, "--seat", "1")
    assert seat.returncode == 0 and "you are seat 1" in seat.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["replay", "--league", "{league}", "t9/g9/s9"], "league 'web' has no game 't9/g9/s9' (its keys run t0/g0/s0 .. "),
    (["replay", "x.jsonl", "--league", "{league}", "t0/g0/s0"], "give a match log or match id or --league FILE KEY, not both"),
    (["match", "export", "--league", "{league}", "t0/g0/s0", "--db", "other.sqlite"], "--league reads the league's own database"),
    (["match", "export"], "give a match id or --league FILE KEY"),
    (["rerun", "--league", "{tmp}/none.toml", "t0/g0/s0"], "none.toml"),
])
def test_a_league_game_that_cannot_be_found_is_a_usage_error(site: dict[str, Any], args: list[str], message: str) -> None:
    done = _cli(*(a.format(league=site["league"], tmp=site["tmp"]) for a in args))
    assert done.returncode == 2 and message in done.stderr, done.stderr


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def http_site(site: dict[str, Any]) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site["out"]))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_the_report_in_a_browser(site: dict[str, Any], browser: Any, http_site: str) -> None:
    page, problems = new_page(browser)
    page.goto(f"{http_site}/index.html")
    page.wait_for_selector("body[data-ready]")

    # Standings: exactly `mizerka league standings --json`, in its order.
    want = site["standings"]["bots"]
    rows = page.locator("#standings tbody tr")
    assert rows.count() == len(want) == 4
    for i, line in enumerate(want):
        row = rows.nth(i)
        assert row.locator("td.bot .name").text_content() == line["name"]
        assert row.get_attribute("data-bot") == line["name"]
        assert int(row.locator("td.games").inner_text()) == line["games"] == 9
        assert float(row.locator("td.ppg").inner_text()) == pytest.approx(line["mean"], abs=0.005)
        assert float(row.get_attribute("data-mean")) == pytest.approx(line["mean"])
        assert float(row.locator("td.ordinal").inner_text()) == pytest.approx(line["ordinal"], abs=0.005)
    # The hostile name is shown as text and made no element.
    assert page.locator("#standings td.bot .name", has_text="onmouseover").text_content() == EVIL
    assert page.locator("main img").count() == 0 and page.evaluate("window.__xss") is None

    # The rating chart: one line per bot, a point per game plus the start.
    chart = page.locator("svg#rating-chart")
    assert chart.is_visible()
    assert chart.locator("g.series").count() == 4
    points = dict(page.evaluate(
        "() => Array.from(document.querySelectorAll('#rating-chart g.series'))"
        ".map(g => [g.getAttribute('data-bot'), g.querySelectorAll('circle').length])"))
    assert points == {line["name"]: line["games"] + 1 for line in want}
    assert page.locator("#head-to-head tbody tr").count() == 4
    assert page.locator("#failures tbody tr").count() == 4
    assert page.locator("#matches a.replay-link").count() == 12
    # Not a duplicate league: the intervals are over sets whose games each deal their own cards.
    intro = page.locator("#standings-section").text_content()
    assert "95% interval over sets (a table's game number in every seating; each game deals its own cards)" in intro
    assert "duplicate" not in intro
    shots = site["tmp"]
    page.screenshot(path=str(shots / "index.png"), full_page=True)
    print(f"\nscreenshot of the index page: {shots / 'index.png'}")
    assert problems == []

    # A match page, reached through the index's first link.
    first = page.locator("#matches tbody tr").first
    key = first.get_attribute("data-key")
    listed_id = first.locator("td.match-id").text_content()
    page.locator("#matches a.replay-link").first.click()
    page.wait_for_selector("body[data-ready]")
    data = json.loads(page.locator("#report-data").text_content())
    assert data["key"] == key
    assert listed_id == data["match_id"]  # the game's key beside its match id
    steps, winner, before = _first_trick(site["league"], data["match_id"])
    names = data["names"]
    assert before[0] == "contract" and before[1:4] == ["exchange"] * 3 and before[4:] == ["play"] * 3
    counter = page.locator("#step-counter")
    assert counter.get_attribute("data-step") == "0"
    assert page.locator("#phase").get_attribute("data-phase") == "contract"
    assert [page.locator(f"#seat-{s} .hand .card").count() for s in range(3)] == [13, 13, 13]  # every hand shown
    for _ in range(4):  # the contract and the three exchanges, with the button
        page.locator("#forward").click()
    assert counter.get_attribute("data-step") == "4"
    assert page.locator("#phase").get_attribute("data-phase") == "play"
    assert page.locator("#trick-winner").get_attribute("data-seat") == "-1"
    for _ in range(steps - 4):  # the first trick, with the keyboard
        page.keyboard.press("ArrowRight")
    assert counter.get_attribute("data-step") == str(steps)
    assert page.locator("#current-trick .played").count() == 3
    assert page.locator("#trick-winner").get_attribute("data-seat") == str(winner)
    assert page.locator("#trick-winner .name").text_content() == names[winner]
    assert page.locator("#current-trick .played.winning").get_attribute("data-seat") == str(winner)
    page.screenshot(path=str(shots / "match.png"), full_page=True)
    print(f"screenshot of a match page after the first trick: {shots / 'match.png'}")

    page.keyboard.press("ArrowLeft")  # back: the trick is one card short and has no winner
    assert counter.get_attribute("data-step") == str(steps - 1)
    assert page.locator("#current-trick .played").count() == 2
    assert page.locator("#trick-winner").get_attribute("data-seat") == "-1"
    page.locator("#back").click()
    assert counter.get_attribute("data-step") == str(steps - 2)
    page.keyboard.press("End")  # the end: the score sheet shows every deal and the final totals
    assert page.locator("#phase").get_attribute("data-phase") == "over"
    assert page.locator("#scoresheet tbody tr.done").count() == len(data["scoresheet"]["deals"]) == 9
    assert [page.locator(f"#seat-{s} .stat").last.inner_text() for s in range(3)] == [
        f"total {t:+d}" if t else "total 0" for t in data["totals"]]  # zero carries no sign
    page.locator("#back-to-index").click()
    page.wait_for_selector("#standings")
    assert problems == []
    page.close()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_replay_page_shows_each_contract_as_the_data_labels_it(preset: str, browser: Any, tmp_path: Path) -> None:
    """Every preset: on a game's replay page each announcement, the deal line, each deal's end and
    the score sheet show what contract_text makes of the game's log (a suit named with `trumps`,
    "major"); and a page whose data carries other labels shows those: the board composes none."""
    game = _label_game(preset)
    want = Labels.of(game)
    if any(c.names_trump for c in game.rules.contracts):
        assert {f"trumps ({SUIT_NAMES[e.trump]})" for e in game.log if isinstance(e, ContractAnnounced) and e.trump is not None
                and e.contract == "trumps"} & set(want.announced) & set(want.results), "no suit named"
    assert any(label.endswith(" major") for label in want.results) == game.rules.majors
    data = {"league": "labels", "key": preset, "match_id": "m-labels", "index": "../index.html"} | game_page_data(
        game, [f"p{s}" for s in range(game.rules.players)])
    copy_assets(tmp_path)
    (tmp_path / "matches").mkdir()
    for name, page_data, labels in (("real", data, want), ("marked", relabel(data), want.marked(mark))):
        path = tmp_path / "matches" / f"{name}.html"
        path.write_text(render_page("match", preset, page_data, "../"), encoding="utf-8")
        page, problems = new_page(browser)
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready]")
        assert_board_shows(board_contracts(page, data["frames"]), data["frames"], game.results, labels)
        assert problems == []
        page.close()


def test_the_report_works_from_files(site: dict[str, Any], browser: Any) -> None:
    page, problems = new_page(browser)
    page.goto((site["out"] / "index.html").as_uri())
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#standings tbody tr").count() == 4
    page.locator("#matches a.replay-link").nth(5).click()
    page.wait_for_selector("body[data-ready]")
    page.keyboard.press("PageDown")  # the start of deal 2
    assert page.locator("#deal-line").get_attribute("data-deal") == "1"
    assert problems == []
    page.close()

