// The card sense of the example bot: see strategy.h and, for the rules of thumb, the Python SDK's
// clients/python/mizerka/bots/heuristic.py, which this follows.
//
// - Contract: each contract's fit to the hand (trumps: length and honours in the suit plus side
//   aces; no-trump: high cards; minus: low cards), standardised against random hands of the same
//   size; the open contract with the highest standardised fit is announced.
// - Majors: announce only with nearly every trick sure; else pass.
// - Exchange: blind: swap the cards worth less than an average unseen card; pick: keep the best
//   cards of hand + talon.
// - Play, plus contracts: lead a card no one can beat (trumps first while others may hold some),
//   else low from the longest side suit; follow with the cheapest card that takes the trick (one
//   that cannot be overtaken if there is one), else the cheapest card.
// - Play, minus contracts: lead the card most sure to be beaten; follow with the highest card that
//   still loses (else the highest); void: throw the most dangerous high card.
#include "strategy.h"

#include "mizerka/cards.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <utility>

namespace mizerka_bot {

using mizerka::v1::Action;
using mizerka::v1::DecisionRequest;

const std::string kRanks = "23456789TJQKA";
const std::string kSuits = "SHDC";

const std::vector<std::string>& Deck() {
  static const std::vector<std::string> deck = [] {
    std::vector<std::string> d;
    for (char s : kSuits)
      for (char r : kRanks) d.push_back(std::string{r, s});
    return d;
  }();
  return deck;
}

int Rank(const std::string& card) { return static_cast<int>(kRanks.find(card[0])); }

static std::string SuitOf(const std::string& card) { return card.substr(1, 1); }

namespace {

using Cards = std::vector<std::string>;
using CardSet = std::set<std::string>;

std::map<char, int> SuitLengths(const Cards& cards) {
  std::map<char, int> out{{'S', 0}, {'H', 0}, {'D', 0}, {'C', 0}};
  for (const auto& c : cards) out[c[1]] += 1;
  return out;
}

int CountInSuit(const CardSet& cards, char s) {
  return static_cast<int>(std::count_if(cards.begin(), cards.end(), [s](const std::string& c) { return c[1] == s; }));
}

// The first element with the smallest (or largest) key; keys compare with operator< (tuples work).
template <typename Key>
std::string MinBy(const Cards& cards, Key key) {
  std::string best = cards.front();
  auto best_key = key(best);
  for (const auto& c : cards) {
    auto k = key(c);
    if (k < best_key) best = c, best_key = k;
  }
  return best;
}

template <typename Key>
std::string MaxBy(const Cards& cards, Key key) {
  std::string best = cards.front();
  auto best_key = key(best);
  for (const auto& c : cards) {
    auto k = key(c);
    if (best_key < k) best = c, best_key = k;
  }
  return best;
}

template <typename Pred>
Cards Filter(const Cards& cards, Pred pred) {
  Cards out;
  for (const auto& c : cards)
    if (pred(c)) out.push_back(c);
  return out;
}

int Hcp(const std::string& c) {
  switch (c[0]) {
    case 'A': return 4;
    case 'K': return 3;
    case 'Q': return 2;
    case 'J': return 1;
    default: return 0;
  }
}

// ------------------------------------------------------------------------------ contract fit
enum class Kind { kTrump, kNotrump, kMinus };

double Fit(Kind kind, const std::string& trump, const Cards& hand) {
  double value = 0;
  if (kind == Kind::kMinus) {
    for (const auto& c : hand) value += 5 - Rank(c);
    return value;
  }
  if (kind == Kind::kNotrump) {
    for (const auto& c : hand) value += Hcp(c) + (c[0] == 'A' ? 1.5 : 0.0);
    return value;
  }
  for (const auto& c : hand) {
    if (SuitOf(c) == trump) value += 2.5 + Hcp(c);
    else if (c[0] == 'A') value += 3;
    else if (c[0] == 'K') value += 1;
  }
  return value;
}

// Mean and standard deviation of Fit over 1500 random hands of `size` cards (a fixed seed).
std::pair<double, double> FitStats(Kind kind, size_t size) {
  static std::mutex mu;
  static std::map<std::pair<int, size_t>, std::pair<double, double>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(static_cast<int>(kind), size);
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  uint64_t state = 0x9E3779B97F4A7C15ULL ^ (static_cast<uint64_t>(key.first) << 8) ^ size;
  auto next = [&state]() {  // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  Cards deck = Deck();
  std::vector<double> values;
  for (int n = 0; n < 1500; n++) {
    for (size_t i = 0; i < size && i < deck.size(); i++) {  // partial Fisher-Yates
      size_t j = i + next() % (deck.size() - i);
      std::swap(deck[i], deck[j]);
    }
    values.push_back(Fit(kind, "H", Cards(deck.begin(), deck.begin() + static_cast<long>(std::min(size, deck.size())))));
  }
  double mean = 0;
  for (double v : values) mean += v;
  mean /= values.size();
  double var = 0;
  for (double v : values) var += (v - mean) * (v - mean);
  double sd = std::sqrt(var / values.size());
  if (sd == 0) sd = 1;
  return cache[key] = {mean, sd};
}

double FitZ(Kind kind, const std::string& trump, const Cards& hand) {
  if (hand.empty()) return 0;
  auto [mean, sd] = FitStats(kind, hand.size());
  return (Fit(kind, trump, hand) - mean) / sd;
}

// A rough count of the tricks `hand` takes in a plus contract with `trump` ("" for none).
double SureTricks(const Cards& hand, const std::string& trump) {
  double tricks = 0;
  for (char s : kSuits) {
    Cards cards = Filter(hand, [s](const std::string& c) { return c[1] == s; });
    std::sort(cards.begin(), cards.end(), [](const std::string& a, const std::string& b) { return Rank(a) > Rank(b); });
    int top = 0;
    for (size_t i = 0; i < cards.size() && Rank(cards[i]) == 12 - static_cast<int>(i); i++) top++;
    int len = static_cast<int>(cards.size());
    if (std::string(1, s) == trump && len >= 6) tricks += std::max(top, len - std::max(0, 5 - top));
    else tricks += top;
  }
  return tricks;
}

// ------------------------------------------------------------------------------ the turn
struct Turn {
  const DecisionRequest& request;
  const mizerka::v1::SeatView& view;
  const mizerka::v1::Ruleset& ruleset;
  uint32_t seat;
  Cards hand;
  int players;
  std::string trump;
  bool minus = false;
  Cards trick;  // the trick in progress, in play order
  CardSet played;

  explicit Turn(const DecisionRequest& r)
      : request(r), view(r.view()), ruleset(r.ruleset()), seat(r.view().seat()) {
    if (seat < static_cast<uint32_t>(view.players_size())) {
      for (const auto& c : view.players(static_cast<int>(seat)).hand()) hand.push_back(c);
    }
    players = ruleset.players() ? static_cast<int>(ruleset.players()) : view.players_size();
    trump = view.trump();
    minus = view.contract_minus();
    if (view.tricks_size() > 0) {
      const auto& last = view.tricks(view.tricks_size() - 1);
      if (!last.has_winner())
        for (const auto& p : last.plays()) trick.push_back(p.card());
    }
    for (const auto& t : view.tricks())
      for (const auto& p : t.plays()) played.insert(p.card());
  }

  const mizerka::v1::ContractInfo* Contract(const std::string& name) const {
    for (const auto& c : ruleset.contracts())
      if (c.name() == name) return &c;
    return nullptr;
  }

  bool Leading() const { return trick.empty(); }
  // Whether playing `card` takes the trick as it stands, as the referee says (not told: no).
  bool Takes(const std::string& card) const { return mizerka::sdk::TakesTrick(request, card).value_or(false); }
  int ToPlayAfterMe() const { return players - static_cast<int>(trick.size()) - 1; }

  // Cards that may still be in another hand: not mine, not played, not out of play to my knowledge.
  CardSet Unseen() const {
    CardSet out(Deck().begin(), Deck().end());
    for (const auto& c : hand) out.erase(c);
    for (const auto& c : played) out.erase(c);
    if (seat < static_cast<uint32_t>(view.players_size()))
      for (const auto& c : view.players(static_cast<int>(seat)).discarded()) out.erase(c);
    if (view.talon_known())
      for (const auto& c : view.talon()) out.erase(c);
    return out;
  }

  Action Make() const {
    Action a;
    a.set_turn(request.turn());
    return a;
  }
};

bool IsMaster(const std::string& card, const CardSet& unseen) {
  for (const auto& c : unseen)
    if (c[1] == card[1] && Rank(c) > Rank(card)) return false;
  return true;
}

bool RuffRisk(const Turn& turn, const std::string& card, const CardSet& unseen) {
  if (turn.trump.empty() || SuitOf(card) == turn.trump) return false;
  if (CountInSuit(unseen, turn.trump[0]) == 0) return false;
  return CountInSuit(unseen, card[1]) < turn.ToPlayAfterMe();
}

Action ChooseContract(const Turn& turn) {
  const auto& legal = turn.request.legal_actions();
  int best = 0;
  double best_z = -1e300;
  for (int i = 0; i < legal.size(); i++) {
    if (!legal[i].has_choose_contract()) continue;
    const auto& choice = legal[i].choose_contract();
    const auto* info = turn.Contract(choice.contract());
    std::string trump = !choice.trump().empty() ? choice.trump() : (info ? info->trump() : "");
    Kind kind = info && info->minus() ? Kind::kMinus : !trump.empty() ? Kind::kTrump : Kind::kNotrump;
    double z = FitZ(kind, trump, turn.hand);
    if (z > best_z) best = i, best_z = z;
  }
  return legal[best];
}

Action AnnounceMajor(const Turn& turn) {
  const Action* best = nullptr;
  double best_tricks = 0;
  for (const auto& option : turn.request.legal_actions()) {
    if (!option.has_announce_major() || option.announce_major().contract().empty()) continue;
    const auto* info = turn.Contract(option.announce_major().contract());
    double tricks = SureTricks(turn.hand, info ? info->trump() : "");
    if (tricks > best_tricks) best = &option, best_tricks = tricks;
  }
  int hand_size = turn.ruleset.hand_size() ? static_cast<int>(turn.ruleset.hand_size()) : static_cast<int>(turn.hand.size());
  if (best && best_tricks >= hand_size - 2) return *best;
  Action pass = turn.Make();
  pass.mutable_announce_major()->set_contract("");
  return pass;
}

// What a card is worth keeping in this contract (higher is better).
double CardValue(const std::string& card, bool minus, const std::string& trump, std::map<char, int>& lengths) {
  int r = Rank(card);
  if (minus) return 12.0 - r - (lengths[card[1]] <= 1 && r >= 8 ? 0.4 : 0.0);
  if (!trump.empty() && SuitOf(card) == trump) return 10.0 + r;
  if (!trump.empty()) return r + 0.3 * lengths[card[1]];
  return r + 0.6 * lengths[card[1]];
}

Action Exchange(const Turn& turn) {
  const auto& options = turn.request.exchange();
  size_t max = options.max_cards();
  const Cards& hand = turn.hand;
  Action action = turn.Make();
  auto* ex = action.mutable_exchange_cards();
  if (options.pick()) {
    Cards talon(options.talon().begin(), options.talon().end());
    if (talon.empty() && turn.view.talon_known()) talon.assign(turn.view.talon().begin(), turn.view.talon().end());
    Cards pool = hand;
    pool.insert(pool.end(), talon.begin(), talon.end());
    auto lengths = SuitLengths(pool);
    Cards ranked = pool;
    std::stable_sort(ranked.begin(), ranked.end(), [&](const std::string& a, const std::string& b) {
      return CardValue(a, turn.minus, turn.trump, lengths) > CardValue(b, turn.minus, turn.trump, lengths);
    });
    CardSet keep(ranked.begin(), ranked.begin() + static_cast<long>(hand.size()));
    size_t discards = 0, takes = 0;
    for (const auto& c : hand)
      if (!keep.count(c) && discards < max) ex->add_discard(c), discards++;
    for (const auto& c : talon)
      if (keep.count(c) && takes < max) ex->add_take(c), takes++;
    return action;
  }
  auto lengths = SuitLengths(hand);
  CardSet held(hand.begin(), hand.end());
  double expected = 0;
  int unknown = 0;
  for (const auto& c : Deck())
    if (!held.count(c)) expected += CardValue(c, turn.minus, turn.trump, lengths), unknown++;
  expected /= std::max(1, unknown);
  const double margin = 1.0;
  Cards worst = hand;
  std::stable_sort(worst.begin(), worst.end(), [&](const std::string& a, const std::string& b) {
    return CardValue(a, turn.minus, turn.trump, lengths) < CardValue(b, turn.minus, turn.trump, lengths);
  });
  for (const auto& c : worst)
    if (CardValue(c, turn.minus, turn.trump, lengths) < expected - margin && static_cast<size_t>(ex->discard_size()) < max)
      ex->add_discard(c);
  return action;
}

std::string PlayPlus(const Turn& turn, const Cards& legal, const CardSet& unseen) {
  const std::string& trump = turn.trump;
  auto lengths = SuitLengths(turn.hand);
  auto is_trump = [&trump](const std::string& c) { return !trump.empty() && SuitOf(c) == trump; };
  if (turn.Leading()) {
    int unseen_trumps = trump.empty() ? 0 : CountInSuit(unseen, trump[0]);
    Cards masters = Filter(legal, [&](const std::string& c) { return IsMaster(c, unseen); });
    if (unseen_trumps > 0) {
      Cards trump_masters = Filter(masters, is_trump);
      if (!trump_masters.empty()) return MaxBy(trump_masters, Rank);
    }
    Cards side_masters = Filter(masters, [&](const std::string& c) { return !is_trump(c); });
    // Prefer a suit the others still hold (so it is followed, not ruffed), then the highest.
    if (!side_masters.empty())
      return MaxBy(side_masters, [&](const std::string& c) { return std::make_tuple(CountInSuit(unseen, c[1]), Rank(c)); });
    if (!masters.empty()) return MaxBy(masters, Rank);
    Cards side = Filter(legal, [&](const std::string& c) { return !is_trump(c); });
    const Cards& pool = side.empty() ? legal : side;
    std::string longest = MaxBy(pool, [&](const std::string& c) { return std::make_tuple(lengths[c[1]], -Rank(c)); });
    return MinBy(Filter(pool, [&](const std::string& c) { return c[1] == longest[1]; }), Rank);
  }
  Cards winners = Filter(legal, [&](const std::string& c) { return turn.Takes(c); });
  auto cheapest = [&](const Cards& cards) {
    return MinBy(cards, [&](const std::string& c) { return std::make_tuple(is_trump(c) ? 1 : 0, Rank(c)); });
  };
  if (!winners.empty()) {
    if (turn.ToPlayAfterMe() == 0) return cheapest(winners);
    Cards safe = Filter(winners, [&](const std::string& c) {
      return IsMaster(c, unseen) && (is_trump(c) || !RuffRisk(turn, c, unseen));
    });
    return cheapest(safe.empty() ? winners : safe);
  }
  // Cannot win: throw the cheapest card, preferably a side card of a short suit.
  return MinBy(legal, [&](const std::string& c) { return std::make_tuple(is_trump(c) ? 1 : 0, Rank(c), lengths[c[1]]); });
}

std::string PlayMinus(const Turn& turn, const Cards& legal, const CardSet& unseen) {
  auto lengths = SuitLengths(turn.hand);
  if (turn.Leading()) {
    // The card most sure to be beaten: not the highest outstanding of its suit, few cards below it.
    return MinBy(legal, [&](const std::string& c) {
      int below = 0, above = 0;
      for (const auto& u : unseen) {
        if (u[1] != c[1]) continue;
        if (Rank(u) < Rank(c)) below++;
        else above++;
      }
      return std::make_tuple(above == 0 ? 1 : 0, below, Rank(c));
    });
  }
  if (legal.front()[1] == turn.trick.front()[1]) {
    Cards losers = Filter(legal, [&](const std::string& c) { return !turn.Takes(c); });
    return MaxBy(losers.empty() ? legal : losers, Rank);
  }
  // Void in the led suit: throw the most dangerous card (high, in a short suit).
  return MaxBy(legal, [&](const std::string& c) { return std::make_tuple(Rank(c), -lengths[c[1]]); });
}

Action Play(const Turn& turn) {
  const auto& options = turn.request.legal_actions();
  Cards legal;
  for (const auto& a : options)
    if (a.has_play_card()) legal.push_back(a.play_card().card());
  if (legal.size() <= 1) return mizerka::sdk::DefaultAction(turn.request);
  CardSet unseen = turn.Unseen();
  std::string card = turn.minus ? PlayMinus(turn, legal, unseen) : PlayPlus(turn, legal, unseen);
  for (const auto& a : options)
    if (a.has_play_card() && a.play_card().card() == card) return a;
  return mizerka::sdk::DefaultAction(turn.request);
}

}  // namespace

Action Decide(const DecisionRequest& request) {
  Turn turn(request);
  switch (request.kind()) {
    case mizerka::v1::DECISION_KIND_CONTRACT:
      if (request.legal_actions_size() > 1) return ChooseContract(turn);
      break;
    case mizerka::v1::DECISION_KIND_MAJOR: return AnnounceMajor(turn);
    case mizerka::v1::DECISION_KIND_EXCHANGE: return Exchange(turn);
    case mizerka::v1::DECISION_KIND_PLAY: return Play(turn);
    default: break;
  }
  return mizerka::sdk::DefaultAction(request);
}

}  // namespace mizerka_bot
