// An example Mizerka Arena bot in C++: a gRPC client of mizerka.v1.Referee.Play (the sync API, one
// reader loop per Play stream). The stubs are generated from the repository's proto/ at build time.
//
// Environment (the launch contract every Mizerka bot follows):
//   MIZERKA_SERVER    host:port of the referee (default 127.0.0.1:50051)
//   MIZERKA_TOKEN     the bot's token from Arena.RegisterBot (required)
//   MIZERKA_PARALLEL  how many Play streams to open = games it may play at once (default 1)
//   MIZERKA_GAMES     optional: stop after this many games in all (streams close between games)
//   MIZERKA_NAME      optional: the name sent in Hello (default "cpp-heuristic")
//   MIZERKA_VERBOSE   optional: 1 logs every deal result
//   MIZERKA_LIVE_EVENTS  optional: 1 asks for every event at once in an EventBatch (Hello.live_events);
//                     by default the events ride on the next DecisionRequest
//   MIZERKA_TEST_BAD_FIRST  test hook: 1 makes the first card decision start with a stale-turn
//                     action and a card not held, to exercise the referee's refusals
// TLS (docs/protocol.md, TLS): used when MIZERKA_SERVER starts with https://, when MIZERKA_TLS=1,
// or when any of these is set:
//   MIZERKA_TLS_CA    PEM file of the CA certificates to trust (default: the system's roots)
//   MIZERKA_TLS_CERT, MIZERKA_TLS_KEY  this bot's certificate chain and key, for mutual TLS
//   MIZERKA_TLS_SERVER_NAME  the name the referee's certificate carries, if not the server's host
// Exit codes: 0 when every stream ended (the referee closed it, or MIZERKA_GAMES were played),
// 1 when the referee refused the bot for good (bad token, ...), 2 for bad settings.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "mizerka/v1/referee.grpc.pb.h"
#include "strategy.h"

namespace {

using mizerka::v1::Action;
using mizerka::v1::BotMessage;
using mizerka::v1::DecisionRequest;
using mizerka::v1::Event;
using mizerka::v1::Referee;
using mizerka::v1::RefereeMessage;

constexpr const char* kVersion = "1.0.0";
constexpr int kMaxMessageBytes = 64 * 1024 * 1024;
constexpr int kBackoffInitialMs = 200;
constexpr int kBackoffMaxMs = 10000;

std::mutex log_mu;

template <typename... Args>
void Log(Args&&... args) {
  std::ostringstream line;
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", std::gmtime(&t));
  line << "[" << stamp << "." << (ms < 100 ? "0" : "") << (ms < 10 ? "0" : "") << ms << "Z] ";
  (line << ... << args);
  std::lock_guard<std::mutex> lock(log_mu);
  std::cout << line.str() << std::endl;
}

struct Tls {
  bool on = false;
  std::string ca, cert, key;  // PEM contents (empty: the system's roots / no client certificate)
  std::string server_name;    // the name the referee's certificate carries, if not the server's host
};

struct Settings {
  std::string server = "127.0.0.1:50051";
  Tls tls;
  std::string token;
  int parallel = 1;
  int games = 0;  // 0: no limit
  std::string name = "cpp-heuristic";
  bool verbose = false;
  bool live_events = false;
  bool bad_first = false;
};

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// The PEM file named by the variable, into *out; false with *error saying what is wrong.
bool ReadPem(const char* variable, const std::string& marker, std::string* out, std::string* error) {
  std::string path = Env(variable);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  if (!in || !(data << in.rdbuf())) {
    *error = std::string(variable) + ": cannot read " + path;
    return false;
  }
  *out = data.str();
  if (out->find("-----BEGIN ") == std::string::npos || out->find(marker) == std::string::npos) {
    *error = std::string(variable) + ": " + path + " is not a PEM " + marker + " file";
    return false;
  }
  return true;
}

// The TLS settings (MIZERKA_TLS*, or an https:// server address, which is stripped); false with *error.
bool LoadTls(Settings* s, std::string* error) {
  const std::string https = "https://";
  if (Lower(s->server.substr(0, https.size())) == https) {
    s->server = s->server.substr(https.size());
    while (!s->server.empty() && s->server.back() == '/') s->server.pop_back();
    s->tls.on = true;
  }
  std::string flag = Lower(Env("MIZERKA_TLS"));
  if (flag == "1" || flag == "true" || flag == "yes" || flag == "on") {
    s->tls.on = true;
  } else if (!(flag.empty() || flag == "0" || flag == "false" || flag == "no" || flag == "off")) {
    *error = "MIZERKA_TLS must be 1 (use TLS) or 0, not \"" + Env("MIZERKA_TLS") + "\"";
    return false;
  }
  s->tls.server_name = Env("MIZERKA_TLS_SERVER_NAME");
  bool has_cert = !Env("MIZERKA_TLS_CERT").empty(), has_key = !Env("MIZERKA_TLS_KEY").empty();
  if (has_cert != has_key) {
    *error = "MIZERKA_TLS_CERT and MIZERKA_TLS_KEY go together: set both or neither";
    return false;
  }
  if (!Env("MIZERKA_TLS_CA").empty() && !ReadPem("MIZERKA_TLS_CA", "CERTIFICATE", &s->tls.ca, error)) return false;
  if (has_cert && !(ReadPem("MIZERKA_TLS_CERT", "CERTIFICATE", &s->tls.cert, error) &&
                    ReadPem("MIZERKA_TLS_KEY", "PRIVATE KEY", &s->tls.key, error))) {
    return false;
  }
  s->tls.on = s->tls.on || !Env("MIZERKA_TLS_CA").empty() || has_cert || !s->tls.server_name.empty();
  return true;
}

bool WholeNumber(const std::string& text, int* out) {
  std::string s = text;
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
  *out = std::stoi(s);
  return true;
}

bool IsFatal(grpc::StatusCode code, const char** why) {
  switch (code) {
    case grpc::StatusCode::UNAUTHENTICATED: *why = "the referee refused the token (check MIZERKA_TOKEN)"; return true;
    case grpc::StatusCode::PERMISSION_DENIED: *why = "the referee refused this bot"; return true;
    case grpc::StatusCode::FAILED_PRECONDITION: *why = "the referee refused the stream opening"; return true;
    case grpc::StatusCode::RESOURCE_EXHAUSTED: *why = "a message was too large for the referee"; return true;
    case grpc::StatusCode::INVALID_ARGUMENT: *why = "the referee refused a message as invalid"; return true;
    case grpc::StatusCode::UNIMPLEMENTED: *why = "no mizerka.v1.Referee service at this address"; return true;
    default: return false;
  }
}

const char* CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK: return "OK";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
    default: return "?";
  }
}

template <typename T>
std::string Join(const T& items) {
  std::ostringstream out;
  bool first = true;
  for (const auto& x : items) out << (first ? "" : ", ") << x, first = false;
  return out.str();
}

class Runner;

// One Play stream (one seat) across reconnects, read by one thread.
class Seat {
 public:
  Seat(Runner* runner, int index) : runner_(runner), index_(index) {}
  // Plays until the stream ends (0) or the referee refuses the bot for good (1).
  int Run();
  // Close our side between games: the referee then ends the stream with status OK.
  void CloseIfIdle();

 private:
  template <typename... Args>
  void Say(Args&&... args) { Log("stream ", index_, ": ", std::forward<Args>(args)...); }
  void Handle(const RefereeMessage& message);
  void OnEvent(const Event& event);
  void OnDecision(const DecisionRequest& request);
  void OnError(const mizerka::v1::ActionError& error);
  void Send(const Action& action);

  Runner* runner_;
  int index_;
  std::mutex mu_;  // guards stream_, in_game_, closing_ and every write
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReaderWriter<BotMessage, RefereeMessage>> stream_;
  bool in_game_ = false;
  bool closing_ = false;
  int failures_ = 0;
  bool has_pending_ = false;
  DecisionRequest pending_;
  int game_events_ = 0, game_batched_ = 0, game_folded_ = 0, game_deals_ = 0;
};

class Runner {
 public:
  Runner(Settings settings, std::shared_ptr<grpc::Channel> channel)
      : settings(std::move(settings)), stub(Referee::NewStub(channel)) {}

  bool Done() const { return settings.games > 0 && games_played.load() >= settings.games; }
  void GameOver() {
    games_played++;
    if (Done())
      for (auto& s : seats) s->CloseIfIdle();
  }

  int Run() {
    for (int i = 0; i < settings.parallel; i++) seats.push_back(std::make_unique<Seat>(this, i));
    std::vector<std::thread> threads;
    std::vector<int> results(seats.size(), 0);
    for (size_t i = 0; i < seats.size(); i++) threads.emplace_back([this, i, &results] { results[i] = seats[i]->Run(); });
    for (auto& t : threads) t.join();
    return *std::max_element(results.begin(), results.end());
  }

  const Settings settings;
  std::unique_ptr<Referee::Stub> stub;
  std::vector<std::unique_ptr<Seat>> seats;
  std::atomic<int> games_played{0};
  std::atomic<bool> bad_first_used{false};
  std::atomic<int> games{0}, decisions{0}, refusals{0}, batches{0}, batched_events{0}, folded_events{0};
};

void Seat::CloseIfIdle() {
  std::lock_guard<std::mutex> lock(mu_);
  if (stream_ && !in_game_ && !closing_) {
    closing_ = true;
    stream_->WritesDone();
  }
}

void Seat::Send(const Action& action) {
  BotMessage message;
  *message.mutable_action() = action;
  std::lock_guard<std::mutex> lock(mu_);
  if (stream_ && !closing_) stream_->Write(message);
}

int Seat::Run() {
  std::mt19937 jitter(std::random_device{}() + index_);
  for (;;) {
    if (runner_->Done() && !in_game_) return 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      context_ = std::make_unique<grpc::ClientContext>();
      stream_ = runner_->stub->Play(context_.get());
      closing_ = false;
      BotMessage hello;
      hello.mutable_hello()->set_token(runner_->settings.token);
      hello.mutable_hello()->set_name(runner_->settings.name);
      hello.mutable_hello()->set_version(kVersion);
      hello.mutable_hello()->set_live_events(runner_->settings.live_events);
      stream_->Write(hello);  // a failure shows in Read() and Finish() below
    }
    RefereeMessage message;
    while (stream_->Read(&message)) Handle(message);  // the reader loop
    grpc::Status status;
    bool was_closing;
    {
      std::lock_guard<std::mutex> lock(mu_);
      status = stream_->Finish();
      stream_.reset();
      was_closing = closing_;
    }
    if (status.ok()) {
      Say("the stream ended (status OK); leaving");
      return 0;
    }
    const char* why = nullptr;
    if (IsFatal(status.error_code(), &why)) {
      Log("mizerka-cpp-bot: ", runner_->settings.server, ": ", CodeName(status.error_code()), ": ", why,
          " (referee said: ", status.error_message(), ")");
      std::cerr << "mizerka-cpp-bot: " << CodeName(status.error_code()) << ": " << why << " (referee said: "
                << status.error_message() << ")" << std::endl;
      return 1;
    }
    if (was_closing || runner_->Done()) return 0;
    auto code = status.error_code();
    if (code != grpc::StatusCode::UNAVAILABLE && code != grpc::StatusCode::CANCELLED && code != grpc::StatusCode::INTERNAL &&
        code != grpc::StatusCode::UNKNOWN) {
      std::cerr << "mizerka-cpp-bot: the stream ended with " << CodeName(code) << ": " << status.error_message() << std::endl;
      return 1;
    }
    if (in_game_) Say("lost the stream during a game: the referee plays the rest of it by default");
    in_game_ = false;
    has_pending_ = false;
    failures_++;
    double d = std::min<double>(kBackoffMaxMs, kBackoffInitialMs * std::pow(2.0, std::max(0, failures_ - 1)));
    int delay = static_cast<int>(d / 2 + std::uniform_real_distribution<double>(0, d / 2)(jitter));
    Say(CodeName(code), ": ", status.error_message(), "; reconnecting to ", runner_->settings.server, " in ", delay, " ms");
    std::this_thread::sleep_for(std::chrono::milliseconds(delay));
  }
}

void Seat::Handle(const RefereeMessage& message) {
  switch (message.message_case()) {
    case RefereeMessage::kWelcome: {
      const auto& w = message.welcome();
      failures_ = 0;
      Say("connected as ", w.name(), " (", w.bot_id(), "), referee ", w.server_version().empty() ? "?" : w.server_version());
      if (w.max_message_bytes() > static_cast<uint32_t>(kMaxMessageBytes))
        Say("warning: the referee accepts ", w.max_message_bytes(), " bytes; this channel receives ", kMaxMessageBytes);
      if (runner_->Done()) CloseIfIdle();
      break;
    }
    case RefereeMessage::kGameStart: {
      const auto& g = message.game_start();
      {
        std::lock_guard<std::mutex> lock(mu_);
        in_game_ = true;
      }
      game_events_ = game_batched_ = game_folded_ = game_deals_ = 0;
      Say("game ", g.game_number() + 1, "/", g.games(), " of match ", g.match_id(), " starts: ", g.ruleset().preset(), ", seat ",
          g.seat(), ", players ", Join(g.names()));
      break;
    }
    case RefereeMessage::kEventBatch:
      runner_->batches++;
      runner_->batched_events += message.event_batch().events_size();
      game_batched_ += message.event_batch().events_size();
      for (const auto& e : message.event_batch().events()) OnEvent(e);
      break;
    case RefereeMessage::kDecisionRequest: {
      const auto& request = message.decision_request();
      // The events since our previous message ride on the request; the view already reflects them.
      runner_->folded_events += request.events_size();
      game_folded_ += request.events_size();
      for (const auto& e : request.events()) OnEvent(e);
      OnDecision(request);
      break;
    }
    case RefereeMessage::kActionError:
      OnError(message.action_error());
      break;
    case RefereeMessage::kGameEnd: {
      const auto& end = message.game_end();
      {
        std::lock_guard<std::mutex> lock(mu_);
        in_game_ = false;
      }
      has_pending_ = false;
      runner_->games++;
      uint32_t refusals = 0, defaults = 0;
      if (end.seat() < static_cast<uint32_t>(end.seats_size())) {
        refusals = end.seats(static_cast<int>(end.seat())).refusals();
        defaults = end.seats(static_cast<int>(end.seat())).defaults_applied();
      }
      Say("game over", end.aborted() ? " (aborted: " + end.abort_reason() + ")" : std::string(), ": rank ", end.rank(),
          ", totals [", Join(end.totals()), "], refusals ", refusals, ", defaults ", defaults, "; ", game_events_,
          " events (", game_batched_, " in EventBatches, ", game_folded_, " with decisions), ", game_deals_, " deals ended");
      runner_->GameOver();
      break;
    }
    default:
      Say("ignoring an unknown message");
  }
}

void Seat::OnEvent(const Event& event) {
  game_events_++;
  switch (event.kind_case()) {
    case Event::kDealEnded: {
      game_deals_++;
      const auto& r = event.deal_ended().result();
      if (runner_->settings.verbose)
        Say("deal ", r.deal(), ": ", r.contract(), " by seat ", r.declarer(), ", tricks [", Join(r.tricks()), "], points [",
            Join(r.points()), "]");
      break;
    }
    case Event::kDefaultApplied:
      Say("the referee decided turn ", event.default_applied().turn(), " for us (",
          mizerka::v1::DefaultReason_Name(event.default_applied().reason()), ")");
      break;
    case Event::kStrikeCounted:
      Say("strike ", event.strike_counted().strikes(), " counted (turn ", event.strike_counted().turn(), ")");
      break;
    default:
      break;
  }
}

void Seat::OnDecision(const DecisionRequest& request) {
  runner_->decisions++;
  pending_ = request;
  has_pending_ = true;
  Action action = mizerka_bot::Decide(request);
  if (runner_->settings.bad_first && request.kind() == mizerka::v1::DECISION_KIND_PLAY && !runner_->bad_first_used.exchange(true)) {
    // Test hook: a stale turn (refused with retry = false) and a card we do not hold (refused with
    // retry = true); the real answer then follows the refusals.
    std::vector<std::string> hand;
    if (request.view().seat() < static_cast<uint32_t>(request.view().players_size()))
      for (const auto& c : request.view().players(static_cast<int>(request.view().seat())).hand()) hand.push_back(c);
    std::string not_held;
    for (const auto& c : mizerka_bot::Deck())
      if (std::find(hand.begin(), hand.end(), c) == hand.end()) { not_held = c; break; }
    Say("test: sending a stale turn and ", not_held, " (not held) for turn ", request.turn());
    Action stale;
    stale.set_turn(request.turn() + 1000);
    stale.mutable_play_card()->set_card(not_held);
    Send(stale);
    Action bad;
    bad.set_turn(request.turn());
    bad.mutable_play_card()->set_card(not_held);
    Send(bad);
    return;  // answered on the ActionError (retry = true)
  }
  Send(action);
}

void Seat::OnError(const mizerka::v1::ActionError& error) {
  runner_->refusals++;
  Say("action refused: ", error.code(), " (turn ", error.turn(), ", retry ", error.retry() ? "true" : "false", ", strikes ",
      error.strikes(), "): ", error.message());
  if (error.retry() && has_pending_ && pending_.turn() == error.turn()) {
    Say("retrying turn ", pending_.turn(), " with the first legal action");
    Send(mizerka_bot::Fallback(pending_));
  }
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  Settings s;
  s.token = Env("MIZERKA_TOKEN");
  if (s.token.empty()) {
    std::cerr << "mizerka-cpp-bot: no bot token: set MIZERKA_TOKEN (Arena.RegisterBot gives one)" << std::endl;
    return 2;
  }
  if (!Env("MIZERKA_SERVER").empty()) s.server = Env("MIZERKA_SERVER");
  std::string parallel = Env("MIZERKA_PARALLEL");
  if (!parallel.empty() && (!WholeNumber(parallel, &s.parallel) || s.parallel < 1)) {
    std::cerr << "mizerka-cpp-bot: MIZERKA_PARALLEL must be a whole number of at least 1, not \"" << parallel << "\"" << std::endl;
    return 2;
  }
  std::string games = Env("MIZERKA_GAMES");
  if (!games.empty() && !WholeNumber(games, &s.games)) {
    std::cerr << "mizerka-cpp-bot: MIZERKA_GAMES must be a whole number, not \"" << games << "\"" << std::endl;
    return 2;
  }
  if (!Env("MIZERKA_NAME").empty()) s.name = Env("MIZERKA_NAME");
  s.verbose = Env("MIZERKA_VERBOSE") == "1";
  s.live_events = Env("MIZERKA_LIVE_EVENTS") == "1";
  s.bad_first = Env("MIZERKA_TEST_BAD_FIRST") == "1";
  std::string tls_error;
  if (!LoadTls(&s, &tls_error)) {
    std::cerr << "mizerka-cpp-bot: " << tls_error << std::endl;
    return 2;
  }

  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  // Keep gRPC's own reconnect backoff close to ours, so a restarted referee is found quickly.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, kBackoffInitialMs);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, kBackoffInitialMs);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, kBackoffMaxMs);
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (s.tls.on) {  // over TLS the token is encrypted; empty root certificates mean the system's roots
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = s.tls.ca;
    ssl.pem_cert_chain = s.tls.cert;
    ssl.pem_private_key = s.tls.key;
    credentials = grpc::SslCredentials(ssl);
    if (!s.tls.server_name.empty()) args.SetString(GRPC_SSL_TARGET_NAME_OVERRIDE_ARG, s.tls.server_name);
  }
  auto channel = grpc::CreateCustomChannel(s.server, credentials, args);
  Runner runner(s, channel);
  Log("mizerka-cpp-bot ", kVersion, ": ", s.parallel, " stream(s) to ", s.server, s.tls.on ? " over TLS" : "");
  int code = runner.Run();
  Log("done: ", runner.games.load(), " games, ", runner.decisions.load(), " decisions, ", runner.refusals.load(), " refusals, ",
      runner.batched_events.load(), " events in ", runner.batches.load(), " batches, ", runner.folded_events.load(),
      " events folded into decisions");
  return code;
}
