// Heaps of octal games with no table as sum components: terms
// `octal:CODE:HEAPS` (component_source.hpp, cgtb/games/octal.hpp).
#include <algorithm>
#include <cctype>

#include "cgtb/error.hpp"
#include "cgtb/games/octal.hpp"
#include "component_source.hpp"

namespace cgtb::misere_detail {

namespace {

/// Largest heap of an `octal:` term (a heap of n has up to about n^2/4
/// options, made once per heap size).
constexpr int kMaxOctalHeap = 4096;
/// Octal heaps of up to this many beans get their genus searched the first
/// time a shortcut asks; larger ones are searched without it.
constexpr std::uint64_t kHeapGenusBeans = 24;

/// The code of a heap of n beans of the octal code numbered `code`.
constexpr component octal_component(unsigned code, int n) {
  return pack(kOctalFile, static_cast<int>(code), static_cast<std::uint64_t>(n));
}

class octal_heap_source;

/// A term `octal:CODE:HEAPS`: the code's number and the heaps as written.
class octal_term final : public sum_term {
 public:
  explicit octal_term(octal_heap_source& src) : src_(src) {}
  unsigned code = 0;
  std::vector<int> heaps;
  void for_each_move(const term_move_fn& f) override;

 private:
  octal_heap_source& src_;
};

/// Heaps of octal games (cgtb/games/take_break.hpp) with no table: options
/// by the code's moves (a move may leave two heaps), nothing stored; the
/// search finds Grundy values and, for heaps of up to kHeapGenusBeans beans,
/// the genus. Up to 256 codes per solver, numbered as they are met.
class octal_heap_source final : public component_source {
 public:
  explicit octal_heap_source(has_move_fn has_move) : has_move_(std::move(has_move)) {}

  bool accepts(const std::string& raw) const override { return raw.rfind("octal:", 0) == 0; }

  /// HEAPS is one heap size or several joined by ','. Throws input_error for
  /// a malformed term or code, a heap past kMaxOctalHeap, or a 257th code.
  std::unique_ptr<sum_term> parse(const std::string& raw) override {
    auto t = std::make_unique<octal_term>(*this);
    t->text = raw;
    const std::size_t colon = raw.find(':', 6);
    if (colon == std::string::npos)
      throw input_error("octal term '" + raw + "' is not octal:CODE:HEAPS (e.g. octal:0.07:5 or octal:0.77:3,4)");
    const take_break code = take_break::parse_octal(raw.substr(6, colon - 6));
    t->code = number_of(code);
    const std::string list = raw.substr(colon + 1);
    std::size_t i = 0;
    do {
      const std::size_t j = std::min(list.find(',', i), list.size());
      const std::string h = list.substr(i, j - i);
      if (h.empty() || h.size() > 4 ||
          !std::all_of(h.begin(), h.end(), [](unsigned char c) { return std::isdigit(c); }) ||
          std::stoi(h) > kMaxOctalHeap)
        throw input_error("octal term '" + raw + "': '" + h + "' is not a heap size from 0 to " +
                          std::to_string(kMaxOctalHeap));
      t->heaps.push_back(std::stoi(h));
      i = j + 1;
    } while (i <= list.size());
    for (int h : t->heaps) {
      const component k = octal_component(t->code, h);
      if (h && has_move_(k)) t->parts.push_back(k);
    }
    return t;
  }

  component_info describe(component c, option_arena& arena) override {
    // No stored values, as for regions: Grundy value and genus on demand.
    component_info ci;
    const unsigned code = static_cast<unsigned>(level_of(c));
    option_writer w(arena, ci);
    codes_[code].for_each_move(static_cast<int>(key_of(c)), [&](int b, int d, std::int32_t) {
      w.begin_option();
      if (b) w.add_part(octal_component(code, b));
      if (d) w.add_part(octal_component(code, d));
    });
    w.finish();
    return ci;
  }

  bool genus_searched() const override { return true; }
  bool genus_within_reach(component c) const override { return key_of(c) <= kHeapGenusBeans; }

  /// Calls f for every move of term t: each move of each distinct heap,
  /// written as octal_move_text, the heap list after it, and its heaps
  /// with a move.
  void for_each_move(const octal_term& t, const term_move_fn& f) {
    const take_break& code = codes_[t.code];
    for (std::size_t h = 0; h < t.heaps.size(); ++h) {
      if (std::find(t.heaps.begin(), t.heaps.begin() + static_cast<std::ptrdiff_t>(h), t.heaps[h]) !=
          t.heaps.begin() + static_cast<std::ptrdiff_t>(h))
        continue;  // equal heaps have the same moves
      code.for_each_move(t.heaps[h], [&](int b, int c, std::int32_t) {
        std::vector<component> parts;
        std::vector<int> left;
        for (std::size_t j = 0; j < t.heaps.size(); ++j)
          if (j != h) left.push_back(t.heaps[j]);
        if (b) left.push_back(b);
        if (c) left.push_back(c);
        std::string after;
        for (int x : left) {
          after += (after.empty() ? "" : ",") + std::to_string(x);
          const component k = octal_component(t.code, x);
          if (x && has_move_(k)) parts.push_back(k);
        }
        f(octal_move_text(t.heaps[h], b, c), after.empty() ? "0" : after, parts);
      });
    }
  }

 private:
  /// The number of an octal code in this solver (given one the first time
  /// it is met); throws input_error past 256 codes.
  unsigned number_of(const take_break& code) {
    for (std::size_t i = 0; i < codes_.size(); ++i)
      if (codes_[i].octal_text() == code.octal_text()) return static_cast<unsigned>(i);
    if (codes_.size() >= 256) throw input_error("a sum may use at most 256 octal codes");
    codes_.push_back(code);
    return static_cast<unsigned>(codes_.size() - 1);
  }

  has_move_fn has_move_;
  std::vector<take_break> codes_;  // the codes met, by number
};

void octal_term::for_each_move(const term_move_fn& f) { src_.for_each_move(*this, f); }

}  // namespace

std::unique_ptr<component_source> make_octal_heap_source(has_move_fn has_move) {
  return std::make_unique<octal_heap_source>(std::move(has_move));
}

}  // namespace cgtb::misere_detail
