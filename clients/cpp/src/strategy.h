// The bot's card sense: a port of the Python SDK's `heuristic` bot (as in clients/node/strategy.js).
// Pure functions of one DecisionRequest: no state, no randomness (the contract-fit statistics come
// from a fixed seed). Every answer is chosen among DecisionRequest.legal_actions (or, for an
// exchange, from the hand, the talon shown and ExchangeOptions.max_cards), so it is legal. Which
// card would take the trick is the referee's word (DecisionRequest.takes_trick), not worked out
// here; card ranks are compared only to plan ahead (could a card still be overtaken by one unseen?).
#pragma once

#include <string>
#include <vector>

#include "mizerka/v1/game.pb.h"
#include "mizerka/v1/referee.pb.h"

namespace mizerka_bot {

extern const std::string kRanks;  // "23456789TJQKA"
extern const std::string kSuits;  // "SHDC"
const std::vector<std::string>& Deck();

int Rank(const std::string& card);

// The bot's answer to one DecisionRequest (the referee's default action when it has none).
mizerka::v1::Action Decide(const mizerka::v1::DecisionRequest& request);

}  // namespace mizerka_bot
