// Card and legal-action helpers for Mizerka Arena bots in C++ (header-only; needs only the generated
// protobuf classes of proto/mizerka/v1/game.proto and referee.proto). They read what the referee
// sends in a DecisionRequest instead of re-implementing the rules: the legal actions, the default
// action, which cards would take the trick, the trick in progress and the play winning it, the
// contract's trump and sign, the ruleset's facts. The same helpers as the Node SDK's
// (clients/node/sdk/helpers.js). See clients/cpp/README.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mizerka/v1/game.pb.h"
#include "mizerka/v1/referee.pb.h"

namespace mizerka::sdk {

namespace v1 = ::mizerka::v1;

// Card notation: rank "23456789TJQKA" then suit "SHDC": "AS", "TD", "2C".
inline const std::string kRanks = "23456789TJQKA";
inline const std::string kSuits = "SHDC";

// A card's rank index, 0 for "2" .. 12 for "A"; -1 for a string that is not a card.
inline int Rank(const std::string& card) {
  if (card.size() != 2) return -1;
  auto at = kRanks.find(card[0]);
  return at == std::string::npos ? -1 : static_cast<int>(at);
}

// A card's suit letter ('S', 'H', 'D' or 'C').
inline char Suit(const std::string& card) { return card.size() == 2 ? card[1] : '?'; }

// Your own PlayerState in the view (hand, discarded, taken, tricks won, quota, total); nullptr if absent.
inline const v1::PlayerState* Me(const v1::DecisionRequest& request) {
  const auto& view = request.view();
  for (const auto& p : view.players())
    if (p.seat() == view.seat()) return &p;
  return nullptr;
}

// Your cards, as the referee lists them (sorted S, H, D, C, low to high).
inline std::vector<std::string> Hand(const v1::DecisionRequest& request) {
  const v1::PlayerState* me = Me(request);
  return me ? std::vector<std::string>(me->hand().begin(), me->hand().end()) : std::vector<std::string>{};
}

// The legal actions of one kind (v1::Action::kPlayCard, kChooseContract, kAnnounceMajor), ready to send.
inline std::vector<v1::Action> LegalOf(const v1::DecisionRequest& request, v1::Action::ActionCase kind) {
  std::vector<v1::Action> out;
  for (const auto& a : request.legal_actions())
    if (a.action_case() == kind) out.push_back(a);
  return out;
}

// The cards you may play now (empty unless request.kind() is DECISION_KIND_PLAY).
inline std::vector<std::string> LegalCards(const v1::DecisionRequest& request) {
  std::vector<std::string> out;
  for (const auto& a : request.legal_actions())
    if (a.has_play_card()) out.push_back(a.play_card().card());
  return out;
}

// The legal action that plays `card`; nullopt if that card may not be played now.
inline std::optional<v1::Action> PlayAction(const v1::DecisionRequest& request, const std::string& card) {
  for (const auto& a : request.legal_actions())
    if (a.has_play_card() && a.play_card().card() == card) return a;
  return std::nullopt;
}

// An exchange of `discard` (and, in a pick exchange, `take` from the talon shown in
// request.exchange().talon()); at most request.exchange().max_cards() cards. An empty one is a pass.
inline v1::Action ExchangeAction(const v1::DecisionRequest& request, const std::vector<std::string>& discard = {},
                                 const std::vector<std::string>& take = {}) {
  v1::Action a;
  a.set_turn(request.turn());
  auto* exchange = a.mutable_exchange_cards();
  for (const auto& c : discard) exchange->add_discard(c);
  for (const auto& c : take) exchange->add_take(c);
  return a;
}

// The action the referee plays for you on a timeout (DecisionRequest.default_action), ready to
// send: what the runtime sends when a bot has no answer. A referee older than that field leaves it
// unset; then a pass stands in (no exchange, no major), else legal_actions[0], so that the runtime
// still answers legally there.
inline v1::Action DefaultAction(const v1::DecisionRequest& request) {
  v1::Action a;
  if (request.has_default_action() && request.default_action().action_case() != v1::Action::ACTION_NOT_SET) {
    a = request.default_action();
  } else if (request.kind() == v1::DECISION_KIND_EXCHANGE || request.legal_actions_size() == 0) {
    a = ExchangeAction(request);
  } else if (request.kind() == v1::DECISION_KIND_MAJOR) {
    a.mutable_announce_major()->set_contract("");
  } else {
    a = request.legal_actions(0);
  }
  a.set_turn(request.turn());
  return a;
}

// Whether playing `card` would take the trick as it stands, as the referee rules
// (DecisionRequest.takes_trick: true for every card when you lead); nullopt for a card that is not
// legal now, and when the referee did not say (not a card play, or a referee older than it).
inline std::optional<bool> TakesTrick(const v1::DecisionRequest& request, const std::string& card) {
  if (request.takes_trick_size() != request.legal_actions_size()) return std::nullopt;
  for (int i = 0; i < request.legal_actions_size(); i++) {
    const auto& a = request.legal_actions(i);
    if (a.has_play_card() && a.play_card().card() == card) return request.takes_trick(i);
  }
  return std::nullopt;
}

// The trick in progress (its plays so far, and `winning`, the seat winning it), or nullptr when you lead.
inline const v1::Trick* CurrentTrick(const v1::DecisionRequest& request) {
  const auto& tricks = request.view().tricks();
  if (tricks.empty() || tricks.rbegin()->has_winner()) return nullptr;
  return &*tricks.rbegin();
}

// The play winning the trick in progress so far, as the referee rules (Trick.winning); nullptr when you lead.
inline const v1::TrickPlay* WinningPlay(const v1::DecisionRequest& request) {
  const v1::Trick* trick = CurrentTrick(request);
  if (trick == nullptr || !trick->has_winning()) return nullptr;
  for (const auto& p : trick->plays())
    if (p.seat() == trick->winning()) return &p;
  return nullptr;
}

// The contract in force, from the view: its name in the ruleset, trump ("" for none), whether tricks
// are bad (minus) and whether it is a major.
struct Contract {
  std::string name, trump;
  bool minus = false, major = false;
};

// The contract in force; nullopt before it is announced.
inline std::optional<Contract> CurrentContract(const v1::DecisionRequest& request) {
  const auto& v = request.view();
  if (v.contract().empty()) return std::nullopt;
  return Contract{v.contract_name(), v.trump(), v.contract_minus(), v.contract_major()};
}

// The ruleset's facts about a contract by name (trump, minus, names_trump, trump_choices,
// major_rank): every request repeats the ruleset. nullptr for an unknown name.
inline const v1::ContractInfo* ContractInfoOf(const v1::DecisionRequest& request, const std::string& name) {
  for (const auto& c : request.ruleset().contracts())
    if (c.name() == name) return &c;
  return nullptr;
}

}  // namespace mizerka::sdk
