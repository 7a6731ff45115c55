/* Mizerka Arena: the board, one renderer of a game's state for the web page's match page
 * (server/web/assets/web.js) and the league report's replay pages (tournaments/report.py copies this
 * file into every report). It draws a *frame* (server/frames.py): cards with their suits, each seat
 * with its tricks against its quota, the current trick and the tricks of the deal, the talon, the
 * score sheet; and it steps through a finished game's frames. A hand or a talon that is null is not
 * shown (a live spectator's frame): the board draws only the cards its frame holds.
 * Plain JS, no dependencies, no network. Every text goes in through textContent or setAttribute,
 * never as markup: bot names are user input. */
(function () {
  "use strict";

  var SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var SUITS = "SHDC";
  var RANKS = "23456789TJQKA";

  // ------------------------------------------------------------------------------- DOM helpers
  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
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

  /* el("td", {class: "x", text: "y", "data-bot": name}, child, ...): attributes are set as
   * attributes (never parsed as HTML) and children are nodes or plain text. */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function signed(x, digits) {
    var text = Number(x).toFixed(digits === undefined ? 2 : digits);
    return (x > 0 && Number(text) !== 0 ? "+" : "") + text;
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

  /* A contract as the frame labels it (server/frames.py: "trumps (hearts)", "hearts major"): the
   * board shows the label it is given and composes no contract text of its own. */
  function contractText(label) { return label === null || label === undefined ? "not chosen yet" : label; }

  // ------------------------------------------------------------------------------------ board
  /* The board of a game between ``names`` of ``deals`` deals: ``show(frame, sheet)`` draws a frame
   * with the game's score sheet (its deals up to the frame's, or all of them: those not reached yet
   * are hidden); ``onDeal(i)``, if given, is called when the sheet's row of deal i is clicked. */
  function board(names, deals, onDeal) {
    var n = names.length;
    function who(seat) { return seat !== null && seat >= 0 && seat < n ? names[seat] : "?"; }

    var dealLine = el("div", { id: "deal-line", class: "deal-line" });
    var seatsBox = el("div", { id: "seats", class: "seat-panels" });
    var trickBox = el("div", { id: "current-trick", class: "trick-box" });
    var talonBox = el("div", { id: "talon", class: "talon" });
    var tricksList = el("ol", { id: "tricks-list", class: "tricks-list" });
    var resultBox = el("div", { id: "deal-result", class: "deal-result" });
    var sheetBody = el("tbody");
    var totalsRow = el("tr", { class: "totals" });
    var sheetTable = el("table", { id: "scoresheet", class: "data sheet" },
      el("thead", null, el("tr", null, ["#", "dealer", "declarer", "contract", "tricks"].map(function (h) {
        return el("th", { text: h });
      }), names.map(function (name) { return el("th", { class: "num", text: name }); }))),
      sheetBody, el("tfoot", null, totalsRow));
    var usedTable = el("table", { id: "contracts-used", class: "data" });
    var node = el("div", { class: "game-board" },
      dealLine,
      el("div", { class: "board" },
        seatsBox,
        el("div", { class: "middle" },
          el("section", { class: "panel" }, el("h3", { text: "Current trick" }), trickBox),
          el("section", { class: "panel" }, el("h3", { text: "Talon" }), talonBox),
          resultBox)),
      el("section", { class: "panel" }, el("h3", { text: "Tricks of this deal" }), tricksList),
      el("section", { class: "panel", id: "sheet-section" }, el("h3", { text: "Score sheet" }),
        el("p", { class: "note", text: "Points per deal with the running total in brackets." +
          (onDeal ? " Deals not reached yet are hidden; click a row to go to its deal." : "") }), sheetTable,
        el("h3", { text: "Contracts used as declarer" }), usedTable));

    function dealIndex(f) {
      // Which row of the score sheet this frame belongs to: the deal in progress, or the one that just ended.
      return f.result ? f.results - 1 : f.results;
    }

    function renderDealLine(f) {
      clear(dealLine);
      append(dealLine, [
        el("span", { class: "deal-no", text: (f.tiebreak ? "Tie-break deal" : "Deal " + (f.deal + 1) + " of " + deals) +
          (f.redeal ? " (dealt again)" : "") }),
        " \u00b7 declarer ", el("span", { class: "name", text: who(f.declarer) }),
        " \u00b7 dealer ", el("span", { class: "name", text: who(f.dealer) }),
        " \u00b7 contract ", el("strong", { text: contractText(f.label) }),
        " \u00b7 ", el("span", { id: "phase", "data-phase": f.phase, text: f.phase === "end" ? "deal over" : f.phase === "over" ? "game over" : f.phase })
      ]);
      dealLine.setAttribute("data-deal", dealIndex(f));
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
        var count = f.hand_counts ? f.hand_counts[s] : null;
        var handNode = hand === null ? el("span", { class: "none hidden-hand", text: count === null ? "hidden"
            : "hidden: " + count + (count === 1 ? " card" : " cards") })
          : hand === "" ? el("span", { class: "none", text: "no cards left" })
          : cards(sortCards(cardList(hand)), function (c) { return taken[c] === s ? "from-talon" : ""; });
        var ex = f.exchanged[s];
        var exNode = ex === null ? (f.phase === "exchange" ? "not yet" : "\u2014")
          : ex === 0 ? "passed"
          : f.discards[s] === null ? "exchanged " + ex + (ex === 1 ? " card" : " cards")
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
      if (f.talon === null) { append(talonBox, el("span", { class: "none", text: "hidden" })); return; }
      var talon = cardList(f.talon);
      if (!talon.length) { append(talonBox, el("span", { class: "none", text: "none" })); return; }
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
        el("p", null, contractText(r.label) + ", declarer ", el("span", { class: "name", text: who(r.declarer) }),
          r.void ? " \u2014 void: revoke by " : "", r.void ? el("span", { class: "name", text: who(r.revoker) }) : null),
        el("ul", null, names.map(function (name, s) {
          return el("li", null, el("span", { class: "name", text: name }),
            ": " + r.tricks[s] + " tricks, " + signed(r.points[s], 0) + " (total " + signed(f.totals[s], 0) + ")");
        }))));
    }

    function renderSheet(f, sheet) {
      var at = dealIndex(f);
      clear(sheetBody);
      sheet.deals.forEach(function (r, i) {
        var contract = contractText(r.label) + (r.void ? " \u2014 void, revoke by " + who(r.revoker) : "") +
          (r.tiebreak ? " (tie-break)" : "");
        append(sheetBody, el("tr", {
          "data-deal": i, title: onDeal ? "go to this deal" : null, on: onDeal ? { click: function () { onDeal(i); } } : null,
          class: i < f.results ? (i === at ? "done current" : "done") : i === at ? "current future" : "future" },
          el("td", { class: "num", text: i + 1 }),
          el("td", { text: who(r.dealer) }),
          el("td", { text: who(r.declarer) }),
          el("td", { text: contract }),
          el("td", { class: "num", text: r.tricks.join("/") }),
          r.points.map(function (p, s) {
            return el("td", { class: "num points" }, el("span", { class: "deal-points", text: signed(p, 0) }),
              el("span", { class: "running", text: " (" + signed(r.totals[s], 0) + ")" }));
          })));
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

    function show(f, sheet) {
      renderDealLine(f);
      renderSeats(f);
      renderTrick(f);
      renderTalon(f);
      renderTricksList(f);
      renderResult(f);
      renderSheet(f, sheet);
    }

    return { node: node, show: show, who: who };
  }

  // ----------------------------------------------------------------------------- stepping through
  /* A finished game's step-through replay into ``container``: ``d`` holds its ``frames``, ``names``,
   * ``scoresheet`` and number of ``deals``. Buttons, a slider and the keys step it; the step is kept
   * in the address (#step=N, after ``d.hash`` if given: the match page's "game=G&"). */
  function replay(container, d) {
    var frames = d.frames, names = d.names, sheet = d.scoresheet;
    var dealStarts = [];
    frames.forEach(function (f, i) { if (f.act.type === "deal") dealStarts.push(i); });
    var current = 0;
    var b = board(names, d.deals, function (i) { go(dealStarts[i]); });
    var who = b.who;

    var counter = el("span", { id: "step-counter", "aria-live": "polite" });
    var scrub = el("input", { id: "scrub", type: "range", min: 0, max: frames.length - 1, value: 0, "aria-label": "step" });
    function button(id, label, title, action) {
      return el("button", { id: id, type: "button", title: title, on: { click: action } }, label);
    }
    var first = button("first", "\u21e4 start", "first step (Home)", function () { go(0); });
    var back = button("back", "\u25c0 back", "one step back (\u2190)", function () { go(current - 1); });
    var forward = button("forward", "forward \u25b6", "one step forward (\u2192)", function () { go(current + 1); });
    var last = button("last", "end \u21e5", "last step (End)", function () { go(frames.length - 1); });
    var controls = el("div", { class: "controls" }, first,
      button("prev-deal", "\u00ab deal", "start of this or the previous deal (Page Up)", prevDeal), back, forward,
      button("next-deal", "deal \u00bb", "start of the next deal (Page Down)", nextDeal), last, scrub, counter);
    scrub.addEventListener("input", function () { go(Number(scrub.value)); });
    var actionLine = el("div", { id: "action", class: "action" });

    append(container, [
      el("div", { class: "sticky" }, controls, actionLine),
      b.node,
      el("p", { class: "note keys", text: "Keys: \u2190 \u2192 step, Page Up / Page Down deal, Home / End." })
    ]);

    function describe(f, i) {
      var a = f.act;
      if (a.type === "deal") {
        var what = f.tiebreak ? "Tie-break deal" : f.redeal ? "Deal " + (f.deal + 1) + " dealt again" : "Deal " + (f.deal + 1);
        return [what + " dealt: ", el("span", { class: "name", text: who(f.caller) }),
                f.phase === "contract" ? " chooses the contract" : " declares " + contractText(f.label)];
      }
      var actor = el("span", { class: "name", text: who(a.seat) });
      if (a.type === "contract") return [actor, " announces ", el("strong", { text: contractText(a.label) })];
      if (a.type === "major") return a.label !== null ? [actor, " announces ", el("strong", { text: contractText(a.label) })]
        : [actor, " passes (no major)"];
      if (a.type === "exchange") {
        var discard = a.discard, take = a.take;
        if (!discard.length) return [actor, " passes: exchanges no cards"];
        return [actor, " exchanges " + discard.length + (discard.length === 1 ? " card: " : " cards: "), "discards ",
                cards(discard), ", takes ", cards(take)];
      }
      if (a.type === "revoke") return [actor, " revokes with ", card(a.card), ": the deal is void"];
      var out = [actor, " plays ", card(a.card)];
      var t = f.tricks.length ? f.tricks[f.tricks.length - 1] : null;
      if (t && t.winner !== null && i > 0) out.push(" \u2014 trick " + f.tricks.length + " to ", el("span", { class: "name", text: who(t.winner) }));
      return out;
    }

    function go(i) {
      i = Math.max(0, Math.min(frames.length - 1, i));
      current = i;
      var f = frames[i];
      counter.textContent = "step " + i + " / " + (frames.length - 1);
      counter.setAttribute("data-step", i);
      scrub.value = String(i);
      clear(actionLine);
      append(actionLine, [el("span", { class: "step-no", text: i === 0 ? "Start. " : "Step " + i + ". " }), describe(f, i)]);
      b.show(f, sheet);
      first.disabled = back.disabled = i === 0;
      last.disabled = forward.disabled = i === frames.length - 1;
      try { history.replaceState(null, "", location.pathname + location.search + "#" + (d.hash || "") + "step=" + i); } catch (e) { /* some file:// setups refuse it */ }
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
      if (e.target === scrub || e.altKey || e.ctrlKey || e.metaKey || !container.isConnected) return;
      var keys = { ArrowRight: function () { go(current + 1); }, ArrowLeft: function () { go(current - 1); },
                   Home: function () { go(0); }, End: function () { go(frames.length - 1); },
                   PageDown: nextDeal, PageUp: prevDeal };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });

    var m = /step=(\d+)/.exec(location.hash);
    go(m ? Number(m[1]) : 0);
  }

  window.MizerkaBoard = { el: el, append: append, setAttrs: setAttrs, signed: signed, board: board, replay: replay };
})();
