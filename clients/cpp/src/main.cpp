// An example Mizerka Arena bot in C++, on the header-only helper include/mizerka/bot.hpp: the helper
// runs the Play streams (launch contract, TLS, parallel games, Hello, refusals, reconnects); this
// file adds only the card sense of strategy.cpp and a few settings of its own.
//
// Environment (the launch contract every Mizerka bot follows; read by the helper):
//   MIZERKA_SERVER, MIZERKA_TOKEN, MIZERKA_PARALLEL, MIZERKA_TLS* (see clients/cpp/README.md)
// and the bot's own:
//   MIZERKA_GAMES     optional: stop after this many games in all (streams close between games)
//   MIZERKA_NAME      optional: the name sent in Hello (default "cpp-heuristic")
//   MIZERKA_VERBOSE   optional: 1 logs every deal result
//   MIZERKA_LIVE_EVENTS  optional: 1 asks for every event at once in an EventBatch (Hello.live_events);
//                     by default the events ride on the next DecisionRequest
//   MIZERKA_TEST_BAD_FIRST  test hook: 1 makes the first card decision start with a stale-turn
//                     action and a card not held, to exercise the referee's refusals
// Exit codes: 0 when every stream ended (the referee closed it, or MIZERKA_GAMES were played),
// 1 when the referee refused the bot for good (bad token, ...), 2 for bad settings.
#include <algorithm>
#include <atomic>
#include <iostream>
#include <string>

#include "mizerka/bot.hpp"
#include "strategy.h"

namespace sdk = mizerka::sdk;
namespace v1 = mizerka::v1;

int main() {
  sdk::Options options{"cpp-heuristic", "1.1.0"};
  if (!sdk::Env("MIZERKA_NAME").empty()) options.name = sdk::Env("MIZERKA_NAME");
  std::string games = sdk::Env("MIZERKA_GAMES");
  if (!games.empty() && !sdk::ParseWholeNumber(games, &options.games)) {
    std::cerr << "mizerka-cpp-bot: MIZERKA_GAMES must be a whole number, not \"" << games << "\"" << std::endl;
    return 2;
  }
  options.live_events = sdk::Env("MIZERKA_LIVE_EVENTS") == "1";
  const bool verbose = sdk::Env("MIZERKA_VERBOSE") == "1";
  static std::atomic<bool> bad_first{sdk::Env("MIZERKA_TEST_BAD_FIRST") == "1"};  // once, over all streams

  sdk::Bot bot;
  bot.decide = [](const v1::DecisionRequest& request, sdk::Seat& seat) -> v1::Action {
    if (request.kind() == v1::DECISION_KIND_PLAY && bad_first.exchange(false)) {
      // Test hook: a stale turn (refused with retry = false) and a card we do not hold (refused
      // with retry = true); the helper answers the retry with the default action.
      auto hand = sdk::Hand(request);
      std::string not_held;
      for (const auto& card : mizerka_bot::Deck())
        if (std::find(hand.begin(), hand.end(), card) == hand.end()) { not_held = card; break; }
      seat.Log("test: sending a stale turn and ", not_held, " (not held) for turn ", request.turn());
      v1::Action bad;
      bad.mutable_play_card()->set_card(not_held);
      bad.set_turn(request.turn() + 1000);
      seat.Send(bad);
      bad.set_turn(request.turn());
      seat.Send(bad);
      return {};  // sent by itself: answered on the ActionError (retry = true)
    }
    return mizerka_bot::Decide(request);
  };
  bot.on_event = [verbose](const v1::Event& event, sdk::Seat& seat) {
    if (!verbose || !event.has_deal_ended()) return;
    const auto& r = event.deal_ended().result();
    seat.Log("deal ", r.deal(), ": ", r.contract(), " by seat ", r.declarer(), ", tricks [", sdk::detail::Join(r.tricks()),
             "], points [", sdk::detail::Join(r.points()), "]");
  };
  return sdk::Main(bot, options);
}
