#include "cgtb/progress.hpp"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <vector>

namespace cgtb {

namespace {

/// stderr, a line at a time under one lock; on a terminal a status line is
/// written after a carriage return and cleared to the end of the line, and
/// stays when a line follows it (the line goes below).
class stderr_sink final : public progress_sink {
 public:
  stderr_sink() : tty_(::isatty(2) != 0) {}
  void line(const std::string& text) override {
    std::lock_guard<std::mutex> g(mu_);
    if (open_) std::fputc('\n', stderr);
    std::fputs(text.c_str(), stderr);
    std::fputc('\n', stderr);
    open_ = false;
    std::fflush(stderr);
  }
  void status(const std::string& text) override {
    if (!tty_) return line(text);
    std::lock_guard<std::mutex> g(mu_);
    std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
    open_ = true;
    std::fflush(stderr);
  }
  bool rewrites() const override { return tty_; }

 private:
  const bool tty_;
  std::mutex mu_;
  bool open_ = false;  ///< a status line stands on the terminal
};

}  // namespace

progress_sink& stderr_progress() {
  static stderr_sink sink;
  return sink;
}

void progress_line(progress_sink* sink, const char* format, ...) {
  if (!sink) return;
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::vector<char> buf(static_cast<std::size_t>(n > 0 ? n : 0) + 1);
  std::vsnprintf(buf.data(), buf.size(), format, again);
  va_end(again);
  std::string text(buf.data());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  sink->line(text);
}

}  // namespace cgtb
