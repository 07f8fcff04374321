// Helpers shared by the test suites: temporary folders, solving a game in
// memory, building Cram tablebases through the real driver and writer,
// running the cgtb tool.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/verify.hpp"

namespace cgtb_test {

namespace fs = std::filesystem;

/// A fresh folder under the system temporary folder, removed with its
/// contents when the object goes out of scope.
class temp_dir {
 public:
  temp_dir() {
    std::string tmpl = (fs::temp_directory_path() / "cgtb-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const fs::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

/// Every record of a solve on the CPU backend, by level then rank
/// (`threads` 0: all cores).
template <class Game, class Rule>
std::map<int, std::vector<typename Rule::record>> solve_all(const Game& g, int threads = 0) {
  std::map<int, std::vector<typename Rule::record>> out;
  cgtb::solve_options o;
  o.threads = threads;
  cgtb::solve<Game, Rule>(g, o,
                          [&](const cgtb::level_report& rep, const cgtb::level_records<typename Rule::record>& rec) {
                            for (std::uint64_t i = 0; i < rep.positions; ++i) out[rep.level].push_back(rec[i]);
                          });
  return out;
}

inline std::string board_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

/// Checks a table the suite built with cgtb verify (cgtb/verify.hpp): in full
/// up to 1,000,000 stored positions, else 200 sampled positions per level.
/// Every successful build of the suite goes through it (run_cgtb and
/// build_cram call it), so every table a test reads is also verified.
inline void expect_verified(const std::string& path) {
  std::uint64_t stored = 0;
  {
    cgtb::tablebase tb(path, 0);
    for (const auto& le : tb.levels()) stored += le.positions;
  }
  cgtb::verify_options opt;
  if (stored > 1000000) opt.sample = 200;
  const cgtb::verify_report rep = cgtb::verify_tablebase(path, opt);
  EXPECT_EQ(rep.failure, "") << "cgtb verify " << path;
}

/// Builds a Cram tablebase through the registered driver (the path `cgtb
/// build` takes: solver, writer, atomic rename) without progress lines.
inline void build_cram(int rows, int cols, const std::string& values, const std::string& path,
                       std::uint32_t block_entries = 4096) {
  auto drv = cgtb::find_game("cram").from_params(board_text(rows, cols));
  cgtb::build_request req;
  req.values = values;
  req.output = path;
  req.progress = false;
  req.block_entries = block_entries;
  drv->build(req);
  expect_verified(path);
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Writes a file afresh. An existing file is removed first rather than
/// truncated: ext4 flushes a truncated-and-rewritten file to disk
/// (auto_da_alloc), which makes sweeps that rewrite one file slow.
inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::error_code ec;
  fs::remove(path, ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

/// Quotes a word for /bin/sh.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// What one run of the cgtb tool did.
struct cli_result {
  bool exited = false;  ///< ended by exit(), not by a signal
  int code = -1;        ///< exit status when exited
  std::string out, err;
  std::vector<std::string> err_lines() const {
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }
};

/// The output file of `cgtb build` arguments (-o/--output), or "".
inline std::string build_output(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "build") return "";
  std::string out;
  for (std::size_t i = 1; i + 1 < args.size(); ++i)
    if (args[i] == "-o" || args[i] == "--output") out = args[i + 1];
  return out;
}

/// Runs CGTB_BINARY with `args` (each quoted), stdin from `stdin_text`;
/// behind the words of `launcher` (e.g. mpirun -np 2) where given.
inline cli_result run_cgtb(const std::vector<std::string>& args, const std::string& stdin_text = "",
                           const std::vector<std::string>& launcher = {}) {
  temp_dir io;
  write_bytes(io.file("in"), stdin_text);
  std::string cmd;
  for (const auto& w : launcher) cmd += shell_quote(w) + " ";
  cmd += shell_quote(CGTB_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " <" + shell_quote(io.file("in")) + " >" + shell_quote(io.file("out")) + " 2>" + shell_quote(io.file("err"));
  const int status = std::system(cmd.c_str());
  cli_result r;
  // /bin/sh reports a child killed by signal N as exit status 128 + N.
  r.exited = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) < 128;
  r.code = r.exited ? WEXITSTATUS(status) : -1;
  r.out = read_bytes(io.file("out"));
  r.err = read_bytes(io.file("err"));
  const std::string built = r.code == 0 ? build_output(args) : "";
  if (!built.empty() && fs::is_regular_file(built)) expect_verified(built);
  return r;
}

/// Text for failure messages.
inline std::string describe(const cli_result& r) {
  return "exit " + std::to_string(r.code) + (r.exited ? "" : " (signal)") + "\n--- stdout:\n" + r.out +
         "--- stderr:\n" + r.err;
}

/// The clean-error contract of the tool: a non-zero exit (not a signal) and
/// exactly one line on stderr, starting "cgtb: error:".
inline ::testing::AssertionResult is_clean_error(const cli_result& r) {
  auto lines = r.err_lines();
  if (!r.exited) return ::testing::AssertionFailure() << "killed by a signal: " << describe(r);
  if (r.code == 0) return ::testing::AssertionFailure() << "exit status 0: " << describe(r);
  if (lines.size() != 1) return ::testing::AssertionFailure() << lines.size() << " lines on stderr: " << describe(r);
  if (lines[0].rfind("cgtb: error: ", 0) != 0)
    return ::testing::AssertionFailure() << "stderr does not start with 'cgtb: error: ': " << describe(r);
  return ::testing::AssertionSuccess();
}

/// is_clean_error, and nothing answered on stdout (a refused query or
/// command gives no partial answer).
inline ::testing::AssertionResult is_clean_refusal(const cli_result& r) {
  auto e = is_clean_error(r);
  if (!e) return e;
  if (!r.out.empty()) return ::testing::AssertionFailure() << "answered on stdout: " << describe(r);
  return ::testing::AssertionSuccess();
}

/// is_clean_error, and the error line holds every one of `phrases`.
inline ::testing::AssertionResult is_clean_error_saying(const cli_result& r,
                                                        std::initializer_list<const char*> phrases) {
  auto e = is_clean_error(r);
  if (!e) return e;
  for (const char* p : phrases)
    if (r.err.find(p) == std::string::npos) return ::testing::AssertionFailure() << "no '" << p << "' in: " << r.err;
  return ::testing::AssertionSuccess();
}

/// What a folder holds, one line per entry, sorted: name, type, size and
/// modification time (and a link's target), to check that a failed command
/// changed nothing else there.
inline std::vector<std::string> folder_state(const std::string& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir)) {
    struct stat st;
    if (::lstat(e.path().c_str(), &st) != 0) continue;
    std::string line = e.path().filename().string() + " mode " + std::to_string(st.st_mode) + " size " +
                       std::to_string(st.st_size) + " mtime " + std::to_string(st.st_mtim.tv_sec) + "." +
                       std::to_string(st.st_mtim.tv_nsec);
    if (S_ISLNK(st.st_mode)) line += " -> " + fs::read_symlink(e.path()).string();
    v.push_back(line);
  }
  std::sort(v.begin(), v.end());
  return v;
}

/// CGTB_BINARY with `args` running in the background: its stdin and stdout
/// are pipes the test writes and reads, stderr goes to a file. `in_child`
/// runs in the child between fork and exec (only async-signal-safe calls
/// there: setrlimit, signal, ...). The destructor kills (SIGKILL) and reaps a
/// process still running.
class cgtb_process {
 public:
  explicit cgtb_process(const std::vector<std::string>& args, void (*in_child)() = nullptr) {
    ::signal(SIGPIPE, SIG_IGN);  // a write to the stdin of a process that ended fails with EPIPE instead
    std::vector<std::string> words = {CGTB_BINARY};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const std::string err = io_.file("err");
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || ::dup2(in[0], 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(fd, 2) < 0) ::_exit(126);
      for (int f : {in[0], in[1], out[0], out[1], fd}) ::close(f);
      ::signal(SIGPIPE, SIG_DFL);
      if (in_child) in_child();
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    in_ = in[1];
    out_ = out[0];
  }
  ~cgtb_process() {
    if (in_ >= 0) ::close(in_);
    if (out_ >= 0) ::close(out_);
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      int status;
      ::waitpid(pid_, &status, 0);
    }
  }
  cgtb_process(const cgtb_process&) = delete;
  cgtb_process& operator=(const cgtb_process&) = delete;

  pid_t pid() const { return pid_; }
  /// Writes to the process's stdin; false when it has closed it (ended).
  bool send(const std::string& text) {
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  /// The next line of its stdout (without the line break); false at the end
  /// of its output or after `timeout_ms` without a whole line.
  bool read_line(std::string& line, int timeout_ms = 60000) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      const auto nl = pending_.find('\n');
      if (nl != std::string::npos) {
        line = pending_.substr(0, nl);
        pending_.erase(0, nl + 1);
        return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      struct pollfd p = {out_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      pending_.append(buf, static_cast<std::size_t>(n));
    }
  }
  /// Closes its stdin, reads the rest of its stdout and waits for it to end
  /// (killing it after `timeout_ms`): what it printed from then on and how it
  /// ended, as run_cgtb reports it.
  cli_result finish(int timeout_ms = 120000) {
    if (in_ >= 0) ::close(in_);
    in_ = -1;
    cli_result r;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        ::kill(pid_, SIGKILL);
        break;
      }
      struct pollfd p = {out_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      pending_.append(buf, static_cast<std::size_t>(n));
    }
    int status = 0;
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
    r.exited = WIFEXITED(status);
    r.code = r.exited ? WEXITSTATUS(status) : -1;
    r.out = pending_;
    pending_.clear();
    r.err = read_bytes(io_.file("err"));
    return r;
  }

 private:
  temp_dir io_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  bool reaped_ = false;
  std::string pending_;
};

}  // namespace cgtb_test
