#include "cgtb/games/cricket_pitch.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace cgtb {

cricket_pitch::cricket_pitch(int length, int max_bump) : length_(length), h_(max_bump), stride_(0) {
  if (length < 1 || length > kCricketMaxLength)
    throw input_error("--length " + std::to_string(length) + " is out of range (1 to " +
                      std::to_string(kCricketMaxLength) + ")");
  if (max_bump < 0 || max_bump > kCricketMaxBump)
    throw input_error("--max-bump " + std::to_string(max_bump) + " is out of range (0 to " +
                      std::to_string(kCricketMaxBump) + ")");
  const int n = length - 1;
  stride_ = n * h_ + 1;
  const std::size_t rows = static_cast<std::size_t>(n) + 1, st = static_cast<std::size_t>(stride_);
  table_.assign(2 * rows * st, 0);
  const std::uint64_t limit = (1ull << 62) / static_cast<std::uint64_t>(length);
  table_[0] = 1;  // N(0, 0) = 1
  for (std::size_t k = 1; k < rows; ++k)
    for (std::size_t s = 0; s < st; ++s) {
      std::uint64_t c = 0;
      for (std::size_t v = 0; v <= static_cast<std::size_t>(h_) && v <= s; ++v) {
        c += table_[(k - 1) * st + s - v];
        if (c >= limit)
          throw input_error("cricket-pitch with length " + std::to_string(length) +
                            " and bumps <= " + std::to_string(max_bump) + " has a level of 2^62 positions or more");
      }
      table_[k * st + s] = c;
    }
  for (std::size_t k = 0; k < rows; ++k) {
    std::uint64_t run = 0;
    for (std::size_t s = 0; s < st; ++s) {
      run += table_[k * st + s];
      table_[(rows + k) * st + s] = run;
    }
  }
}

cricket_pitch cricket_pitch::from_params(const std::string& params) {
  auto bad = [&] {
    return input_error("cricket-pitch parameters '" + params + "' are not of the form L<length>-h<max bump>");
  };
  auto dash = params.find('-');
  if (params.size() < 5 || params[0] != 'L' || dash == std::string::npos || dash + 1 >= params.size() ||
      params[dash + 1] != 'h')
    throw bad();
  std::string a = params.substr(1, dash - 1), b = params.substr(dash + 2);
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 3 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(a) || !digits(b)) throw bad();
  return cricket_pitch(std::atoi(a.c_str()), std::atoi(b.c_str()));
}

std::string cricket_pitch::params() const { return "L" + std::to_string(length_) + "-h" + std::to_string(h_); }

std::vector<int> cricket_pitch::levels() const {
  std::vector<int> l;
  for (int s = 0; s < stride_; ++s) l.push_back(s);
  return l;
}

int cricket_pitch::level_of(const position& p) const {
  int s = 0;
  for (int i = 0; i < length_ - 1; ++i) s += p.bump[i];
  return s;
}

cricket_pitch::position cricket_pitch::parse(const std::string& text) const {
  // Split into places: bracket form "[a,b,R,c]" or compact "abRc".
  std::vector<std::string> places;
  std::string t;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) t += ch;
  if (t.empty()) throw input_error("empty Cricket Pitch position (write e.g. [1,0,2,1,R,2,3] or 1021R23)");
  if (t.front() == '[') {
    if (t.back() != ']') throw input_error("position '" + text + "' opens '[' but does not end with ']'");
    std::string item;
    for (std::size_t i = 1; i + 1 < t.size(); ++i) {
      if (t[i] == ',') {
        places.push_back(item);
        item.clear();
      } else {
        item += t[i];
      }
    }
    places.push_back(item);
  } else {
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '-') {  // keep a sign with its digit so the error names it
        places.push_back(t.substr(i, 2));
        ++i;
      } else {
        places.push_back(std::string(1, t[i]));
      }
    }
  }
  const auto rollers_in =
      std::count_if(places.begin(), places.end(), [](const std::string& x) { return x == "R" || x == "r"; });
  if (rollers_in == 0) throw input_error("position '" + text + "' has no roller R");
  if (rollers_in > 1)
    throw input_error("position '" + text + "' has " + std::to_string(rollers_in) +
                      " rollers R; a board has exactly one");
  if (static_cast<int>(places.size()) > length_)
    throw input_error("position '" + text + "' has " + std::to_string(places.size()) +
                      " places; this table holds boards of length <= " + std::to_string(length_));
  position p{};
  int rollers = 0, bumps = 0;
  for (const auto& s : places) {
    if (s == "R" || s == "r") {
      if (++rollers > 1)
        throw input_error("position '" + text + "' has more than one roller R; a board has exactly one");
      p.roller = static_cast<std::uint8_t>(bumps);
      continue;
    }
    if (s.empty()) throw input_error("position '" + text + "' has an empty place (write a bump or R between commas)");
    const bool neg = s[0] == '-';
    const std::string digits = neg ? s.substr(1) : s;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
      throw input_error("position '" + text + "': '" + s + "' is neither a bump (a number) nor the roller R");
    if (neg) throw input_error("position '" + text + "' has a negative bump " + s + "; bumps are >= 0");
    const long v = digits.size() > 4 ? 100000 : std::atol(digits.c_str());
    if (v > h_)
      throw input_error("position '" + text + "' has a bump " + digits + " above this table's maximum bump " +
                        std::to_string(h_));
    if (bumps >= length_ - 1)
      throw input_error("position '" + text + "' has more than " + std::to_string(length_ - 1) +
                        " bumps; this table holds boards of length <= " + std::to_string(length_));
    p.bump[bumps++] = static_cast<std::uint8_t>(v);
  }
  if (rollers == 0) throw input_error("position '" + text + "' has no roller R");
  return p;
}

std::string cricket_pitch::format(const position& p) const {
  int last = p.roller;  // print up to the last non-zero bump right of the roller
  for (int i = p.roller; i < length_ - 1; ++i)
    if (p.bump[i]) last = i + 1;
  std::string s = "[";
  for (int i = 0; i <= last; ++i) {
    if (i) s += ',';
    if (i < p.roller)
      s += std::to_string(p.bump[i]);
    else if (i == p.roller)
      s += 'R';
    else
      s += std::to_string(p.bump[i - 1]);
  }
  return s + "]";
}

std::vector<cricket_pitch::move> cricket_pitch::left_moves(const position& p) const {
  std::vector<move> out;
  position q = p;
  for (int k = 1; p.roller - k >= 0 && q.bump[p.roller - k] > 0; ++k) {
    --q.bump[p.roller - k];
    q.roller = static_cast<std::uint8_t>(p.roller - k);
    out.push_back({true, k, q});
  }
  return out;
}

std::vector<cricket_pitch::move> cricket_pitch::right_moves(const position& p) const {
  std::vector<move> out;
  position q = p;
  for (int k = 1; p.roller + k - 1 < length_ - 1 && q.bump[p.roller + k - 1] > 0; ++k) {
    --q.bump[p.roller + k - 1];
    q.roller = static_cast<std::uint8_t>(p.roller + k);
    out.push_back({false, k, q});
  }
  return out;
}

cricket_pitch::position cricket_pitch::reduce(const position& p) const {
  int lo = p.roller, hi = p.roller;  // bumps lo..hi-1 form the reachable runs
  while (lo > 0 && p.bump[lo - 1] > 0) --lo;
  while (hi < length_ - 1 && p.bump[hi] > 0) ++hi;
  position q{};
  for (int i = lo; i < hi; ++i) q.bump[i - lo] = p.bump[i];
  q.roller = static_cast<std::uint8_t>(p.roller - lo);
  return q;
}

}  // namespace cgtb
