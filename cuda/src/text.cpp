#include "cgtb/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "cgtb/error.hpp"

namespace cgtb {

/// Parses a signed decimal integer; throws input_error naming `what`.
long parse_integer(const std::string& s, const std::string& what, long lo, long hi) {
  if (s.empty() || s.find_first_not_of("+-0123456789") != std::string::npos)
    throw input_error(what + " '" + s + "' is not an integer");
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (errno || *end || v < lo || v > hi)
    throw input_error(what + " '" + s + "' is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return v;
}

std::pair<int, int> parse_dimensions(const std::string& text, const std::string& what, const std::string& example) {
  const auto x = text.find_first_of("xX");
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 3 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (x == std::string::npos || !digits(text.substr(0, x)) || !digits(text.substr(x + 1)))
    throw input_error(what + " '" + text + "' is not of the form ROWSxCOLS (e.g. " + example + ")");
  return {std::atoi(text.substr(0, x).c_str()), std::atoi(text.substr(x + 1).c_str())};
}

std::vector<std::string> split_text(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

std::string board_text(int rows, int cols, std::uint64_t empty) {
  std::string s;
  for (int r = 0; r < rows; ++r) {
    if (r) s += '/';
    for (int c = 0; c < cols; ++c) s += (empty >> (r * cols + c)) & 1 ? '.' : '#';
  }
  return s;
}

std::string no_winning_moves_text(bool n_position) {
  return n_position ? "none (no move: the player to move wins)" : "none";
}

std::string move_list_text(const std::vector<std::string>& moves, std::size_t limit, const std::string& sep) {
  if (limit == 0 && !moves.empty()) return "(" + std::to_string(moves.size()) + " not listed)";
  std::string s;
  const std::size_t n = std::min(limit, moves.size());
  for (std::size_t i = 0; i < n; ++i) s += (i ? sep : "") + moves[i];
  if (n < moves.size()) s += " (and " + std::to_string(moves.size() - n) + " more)";
  return s;
}

std::string count_text(unsigned long long n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string bytes_text(double b) {
  char buf[32];
  if (b >= 1e15)
    std::snprintf(buf, sizeof buf, "%.2f PB", b / 1e15);
  else if (b >= 1e12)
    std::snprintf(buf, sizeof buf, "%.2f TB", b / 1e12);
  else if (b >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  return buf;
}

std::string duration_text(double s) {
  char buf[64];
  if (s < 10)
    std::snprintf(buf, sizeof buf, "%.2f s", s);
  else if (s < 60)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld h %02d min", static_cast<long long>(s / 3600),
                  static_cast<int>(std::fmod(s, 3600.0) / 60));
  return buf;
}

std::string cell_name(int cell, int cols) {
  return std::string(1, static_cast<char>('a' + cell % cols)) + std::to_string(cell / cols + 1);
}

}  // namespace cgtb
