#!/usr/bin/env python3
"""An example Mizerka bot over the stdio line protocol (docs/stdio-protocol.md).

Plain Python 3, standard library only: no gRPC, nothing of this project. Run it through the bridge,
which connects to the referee and starts one copy of this program per game played at once:

    mizerka-bot stdio -- python3 clients/stdio/bot.py

How it plays:
- contract: scores every legal contract against what an average hand would give (high cards for
  plus contracts, length in the trump suit, low cards for the minus contract) and takes the best;
- major round (manni-major): always passes;
- exchange: plus contracts swap low side cards, the minus contract swaps high cards; in a pick
  exchange it takes the talon cards that are better than its worst cards;
- play: in plus contracts the lowest card that wins the trick so far (else its lowest card); in the
  minus contract the highest card that still loses (else its highest card).
- a refused answer (an "error" line with retry true) is answered again with a legal action that
  was not refused yet.

With BOT_TEST_BAD_FIRST=1 it sends a card it does not hold at its first card play, to show (and
test) the error and retry path.
"""

import json
import os
import sys

RANKS = "23456789TJQKA"
POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
DECK = [r + s for s in "SHDC" for r in RANKS]


def rank(card):
    return RANKS.index(card[0])


def suit(card):
    return card[1]


def log(text):
    print("bot.py: " + text, file=sys.stderr, flush=True)


class Bot:
    def __init__(self):
        self.contracts = {}  # name -> contract info from the ruleset
        self.hand_size = 13
        self.bad_first = os.environ.get("BOT_TEST_BAD_FIRST") == "1"
        self.decision = None  # the decide line we are answering
        self.sent = []  # our answers to it so far

    # ------------------------------------------------------------------ contract
    def contract_score(self, option, hand):
        seen = max(1, len(hand))
        scale = self.hand_size / seen  # with choose_after = 6 we see only part of the hand
        hcp = sum(POINTS.get(c[0], 0) for c in hand)
        excess = (hcp - seen * 10 / 13) * scale  # high-card points above an average hand
        info = self.contracts.get(option["contract"], {})
        if info.get("minus"):
            low = sum(1 for c in hand if rank(c) <= 5)  # 2 to 7
            return -excess / 3 + (low - seen * 6 / 13) * scale * 0.3
        trump = option.get("trump") or info.get("trump")
        if trump is None:
            return excess / 3
        length = sum(1 for c in hand if suit(c) == trump)
        trump_hcp = sum(POINTS.get(c[0], 0) for c in hand if suit(c) == trump)
        return excess / 4 + (length - seen / 4) * scale * 0.7 + trump_hcp * scale / 8

    def choose_contract(self, decision):
        hand = decision["view"]["hand"]
        return max(decision["legal"], key=lambda option: self.contract_score(option, hand))

    # ------------------------------------------------------------------ exchange
    def exchange(self, decision):
        view, ex = decision["view"], decision["exchange"]
        hand, trump, minus = view["hand"], view["trump"], view["minus"]
        if ex["max"] == 0:
            return {"discard": []}

        def value(card):  # higher is better to keep
            if minus:
                return -rank(card)
            return rank(card) + (13 if suit(card) == trump else 0)

        if ex["pick"]:
            mine = sorted(hand, key=value)
            theirs = sorted(ex["talon"], key=value, reverse=True)
            discard, take = [], []
            for out, into in zip(mine, theirs):
                if len(discard) == ex["max"] or value(into) <= value(out):
                    break
                discard.append(out)
                take.append(into)
            return {"discard": discard, "take": take}
        if minus:
            worst = [c for c in hand if rank(c) >= 10]  # Q, K, A
        else:
            worst = [c for c in hand if suit(c) != trump and rank(c) <= 4]  # 2 to 6 outside trumps
        worst.sort(key=value)
        return {"discard": worst[: min(ex["max"], 4)]}

    # ---------------------------------------------------------------------- play
    def play(self, decision):
        view = decision["view"]
        cards = [option["play"] for option in decision["legal"]]
        # The referee says, card by card, whether it would take the trick as it stands.
        takes = dict(zip(cards, decision["takes_trick"]))
        trump = view["trump"]
        if self.bad_first:  # test mode: one card we do not hold, to be refused
            self.bad_first = False
            return {"play": next(c for c in DECK if c not in view["hand"])}
        if view["winning"] is None:  # we lead
            return {"play": (min if view["minus"] else max)(cards, key=rank)}
        if view["minus"]:
            losers = [c for c in cards if not takes[c]]
            return {"play": max(losers or cards, key=rank)}
        winners = [c for c in cards if takes[c]]

        def cheapest(card):  # side suits before trumps, then low before high
            return (suit(card) == trump, rank(card))

        return {"play": min(winners or cards, key=cheapest)}

    # ------------------------------------------------------------------ dispatch
    def decide(self, decision):
        kind = decision["kind"]
        if kind == "contract":
            return self.choose_contract(decision)
        if kind == "exchange":
            return self.exchange(decision)
        if kind == "play":
            return self.play(decision)
        return {"major": None}  # major round: pass

    def again(self, decision):
        """Another answer after a refusal: think again, else a legal answer not sent yet, else the
        referee's default."""
        body = self.decide(decision)
        if body not in self.sent:
            return body
        for option in decision["legal"]:
            if option not in self.sent:
                return option
        return decision["default"]

    def answer(self, body):
        self.sent.append(body)
        send(dict(body, turn=self.decision["turn"]))

    def handle(self, msg):
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != 1:
                log(f"unknown protocol version {msg.get('protocol')!r}; trying anyway")
        elif kind == "game_start":
            self.contracts = {c["name"]: c for c in msg["ruleset"]["contracts"]}
            self.hand_size = msg["ruleset"]["hand_size"]
        elif kind == "decide":
            self.decision, self.sent = msg, []
            self.answer(self.decide(msg))
        elif kind == "error":
            log(f"turn {msg['turn']} refused: {msg['code']}: {msg['message']}")
            if msg["retry"] and self.decision is not None and msg["turn"] == self.decision["turn"]:
                self.answer(self.again(self.decision))
        elif kind == "game_end":
            log(f"game over: rank {msg['rank']}, totals {msg['totals']}")
            self.decision = None
        # "event" lines and any line type added later are ignored


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    bot = Bot()
    for line in sys.stdin:
        if line.strip():
            bot.handle(json.loads(line))


if __name__ == "__main__":
    main()
