/* Mizerka Arena league report: draws the index page and the game replay pages from the JSON that
 * each page carries in <script id="report-data">. Plain JS, no dependencies, no network: the pages
 * work from file:// as well as from any web server. Every piece of text goes into the page through
 * textContent or setAttribute, never as markup: bot names are user input. */
(function () {
  "use strict";

  var SVGNS = "http://www.w3.org/2000/svg";
  var SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var SUITS = "SHDC";
  var RANKS = "23456789TJQKA";
  var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                 "#7f7f7f", "#bcbd22"];

  // ------------------------------------------------------------------------------- DOM helpers
  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }

  /* el("td", {class: "x", text: "y", "data-bot": name}, child, ...): attributes are set as
   * attributes (never parsed as HTML) and children are nodes or plain text. */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function setAttrs(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === "text") node.textContent = String(v);
      else if (k === "class") node.setAttribute("class", v);
      else if (k === "on") Object.keys(v).forEach(function (ev) { node.addEventListener(ev, v[ev]); });
      else node.setAttribute(k, String(v));
    });
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function signed(x, digits) {
    var text = Number(x).toFixed(digits === undefined ? 2 : digits);
    return (x > 0 && Number(text) !== 0 ? "+" : "") + text;
  }

  function plain(x) { return String(Number(Number(x).toFixed(2))); }

  function section(id, title, note) {
    return el("section", { id: id }, el("h2", { text: title }), note ? el("p", { class: "note", text: note }) : null);
  }

  // ------------------------------------------------------------------------------------ cards
  function cardList(text) { return text ? text.split(" ") : []; }

  function cardKey(c) { return SUITS.indexOf(c[1]) * 13 + (12 - RANKS.indexOf(c[0])); }

  function sortCards(cards) { return cards.slice().sort(function (a, b) { return cardKey(a) - cardKey(b); }); }

  function card(c, extra) {
    var rank = c[0] === "T" ? "10" : c[0];
    return el("span", { class: "card suit-" + c[1] + (extra ? " " + extra : ""), "data-card": c,
                        title: (rank + " of " + SUIT_NAME[c[1]]) }, rank + SUIT_SYMBOL[c[1]]);
  }

  function cards(list, classOf) {
    if (!list.length) return el("span", { class: "none", text: "none" });
    return el("span", { class: "cards" }, list.map(function (c) { return card(c, classOf ? classOf(c) : ""); }));
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
    var frames = d.frames, names = d.names, n = names.length, sheet = d.scoresheet;
    var dealStarts = [];
    frames.forEach(function (f, i) { if (f.act.kind === "deal") dealStarts.push(i); });
    var current = 0;

    function who(seat) { return seat >= 0 && seat < n ? names[seat] : "?"; }

    function contractText(contract, trump) {
      if (!contract) return "not chosen yet";
      return contract + (trump && contract.indexOf("trumps") === 0 ? " (" + SUIT_NAME[trump] + ")" : "");
    }

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

    var counter = el("span", { id: "step-counter", "aria-live": "polite" });
    var scrub = el("input", { id: "scrub", type: "range", min: 0, max: frames.length - 1, value: 0,
                              "aria-label": "step" });
    function button(id, label, title, action) {
      return el("button", { id: id, type: "button", title: title, on: { click: action } }, label);
    }
    var controls = el("div", { class: "controls" },
      button("first", "\u21e4 start", "first step (Home)", function () { go(0); }),
      button("prev-deal", "\u00ab deal", "start of this or the previous deal (Page Up)", prevDeal),
      button("back", "\u25c0 back", "one step back (\u2190)", function () { go(current - 1); }),
      button("forward", "forward \u25b6", "one step forward (\u2192)", function () { go(current + 1); }),
      button("next-deal", "deal \u00bb", "start of the next deal (Page Down)", nextDeal),
      button("last", "end \u21e5", "last step (End)", function () { go(frames.length - 1); }),
      scrub, counter);
    scrub.addEventListener("input", function () { go(Number(scrub.value)); });

    var actionLine = el("div", { id: "action", class: "action" });
    var dealLine = el("div", { id: "deal-line", class: "deal-line" });
    var seatsBox = el("div", { id: "seats", class: "seat-panels" });
    var trickBox = el("div", { id: "current-trick", class: "trick-box" });
    var talonBox = el("div", { id: "talon", class: "talon" });
    var tricksList = el("ol", { id: "tricks-list", class: "tricks-list" });
    var resultBox = el("div", { id: "deal-result", class: "deal-result" });

    // The score sheet: every deal, shown as it is reached.
    var sheetHead = el("tr", null, ["#", "dealer", "declarer", "contract", "tricks"].map(function (h) {
      return el("th", { text: h });
    }), names.map(function (name) { return el("th", { class: "num", text: name }); }));
    var sheetRows = sheet.deals.map(function (r, i) {
      var contract = contractText(r.contract, r.trump) + (r.void ? " \u2014 void, revoke by " + who(r.revoker) : "") +
        (r.tiebreak ? " (tie-break)" : "");
      var row = el("tr", { "data-deal": i, title: "go to this deal", on: { click: function () { go(dealStarts[i]); } } },
        el("td", { class: "num", text: i + 1 }),
        el("td", { text: who(r.dealer) }),
        el("td", { text: who(r.declarer) }),
        el("td", { text: contract }),
        el("td", { class: "num", text: r.tricks.join("/") }),
        r.points.map(function (p, s) {
          return el("td", { class: "num points" }, el("span", { class: "deal-points", text: signed(p, 0) }),
            el("span", { class: "running", text: " (" + signed(r.totals[s], 0) + ")" }));
        }));
      return row;
    });
    var totalsRow = el("tr", { class: "totals" });
    var sheetTable = el("table", { id: "scoresheet", class: "data sheet" }, el("thead", null, sheetHead),
      el("tbody", null, sheetRows), el("tfoot", null, totalsRow));
    var usedTable = el("table", { id: "contracts-used", class: "data" });

    append(app, [
      el("div", { class: "sticky" }, controls, dealLine, actionLine),
      el("div", { class: "board" },
        seatsBox,
        el("div", { class: "middle" },
          el("section", { class: "panel" }, el("h3", { text: "Current trick" }), trickBox),
          el("section", { class: "panel" }, el("h3", { text: "Talon" }), talonBox),
          resultBox)),
      el("section", { class: "panel" }, el("h3", { text: "Tricks of this deal" }), tricksList),
      el("section", { class: "panel", id: "sheet-section" }, el("h3", { text: "Score sheet" }),
        el("p", { class: "note", text: "Points per deal with the running total in brackets. Deals not reached yet " +
          "are hidden; click a row to go to its deal." }), sheetTable,
        el("h3", { text: "Contracts used as declarer" }), usedTable),
      el("p", { class: "note keys", text: "Keys: \u2190 \u2192 step, Page Up / Page Down deal, Home / End." })
    ]);

    function describe(f, i) {
      var a = f.act;
      if (a.kind === "deal") {
        var what = f.tiebreak ? "Tie-break deal" : f.redeal ? "Deal " + (f.deal + 1) + " dealt again" : "Deal " + (f.deal + 1);
        return [what + " dealt: ", el("span", { class: "name", text: who(f.caller) }),
                f.phase === "contract" ? " chooses the contract" : " declares " + contractText(f.contract, f.trump)];
      }
      var actor = el("span", { class: "name", text: who(a.seat) });
      if (a.kind === "contract") return [actor, " announces ", el("strong", { text: contractText(a.contract, a.trump) })];
      if (a.kind === "major") return a.contract ? [actor, " announces ", el("strong", { text: a.contract + " major" })]
        : [actor, " passes (no major)"];
      if (a.kind === "exchange") {
        var discard = a.discard, take = a.take;
        if (!discard.length) return [actor, " passes: exchanges no cards"];
        return [actor, " exchanges " + discard.length + (discard.length === 1 ? " card: " : " cards: "), "discards ",
                cards(discard), ", takes ", cards(take)];
      }
      if (a.kind === "revoke") return [actor, " revokes with ", card(a.card), ": the deal is void"];
      var out = [actor, " plays ", card(a.card)];
      var t = f.tricks.length ? f.tricks[f.tricks.length - 1] : null;
      if (t && t.winner !== null && i > 0) out.push(" \u2014 trick " + f.tricks.length + " to ", el("span", { class: "name", text: who(t.winner) }));
      return out;
    }

    function dealIndex(f) {
      // Which row of the score sheet this step belongs to: the deal in progress, or the one that just ended.
      return f.result ? f.results - 1 : f.results;
    }

    function renderSeats(f) {
      clear(seatsBox);
      var taken = {};
      for (var s = 0; s < n; s++) cardList(f.taken[s]).forEach(function (c) { taken[c] = s; });
      for (s = 0; s < n; s++) {
        var badges = [];
        if (f.declarer === s) badges.push(el("span", { class: "badge declarer", text: "declarer" }));
        if (f.caller === s && f.caller !== f.declarer) badges.push(el("span", { class: "badge", text: "caller" }));
        if (f.dealer === s) badges.push(el("span", { class: "badge dealer", text: "dealer" }));
        if (f.to_act === s && !f.finished && f.phase !== "end") badges.push(el("span", { class: "badge act", text: "to act" }));
        var hand = f.hands[s];
        var handNode = hand === null ? el("span", { class: "none", text: "hidden" })
          : hand === "" ? el("span", { class: "none", text: "no cards left" })
          : cards(sortCards(cardList(hand)), function (c) { return taken[c] === s ? "from-talon" : ""; });
        var ex = f.exchanged[s];
        var exNode = ex === null ? (f.phase === "exchange" ? "not yet" : "\u2014")
          : ex === 0 ? "passed"
          : ["discarded ", cards(cardList(f.discards[s])), " \u00b7 took ", cards(cardList(f.taken[s]))];
        var stats = [
          el("span", { class: "stat", title: "tricks won / quota" }, "tricks ",
            el("strong", { class: "tricks-won", text: f.tricks_won[s] }), f.quotas ? " / quota " + f.quotas[s] : ""),
          f.result ? el("span", { class: "stat", text: "deal " + signed(f.result.points[s], 0) }) : null,
          el("span", { class: "stat", text: "total " + signed(f.totals[s], 0) })
        ];
        append(seatsBox, el("section", { class: "panel seat" + (f.to_act === s && f.phase !== "end" && !f.finished ? " acting" : ""),
                                         id: "seat-" + s, "data-seat": s },
          el("h3", null, el("span", { class: "seat-no", text: "seat " + s + " " }), el("span", { class: "name", text: names[s] }), " ", badges),
          el("div", { class: "stats" }, stats),
          el("div", { class: "hand", "data-cards": hand || "" }, handNode),
          el("div", { class: "exchange" }, "exchange: ", exNode)));
      }
    }

    function renderTrick(f) {
      clear(trickBox);
      var t = f.tricks.length ? f.tricks[f.tricks.length - 1] : null;
      var winner = el("div", { id: "trick-winner", "data-seat": t && t.winner !== null ? t.winner : -1 });
      if (!t) {
        append(trickBox, el("p", { class: "none", text: f.phase === "play" ? "The declarer leads the first trick."
          : "No trick yet: the contract and the exchanges come first." }));
        append(trickBox, winner);
        return;
      }
      append(trickBox, el("div", { class: "trick-head", text: "Trick " + f.tricks.length + ", led by " + who(t.leader) }));
      append(trickBox, el("div", { class: "trick-cards" }, t.cards.map(function (sc) {
        return el("div", { class: "played" + (t.winner === sc[0] ? " winning" : ""), "data-seat": sc[0] },
          card(sc[1]), el("div", { class: "name", text: who(sc[0]) }));
      })));
      if (t.winner !== null) {
        append(winner, ["Won by ", el("strong", { class: "name", text: who(t.winner) })]);
      } else {
        append(winner, el("span", { class: "none", text: (n - t.cards.length) + " to play" }));
      }
      append(trickBox, winner);
    }

    function renderTalon(f) {
      clear(talonBox);
      var talon = cardList(f.talon);
      if (!f.talon) { append(talonBox, el("span", { class: "none", text: "none" })); return; }
      var owner = {};
      for (var s = 0; s < n; s++) cardList(f.taken[s]).forEach(function (c) { owner[c] = s; });
      append(talonBox, el("span", { class: "cards" }, talon.map(function (c) {
        var node = card(c, owner[c] !== undefined ? "gone" : "");
        if (owner[c] !== undefined) node.setAttribute("title", c + ": taken by " + who(owner[c]));
        return node;
      })));
      var left = talon.filter(function (c) { return owner[c] === undefined; }).length;
      append(talonBox, el("p", { class: "note", text: (talon.length - left) + " taken, " + left +
        (f.phase === "contract" || f.phase === "exchange" ? " left" : " out of play") + "; no player sees the talon." }));
    }

    function renderTricksList(f) {
      clear(tricksList);
      f.tricks.forEach(function (t) {
        append(tricksList, el("li", { class: t.winner === null ? "in-progress" : null },
          t.cards.map(function (sc) {
            return el("span", { class: "played-inline" + (t.winner === sc[0] ? " winning" : "") },
              el("span", { class: "name", text: who(sc[0]) }), " ", card(sc[1]));
          }),
          t.winner === null ? el("span", { class: "none", text: " in progress" })
            : [" \u2192 ", el("strong", { class: "name", text: who(t.winner) })]));
      });
      if (!f.tricks.length) append(tricksList, el("li", { class: "none empty", text: "none yet" }));
    }

    function renderResult(f) {
      clear(resultBox);
      if (!f.result) return;
      var r = f.result;
      append(resultBox, el("section", { class: "panel result" },
        el("h3", { text: (f.finished ? "Last deal over, game over" : "Deal " + (r.deal + 1) + " over") }),
        el("p", null, contractText(r.contract, r.trump) + ", declarer ", el("span", { class: "name", text: who(r.declarer) }),
          r.void ? " \u2014 void: revoke by " : "", r.void ? el("span", { class: "name", text: who(r.revoker) }) : null),
        el("ul", null, names.map(function (name, s) {
          return el("li", null, el("span", { class: "name", text: name }),
            ": " + r.tricks[s] + " tricks, " + signed(r.points[s], 0) + " (total " + signed(f.totals[s], 0) + ")");
        }))));
    }

    function renderSheet(f) {
      var at = dealIndex(f);
      sheetRows.forEach(function (row, i) {
        row.className = i < f.results ? (i === at ? "done current" : "done") : i === at ? "current future" : "future";
      });
      clear(totalsRow);
      append(totalsRow, [el("td", { colspan: 5, text: "total now" }),
        f.totals.map(function (t) { return el("td", { class: "num", text: signed(t, 0) }); })]);
      clear(usedTable);
      append(usedTable, [
        el("thead", null, el("tr", null, el("th", { text: "player" }),
          sheet.contracts.map(function (c) { return el("th", { text: c }); }), el("th", { class: "num", text: "total" }))),
        el("tbody", null, names.map(function (name, s) {
          return el("tr", { "data-seat": s }, el("td", { class: "name", text: name }),
            sheet.contracts.map(function (c) {
              var used = f.used[s].indexOf(c) >= 0;
              return el("td", { class: "used" + (used ? " yes" : ""), text: used ? "\u2713" : "" });
            }),
            el("td", { class: "num", text: signed(f.totals[s], 0) }));
        }))
      ]);
    }

    function go(i) {
      i = Math.max(0, Math.min(frames.length - 1, i));
      current = i;
      var f = frames[i];
      counter.textContent = "step " + i + " / " + (frames.length - 1);
      counter.setAttribute("data-step", i);
      scrub.value = String(i);
      clear(dealLine);
      var dealNo = dealIndex(f);
      append(dealLine, [
        el("span", { class: "deal-no", text: (f.tiebreak ? "Tie-break deal" : "Deal " + (f.deal + 1) + " of " + d.rules.deals) +
          (f.redeal ? " (dealt again)" : "") }),
        " \u00b7 declarer ", el("span", { class: "name", text: who(f.declarer) }),
        " \u00b7 dealer ", el("span", { class: "name", text: who(f.dealer) }),
        " \u00b7 contract ", el("strong", { text: contractText(f.contract, f.trump) }),
        " \u00b7 ", el("span", { id: "phase", "data-phase": f.phase, text: f.phase === "end" ? "deal over" : f.phase === "over" ? "game over" : f.phase })
      ]);
      dealLine.setAttribute("data-deal", dealNo);
      clear(actionLine);
      append(actionLine, [el("span", { class: "step-no", text: i === 0 ? "Start. " : "Step " + i + ". " }), describe(f, i)]);
      renderSeats(f);
      renderTrick(f);
      renderTalon(f);
      renderTricksList(f);
      renderResult(f);
      renderSheet(f);
      document.getElementById("first").disabled = document.getElementById("back").disabled = i === 0;
      document.getElementById("last").disabled = document.getElementById("forward").disabled = i === frames.length - 1;
      try { history.replaceState(null, "", "#step=" + i); } catch (e) { /* some file:// setups refuse it */ }
    }

    function prevDeal() {
      var target = 0;
      dealStarts.forEach(function (s) { if (s < current) target = s; });
      go(target);
    }

    function nextDeal() {
      var target = frames.length - 1;
      for (var k = dealStarts.length - 1; k >= 0; k--) if (dealStarts[k] > current) target = dealStarts[k];
      go(target);
    }

    document.addEventListener("keydown", function (e) {
      if (e.target === scrub || e.altKey || e.ctrlKey || e.metaKey) return;
      var keys = { ArrowRight: function () { go(current + 1); }, ArrowLeft: function () { go(current - 1); },
                   Home: function () { go(0); }, End: function () { go(frames.length - 1); },
                   PageDown: nextDeal, PageUp: prevDeal };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });

    var m = /step=(\d+)/.exec(location.hash);
    go(m ? Number(m[1]) : 0);
  }

  // --------------------------------------------------------------------------------- start
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var app = document.getElementById("app");
  var page = document.body.getAttribute("data-page");
  if (page === "index") renderIndex(data, app);
  else if (page === "match") renderMatch(data, app);
  document.body.setAttribute("data-ready", "1");
})();
