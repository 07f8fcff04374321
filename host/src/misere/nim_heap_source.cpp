// Nim heaps as sum components: terms `*n` (component_source.hpp).
#include <algorithm>
#include <cctype>

#include "cgtb/error.hpp"
#include "component_source.hpp"

namespace cgtb::misere_detail {

namespace {

/// Largest Nim heap a term may be (a heap of n has n options).
constexpr std::uint64_t kMaxHeap = 1000000;

/// Misère Grundy value of a Nim heap of n: *0 and *1 swap outcomes, *n for
/// n >= 2 keeps them (misère Nim, Winning Ways ch. 13).
std::int64_t misere_heap(std::uint64_t n) { return n == 0 ? 1 : n == 1 ? 0 : static_cast<std::int64_t>(n); }

/// A term `*n`: the heap, moved to every smaller heap.
class heap_term final : public sum_term {
 public:
  std::uint64_t heap = 0;

  void for_each_move(const term_move_fn& f) override {
    for (std::uint64_t m = 0; m < heap; ++m) {
      std::vector<component> after;
      if (m) after.push_back(nim_heap_component(m));
      f(text + "->*" + std::to_string(m), "*" + std::to_string(m), after);
    }
  }
};

/// Nim heaps: their values are known (Grundy value n, misère value by
/// misere_heap, hereditarily tame; fickle for *0 and *1, firm past them,
/// Winning Ways ch. 13), and their options *m (m < n) are made on the fly.
class nim_heap_source final : public component_source {
 public:
  bool accepts(const std::string& raw) const override { return !raw.empty() && raw[0] == '*'; }

  /// Throws input_error unless `raw` is *n with n a number from 0 to kMaxHeap.
  std::unique_ptr<sum_term> parse(const std::string& raw) override {
    auto t = std::make_unique<heap_term>();
    t->text = raw;
    const std::string digits = raw.substr(1);
    if (digits.empty() || digits.size() > 7 ||
        !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }) ||
        std::stoull(digits) > kMaxHeap)
      throw input_error("heap '" + raw + "' is not *n with n a number from 0 to " + std::to_string(kMaxHeap));
    t->heap = std::stoull(digits);
    if (t->heap) t->parts.push_back(nim_heap_component(t->heap));
    return t;
  }

  component_info describe(component c, option_arena&) override {
    component_info ci;
    const std::uint64_t n = key_of(c);
    ci.grundy = static_cast<std::int64_t>(n);
    ci.misere = static_cast<std::int16_t>(std::min<std::int64_t>(misere_heap(n), 32767));
    ci.kind = n >= 2 ? shape::firm : shape::fickle;
    ci.hereditary = heredity::tame;
    ci.options = static_cast<std::uint32_t>(n);  // *n -> *m, m < n: made on the fly (generated_option)
    return ci;
  }

  bool generates_options() const override { return true; }
  std::uint64_t generated_options(component c) const override { return key_of(c); }
  void generated_option(component, std::uint64_t k, std::vector<component>& parts) const override {
    if (k) parts.push_back(nim_heap_component(k));  // *n -> *k; *0 is the game 0
  }
  std::int64_t plain_grundy(component c) const override { return static_cast<std::int64_t>(key_of(c)); }
};

}  // namespace

std::unique_ptr<component_source> make_nim_heap_source() { return std::make_unique<nim_heap_source>(); }

}  // namespace cgtb::misere_detail
