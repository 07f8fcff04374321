// cgtb serve FILE...: a web explorer and a JSON API over tablebases
// (docs/api.md). Serves only the files named on its command line; no path
// from a request reaches the file system.
// The request line is refused (414) past what a ?pos= of the longest position
// cgtb reads takes, percent-encoded (three characters a character), beside
// the path and ?tb=.
#include "cgtb/front_end.hpp"
#define CPPHTTPLIB_REQUEST_URI_MAX_LENGTH (3 * cgtb::kMaxPositionChars + 4096)
#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cxxopts.hpp>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/front_end.hpp"
#include "cgtb/tablebase.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "serve_page.hpp"

namespace cgtb::tools {
namespace {

/// One open tablebase. cgtb::tablebase is not thread-safe: every use of `tb`
/// and `drv` holds `mu`.
struct served_table {
  std::string name;  ///< the file's base name, as requests name it
  std::unique_ptr<tablebase> tb;
  std::unique_ptr<game_driver> drv;
  nlohmann::json info;  ///< its entry of /api/tablebases
  std::mutex mu;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

nlohmann::json describe(const served_table& t) {
  const auto& h = t.tb->header();
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& l : t.tb->levels()) levels.push_back({{"level", l.level}, {"stored", l.positions}});
  return {{"name", t.name},
          {"game", h.ruleset},
          {"params", h.params},
          {"family", h.family},
          {"values", split_commas(h.values)},
          {"positions", h.positions},
          {"symmetry", h.symmetry},
          {"levels", levels}};
}

void send_error(httplib::Response& res, int status, const std::string& msg) {
  res.status = status;
  res.set_content(json_text(nlohmann::json{{"error", one_line(msg)}}) + "\n", "application/json");
}

/// The table a request names in ?tb=, or nullptr after answering 400 (no
/// ?tb=) or 404 (no table of that name is served).
served_table* table_of(const std::map<std::string, std::unique_ptr<served_table>>& tables, const httplib::Request& req,
                       httplib::Response& res) {
  if (!req.has_param("tb")) {
    send_error(res, 400, "missing parameter 'tb' (a tablebase name from /api/tablebases)");
    return nullptr;
  }
  const std::string name = req.get_param_value("tb");
  auto it = tables.find(name);
  if (it == tables.end()) {
    send_error(res, 404, "unknown tablebase '" + name + "' (see /api/tablebases)");
    return nullptr;
  }
  return it->second.get();
}

/// Answers ?tb=NAME&pos=POSITION with what `cgtb query --json` (options:
/// `cgtb query --options --json`) prints for it.
void answer_position(const std::map<std::string, std::unique_ptr<served_table>>& tables, const httplib::Request& req,
                     httplib::Response& res, bool options) {
  served_table* t = table_of(tables, req, res);
  if (!t) return;
  if (!req.has_param("pos")) {
    send_error(res, 400, "missing parameter 'pos' (a position, as cgtb query takes it)");
    return;
  }
  try {
    const std::string text = clean_position_text(req.get_param_value("pos"));
    if (text.empty()) throw input_error("empty position");
    std::ostringstream out;
    {
      std::lock_guard<std::mutex> lock(t->mu);
      const position_ref ref = t->drv->parse(text);
      if (options)
        t->drv->list_options(*t->tb, ref, true, out);
      else
        t->drv->query(*t->tb, ref, true, out);
    }
    res.status = 200;
    res.set_content(out.str(), "application/json");
  } catch (const input_error& e) {
    send_error(res, 400, e.what());
  } catch (const std::exception& e) {
    send_error(res, 500, e.what());
  }
}

std::string url_host(const std::string& host) { return host.find(':') != std::string::npos ? "[" + host + "]" : host; }

}  // namespace

int cmd_serve(int argc, char** argv) {
  cxxopts::Options o = command_options("serve");
  o.custom_help("[OPTION...] FILE...");
  o.add_options()("host", "address to listen on", cxxopts::value<std::string>()->default_value("127.0.0.1"))(
      "port", "port to listen on (0: a free one, printed on stderr)", cxxopts::value<int>()->default_value("8080"))(
      "cache-mb", "decompressed-block cache size per tablebase in MB",
      cxxopts::value<std::size_t>()->default_value("256"));
  auto r = tools::parse_or_help(o, argc, argv,
                                "\nAPI: /api/tablebases, /api/query?tb=NAME&pos=POSITION,\n"
                                "/api/options?tb=NAME&pos=POSITION; the explorer at /. NAME is a file's base name.\n");
  // The files arrive unmatched (a positional vector counts as an option given
  // once per file, which parse_or_help refuses).
  const std::vector<std::string> files = r.unmatched();
  if (files.empty()) throw input_error("serve needs at least one tablebase file (cgtb serve FILE...)");
  const int port = r["port"].as<int>();
  if (port < 0 || port > 65535) throw input_error("--port must be 0 to 65535");
  const std::string host = r["host"].as<std::string>();
  const std::size_t cache = r["cache-mb"].as<std::size_t>() << 20;

  std::map<std::string, std::unique_ptr<served_table>> tables;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& path : files) {
    auto t = std::make_unique<served_table>();
    t->name = std::filesystem::path(path).filename().string();
    if (tables.count(t->name))
      throw input_error("two files named '" + t->name + "': requests name tablebases by their base names");
    t->tb = std::make_unique<tablebase>(path, cache);
    t->drv = driver_for_header(t->tb->header());
    t->info = describe(*t);
    list.push_back(t->info);
    tables.emplace(t->name, std::move(t));
  }
  const std::string list_json = json_text(list) + "\n";

  // SIGINT and SIGTERM are blocked in every thread (the server's threads
  // inherit the mask) and taken by sigwait below, which stops the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);

  httplib::Server svr;
  svr.set_payload_max_length(1 << 20);
  svr.set_tcp_nodelay(true);  // small answers go out at once, not after a delayed ACK
  // A keep-alive connection holds a worker until it closes: enough workers
  // that a few dozen browsers or scripts do not wait on each other (the
  // tablebases' mutexes serialize the lookups themselves), and connections
  // kept for up to 1000 requests rather than httplib's 5, since every
  // reconnection goes through a listen backlog of 5 that a few dozen clients
  // overflow (a dropped SYN waits a second). With 32 workers and 5 requests a
  // connection, wrk's 64 connections saw a p99 of 0.8 s; with 128 and 1000,
  // 12 ms (docs/performance.md).
  svr.new_task_queue = [] { return new httplib::ThreadPool(128); };
  svr.set_keep_alive_max_count(1000);
  svr.Get("/api/tablebases",
          [&](const httplib::Request&, httplib::Response& res) { res.set_content(list_json, "application/json"); });
  svr.Get("/api/query",
          [&](const httplib::Request& req, httplib::Response& res) { answer_position(tables, req, res, false); });
  svr.Get("/api/options",
          [&](const httplib::Request& req, httplib::Response& res) { answer_position(tables, req, res, true); });
  svr.Get("/", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(tools::kServePage, "text/html; charset=utf-8");
  });
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string msg = "internal error";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      msg = e.what();
    } catch (...) {
    }
    send_error(res, 500, msg);
  });
  svr.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 404 && req.method != "GET" && req.method != "HEAD")
      send_error(res, 405, "method " + req.method + " not allowed (the API answers GET)");
    else if (res.status == 404)
      send_error(res, 404, "no such page '" + req.path + "' (the API: /api/tablebases, /api/query, /api/options)");
    else
      send_error(res, res.status, "bad request (HTTP " + std::to_string(res.status) + ")");
  });

  int bound = port;
  if (port == 0) {
    bound = svr.bind_to_any_port(host);
    if (bound <= 0) throw input_error("cannot listen on " + host + " (a free port)");
  } else if (!svr.bind_to_port(host, port)) {
    throw input_error("cannot listen on " + url_host(host) + ":" + std::to_string(port));
  }
  std::cerr << "[cgtb] serving " << tables.size() << " tablebase" << (tables.size() == 1 ? "" : "s") << " on http://"
            << url_host(host) << ":" << bound << "/" << std::endl;

  std::thread server([&] {
    if (!svr.listen_after_bind()) ::kill(::getpid(), SIGTERM);  // wakes sigwait below
  });
  int sig = 0;
  sigwait(&stop_signals, &sig);
  svr.stop();
  server.join();
  std::cerr << "[cgtb] stopped (" << (sig == SIGINT ? "SIGINT" : "SIGTERM") << ")" << std::endl;
  return 0;
}

}  // namespace cgtb::tools
