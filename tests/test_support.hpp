// Helpers shared by the test suites: temporary folders, building Cram
// tablebases through the real driver and writer, running the cgtb tool.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cgtb/driver.hpp"

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

inline std::string board_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

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

/// Runs CGTB_BINARY with `args` (each quoted), stdin from `stdin_text`.
inline cli_result run_cgtb(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  temp_dir io;
  write_bytes(io.file("in"), stdin_text);
  std::string cmd = shell_quote(CGTB_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " <" + shell_quote(io.file("in")) + " >" + shell_quote(io.file("out")) + " 2>" + shell_quote(io.file("err"));
  const int status = std::system(cmd.c_str());
  cli_result r;
  // /bin/sh reports a child killed by signal N as exit status 128 + N.
  r.exited = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) < 128;
  r.code = r.exited ? WEXITSTATUS(status) : -1;
  r.out = read_bytes(io.file("out"));
  r.err = read_bytes(io.file("err"));
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

}  // namespace cgtb_test
