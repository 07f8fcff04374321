// cgtb serve (tools/cmd_serve.cpp, docs/api.md): the JSON API answers as
// `cgtb query --json` does, malformed requests get clean errors, and the
// server survives a fuzz and concurrent clients.
#include <gtest/gtest.h>

#ifdef CGTB_HAVE_SERVE
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using cgtb_test::cgtb_process;
using cgtb_test::describe;
using cgtb_test::run_cgtb;
using cgtb_test::temp_dir;

#ifdef CGTB_HAVE_SERVE

/// `cgtb serve FILES --port 0` in the background, and the port it printed.
class server {
 public:
  explicit server(const std::vector<std::string>& files) : proc_(args(files)) {
    // Its stderr goes to a file of cgtb_process's; /proc names it.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    const std::string fd2 = "/proc/" + std::to_string(proc_.pid()) + "/fd/2";
    while (std::chrono::steady_clock::now() < until) {
      std::error_code ec;
      const auto target = std::filesystem::read_symlink(fd2, ec);
      if (!ec && target.filename() == "err") {
        err_path_ = target.string();
        const std::string text = cgtb_test::read_bytes(err_path_);
        const auto at = text.find("on http://127.0.0.1:");
        if (at != std::string::npos && text.find("/\n", at) != std::string::npos) {
          port_ = std::stoi(text.substr(at + 20));
          return;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  int port() const { return port_; }
  /// SIGTERM, and how it ended.
  cgtb_test::cli_result stop() {
    ::kill(proc_.pid(), SIGTERM);
    return proc_.finish();
  }
  bool alive() const { return ::kill(proc_.pid(), 0) == 0; }

 private:
  static std::vector<std::string> args(const std::vector<std::string>& files) {
    std::vector<std::string> a = {"serve"};
    a.insert(a.end(), files.begin(), files.end());
    a.push_back("--port");
    a.push_back("0");
    return a;
  }
  cgtb_process proc_;
  std::string err_path_;
  int port_ = -1;
};

std::string encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '.' || c == '-' || c == '_') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

/// Random 3x4 boards (most not reachable in a keyed table) and the start.
std::vector<std::string> boards(unsigned seed, int n) {
  std::mt19937 rng(seed);
  std::vector<std::string> v = {"..../..../....", "##../..../....", "#.../#.../...."};
  while (static_cast<int>(v.size()) < n) {
    std::string b;
    for (int r = 0; r < 3; ++r) {
      if (r) b += '/';
      for (int c = 0; c < 4; ++c) b += rng() % 3 == 0 ? '#' : '.';
    }
    v.push_back(b);
  }
  return v;
}

/// What the API should answer for a position: the CLI's JSON with 200, or
/// its error message with 400.
struct expected {
  int status;
  std::string body;  ///< the JSON, or the error message
};

expected from_cli(const std::string& file, const std::string& pos, bool options) {
  std::vector<std::string> a = {"query", file, "--json"};
  if (options) a.push_back("--options");
  a.push_back(pos);
  const auto r = run_cgtb(a);
  if (r.code == 0) return {200, r.out};
  std::string e = r.err;
  const std::string prefix = "cgtb: error: ";
  if (e.rfind(prefix, 0) == 0) e = e.substr(prefix.size());
  while (!e.empty() && e.back() == '\n') e.pop_back();
  return {400, e};
}

::testing::AssertionResult matches(const httplib::Result& res, const expected& want) {
  if (!res) return ::testing::AssertionFailure() << "no response";
  if (res->status != want.status)
    return ::testing::AssertionFailure() << "status " << res->status << " body " << res->body << ", wanted "
                                         << want.status << " " << want.body;
  if (want.status == 200) {
    if (res->body != want.body) return ::testing::AssertionFailure() << res->body << " != " << want.body;
  } else {
    const auto j = nlohmann::json::parse(res->body, nullptr, false);
    if (j.is_discarded() || !j.contains("error") || j["error"] != want.body)
      return ::testing::AssertionFailure() << res->body << " is not the error " << want.body;
  }
  return ::testing::AssertionSuccess();
}

/// One raw request over a fresh connection; the response's first bytes, or
/// "" if the server closed the connection without a response.
std::string raw_request(int port, const std::string& request) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return "";
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string got;
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    timeval tv{10, 0};
    ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::send(s, request.data(), request.size(), MSG_NOSIGNAL);
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(s, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
      if (got.size() > 64) break;
    }
  }
  ::close(s);
  return got;
}

bool valid_status_line(const std::string& r) {
  return r.size() >= 12 && r.rfind("HTTP/1.1 ", 0) == 0 && std::isdigit(static_cast<unsigned char>(r[9])) &&
         std::isdigit(static_cast<unsigned char>(r[10])) && std::isdigit(static_cast<unsigned char>(r[11]));
}

class Serve : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new temp_dir;
    cram_ = dir_->file("cram34.cgtb");
    dom_ = dir_->file("dom34.cgtb");
    ASSERT_EQ(run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", cram_}).code, 0);
    ASSERT_EQ(run_cgtb({"build", "domineering", "--board", "3x4", "-q", "-o", dom_}).code, 0);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  // This suite is compiled only where cgtb is built with serve: a serve
  // that does not answer --help is broken, and fails here.
  void SetUp() override {
    const auto r = run_cgtb({"serve", "--help"});
    ASSERT_EQ(r.code, 0) << "cgtb serve --help failed: " << describe(r);
  }
  static temp_dir* dir_;
  static std::string cram_, dom_;
};
temp_dir* Serve::dir_ = nullptr;
std::string Serve::cram_, Serve::dom_;

TEST_F(Serve, ListsAndAnswersAsTheCli) {
  server s({cram_, dom_});
  ASSERT_GT(s.port(), 0);
  httplib::Client cli("127.0.0.1", s.port());
  auto list = cli.Get("/api/tablebases");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->status, 200);
  const auto j = nlohmann::json::parse(list->body);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["name"], "cram34.cgtb");
  EXPECT_EQ(j[0]["game"], "cram");
  EXPECT_EQ(j[0]["params"], "3x4");
  EXPECT_EQ(j[1]["name"], "dom34.cgtb");
  EXPECT_EQ(j[1]["game"], "domineering");
  EXPECT_FALSE(j[0]["levels"].empty());
  EXPECT_FALSE(j[0]["values"].empty());

  int answered = 0;
  for (const auto& [file, name] : {std::pair{cram_, "cram34.cgtb"}, std::pair{dom_, "dom34.cgtb"}})
    for (const auto& pos : boards(7, 30)) {
      const std::string q = "?tb=" + std::string(name) + "&pos=" + encode(pos);
      const auto want = from_cli(file, pos, false);
      answered += want.status == 200;
      EXPECT_TRUE(matches(cli.Get(("/api/query" + q).c_str()), want)) << name << " " << pos;
      EXPECT_TRUE(matches(cli.Get(("/api/options" + q).c_str()), from_cli(file, pos, true))) << name << " " << pos;
    }
  EXPECT_GE(answered, 6);  // the fixed positions and some random ones are stored
  const auto r = s.stop();
  EXPECT_TRUE(r.exited && r.code == 0) << describe(r);
  EXPECT_NE(r.err.find("serving 2 tablebases on http://127.0.0.1:"), std::string::npos) << r.err;
}

TEST_F(Serve, BadRequestsGetJsonErrors) {
  server s({cram_});
  ASSERT_GT(s.port(), 0);
  httplib::Client cli("127.0.0.1", s.port());
  // 400 for a request the server cannot answer, 404 for a table it does not
  // serve (names outside the served set included).
  const std::vector<std::pair<std::string, int>> bad = {{"/api/query", 400},
                                                        {"/api/query?tb=nope.cgtb&pos=....", 404},
                                                        {"/api/query?tb=cram34.cgtb", 400},
                                                        {"/api/query?tb=cram34.cgtb&pos=", 400},
                                                        {"/api/query?tb=cram34.cgtb&pos=zz", 400},
                                                        {"/api/options?tb=cram34.cgtb&pos=%00", 400},
                                                        {"/api/options?pos=....", 400},
                                                        {"/api/query?tb=../cram34.cgtb&pos=..../..../....", 404},
                                                        {"/api/query?tb=%2Fetc%2Fpasswd&pos=1", 404},
                                                        {"/api/query?tb=cram34.cgtb&pos=...../...../.....", 400}};
  for (const auto& [path, status] : bad) {
    auto res = cli.Get(path.c_str());
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, status) << path << " " << res->body;
    const auto j = nlohmann::json::parse(res->body, nullptr, false);
    ASSERT_TRUE(!j.is_discarded() && j.contains("error") && j["error"].is_string()) << res->body;
    EXPECT_EQ(j["error"].get<std::string>().find('\n'), std::string::npos);
  }
  auto nf = cli.Get("/no/such/page");
  ASSERT_TRUE(nf);
  EXPECT_EQ(nf->status, 404);
  EXPECT_TRUE(nlohmann::json::parse(nf->body, nullptr, false).contains("error")) << nf->body;
  auto post = cli.Post("/api/query", "pos=....", "application/x-www-form-urlencoded");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_TRUE(nlohmann::json::parse(post->body, nullptr, false).contains("error")) << post->body;
  auto page = cli.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<script>"), std::string::npos);
  EXPECT_EQ(page->body.find("http://"), std::string::npos);  // nothing fetched from elsewhere
  EXPECT_EQ(page->body.find("https://"), std::string::npos);
  EXPECT_TRUE(
      matches(cli.Get("/api/query?tb=cram34.cgtb&pos=....%2F....%2F...."), from_cli(cram_, "..../..../....", false)));
  const auto r = s.stop();
  EXPECT_TRUE(r.exited && r.code == 0) << describe(r);
}

TEST_F(Serve, FuzzedRequestsGetHttpResponses) {
  server s({cram_});
  ASSERT_GT(s.port(), 0);
  std::mt19937 rng(2024);
  auto byte = [&](int lo, int hi) { return static_cast<char>(lo + static_cast<int>(rng() % (hi - lo + 1))); };
  const std::vector<std::string> prefixes = {
      "/", "/api/", "/api/query?", "/api/options?", "/api/tablebases?", "/api/query?tb=cram34.cgtb&pos="};
  int responses = 0;
  for (int i = 0; i < 500; ++i) {
    std::string target = prefixes[rng() % prefixes.size()];
    const int n = static_cast<int>(rng() % 40);
    for (int k = 0; k < n; ++k) {
      const int kind = static_cast<int>(rng() % 4);
      if (kind == 0) {  // a raw byte, no space or control character
        target += byte(0x21, 0x7e);
      } else if (kind == 1) {  // a percent-encoded random byte
        target += encode(std::string(1, byte(0, 255)));
      } else if (kind == 2) {
        target += "=&%"[rng() % 3];
      } else {
        target += byte(0x80, 0xff);
      }
    }
    std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (i % 100 == 99) req += "X-Big: " + std::string(200000, 'a') + "\r\n";  // oversized header
    req += "\r\n";
    const std::string got = raw_request(s.port(), req);
    if (got.empty()) continue;  // the server may close a connection it will not read
    EXPECT_TRUE(valid_status_line(got)) << "request " << i << ": " << got;
    ++responses;
  }
  EXPECT_GE(responses, 490);
  ASSERT_TRUE(s.alive());
  httplib::Client cli("127.0.0.1", s.port());
  EXPECT_TRUE(
      matches(cli.Get("/api/query?tb=cram34.cgtb&pos=..../..../...."), from_cli(cram_, "..../..../....", false)));
  const auto r = s.stop();
  EXPECT_TRUE(r.exited && r.code == 0) << describe(r);
}

TEST_F(Serve, ConcurrentClientsGetCorrectAnswers) {
  server s({cram_, dom_});
  ASSERT_GT(s.port(), 0);
  const auto positions = boards(11, 12);
  std::map<std::string, expected> want;
  for (const auto& p : positions) {
    want["cram34.cgtb " + p] = from_cli(cram_, p, false);
    want["dom34.cgtb " + p] = from_cli(dom_, p, false);
  }
  std::atomic<int> wrong{0}, done{0};
  std::vector<std::thread> clients;
  const auto t0 = std::chrono::steady_clock::now();
  for (int c = 0; c < 16; ++c)
    clients.emplace_back([&, c] {
      httplib::Client cli("127.0.0.1", s.port());
      cli.set_keep_alive(true);
      for (int round = 0; round < 5; ++round)
        for (std::size_t i = 0; i < positions.size(); ++i) {
          const std::string name = (i + static_cast<std::size_t>(c)) % 2 ? "cram34.cgtb" : "dom34.cgtb";
          const auto& p = positions[(i + static_cast<std::size_t>(c) * 5) % positions.size()];
          if (!matches(cli.Get(("/api/query?tb=" + name + "&pos=" + encode(p)).c_str()), want.at(name + " " + p)))
            ++wrong;
          ++done;
        }
    });
  for (auto& t : clients) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(done.load(), 16 * 5 * static_cast<int>(positions.size()));
  std::cout << "[serve] " << done.load() << " requests from 16 clients in " << secs << " s ("
            << static_cast<int>(done.load() / secs) << " requests/s)\n";
  const auto r = s.stop();
  EXPECT_TRUE(r.exited && r.code == 0) << describe(r);
}

#else

TEST(Serve, BuiltWithoutServe) { GTEST_SKIP() << "cgtb was built without cpp-httplib: no serve command"; }

#endif

}  // namespace
