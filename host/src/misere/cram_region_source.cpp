// Cram regions with no table as sum components: terms `cram:POSITION`
// (component_source.hpp, cgtb/cram_region.hpp).
#include <algorithm>
#include <map>

#include "cgtb/cram_region.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/cram.hpp"
#include "component_source.hpp"

namespace cgtb::misere_detail {

namespace {

/// Cram regions of up to this many cells get their genus searched the first
/// time a shortcut asks; larger ones are searched without it.
constexpr int kRegionGenusCells = 12;

/// The code of region r (canonical): kRegionFile above its cram_region_key.
constexpr component region_component(const cram_region& r) {
  return (std::uint64_t{kRegionFile} << 56) | (static_cast<std::uint64_t>(r.rows) << 52) |
         (static_cast<std::uint64_t>(r.cols) << 48) | r.mask;
}

/// The region of code c.
cram_region region_of(component c) { return cram_region_of_key(c & ((std::uint64_t{1} << 56) - 1)); }

/// The components the empty cells `cells` of a rows x cols board play as:
/// their connected regions of two cells or more (a single cell has no move:
/// the game 0).
std::vector<component> region_components(int rows, int cols, std::uint64_t cells) {
  std::vector<component> out;
  for (const cram_region& r : region_parts(rows, cols, cells))
    if (r.cells() >= 2) out.push_back(region_component(r));
  return out;
}

class cram_region_source;

/// A term `cram:POSITION`: the board as written and its empty cells.
class region_term final : public sum_term {
 public:
  explicit region_term(cram_region_source& src) : src_(src) {}
  int rows = 0, cols = 0;
  std::uint64_t cells = 0;
  void for_each_move(const term_move_fn& f) override;

 private:
  cram_region_source& src_;
};

/// Cram positions with no table: each plays as the sum of its connected
/// regions (a domino never joins two), each region a component up to
/// symmetry. Nothing is stored: the search finds Grundy values and, for
/// regions of up to kRegionGenusCells cells, the genus.
class cram_region_source final : public component_source {
 public:
  bool accepts(const std::string& raw) const override { return raw.rfind("cram:", 0) == 0; }

  /// Throws input_error for a board of no cell or over 64 cells, or rows
  /// of unequal length (cram::parse).
  std::unique_ptr<sum_term> parse(const std::string& raw) override {
    auto t = std::make_unique<region_term>(*this);
    t->text = raw;
    const std::string text = raw.substr(5);
    t->cols = static_cast<int>(text.find('/') == std::string::npos ? text.size() : text.find('/'));
    t->rows = static_cast<int>(std::count(text.begin(), text.end(), '/')) + 1;
    if (t->cols < 1 || t->rows * t->cols > 64)
      throw input_error("Cram region '" + text + "': write 1 to 64 cells, rows of equal length joined by '/'");
    t->cells = board(t->rows, t->cols).parse(text);
    t->parts = region_components(t->rows, t->cols, t->cells);
    return t;
  }

  component_info describe(component c, option_arena& arena) override {
    // No stored values: Grundy value on demand (the search), no misère value or genus.
    component_info ci;
    const cram_region r = region_of(c);
    option_writer w(arena, ci);
    for (const domino_move& m : board(r.rows, r.cols).moves(r.mask)) {
      w.begin_option();
      for (component p : region_components(r.rows, r.cols, m.after)) w.add_part(p);
    }
    w.finish();
    return ci;
  }

  bool genus_searched() const override { return true; }
  bool genus_within_reach(component c) const override { return region_of(c).cells() <= kRegionGenusCells; }

  /// Calls f for every move of term t: each domino's name, the board after
  /// it, and its regions.
  void for_each_move(const region_term& t, const term_move_fn& f) {
    const cram& b = board(t.rows, t.cols);
    for (const domino_move& m : b.moves(t.cells))
      f(b.move_name(m), b.format(m.after), region_components(t.rows, t.cols, m.after));
  }

 private:
  /// The Cram ruleset on a rows x cols board (made once).
  const cram& board(int rows, int cols) {
    auto it = boards_.find(rows * 64 + cols);
    if (it == boards_.end()) it = boards_.emplace(rows * 64 + cols, cram(rows, cols)).first;
    return it->second;
  }

  std::map<int, cram> boards_;  // rows * 64 + cols -> the Cram ruleset on that board
};

void region_term::for_each_move(const term_move_fn& f) { src_.for_each_move(*this, f); }

}  // namespace

std::unique_ptr<component_source> make_cram_region_source() { return std::make_unique<cram_region_source>(); }

}  // namespace cgtb::misere_detail
