"""The arena's web page (`mizerka serve --http-port`, server/web/page.py) against a real referee, and
a league's pages (`mizerka league run --http-port`) while it plays.

The browser test follows a league-like (grouped, so sealed) match of three real bot processes in
Debian's chromium: cards appear as they are played, the score sheet fills; every message the page
receives is recorded and each must be a state a spectator may see (no hand, no talon before it is
public, no exchanged discard); the full record comes only after the admin publishes the group.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from test_league import MIZERKA, league_file

from mizerka_engine.actions import Exchange
from mizerka_engine.cards import SUITS, format_card, parse_card
from mizerka_engine.events import ACTION_EVENTS, contract_text
from mizerka_engine.game import Game
from mizerka_engine.rules import PRESETS, Ruleset, load_ruleset
from mizerka_engine.views import FULL, SPECTATOR, cards_in, project, project_events
from mizerka_proto import arena_pb2, game_pb2, referee_pb2
from server.codec import proto_json, protocol, wire_events
from server.frames import game_frames, live_frame
from server.logverify import logged_action
from server.records import replay_stored
from server.storage.store import Store
from server.web.feed import Framer
from server.web.updates import web_update

from browser import Labels, assert_board_shows, board_contracts, launch, mark, new_page, relabel
from harness import HELD_CLOCK, ROOT, Admin, Gates, Referee, referee
from test_protocol import allowed_event_cards, proto_cards

# Records every server-sent event the page receives, before the page's own script runs, and the
# cards the page shows once it has drawn each (every card the board draws carries data-card): where
# (hands, talon, the current trick, anywhere at all) and the hands' "hidden: N cards"; and the
# contract texts it shows: the deal line's, the announcements' and the score sheet's.
RECORDER = """
window.__received = [];
window.__shown = [];
const cardsIn = (selector) => [...document.querySelectorAll(selector)].map((c) => c.dataset.card);
const Original = window.EventSource;
window.EventSource = class extends Original {
  addEventListener(type, listener, ...rest) {
    return super.addEventListener(type, (e) => {
      window.__received.push([type, e.data]);
      listener(e);
      window.__shown.push({ all: cardsIn("[data-card]"), cards: document.querySelectorAll(".card").length,
                            hands: cardsIn(".hand [data-card]"), talon: cardsIn("#talon [data-card]"),
                            trick: cardsIn("#current-trick [data-card]"),
                            hidden: [...document.querySelectorAll(".hand .hidden-hand")].map((h) => h.textContent),
                            deal: (document.querySelector("#deal-line .deal-no") || {}).textContent,
                            contract: (document.querySelector("#deal-line strong") || {}).textContent,
                            announced: (document.querySelector("p.announcements") || {}).textContent,
                            sheet: [...document.querySelectorAll("#scoresheet tbody tr")].map((r) => r.cells[3].textContent) });
    }, ...rest);
  }
};
"""


def web_port(ref: Referee) -> int:
    [line] = [line for line in ref.log_lines() if line["event"] == "web page listening"]
    return int(line["address"].rsplit(":", 1)[1])


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_plain_http_answers(tmp_path: Path) -> None:
    with referee(tmp_path, "--http-port", "0") as ref:
        base = f"http://127.0.0.1:{web_port(ref)}"
        assert get(f"{base}/api/arena") == (200, {"live": [], "recent": [], "leagues": []})
        assert get(f"{base}/api/match/m-0123456789abcdef") == (404, {"error": "no match 'm-0123456789abcdef'"})
        status, body = get(f"{base}/api/match/no%20such%3Cid%3E")
        assert status == 400 and body["error"].startswith("bad match id 'no such<id>'")
        assert get(f"{base}/api/match/{'x' * 65}/feed")[0] == 400
        # a plain `mizerka serve` subprocess runs through the `mizerka` command, which knows leagues
        assert get(f"{base}/api/league/nope") == (404, {"error": "no league 'nope'"})
        with urllib.request.urlopen(f"{base}/match/anything", timeout=10) as page:
            assert "default-src 'self'" in page.headers["Content-Security-Policy"]
            assert b'data-page="match"' in page.read()


@dataclass(frozen=True)
class SpectatorState:
    """A state of the game as a spectator may be shown it: the cards it may know by then (what the
    view shows and the public events so far) and the board's frame of that view."""

    cards: set[int]
    frame: dict[str, Any]


def _spectator_states(store: Store, match_id: str, names: list[str]) -> dict[bytes, SpectatorState]:
    """Every view a spectator could be shown during the stored game 0 of the match, by its wire form."""
    row = store.match(match_id)
    assert row is not None
    full = replay_stored(store, row, 0)
    rules = load_ruleset(row.preset, row.options)
    game = Game(rules, seed=row.results[0]["seed"])
    states: dict[bytes, SpectatorState] = {}

    def note() -> None:
        view = project(game, SPECTATOR)
        key = protocol.view_to_proto(view, names).SerializeToString(deterministic=True)
        states[key] = SpectatorState(cards_in(view) | allowed_event_cards(game, SPECTATOR), json.loads(json.dumps(live_frame(rules, protocol.view_to_proto(view)))))

    note()
    for event in full.log:
        if isinstance(event, ACTION_EVENTS):
            game.apply(event.seat, logged_action(rules, event))
            note()
    assert game.log == full.log, "the stepped replay must be the stored game"
    return states


def test_following_a_match_in_the_browser(tmp_path: Path, browser: Any) -> None:
    with referee(tmp_path, "--http-port", "0") as ref:
        base = f"http://127.0.0.1:{web_port(ref)}"
        admin = Admin(ref.address)
        bots = [admin.register(f"bot{i}") for i in range(3)]
        names = [f"bot{i}" for i in range(3)]
        request = arena_pb2.CreateMatchRequest(preset="mizerka-short", seed_text="web", games=1,
                                               seats=[b for b, _ in bots], group="league-web")
        match_id = admin.stub.CreateMatch(request, metadata=admin.metadata).match_id
        page, problems = new_page(browser)
        page.add_init_script(RECORDER)
        page.goto(f"{base}/")
        page.wait_for_selector(f"table.live a[href='/match/{match_id}']", timeout=30_000)
        for _, token in bots:  # slow bots: a human (and the test) can see each card come
            ref.bot(token, sys.executable, str(ROOT / "tests" / "bots" / "protobot.py"), "slow:30")
        page.click(f"a[href='/match/{match_id}']")
        page.wait_for_selector("body[data-state='live'] #current-trick .card", timeout=30_000)
        # a match playing is RUNNING for the arena's list as for its own page
        assert get(f"{base}/api/match/{match_id}")[1]["status"] == "RUNNING"
        assert [m["status"] for m in get(f"{base}/api/arena")[1]["live"] if m["match_id"] == match_id] == ["RUNNING"]
        seen_cards: set[str] = set()
        sheet_rows = 0
        deadline = time.monotonic() + 120
        while page.get_attribute("body", "data-state") == "live" and time.monotonic() < deadline:
            seen_cards |= set(page.eval_on_selector_all("#current-trick .card", "cs => cs.map(c => c.dataset.card)"))
            sheet_rows = max(sheet_rows, page.locator("#scoresheet tbody tr").count())
            page.wait_for_timeout(100)
        page.wait_for_selector("body[data-state='sealed']", timeout=60_000)
        assert len(seen_cards) > 8, f"the page showed too few cards played: {sorted(seen_cards)}"
        assert sheet_rows >= 1 and page.locator("#scoresheet tbody tr").count() >= 2, "the score sheet did not fill"
        assert page.locator("#step-counter").count() == 0, "a sealed match showed its full record"
        assert page.locator(".hand .card").count() == 0, "a sealed match showed a hand"
        deals = load_ruleset("mizerka-short").deals
        assert page.locator("#deal-line .deal-no").text_content() in (f"Deal {deals} of {deals}", "Tie-break deal")
        shots = tmp_path / "screenshots"
        shots.mkdir()
        page.screenshot(path=str(shots / "match-sealed.png"), full_page=True)
        deadline = time.monotonic() + 30
        live = page.evaluate("window.__received")
        while not any(kind == "end" for kind, _ in live) and time.monotonic() < deadline:
            page.wait_for_timeout(100)  # the feed's end follows its last update (wait_for_function needs eval: the CSP refuses it)
            live = page.evaluate("window.__received")
        assert live, "the page received no updates"
        shown = page.evaluate("window.__shown")[:len(live)]

        published = admin.stub.PublishMatches(arena_pb2.PublishMatchesRequest(group="league-web"), metadata=admin.metadata)
        assert published.published == 1
        _steps_through(page, shots / "match-public.png")
        closed = "request failed: " + f"{base}/api/match/{match_id}/feed"  # the page closes the feed at its end
        assert [p for p in problems if p != closed] == [], problems

        store = Store(ref.db)
        try:
            states = _spectator_states(store, match_id, names)
        finally:
            store.close()
        received = [json.loads(d) for kind, d in live if kind == "update"]
        frames = [d.pop("frame") for d in received]  # the board's frame and score sheet, beside the WatchUpdate
        assert all(d.pop("scoresheet")["deals"] is not None for d in received)
        updates = [json_format.ParseDict(d, referee_pb2.WatchUpdate()) for d in received]
        assert updates and [kind for kind, _ in live].count("end") == 1
        for update, frame, drawn in zip(updates, frames, [s for (kind, _), s in zip(live, shown) if kind == "update"], strict=True):
            # before the publication: nothing a spectator may not see, in the feed or on the page
            assert not update.full and not update.deals
            key = update.view.SerializeToString(deterministic=True)
            assert key in states, f"update of game {update.game_number}: a view no spectator is shown"
            leaked = proto_cards(update) - states[key].cards
            assert not leaked, f"hidden cards reached the page: {sorted(leaked)}"
            # the frame the board draws is the spectator's view, made by the server (server/frames.py)
            assert frame == states[key].frame, "the update's frame is not the frame of its spectator view"
            assert frame["hands"] == [None] * 3 and frame["talon"] is None and frame["discards"] == [None] * 3
            drawn_cards = {parse_card(c) for c in drawn["all"]}
            assert drawn["cards"] == len(drawn["all"]) and not drawn_cards - states[key].cards, f"the page drew hidden cards: {drawn}"
            # ... and all it may: the current trick, the talon if public (never to a spectator of
            # this preset's blind exchange), how many cards each hidden hand holds
            trick = update.view.tricks[-1].plays if update.view.tricks else []
            assert drawn["trick"] == [p.card for p in trick]
            assert drawn["talon"] == (list(update.view.talon) if update.view.talon_known else [])
            assert drawn["hands"] == [] and drawn["hidden"] == [
                f"hidden: {p.hand_count} card{'' if p.hand_count == 1 else 's'}" for p in update.view.players]
            _assert_live_labels(load_ruleset("mizerka-short"), names, update.view, frame, drawn)
        assert all(p.hand_count and not p.hand for u in updates[:1] for p in u.view.players)


def _live_labels(rules: Ruleset, view: game_pb2.SeatView) -> tuple[str | None, list[str | None]]:
    """A live view's contract and its announcements (None: a pass) as contract_text makes them
    from the wire's view, apart from server/frames.py."""
    trump = SUITS.index(view.trump) if view.trump else None
    contract = contract_text(view.contract_name, view.contract_major, trump, rules) if view.contract_name else None
    return contract, [contract_text(a.contract, False, trump, rules) if a.kind == game_pb2.ANNOUNCEMENT_KIND_CONTRACT
                      else contract_text(a.contract, True, None) if a.contract else None for a in view.announcements]


def _shown_live(names: list[str], frame: dict[str, Any], sheet: dict[str, Any]) -> dict[str, Any]:
    """The contract texts the live page draws from an update's ``frame`` and score ``sheet``: its
    labels, which the page only displays (the deal line, "Announced: ...", each deal's row)."""
    said = [f"{names[a['seat']]}: {'passes' if a['label'] is None else a['label']}" for a in frame["announcements"]]
    return {"contract": "not chosen yet" if frame["label"] is None else frame["label"],
            "announced": f"Announced: {'; '.join(said)}" if said else None, "sheet": [d["label"] for d in sheet["deals"]]}


def _assert_live_labels(rules: Ruleset, names: list[str], view: game_pb2.SeatView, frame: dict[str, Any],
                        drawn: dict[str, Any], sheet: dict[str, Any] | None = None) -> None:
    """A live update's frame labels its contract and announcements as contract_text makes them from
    the update's view, and the page drew those labels (and the score sheet's, if given)."""
    contract, announced = _live_labels(rules, view)
    assert (frame["label"], [a["label"] for a in frame["announcements"]]) == (contract, announced)
    shown = _shown_live(names, frame, sheet or {"deals": []})
    assert (drawn["contract"], drawn.get("announced")) == (shown["contract"], shown["announced"])
    if sheet is not None:
        _assert_sheet(drawn["sheet"], sheet["deals"], shown["sheet"])


def _assert_sheet(rows: list[str], deals: list[dict[str, Any]], labels: list[str]) -> None:
    """The score sheet's contract cells are the ``labels``, a void or tie-break deal's with its note after it."""
    assert len(rows) == len(deals) == len(labels)
    for row, d, label in zip(rows, deals, labels):
        assert row == label or (d["void"] or d["tiebreak"]) and row.startswith(f"{label} "), (row, label)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_page_shows_each_contract_as_the_data_labels_it(preset: str, tmp_path: Path, browser: Any) -> None:
    """Every preset, a league-like match of real bots (announcing every major they may): each live
    update labels its contract and announcements as contract_text makes them from the update's own
    view, and the page draws those labels; at the end the score sheet shows each stored deal's
    (a suit named with `trumps`, "major"). A feed whose labels are changed shows the changed ones:
    the page composes no contract text. Once public, the step-through shows the game's labels."""
    rules = load_ruleset(preset)
    names = [f"lab{i}" for i in range(rules.players)]
    with referee(tmp_path, "--http-port", "0") as ref:
        base = f"http://127.0.0.1:{web_port(ref)}"
        admin = Admin(ref.address)
        bots = [admin.register(name) for name in names]
        request = arena_pb2.CreateMatchRequest(preset=preset, seed_text="labels", games=1, seats=[b for b, _ in bots],
                                               group="labels")
        match_id = admin.stub.CreateMatch(request, metadata=admin.metadata).match_id
        page, problems = new_page(browser)
        page.add_init_script(RECORDER)
        page.goto(f"{base}/match/{match_id}")
        page.wait_for_selector("body[data-ready]")
        for _, token in bots:
            ref.protobot(token, "eager:5")
        page.wait_for_selector("body[data-state='sealed']", timeout=120_000)
        live = page.evaluate("window.__received")
        shown = page.evaluate("window.__shown")
        store = Store(ref.db)
        try:
            row = store.match(match_id)
            assert row is not None
            game = replay_stored(store, row, 0)
        finally:
            store.close()
        want = Labels.of(game)
        if any(c.names_trump for c in rules.contracts):
            assert any(label.startswith("trumps (") for label in want.results), want.results
        assert any(label.endswith(" major") for label in want.results) == rules.majors, want.results
        updates = [(json.loads(d), drawn) for (kind, d), drawn in zip(live, shown) if kind == "update"]
        assert updates
        for data, drawn in updates:
            view = json_format.ParseDict(data["view"], game_pb2.SeatView())
            _assert_live_labels(rules, names, view, data["frame"], drawn, data["scoresheet"])
        last_data, last_drawn = updates[-1]
        assert last_data["game_over"] and [d["label"] for d in last_data["scoresheet"]["deals"]] == want.results
        _assert_sheet(last_drawn["sheet"], last_data["scoresheet"]["deals"], want.results)
        page.close()

        # The same feed with every label changed: the page shows the changed labels.
        marked, problems_marked = new_page(browser)
        feed = f"{base}/api/match/{match_id}/feed"

        def relabelled(route: Any) -> None:
            answer = route.fetch()
            lines = [f"data: {json.dumps(relabel(json.loads(line[6:])))}" if line.startswith("data: ") else line
                     for line in answer.text().split("\n")]
            route.fulfill(response=answer, body="\n".join(lines))

        marked.route(feed, relabelled)
        marked.add_init_script(RECORDER)
        marked.goto(f"{base}/match/{match_id}")
        marked.wait_for_selector("body[data-state='sealed'] #scoresheet tbody tr", timeout=30_000)
        received = marked.evaluate("window.__received")
        drawn = marked.evaluate("window.__shown")[[kind for kind, _ in received].index("update")]
        data = json.loads(next(d for kind, d in received if kind == "update"))
        assert data["frame"]["label"] == mark(last_data["frame"]["label"])
        assert {k: drawn.get(k) for k in ("contract", "announced")} == {
            k: v for k, v in _shown_live(names, data["frame"], data["scoresheet"]).items() if k != "sheet"}
        _assert_sheet(drawn["sheet"], data["scoresheet"]["deals"], [mark(label) for label in want.results])
        marked.close()

        # Public: the step-through of the stored game, as the report's.
        admin.stub.PublishMatches(arena_pb2.PublishMatchesRequest(group="labels"), metadata=admin.metadata)
        page, problems_public = new_page(browser)
        page.goto(f"{base}/match/{match_id}")
        page.wait_for_selector("body[data-state='public'] #step-counter", timeout=30_000)
        frames = game_frames(game)
        assert_board_shows(board_contracts(page, frames), frames, game.results, want)
        closed = f"request failed: {feed}"  # the page closes the feed at its end
        assert [p for p in problems + problems_marked + problems_public if p != closed] == []
        page.close()


def _steps_through(page: Any, shot: Path) -> None:
    """A finished public match's page: the step-through replay of the report's pages, every hand shown."""
    page.wait_for_selector("body[data-state='public'] #step-counter", timeout=30_000)
    page.keyboard.press("Home")
    assert page.locator("#step-counter").get_attribute("data-step") == "0"
    assert page.locator("#phase").get_attribute("data-phase") == "contract"
    assert all(page.locator(f"#seat-{s} .hand .card").count() == 13 for s in range(3)), "every hand is shown"
    assert page.locator("#talon .card").count() == 52 - 3 * 13, "and the talon"
    page.locator("#forward").click()
    assert page.locator("#step-counter").get_attribute("data-step") == "1"
    page.keyboard.press("End")
    assert page.locator("#phase").get_attribute("data-phase") == "over"
    last = int(page.locator("#step-counter").get_attribute("data-step"))
    assert last > 50 and page.locator("#scoresheet tbody tr.done").count() >= 9
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-counter").get_attribute("data-step") == str(last - 1)
    page.screenshot(path=str(shot), full_page=True)
    print(f"\nscreenshot of a public match's replay: {shot}")


def _hand_on_page(page: Any, seat: int) -> set[str]:
    return set(page.eval_on_selector_all(f"#seat-{seat} .hand [data-card]", "cs => cs.map(c => c.dataset.card)"))


def test_every_game_of_a_finished_public_match_steps_through(tmp_path: Path, browser: Any) -> None:
    """A finished public match of two games: the page lists both games, steps through the one the
    address names (#game=N&step=M, kept as one steps), waits for a chosen game the feed has not sent
    yet, and each game's board shows that game's own deal."""
    with referee(tmp_path, "--http-port", "0") as ref:
        base = f"http://127.0.0.1:{web_port(ref)}"
        admin = Admin(ref.address)
        bots = [admin.register(f"p{i}") for i in range(3)]
        match_id = admin.create("mizerka-short", [b for b, _ in bots], seed="two-games", games=2)
        for _, token in bots:
            ref.protobot(token, "play")
        assert admin.wait(match_id).status == arena_pb2.MATCH_STATUS_FINISHED
        store = Store(ref.db)
        try:
            row = store.match(match_id)
            assert row is not None and row.public
            first_hands = [replay_stored(store, row, g).log[0].hands for g in range(2)]
        finally:
            store.close()
        deals = [[{format_card(c) for c in hand} for hand in hands] for hands in first_hands]
        assert deals[0] != deals[1]

        page, problems = new_page(browser)
        at = f"{base}/match/{match_id}"
        page.goto(f"{at}#game=2&step=5")  # the second game comes after the first: the page waits for it
        page.wait_for_selector("body[data-state='public'] section.game[data-game='1'] #step-counter[data-step='5']", timeout=30_000)
        assert page.locator("nav.games li").count() == 2
        assert page.locator("nav.games li.chosen").get_attribute("data-game") == "1"
        page.keyboard.press("Home")
        assert page.evaluate("location.hash") == "#game=2&step=0"
        assert [_hand_on_page(page, s) for s in range(3)] == deals[1], "game 2's board shows another deal"
        page.keyboard.press("End")
        assert page.locator("#phase").get_attribute("data-phase") == "over"

        page.click("nav.games li[data-game='0'] a")  # the other game, from its start
        page.wait_for_selector("section.game[data-game='0'] #step-counter[data-step='0']", timeout=10_000)
        assert [_hand_on_page(page, s) for s in range(3)] == deals[0], "game 1's board shows another deal"
        page.locator("#forward").click()
        assert page.evaluate("location.hash") == "#game=1&step=1"
        page.reload()  # the address holds the game and the step
        page.wait_for_selector("section.game[data-game='0'] #step-counter[data-step='1']", timeout=30_000)
        closed = f"request failed: {base}/api/match/{match_id}/feed"  # the page closes the feed at its end (and at the reload)
        assert [p for p in problems if p != closed] == [], problems


def _read_lines(proc: subprocess.Popen[str], into: list[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        into.append(line)


def _wait_for(what: str, found: Callable[[], Any], proc: subprocess.Popen[str], output: list[str], timeout_s: float = 120) -> Any:
    deadline = time.monotonic() + timeout_s
    while not (result := found()):
        assert proc.poll() is None, f"the league ended before {what}:\n{''.join(output)}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}:\n{''.join(output)}"
        time.sleep(0.1)
    return result


def _standings(page: Any) -> dict[str, list[str]]:
    """The league page's standings: bot -> its row's cells."""
    rows = page.eval_on_selector_all("table.standings tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    return {cells[1]: cells for cells in rows}


def test_a_league_run_shows_its_league_live_in_the_browser(tmp_path: Path, browser: Any) -> None:
    """`mizerka league run --http-port 0`: a real runner, referee and bot processes. It prints the
    page's address; the arena page lists the league with its progress, the league page's standings
    fill as games finish (the page refreshes itself), and a game playing now can be followed.

    The bots hold each game at a gate (tests/bots/gatebot.py) until the test opens it: the page is
    looked at with exactly the games the test let finish, however fast the bots are."""
    gates = Gates.under(tmp_path)
    path = league_file(tmp_path, name="webleague", bots=("a", "b", "c"), commands=dict.fromkeys("abc", gates.command()),
                       extra="games_per_table = 2", clock=HELD_CLOCK)  # 6 games, one at a time
    proc = subprocess.Popen([MIZERKA, "league", "run", str(path), "--http-port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output: list[str] = []
    reader = threading.Thread(target=_read_lines, args=(proc, output), daemon=True)
    reader.start()
    try:
        said = _wait_for("the web page's address", lambda: [x for x in output if x.startswith("web page: ")], proc, output, 60)
        url = said[0].split()[2]
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), said
        page, problems = new_page(browser)
        page.goto(url)
        league_link = "table.leagues a[href='/league/webleague']"
        page.wait_for_selector(league_link, timeout=30_000)
        assert page.get_attribute("table.leagues progress", "max") == "6"
        page.wait_for_selector("table.live tbody tr", timeout=60_000)  # its game 0, held at its gate, listed as live
        assert "league" in page.inner_text("table.live")
        shots = tmp_path / "screenshots"
        shots.mkdir()
        page.screenshot(path=str(shots / "arena.png"), full_page=True)

        gates.open(0)  # game 0 ends; game 1 is held at its gate
        page.click(league_link)
        page.wait_for_selector("table.standings tbody tr", timeout=30_000)
        head = page.eval_on_selector_all("table.standings thead th", "hs => hs.map(h => h.textContent)")
        assert head[1] == "bot" and head[4] == "games" and head[5].startswith("points/game")
        first = _wait_for("game 0 in the standings", lambda: (s := _standings(page)) and s["a"][4] == "1" and s, proc, output)
        assert sorted(first) == ["a", "b", "c"]
        gates.open(1)  # game 1 ends while the page is open; game 2 is held at its gate
        # the page refreshes itself: the standings change as the runner stores results (no reload here)
        later = _wait_for("the standings to change", lambda: (s := _standings(page)) and s["a"][4] == "2" and s, proc, output)
        for cells in later.values():
            assert re.fullmatch(r"[+-]\d+\.\d\d( ± \d+\.\d\d| \(no CI: \d+ sets?\))", cells[5]), cells
            assert cells[4] == "2"  # three bots, three seats: every bot plays every game
        # game 2, the one held now, in the same render as its progress line: it is the game "Playing now"
        _wait_for("game 2 playing", lambda: "2/6 games played, 1 playing" in page.inner_text("main p"), proc, output)
        assert "null" not in page.inner_text("main").split() and "undefined" not in page.inner_text("main")
        page.screenshot(path=str(shots / "league.png"), full_page=True)

        playing = "main table:not(.standings):not(.h2h) a[href^='/match/']"  # "Playing now"
        page.click(playing)
        page.wait_for_selector("body[data-state='live'] #current-trick .card", timeout=60_000)
        assert page.locator("#seats .seat").count() == 3
        page.screenshot(path=str(shots / "league-match.png"), full_page=True)
        print(f"\nscreenshots of a league's pages: {shots}/arena.png, league.png, league-match.png")
        feed = re.compile(r"request failed: http://127\.0\.0\.1:\d+/api/match/[^/]+/feed")  # the page closes an ended feed
        assert [p for p in problems if not feed.fullmatch(p)] == [], problems
        page.close()
        gates.open(2, 3, 4, 5)
        assert proc.wait(timeout=240) == 0, "".join(output)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=60)
        reader.join(timeout=10)
    assert "standings after 6 games" in "".join(output)
    _served_after_the_league(tmp_path, browser, shots)


def _served_after_the_league(tmp_path: Path, browser: Any, shots: Path) -> None:
    """The runner has ended, and its page with it: `mizerka serve --db DATA/league.sqlite --http-port`
    (docs/web.md) shows the league again, and each of its games, published, steps through."""
    (tmp_path / "after").mkdir()
    with referee(tmp_path / "after", "--http-port", "0", db=tmp_path / "data" / "league.sqlite") as ref:
        base = f"http://127.0.0.1:{web_port(ref)}"
        status, league = get(f"{base}/api/league/webleague")
        assert status == 200 and league["finished"] == league["games"] == 6 and league["running"] == 0, league
        recent = get(f"{base}/api/arena")[1]["recent"]
        assert recent and all(m["group"] and m["public"] and m["status"] == "FINISHED" for m in recent), recent
        page, problems = new_page(browser)
        page.goto(f"{base}/league/webleague")
        page.wait_for_selector("table.standings tbody tr", timeout=30_000)
        assert sorted(_standings(page)) == ["a", "b", "c"]
        page.goto(f"{base}/match/{recent[0]['match_id']}")
        _steps_through(page, shots / "league-match-after.png")
        feed = f"{base}/api/match/{recent[0]['match_id']}/feed"  # the page closes the feed at its end
        assert [p for p in problems if p != f"request failed: {feed}"] == [], problems
        page.close()


def test_the_feeds_json_is_proto_json(tmp_path: Path) -> None:
    """The page's feed converts updates to JSON with its own fast converter (server/codec/proto_json.py): it must
    give what json_format gives, for every state of whole games (spectator's and full views, events
    with every hand, full deal records), and the page's feed sends the names and ruleset once a game,
    leaving the update as it was (server/watch.py shares it among the match's watchers)."""
    for preset in ("mizerka-short", "mizerka"):
        rules = load_ruleset(preset)
        game = Game(rules, seed=7)
        names = ["x", "y", "z"]
        ruleset = protocol.ruleset_to_proto(rules)
        framer = Framer()
        steps = 0
        while not game.finished:
            if steps % 7 == 0 or game.decision() is None:
                for audience in (SPECTATOR, FULL):
                    events = project_events(game, audience)
                    update = referee_pb2.WatchUpdate(
                        match_id="m-1", game_number=2, full=audience == FULL, names=names, ruleset=ruleset,
                        view=protocol.view_to_proto(project(game, audience), names),
                        events=wire_events.EventEncoder(rules).encode_all(events),
                        deals=wire_events.deal_records_from_events(events) if audience == FULL else [])
                    expected = json_format.MessageToDict(update, always_print_fields_with_no_presence=True,
                                                         preserving_proto_field_name=True)
                    assert proto_json.to_dict(update) == expected
                    shared = referee_pb2.WatchUpdate()
                    shared.CopyFrom(update)
                    sent = json.loads(framer.frame(web_update(update)).decode().split("data: ", 1)[1])
                    assert update == shared  # the feed's updates are shared by a match's watchers: never changed
                    if steps == 0 and audience == SPECTATOR:
                        assert sent == expected  # the game's first update: with its header
                    else:
                        assert sent == {k: v for k, v in expected.items() if k not in ("names", "ruleset")}
            decision = game.decision()
            if decision is None:
                break
            legal = game.legal_actions()
            game.apply(decision.seat, legal[steps % len(legal)] if legal else Exchange(()))
            steps += 1
        assert game.finished, "the game did not end"


class _Feed:
    """A server-sent-event client of the page's match feed: the events, in order, as (kind, data)."""

    def __init__(self, url: str) -> None:
        self.answer = urllib.request.urlopen(url, timeout=60)  # noqa: SIM115 (closed by close())

    def next(self) -> tuple[str, dict[str, Any]]:
        kind = data = None
        while (line := self.answer.readline().decode()) != "\n":
            assert line, "the feed closed without an end"
            field, _, value = line.rstrip("\n").partition(": ")
            kind, data = (value, data) if field == "event" else (kind, json.loads(value))
        assert kind is not None and data is not None
        return kind, data

    def close(self) -> None:
        self.answer.close()


def _live_match(ref: Referee, prefix: str, seed: str, games: int = 1) -> str:
    """A running mizerka-short match of three slow real bots (20 ms a decision): its id."""
    admin = Admin(ref.address)
    bots = [admin.register(f"{prefix}{i}") for i in range(3)]
    match_id = admin.create("mizerka-short", [b for b, _ in bots], seed=seed, games=games)
    for _, token in bots:
        ref.protobot(token, "slow:20")
    deadline = time.monotonic() + 60
    while admin.get(match_id).status != arena_pb2.MATCH_STATUS_RUNNING:
        assert time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    return match_id


def test_spectators_of_a_live_match_share_its_feed(tmp_path: Path) -> None:
    """Two spectators of one live match get the same updates (one projection, sent to both); each
    game's names and ruleset come in the first update a spectator gets of it, never again; one who
    joins late starts from the latest state; an ended match's feed ends with its end."""
    with referee(tmp_path, "--http-port", "0") as ref:
        base = f"http://127.0.0.1:{web_port(ref)}"
        match_id = _live_match(ref, "s", seed="shared")
        first = _Feed(f"{base}/api/match/{match_id}/feed")
        a = [first.next() for _ in range(3)]
        second = _Feed(f"{base}/api/match/{match_id}/feed")
        b = [second.next() for _ in range(4)]
        a += [first.next() for _ in range(8)]
        second.close()
        while a[-1][0] != "end":
            a.append(first.next())
        first.close()
        updates = [d for kind, d in a if kind == "update"]
        assert [kind for kind, _ in a].count("end") == 1 and len(updates) == len(a) - 1
        for feed in (updates, [d for _, d in b]):
            assert feed[0]["names"] == ["s0", "s1", "s2"] and feed[0]["ruleset"]["preset"] == "mizerka-short"
            assert all("names" not in d and "ruleset" not in d for d in feed[1:])
        shared = [d for _, d in b[1:]]  # after its first (the latest state, with the header): the same as the other's
        assert any(updates[i:i + len(shared)] == shared for i in range(1, len(updates))), "the two spectators' updates differ"
        assert b[0][1]["view"] in [d["view"] for d in updates]  # its first: the latest state the other had too
        assert updates[-1]["game_over"] and updates[-1]["match_over"]

        ended = _Feed(f"{base}/api/match/{match_id}/feed")  # ended and public (no group): the full record
        kind, record = ended.next()
        assert kind == "update" and record["full"] and record["names"] == ["s0", "s1", "s2"] and record["deals"]
        assert ended.next()[0] == "end"
        ended.close()


def test_the_page_serves_at_most_its_feeds_at_once(tmp_path: Path) -> None:
    """A crowd of spectators (or a program opening feeds) cannot take the referee's time from the
    matches: beyond --http-max-feeds a feed is refused with 503 and a reason, and a place freed by
    a spectator who leaves is taken again."""
    with referee(tmp_path, "--http-port", "0", "--http-max-feeds", "1") as ref:
        base = f"http://127.0.0.1:{web_port(ref)}"
        match_id = _live_match(ref, "f", seed="crowd", games=3)
        deadline = time.monotonic() + 60
        url = f"{base}/api/match/{match_id}/feed"
        first = _Feed(url)
        assert first.next()[0] == "update"
        status, body = get(url)
        assert status == 503 and "already serves 1 match feeds" in body["error"] and "--http-max-feeds" in body["error"]
        first.close()
        while True:  # the referee notices the closed connection at its next write to it
            try:
                again = _Feed(url)
            except urllib.error.HTTPError as e:
                assert e.code == 503, e
                assert time.monotonic() < deadline + 60, "the freed feed was never given again"
                time.sleep(0.1)
                continue
            assert again.next()[0] == "update"
            again.close()
            break
