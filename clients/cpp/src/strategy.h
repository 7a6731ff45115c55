// The bot's card sense: a port of the Python SDK's `heuristic` bot (as in clients/node/strategy.js).
// Pure functions of one DecisionRequest: no state, no randomness (the contract-fit statistics come
// from a fixed seed). Every answer is chosen among DecisionRequest.legal_actions (or, for an
// exchange, from the hand, the talon shown and ExchangeOptions.max_cards), so it is legal.
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
// Whether `card`, if played now, would beat `best`, the card winning the trick so far (the referee
// says which that is: Trick.winning): for weighing the cards the bot might play.
bool Beats(const std::string& card, const std::string& best, const std::string& trump);

// The bot's answer to one DecisionRequest.
mizerka::v1::Action Decide(const mizerka::v1::DecisionRequest& request);
// The first legal action: legal_actions[0], a pass in the major round, an empty exchange
// (mizerka::sdk::FirstLegal of include/mizerka/cards.hpp).
mizerka::v1::Action Fallback(const mizerka::v1::DecisionRequest& request);

}  // namespace mizerka_bot
