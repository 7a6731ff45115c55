/* Mizerka Arena league report: draws the index page and the game replay pages from the JSON that
 * each page carries in <script id="report-data">. Plain JS, no dependencies, no network: the pages
 * work from file:// as well as from any web server. Every piece of text goes into the page through
 * textContent or setAttribute, never as markup: bot names are user input. */
(function () {
  "use strict";

  var B = window.MizerkaBoard;  // the board (assets/board.js, server/frames.py): its DOM helpers and the replay
  var el = B.el, append = B.append, signed = B.signed, setAttrs = B.setAttrs;
  var SVGNS = "http://www.w3.org/2000/svg";
  var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                 "#7f7f7f", "#bcbd22"];

  function svg(tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function plain(x) { return String(Number(Number(x).toFixed(2))); }

  function section(id, title, note) {
    return el("section", { id: id }, el("h2", { text: title }), note ? el("p", { class: "note", text: note }) : null);
  }

  // ------------------------------------------------------------------------------- index page
  function renderIndex(d, app) {
    var options = Object.keys(d.options || {}).map(function (k) { return k + " = " + JSON.stringify(d.options[k]); });
    append(app, [
      el("header", null,
        el("h1", null, el("span", { class: "league-name", text: d.league }), " \u2014 league report"),
        el("p", { class: "meta" },
          "preset " + d.preset + (options.length ? " (" + options.join(", ") + ")" : "") + " \u00b7 " + d.format +
          (d.candidate ? " (candidate " + d.candidate + ")" : "") + " \u00b7 seatings " + d.seatings + " \u00b7 " +
          d.games + " of " + counted(d.scheduled, "game") + " finished \u00b7 generated " + d.generated)),
      standingsSection(d),
      chartSection(d),
      headToHeadSection(d),
      failuresSection(d),
      matchesSection(d)
    ]);
  }

  /* "+3.10 [+1.02, +5.18] settled": a bot's lead over the next one and what the rounds say of it. */
  function pairText(p) {
    if (p.difference === null) return p.verdict + " (no complete round)";
    if (p.lo === null || p.hi === null) return signed(p.difference) + ", too few rounds for an interval: " + p.verdict;
    return signed(p.difference) + " [" + signed(p.lo) + ", " + signed(p.hi) + "] " + p.verdict;
  }

  /* "1 set", "2 sets": a count with its noun in agreement (server/text.py's counted, for the page). */
  function counted(n, noun, plural) {
    return n + " " + (n === 1 ? noun : plural || noun + "s");
  }

  function settledText(sep) {
    var level = Math.round(sep.confidence * 100) + "%";
    var done = sep.pairs.filter(function (p) { return p.verdict === "settled"; }).length;
    if (!sep.settled) {
      return "Not settled at " + level + ": " + done + " of " + sep.pairs.length + " adjacent pairs separated after " +
        counted(sep.rounds, "complete round") + " (" + counted(sep.games, "game") + ").";
    }
    var left = sep.scheduled - sep.games;
    return "Settled at " + level + " after " + counted(sep.games, "game") + " (" + counted(sep.rounds, "round") +
      "): every adjacent pair separated" +
      (left > 0 ? "; the league stopped, " + counted(left, "scheduled game") + (left === 1 ? " was" : " were") +
       " not needed." : ".");
  }

  function standingsSection(d) {
    var sep = d.separation;
    var s = section("standings-section", "Standings",
      "Rating: OpenSkill (Plackett\u2013Luce) ordinal \u03bc \u2212 3\u03c3, over the games in schedule order. " +
      "Points per game with a 95% interval over " + (d.duplicate
        ? "duplicate sets (a table's game number in every seating, all with the same cards). "
        : "sets (a table's game number in every seating; each game deals its own cards). ") +
      "Wins: first places, shared first places split." + (sep ? " Ahead of next: the lead in points per game " +
      "over the bot below, with its anytime-valid interval over complete rounds (docs/standings.md). " +
      settledText(sep) : ""));
    var head = ["#", "bot", "rating", "\u03bc", "\u03c3", "games", "points/game", "95% interval", "wins"];
    if (sep) head.push("ahead of next (" + Math.round(sep.confidence * 100) + "%)");
    var body = d.standings.map(function (b, i) {
      var interval = b.ci95 === null ? el("span", { class: "none", title: "needs at least 2 sets", text: "\u2014" })
        : "\u00b1 " + b.ci95.toFixed(2) + " [" + signed(b.mean - b.ci95) + ", " + signed(b.mean + b.ci95) + "]";
      return el("tr", { "data-bot": b.name, "data-games": b.games, "data-mean": b.mean, class: b.disabled ? "disabled" : null },
        el("td", { class: "num rank", text: b.rank }),
        el("td", { class: "bot" }, el("span", { class: "name", text: b.name }),
          b.disabled ? el("span", { class: "badge bad", title: b.disabled_reason || "disabled", text: "disabled" }) : null),
        el("td", { class: "num ordinal", text: b.ordinal.toFixed(2) }),
        el("td", { class: "num mu", text: b.mu.toFixed(2) }),
        el("td", { class: "num sigma", text: b.sigma.toFixed(2) }),
        el("td", { class: "num games", text: b.games }),
        el("td", { class: "num ppg", text: signed(b.mean) }),
        el("td", { class: "num ci" }, interval),
        el("td", { class: "num wins", text: plain(b.wins) }),
        sep ? el("td", { class: "pair", text: i < sep.pairs.length ? pairText(sep.pairs[i]) : "" }) : null);
    });
    append(s, el("table", { id: "standings", class: "data" },
      el("thead", null, el("tr", null, head.map(function (h) { return el("th", { text: h }); }))),
      el("tbody", null, body)));
    return s;
  }

  function niceStep(span, count) {
    var raw = span / Math.max(count, 1);
    var mag = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10));
    var norm = raw / mag;
    return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
  }

  function chartSection(d) {
    var s = section("chart-section", "Rating over the league",
      "Each bot's rating (\u03bc \u2212 3\u03c3) after each of its games; every bot starts at " +
      plain(d.initial_ordinal) + ". Hover a point for its value.");
    var W = 760, H = 320, L = 52, R = 16, T = 14, B = 42;
    var names = d.standings.map(function (b) { return b.name; });
    var series = names.map(function (n) { return [[0, d.initial_ordinal]].concat(d.rating_history[n] || []); });
    var xmax = 1, ymin = d.initial_ordinal, ymax = d.initial_ordinal;
    series.forEach(function (pts) {
      pts.forEach(function (p) { xmax = Math.max(xmax, p[0]); ymin = Math.min(ymin, p[1]); ymax = Math.max(ymax, p[1]); });
    });
    if (ymax - ymin < 1) { ymin -= 0.5; ymax += 0.5; }
    var ystep = niceStep(ymax - ymin, 6);
    ymin = Math.floor(ymin / ystep) * ystep; ymax = Math.ceil(ymax / ystep) * ystep;
    var xstep = Math.max(1, niceStep(xmax, 10));
    function X(v) { return L + (W - L - R) * v / xmax; }
    function Y(v) { return T + (H - T - B) * (ymax - v) / (ymax - ymin); }
    var chart = svg("svg", { id: "rating-chart", viewBox: "0 0 " + W + " " + H, role: "img",
                             "aria-label": "rating of each bot over its games", class: "chart" });
    var grid = svg("g", { class: "grid" });
    for (var y = ymin; y <= ymax + ystep / 2; y += ystep) {
      var yv = Math.abs(y) < 1e-9 ? 0 : y;
      append(grid, [svg("line", { x1: L, x2: W - R, y1: Y(yv), y2: Y(yv), class: yv === 0 ? "zero" : null }),
                    svg("text", { x: L - 6, y: Y(yv) + 4, class: "tick y", text: plain(yv) })]);
    }
    for (var x = 0; x <= xmax; x += xstep) {
      append(grid, [svg("line", { x1: X(x), x2: X(x), y1: T, y2: H - B, class: "vertical" }),
                    svg("text", { x: X(x), y: H - B + 16, class: "tick x", text: x })]);
    }
    append(grid, [svg("text", { x: (L + W - R) / 2, y: H - 6, class: "axis-label", text: "games played by the bot" }),
                  svg("text", { x: 14, y: (T + H - B) / 2, class: "axis-label",
                                transform: "rotate(-90 14 " + (T + H - B) / 2 + ")", text: "rating" })]);
    append(chart, grid);
    var legend = el("ul", { class: "legend" });
    names.forEach(function (name, i) {
      var color = PALETTE[i % PALETTE.length];
      var dash = i >= PALETTE.length ? "6 3" : null;
      var pts = series[i];
      var g = svg("g", { class: "series", "data-bot": name });
      append(g, svg("polyline", { points: pts.map(function (p) { return X(p[0]) + "," + Y(p[1]); }).join(" "),
                                  stroke: color, "stroke-dasharray": dash, fill: "none", class: "line" }));
      pts.forEach(function (p) {
        append(g, svg("circle", { cx: X(p[0]), cy: Y(p[1]), r: 3, fill: color, class: "point" },
          svg("title", { text: name + ": " + plain(p[1]) + " after " + p[0] + (p[0] === 1 ? " game" : " games") })));
      });
      append(chart, g);
      var swatch = el("span", { class: "swatch" });
      swatch.style.backgroundColor = color;
      append(legend, el("li", { "data-bot": name }, swatch, el("span", { text: name }),
        el("span", { class: "legend-value", text: " " + plain(pts[pts.length - 1][1]) })));
    });
    append(s, el("div", { class: "chart-box" }, chart, legend));
    return s;
  }

  function headToHeadSection(d) {
    var s = section("h2h-section", "Head to head",
      "Row against column: games the row bot finished ahead \u2013 behind \u2013 level with the column bot, " +
      "over the games they sat at the same table.");
    var names = d.standings.map(function (b) { return b.name; });
    var rows = names.map(function (a) {
      return el("tr", { "data-bot": a }, el("th", { scope: "row", text: a }), names.map(function (b) {
        if (a === b) return el("td", { class: "self", text: "\u2014" });
        var h = (d.head_to_head[a] || {})[b] || { ahead: 0, behind: 0, tied: 0 };
        var cls = h.ahead > h.behind ? "ahead" : h.ahead < h.behind ? "behind" : "even";
        return el("td", { class: "num " + cls,
                          title: a + " finished ahead of " + b + " " + h.ahead + " times, behind " + h.behind +
                                 ", level " + h.tied,
                          text: h.ahead + "\u2013" + h.behind + "\u2013" + h.tied });
      }));
    });
    append(s, el("table", { id: "head-to-head", class: "data matrix" },
      el("thead", null, el("tr", null, el("th", null), names.map(function (n) { return el("th", { text: n }); }))),
      el("tbody", null, rows)));
    return s;
  }

  function failuresSection(d) {
    var s = section("failures-section", "Failures",
      "Timeouts, refused actions, actions the referee chose by default, forfeited seats and lost connections " +
      "over the bot's games; crashes of its process; disabled: taken out of the league after too many crashes.");
    var keys = d.faults;
    var rows = d.standings.map(function (b) {
      return el("tr", { "data-bot": b.name },
        el("td", { class: "bot", text: b.name }),
        keys.map(function (k) {
          var v = b.faults[k] || 0;
          return el("td", { class: "num " + k + (v ? " bad" : " zero"), text: v });
        }),
        el("td", { class: "num crashes" + (b.crashes ? " bad" : " zero"), text: b.crashes }),
        el("td", { class: "disabled" + (b.disabled ? " bad" : " zero"),
                   text: b.disabled ? "yes: " + (b.disabled_reason || "disabled") : "no" }));
    });
    append(s, el("table", { id: "failures", class: "data" },
      el("thead", null, el("tr", null, el("th", { text: "bot" }),
        keys.map(function (k) { return el("th", { text: k }); }), el("th", { text: "crashes" }), el("th", { text: "disabled" }))),
      el("tbody", null, rows)));
    return s;
  }

  function faultText(m) {
    if (!m.faults) return "";
    var parts = [];
    m.faults.forEach(function (f, seat) {
      Object.keys(f).forEach(function (k) { if (f[k]) parts.push(m.seats[seat] + ": " + k + " " + f[k]); });
    });
    return parts.join(", ");
  }

  function matchesSection(d) {
    var s = section("matches-section", "Games",
      "Every scheduled game in schedule order; a game of a set (same table, same seed) deals the same cards " +
      "in each seating. Open a replay to see every hand, every trick and the score sheet; the match id is the " +
      "referee's name of the game (mizerka replay ID --db DATABASE, or mizerka replay --league FILE KEY).");
    var rows = d.matches.map(function (m) {
      var top = m.totals ? Math.max.apply(null, m.totals) : null;
      var seats = m.seats.map(function (name, i) {
        return el("span", { class: "seat-result" + (m.totals && m.totals[i] === top ? " winner" : "") },
          el("span", { class: "name", text: name }), m.totals ? " " + signed(m.totals[i], 0) : "");
      });
      var link = m.page ? el("a", { href: m.page, class: "replay-link", text: "replay \u25b6" })
        : m.error ? el("span", { class: "bad", title: m.error, text: "cannot be shown" })
        : el("span", { class: "none", text: "\u2014" });
      return el("tr", { "data-key": m.key, class: m.status.toLowerCase() },
        el("td", { class: "num", text: m.position + 1 }),
        el("td", { class: "key", text: m.key }),
        el("td", { class: "match-id", text: m.match_id || "\u2014" }),
        el("td", { class: "seats" }, seats),
        el("td", { class: "status", text: m.status.toLowerCase() }),
        el("td", { class: "faults", text: faultText(m) }),
        el("td", null, link));
    });
    append(s, el("table", { id: "matches", class: "data" },
      el("thead", null, el("tr", null, ["#", "game", "match", "seats and points", "status", "faults", ""].map(function (h) {
        return el("th", { text: h });
      }))),
      el("tbody", null, rows)));
    return s;
  }

  // ------------------------------------------------------------------------------ match page
  function renderMatch(d, app) {
    var names = d.names, sheet = d.scoresheet;
    var top = Math.max.apply(null, d.totals);
    append(app, [
      el("nav", null, el("a", { href: d.index, id: "back-to-index", text: "\u2190 " }, el("span", { text: d.league }),
        " standings")),
      el("header", null,
        el("h1", null, "Game ", el("span", { text: d.key })),
        el("p", { class: "meta", text: "league " + d.league + " \u00b7 preset " + d.preset + " \u00b7 seed " + d.seed +
          " \u00b7 match " + d.match_id + " \u00b7 " + counted(sheet.deals.length, "deal") }),
        el("p", { class: "final" }, "Final: ", names.map(function (name, s) {
          return el("span", { class: "seat-result" + (d.totals[s] === top ? " winner" : "") },
            el("span", { class: "name", text: name }), " " + signed(d.totals[s], 0));
        })))
    ]);
    B.replay(app, { frames: d.frames, names: names, scoresheet: sheet, deals: d.rules.deals });
  }

  // --------------------------------------------------------------------------------- start
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var app = document.getElementById("app");
  var page = document.body.getAttribute("data-page");
  if (page === "index") renderIndex(data, app);
  else if (page === "match") renderMatch(data, app);
  document.body.setAttribute("data-ready", "1");
})();
