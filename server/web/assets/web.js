// The arena's web page (server/web/page.py, docs/web.md). Plain DOM, no framework, no build step.
// Every text goes in through textContent, never as markup: bot and league names are user input.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v;
    else if (k === "cls") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function table(head, rows, cls) {
  return el("table", { cls: cls || "" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { text: h })))),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => (c instanceof Node ? el("td", {}, c) : el("td", { text: String(c) })))))));
}

function show(...nodes) {
  const main = document.getElementById("main");
  main.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined));  // null would show as "null"
}

async function getJson(url) {
  const answer = await fetch(url, { cache: "no-store" });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || answer.statusText);
  return data;
}

function link(href, text) { return el("a", { href, text }); }

// ------------------------------------------------------------------------------- the arena
function matchRows(matches) {
  return matches.map((m) => [
    link(`/match/${encodeURIComponent(m.match_id)}`, m.match_id), m.names.join(", "), m.preset,
    m.game_number === null ? `${m.finished_games}/${m.games} games` : `game ${m.game_number + 1} of ${m.games}`,
    m.group ? "league" : "",
  ]);
}

async function arenaPage() {
  try {
    const data = await getJson("/api/arena");
    const leagues = data.leagues.map((l) => [
      link(`/league/${encodeURIComponent(l.name)}`, l.name),
      el("progress", { max: String(Math.max(l.games, 1)), value: String(l.finished) }),
      `${l.finished}/${l.games} played`, `${l.running} playing`,
    ]);
    show(
      el("h1", { text: "Live matches" }),
      data.live.length ? table(["match", "bots", "game", "progress", ""], matchRows(data.live), "live") : el("p", { cls: "muted", text: "No match is being played." }),
      el("h1", { text: "Leagues" }),
      leagues.length ? table(["league", "progress", "", ""], leagues, "leagues") : el("p", { cls: "muted", text: "No league." }),
      el("h1", { text: "Recently finished (public)" }),
      data.recent.length ? table(["match", "bots", "game", "progress", ""], matchRows(data.recent), "recent") : el("p", { cls: "muted", text: "None yet." }),
    );
    document.body.dataset.ready = "1";
  } catch (e) {
    show(el("p", { cls: "error", text: `Cannot load the arena: ${e.message}` }));
  }
  setTimeout(arenaPage, 2000);
}

// ------------------------------------------------------------------------------- a match
const match = { id: "", updates: new Map(), source: null, headers: new Map(), meta: null, ended: false };

// The game the page shows: the one the address names (#game=N, from 1), else the latest.
function chosenGame() {
  const m = /game=(\d+)/.exec(location.hash);
  return m ? Number(m[1]) - 1 : null;
}

// A game's update drawn with the report's board (board.js): a live game's one frame (made by the
// server from the spectator's view: server/frames.py), or a public game's every step.
function renderGame(u) {
  const names = u.names;
  const head = el("h2", { text: `Game ${u.game_number + 1}${u.game_over ? " (over)" : ""}` });
  const box = el("section", { cls: "game", "data-game": String(u.game_number) }, head);
  if (u.frames) {  // a public game: every step of it, as the report's replay page shows it
    MizerkaBoard.replay(box, { frames: u.frames, names, scoresheet: u.scoresheet, deals: u.ruleset.deals,
                               hash: `game=${u.game_number + 1}&` });
    return box;
  }
  // The deal's announcements as the frame labels them ("trumps (hearts)", "hearts major"; null: a pass).
  const announcements = u.frame.announcements.map((a) => `${names[a.seat]}: ${a.label === null ? "passes" : a.label}`);
  if (announcements.length) box.append(el("p", { cls: "announcements", text: `Announced: ${announcements.join("; ")}` }));
  const board = MizerkaBoard.board(names, u.ruleset.deals);
  board.show(u.frame, u.scoresheet);
  box.append(board.node);
  return box;
}

// The match's games, each a link to its own step-through once the match is public.
function gameList(meta, shown) {
  if (!meta || meta.games < 2) return null;
  const items = [];
  for (let i = 0; i < meta.games; i++) {
    const u = match.updates.get(i);
    const label = `Game ${i + 1}`;
    items.push(el("li", { cls: i === shown ? "chosen" : (u ? "" : "muted"), "data-game": String(i) },
      u && u.frames ? link(`#game=${i + 1}`, label) : el("span", { text: label })));
  }
  return el("nav", { cls: "games", "aria-label": "games of the match" }, el("ul", {}, ...items));
}

function renderMatch(meta) {
  match.meta = meta || match.meta;
  meta = match.meta;
  const games = [...match.updates.values()].sort((a, b) => a.game_number - b.game_number);
  const wanted = document.body.dataset.state === "public" ? chosenGame() : null;  // live: the game being played
  const latest = games.length ? games[games.length - 1] : null;
  const current = wanted !== null && (match.updates.has(wanted) || !match.ended) ? match.updates.get(wanted) : latest;
  const shown = current ? current.game_number : wanted;
  const state = document.body.dataset.state || "connecting";
  show(
    el("h1", { text: `Match ${match.id}` }),
    el("p", { cls: "muted", text: meta ? `${meta.preset}, ${meta.games} game(s): ${meta.names.join(", ")}` : "" }),
    el("p", { cls: `state ${state}`, text: {
      connecting: "Connecting…", live: "Live: only what a spectator may see.",
      sealed: "Ended. Its full record stays hidden until its league is over and published.",
      public: "Ended and public: step through each game, every hand shown.",
    }[state] }),
    gameList(meta, shown),
    current ? renderGame(current)
      : el("p", { cls: "muted", text: wanted !== null && !match.ended ? `Game ${wanted + 1} is on its way…` : "Waiting for the first card." }),
  );
}

window.addEventListener("hashchange", () => { if (document.body.dataset.page === "match") renderMatch(); });

function follow(meta) {
  match.ended = false;
  match.updates.clear();
  match.headers.clear();
  const source = new EventSource(`/api/match/${encodeURIComponent(match.id)}/feed`);
  match.source = source;
  source.addEventListener("update", (e) => {
    const u = JSON.parse(e.data);
    // A game's first update carries its names and ruleset (server/web/feed.py, Framer); the others not.
    if (u.names) match.headers.set(u.game_number, { names: u.names, ruleset: u.ruleset });
    Object.assign(u, match.headers.get(u.game_number));
    match.updates.set(u.game_number, u);
    document.body.dataset.state = u.full ? "public" : (u.game_over && u.match_over ? "sealed" : "live");
    renderMatch(meta);
  });
  source.addEventListener("end", async () => {
    source.close();
    match.ended = true;
    const now = await getJson(`/api/match/${encodeURIComponent(match.id)}`);
    if (now.public) {
      document.body.dataset.state = "public";
      if (![...match.updates.values()].some((u) => u.full)) follow(now);  // published meanwhile: fetch the record
      else renderMatch(now);
      return;
    }
    document.body.dataset.state = "sealed";
    renderMatch(now);
    waitForPublic();
  });
}

async function waitForPublic() {
  const now = await getJson(`/api/match/${encodeURIComponent(match.id)}`).catch(() => null);
  if (now && now.public) follow(now);
  else setTimeout(waitForPublic, 2000);
}

async function matchPage() {
  match.id = decodeURIComponent(location.pathname.split("/")[2] || "");
  try {
    const meta = await getJson(`/api/match/${encodeURIComponent(match.id)}`);
    renderMatch(meta);
    document.body.dataset.ready = "1";
    follow(meta);
  } catch (e) {
    show(el("p", { cls: "error", text: e.message }));
    document.body.dataset.ready = "1";
  }
}

// ------------------------------------------------------------------------------- a league
function fmt(x, digits) { return x === null || x === undefined ? "–" : Number(x).toFixed(digits); }

async function leaguePage() {
  const name = decodeURIComponent(location.pathname.split("/")[2] || "");
  try {
    const d = await getJson(`/api/league/${encodeURIComponent(name)}`);
    const s = d.standings;
    const rows = s.bots.map((b, i) => [
      String(i + 1), b.name, fmt(b.ordinal, 2), `${fmt(b.mu, 1)} ± ${fmt(b.sigma, 1)}`, String(b.games),
      `${b.mean >= 0 ? "+" : ""}${fmt(b.mean, 2)}${b.ci95 === null ? ` (no CI: ${b.sets} set${b.sets === 1 ? "" : "s"})` : ` ± ${fmt(b.ci95, 2)}`}`,
      String(b.wins),
      Object.entries(b.faults).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).concat(b.crashes ? [`crashes ${b.crashes}`] : []).join(", ") + (b.disabled ? " DISABLED" : "") || "–",
    ]);
    const names = s.bots.map((b) => b.name);
    const h2h = names.map((a) => [a, ...names.map((b) => {
      if (a === b) return "–";
      const h = s.head_to_head[a][b];
      return `${h.ahead}-${h.behind}-${h.tied}`;
    })]);
    const playing = d.playing.map((g) => [link(`/match/${encodeURIComponent(g.match_id)}`, g.key), g.seats.join(", ")]);
    show(
      el("h1", { text: `League ${d.name}` }),
      el("p", {}, el("progress", { max: String(Math.max(d.games, 1)), value: String(d.finished) }),
        ` ${d.finished}/${d.games} games played, ${d.running} playing`),
      d.report ? el("p", {}, link(`/league/${encodeURIComponent(d.name)}/report/`, "The league's report (every game, replayed)")) : null,
      el("h2", { text: "Standings" }),
      table(["#", "bot", "rating", "mu ± sigma", "games", "points/game (95% CI)", "wins", "faults"], rows, "standings"),
      el("h2", { text: "Head to head (row ahead-behind-tied of column)" }),
      table(["", ...names], h2h, "h2h"),
      playing.length ? el("h2", { text: "Playing now" }) : null,
      playing.length ? table(["game", "seats"], playing) : null,
    );
    document.body.dataset.ready = "1";
  } catch (e) {
    show(el("p", { cls: "error", text: e.message }));
    document.body.dataset.ready = "1";
  }
  setTimeout(leaguePage, 3000);
}

({ arena: arenaPage, match: matchPage, league: leaguePage })[document.body.dataset.page]();
