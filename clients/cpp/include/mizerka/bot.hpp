// The Play-stream runtime of a Mizerka Arena bot in C++, header-only, so that a bot is only its
// decisions (the same runtime as the Node SDK, clients/node/sdk):
//   * reads the launch contract: MIZERKA_SERVER, MIZERKA_TOKEN, MIZERKA_PARALLEL and MIZERKA_TLS*
//     (TLS and mutual TLS, docs/protocol.md#tls);
//   * opens one Referee.Play stream per parallel game, all on one channel, one thread each, and
//     says Hello on each;
//   * hands each DecisionRequest to your `decide` and sends its answer with the request's turn;
//     sends the referee's default action (DecisionRequest.default_action) when `decide` throws or
//     returns an empty Action, and again after a refusal with retry = true;
//   * reconnects after UNAVAILABLE with a capped, jittered exponential backoff (0.2 s doubling to
//     10 s; a Welcome resets it); a stream the referee ends with status OK stays closed, and Run
//     returns when every stream has ended.
//
//   #include "mizerka/bot.hpp"
//   int main() {
//     mizerka::sdk::Bot bot;
//     bot.decide = [](const mizerka::v1::DecisionRequest& request, mizerka::sdk::Seat&) {
//       return mizerka::sdk::DefaultAction(request);   // or an entry of request.legal_actions()
//     };
//     return mizerka::sdk::Main(bot, {"my-bot", "1.0"});   // exit 0 done, 1 refused, 2 bad settings
//   }
//
// Needs grpc++ and the stubs of game, events and referee.proto (clients/cpp/CMakeLists.txt: link
// the target mizerka_sdk). See clients/cpp/README.md.
#pragma once

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "mizerka/cards.hpp"
#include "mizerka/v1/referee.grpc.pb.h"

namespace mizerka::sdk {

inline constexpr int kMaxMessageBytes = 64 * 1024 * 1024;  // this side's channel limits (the referee's: Welcome)
inline constexpr int kBackoffInitialMs = 200;
inline constexpr int kBackoffMaxMs = 10000;

// One log line on stdout, time-stamped (a league writes a bot's output to DATA/logs/NAME.log).
template <typename... Args>
void Log(Args&&... args) {
  static std::mutex mu;
  std::ostringstream line;
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  char stamp[32];
  std::tm utc{};
  gmtime_r(&t, &utc);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
  line << "[" << stamp << "." << (ms < 100 ? "0" : "") << (ms < 10 ? "0" : "") << ms << "Z] ";
  (line << ... << args);
  std::lock_guard<std::mutex> lock(mu);
  std::cout << line.str() << std::endl;
}

// Bad settings: the message names the variable at fault (Main exits 2).
struct SettingsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Tls {
  bool on = false;
  std::string ca, cert, key;  // PEM contents (empty: the system's roots / no client certificate)
  std::string server_name;    // the name the referee's certificate carries, if not the server's host
};

// What a program sets in code rather than in the environment.
struct Options {
  std::string name = "cpp-bot";  // sent in Hello (the registered name is the one others see)
  std::string version = "0";     // sent in Hello
  int games = 0;                 // stop after this many games in all (0: no limit)
  bool live_events = false;      // Hello.live_events: every event at once, in an EventBatch
};

struct Settings {
  std::string server = "127.0.0.1:50051";  // host:port, or unix:PATH
  std::string token;
  int parallel = 1;
  Tls tls;
  Options options;
};

inline std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// A whole number (spaces around it allowed) into *out; false if `text` is not one.
inline bool ParseWholeNumber(const std::string& text, int* out) {
  std::string s = text;
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); })) return false;
  *out = std::stoi(s);
  return true;
}

namespace detail {

inline std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// The PEM file named by the variable; SettingsError naming the variable and the file otherwise.
inline std::string ReadPem(const char* variable, const std::string& marker) {
  std::string path = Env(variable);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  if (!in || !(data << in.rdbuf())) throw SettingsError(std::string(variable) + ": cannot read " + path);
  std::string pem = data.str();
  if (pem.find("-----BEGIN ") == std::string::npos || pem.find(marker) == std::string::npos)
    throw SettingsError(std::string(variable) + ": " + path + " is not a PEM " + marker + " file");
  return pem;
}

// The TLS settings (MIZERKA_TLS*, or an https:// server address, which is stripped).
inline void LoadTls(Settings* s) {
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
    throw SettingsError("MIZERKA_TLS must be 1 (use TLS) or 0, not \"" + Env("MIZERKA_TLS") + "\"");
  }
  s->tls.server_name = Env("MIZERKA_TLS_SERVER_NAME");
  bool has_cert = !Env("MIZERKA_TLS_CERT").empty(), has_key = !Env("MIZERKA_TLS_KEY").empty();
  if (has_cert != has_key) throw SettingsError("MIZERKA_TLS_CERT and MIZERKA_TLS_KEY go together: set both or neither");
  if (!Env("MIZERKA_TLS_CA").empty()) s->tls.ca = ReadPem("MIZERKA_TLS_CA", "CERTIFICATE");
  if (has_cert) {
    s->tls.cert = ReadPem("MIZERKA_TLS_CERT", "CERTIFICATE");
    s->tls.key = ReadPem("MIZERKA_TLS_KEY", "PRIVATE KEY");
  }
  s->tls.on = s->tls.on || !Env("MIZERKA_TLS_CA").empty() || has_cert || !s->tls.server_name.empty();
}

inline const char* CodeName(grpc::StatusCode code) {
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

// Why the referee refused the bot for good; nullptr for a status worth reconnecting after.
inline const char* FatalReason(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::UNAUTHENTICATED: return "the referee refused the token (check MIZERKA_TOKEN)";
    case grpc::StatusCode::PERMISSION_DENIED: return "the referee refused this bot";
    case grpc::StatusCode::FAILED_PRECONDITION: return "the referee refused the stream opening";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "a message was too large for the referee";
    case grpc::StatusCode::INVALID_ARGUMENT: return "the referee refused a message as invalid";
    case grpc::StatusCode::UNIMPLEMENTED: return "no mizerka.v1.Referee service at this address";
    default: return nullptr;
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

}  // namespace detail

// The launch contract from the environment, plus what the program sets in `options`.
inline Settings LoadSettings(const Options& options = {}) {
  Settings s;
  s.options = options;
  s.token = Env("MIZERKA_TOKEN");
  if (s.token.empty()) throw SettingsError("no bot token: set MIZERKA_TOKEN (Arena.RegisterBot gives one)");
  if (!Env("MIZERKA_SERVER").empty()) s.server = Env("MIZERKA_SERVER");
  std::string parallel = Env("MIZERKA_PARALLEL");
  if (!parallel.empty() && (!ParseWholeNumber(parallel, &s.parallel) || s.parallel < 1))
    throw SettingsError("MIZERKA_PARALLEL must be a whole number of at least 1, not \"" + parallel + "\"");
  if (options.games < 0) throw SettingsError("games must be a whole number");
  detail::LoadTls(&s);
  return s;
}

// The channel to the referee: over TLS when the settings say so (the token is then encrypted).
inline std::shared_ptr<grpc::Channel> Connect(const Settings& s) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  // Keep gRPC's own reconnect backoff close to ours, so a restarted referee is found quickly.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, kBackoffInitialMs);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, kBackoffInitialMs);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, kBackoffMaxMs);
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (s.tls.on) {  // empty root certificates mean the system's roots
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = s.tls.ca;
    ssl.pem_cert_chain = s.tls.cert;
    ssl.pem_private_key = s.tls.key;
    credentials = grpc::SslCredentials(ssl);
    if (!s.tls.server_name.empty()) args.SetString(GRPC_SSL_TARGET_NAME_OVERRIDE_ARG, s.tls.server_name);
  }
  return grpc::CreateCustomChannel(s.server, credentials, args);
}

class Seat;

// A bot: `decide` and, if it wants them, the hooks. Run copies it for every stream, and each stream
// calls its copy on its own thread: state a lambda captures by value is that stream's; state shared
// between streams needs your own locking. One stream plays one game at a time.
struct Bot {
  // The answer to a DecisionRequest: an entry of request.legal_actions() (or, for an exchange,
  // ExchangeAction(...)); its turn is set for you. An empty v1::Action{} sends DefaultAction(request).
  // If decide sends its answer itself (seat.Send), what it returns is not sent.
  std::function<v1::Action(const v1::DecisionRequest&, Seat&)> decide;
  std::function<void(const v1::GameStart&, Seat&)> on_game_start;
  // Every event, those folded into DecisionRequest.events and those of EventBatches alike, in order.
  std::function<void(const v1::Event&, Seat&)> on_event;
  // A refusal. With retry = true for the pending turn, the runtime then sends DefaultAction.
  std::function<void(const v1::ActionError&, Seat&)> on_error;
  std::function<void(const v1::GameEnd&, Seat&)> on_game_end;
};

// What a run did, over all streams.
struct Stats {
  std::atomic<int> games{0}, decisions{0}, refusals{0}, batches{0}, batched_events{0}, folded_events{0};
};

// One Play stream (one seat at a time) across reconnects, read by one thread; handed to the bot.
class Seat {
 public:
  Seat(detail::Runner* runner, int index, Bot bot) : runner_(runner), index_(index), bot_(std::move(bot)) {}

  int index() const { return index_; }
  // The GameStart of the game being played (seat, names, ruleset, clock).
  const v1::GameStart& game() const { return game_; }

  // Send an Action on this stream (Bot::decide's answer is sent for you).
  void Send(const v1::Action& action) {
    v1::BotMessage message;
    *message.mutable_action() = action;
    std::lock_guard<std::mutex> lock(mu_);
    if (stream_ && !closing_) stream_->Write(message);
    sent_ = true;
  }

  // A log line prefixed with this stream's number.
  template <typename... Args>
  void Log(Args&&... args) { sdk::Log("stream ", index_, ": ", std::forward<Args>(args)...); }

  // Close our side between games: the referee then ends the stream with status OK.
  void CloseIfIdle() {
    std::lock_guard<std::mutex> lock(mu_);
    if (stream_ && !in_game_ && !closing_) {
      closing_ = true;
      stream_->WritesDone();
    }
  }

  // Plays until the stream ends (0) or the referee refuses the bot for good (1).
  inline int Run();

 private:
  inline void Handle(const v1::RefereeMessage& message);
  inline void OnEvent(const v1::Event& event);
  inline void OnDecision(const v1::DecisionRequest& request);
  inline void OnError(const v1::ActionError& error);
  template <typename F, typename... A>
  void Hook(const char* what, const F& hook, A&&... args) {
    if (!hook) return;
    try {
      hook(std::forward<A>(args)...);
    } catch (const std::exception& e) {
      Log("the bot's ", what, " failed: ", e.what());
    }
  }

  detail::Runner* runner_;
  int index_;
  Bot bot_;
  std::mutex mu_;  // guards stream_, in_game_, closing_ and every write
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::BotMessage, v1::RefereeMessage>> stream_;
  bool in_game_ = false;
  bool closing_ = false;
  bool sent_ = false;
  int failures_ = 0;
  bool has_pending_ = false;
  v1::DecisionRequest pending_;
  v1::GameStart game_;
  int game_events_ = 0, game_batched_ = 0, game_folded_ = 0, game_deals_ = 0;
};

namespace detail {

// What all streams share: the settings, the stub, the counters and the games budget.
class Runner {
 public:
  Runner(const Settings& settings, std::shared_ptr<grpc::Channel> channel)
      : settings(settings), stub(v1::Referee::NewStub(std::move(channel))) {}

  bool Done() const { return settings.options.games > 0 && games_played.load() >= settings.options.games; }
  void GameOver() {
    games_played++;
    if (Done())
      for (auto& s : seats) s->CloseIfIdle();
  }

  int Run(const Bot& bot) {
    for (int i = 0; i < settings.parallel; i++) seats.push_back(std::make_unique<Seat>(this, i, bot));
    std::vector<std::thread> threads;
    std::vector<int> results(seats.size(), 0);
    for (size_t i = 0; i < seats.size(); i++) threads.emplace_back([this, i, &results] { results[i] = seats[i]->Run(); });
    for (auto& t : threads) t.join();
    return *std::max_element(results.begin(), results.end());
  }

  const Settings settings;
  std::unique_ptr<v1::Referee::Stub> stub;
  std::vector<std::unique_ptr<Seat>> seats;
  std::atomic<int> games_played{0};
  Stats stats;
};

}  // namespace detail

int Seat::Run() {
  const Settings& settings = runner_->settings;
  std::mt19937 jitter(std::random_device{}() + index_);
  for (;;) {
    if (runner_->Done() && !in_game_) return 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      context_ = std::make_unique<grpc::ClientContext>();
      stream_ = runner_->stub->Play(context_.get());
      closing_ = false;
      v1::BotMessage hello;
      hello.mutable_hello()->set_token(settings.token);
      hello.mutable_hello()->set_name(settings.options.name);
      hello.mutable_hello()->set_version(settings.options.version);
      hello.mutable_hello()->set_live_events(settings.options.live_events);
      stream_->Write(hello);  // a failure shows in Read() and Finish() below
    }
    v1::RefereeMessage message;
    while (stream_->Read(&message)) Handle(message);  // the reader loop
    grpc::Status status;
    bool was_closing;
    {
      std::lock_guard<std::mutex> lock(mu_);
      status = stream_->Finish();
      stream_.reset();
      was_closing = closing_;
    }
    auto code = status.error_code();
    if (status.ok()) {
      Log("the stream ended (status OK); leaving");
      return 0;
    }
    if (const char* why = detail::FatalReason(code)) {
      std::ostringstream text;
      text << settings.server << ": " << detail::CodeName(code) << ": " << why << " (referee said: " << status.error_message() << ")";
      sdk::Log(settings.options.name, ": ", text.str());
      std::cerr << settings.options.name << ": " << text.str() << std::endl;
      return 1;
    }
    if (was_closing || runner_->Done()) return 0;
    if (code != grpc::StatusCode::UNAVAILABLE && code != grpc::StatusCode::CANCELLED && code != grpc::StatusCode::INTERNAL &&
        code != grpc::StatusCode::UNKNOWN) {
      std::cerr << settings.options.name << ": the stream ended with " << detail::CodeName(code) << ": " << status.error_message()
                << std::endl;
      return 1;
    }
    if (in_game_) Log("lost the stream during a game: the referee plays the rest of it by default");
    in_game_ = false;
    has_pending_ = false;
    failures_++;
    double d = std::min<double>(kBackoffMaxMs, kBackoffInitialMs * std::pow(2.0, std::max(0, failures_ - 1)));
    int delay = static_cast<int>(d / 2 + std::uniform_real_distribution<double>(0, d / 2)(jitter));
    Log(detail::CodeName(code), ": ", status.error_message(), "; reconnecting to ", settings.server, " in ", delay, " ms");
    std::this_thread::sleep_for(std::chrono::milliseconds(delay));
  }
}

void Seat::Handle(const v1::RefereeMessage& message) {
  Stats& stats = runner_->stats;
  switch (message.message_case()) {
    case v1::RefereeMessage::kWelcome: {
      const auto& w = message.welcome();
      failures_ = 0;
      Log("connected as ", w.name(), " (", w.bot_id(), "), referee ", w.server_version().empty() ? "?" : w.server_version());
      if (runner_->Done()) CloseIfIdle();
      break;
    }
    case v1::RefereeMessage::kGameStart: {
      game_ = message.game_start();
      {
        std::lock_guard<std::mutex> lock(mu_);
        in_game_ = true;
      }
      game_events_ = game_batched_ = game_folded_ = game_deals_ = 0;
      Log("game ", game_.game_number() + 1, "/", game_.games(), " of match ", game_.match_id(), " starts: ", game_.ruleset().preset(),
          ", seat ", game_.seat(), ", players ", detail::Join(game_.names()));
      Hook("on_game_start", bot_.on_game_start, game_, *this);
      break;
    }
    case v1::RefereeMessage::kEventBatch:
      stats.batches++;
      stats.batched_events += message.event_batch().events_size();
      game_batched_ += message.event_batch().events_size();
      for (const auto& e : message.event_batch().events()) OnEvent(e);
      break;
    case v1::RefereeMessage::kDecisionRequest: {
      const auto& request = message.decision_request();
      // The events since our previous message ride on the request; the view already reflects them.
      stats.folded_events += request.events_size();
      game_folded_ += request.events_size();
      for (const auto& e : request.events()) OnEvent(e);
      OnDecision(request);
      break;
    }
    case v1::RefereeMessage::kActionError:
      OnError(message.action_error());
      break;
    case v1::RefereeMessage::kGameEnd: {
      const auto& end = message.game_end();
      {
        std::lock_guard<std::mutex> lock(mu_);
        in_game_ = false;
      }
      has_pending_ = false;
      stats.games++;
      uint32_t refusals = 0, defaults = 0;
      if (end.seat() < static_cast<uint32_t>(end.seats_size())) {
        refusals = end.seats(static_cast<int>(end.seat())).refusals();
        defaults = end.seats(static_cast<int>(end.seat())).defaults_applied();
      }
      Log("game over", end.aborted() ? " (aborted: " + end.abort_reason() + ")" : std::string(), ": rank ", end.rank(), ", totals [",
          detail::Join(end.totals()), "], refusals ", refusals, ", defaults ", defaults, "; ", game_events_, " events (", game_batched_,
          " in EventBatches, ", game_folded_, " with decisions), ", game_deals_, " deals ended");
      Hook("on_game_end", bot_.on_game_end, end, *this);
      runner_->GameOver();
      break;
    }
    default:
      Log("ignoring an unknown message");
  }
}

void Seat::OnEvent(const v1::Event& event) {
  game_events_++;
  switch (event.kind_case()) {
    case v1::Event::kDealEnded:
      game_deals_++;
      break;
    case v1::Event::kDefaultApplied:
      Log("the referee decided turn ", event.default_applied().turn(), " for us (",
          v1::DefaultReason_Name(event.default_applied().reason()), ")");
      break;
    case v1::Event::kStrikeCounted:
      Log("strike ", event.strike_counted().strikes(), " counted (turn ", event.strike_counted().turn(), ")");
      break;
    default:
      break;
  }
  Hook("on_event", bot_.on_event, event, *this);
}

void Seat::OnDecision(const v1::DecisionRequest& request) {
  runner_->stats.decisions++;
  pending_ = request;
  has_pending_ = true;
  sent_ = false;
  v1::Action action;
  try {
    if (bot_.decide) action = bot_.decide(request, *this);
  } catch (const std::exception& e) {
    Log("the bot failed (", e.what(), "); sending the default action");
    action.Clear();
  }
  if (sent_) return;  // answered by the bot itself
  if (action.action_case() == v1::Action::ACTION_NOT_SET) action = DefaultAction(request);
  action.set_turn(request.turn());
  Send(action);
}

void Seat::OnError(const v1::ActionError& error) {
  runner_->stats.refusals++;
  Log("action refused: ", error.code(), " (turn ", error.turn(), ", retry ", error.retry() ? "true" : "false", ", strikes ",
      error.strikes(), "): ", error.message());
  Hook("on_error", bot_.on_error, error, *this);
  if (error.retry() && has_pending_ && pending_.turn() == error.turn()) {
    Log("retrying turn ", pending_.turn(), " with the default action");
    Send(DefaultAction(pending_));
  }
}

// Play with `bot` until every stream has ended: 0, or 1 when the referee refused the bot for good.
inline int Run(const Settings& settings, const Bot& bot) {
  detail::Runner runner(settings, Connect(settings));
  Log(settings.options.name, " ", settings.options.version, ": ", settings.parallel, " stream(s) to ", settings.server,
      settings.tls.on ? " over TLS" : "");
  int code = runner.Run(bot);
  const Stats& s = runner.stats;
  Log("done: ", s.games.load(), " games, ", s.decisions.load(), " decisions, ", s.refusals.load(), " refusals, ",
      s.batched_events.load(), " events in ", s.batches.load(), " batches, ", s.folded_events.load(), " events folded into decisions");
  return code;
}

// Run for a program's main(): the settings from the environment; returns the exit code: 0 when
// done, 1 when the referee refused the bot for good, 2 for bad settings (said on stderr).
inline int Main(const Bot& bot, const Options& options = {}) {
  std::ios::sync_with_stdio(false);
  Settings settings;
  try {
    settings = LoadSettings(options);
  } catch (const SettingsError& e) {
    std::cerr << options.name << ": " << e.what() << std::endl;
    return 2;
  }
  return Run(settings, bot);
}

}  // namespace mizerka::sdk
