// `cgtb build cram-components --max-cells K`: the normal-play Grundy value of
// every connected Cram region of at most K cells (cgtb/games/cram_components.hpp).
// Queries take any Cram position text: its empty cells fall apart into
// regions, each looked up in any orientation, and the position is worth the
// XOR of their values (Sprague-Grundy).
#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cgtb/build.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/games/cram_components.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/text.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

namespace {

/// The value kinds of a component table: G only. A region's misère value and
/// genus are not functions of its parts' (Winning Ways ch. 13), so an option
/// that falls apart has none to store. Throws input_error.
value_choice grundy_only(const std::string& values) {
  const value_choice c = value_choice::parse("impartial", values.empty() || values == "all" ? "normal" : values);
  if (c.text() != "normal")
    throw input_error("--values " + values +
                      ": a component table holds normal-play Grundy values only (misere values and the genus of a "
                      "region are not found from its parts'); build cram --board RxC --values genus for those");
  return c;
}

/// The connected regions of the empty cells of a position's text, as the
/// table stores them: (cells, file key, canonical text).
std::vector<position_ref> refs_of_parts(const std::vector<region128>& parts) {
  std::vector<position_ref> out;
  for (const region128& p : parts) out.push_back({p.count(), polyomino_code(p), region_text(p)});
  return out;
}

class cram_components_driver : public owner_driver<cram_components> {
 public:
  using owner_driver::owner_driver;

  std::vector<level_count> table_levels() const override {
    std::vector<level_count> out;
    for (int n : game_.levels()) out.push_back({n, game_.host_view().level_size(n)});
    return out;
  }
  std::vector<field_spec> value_fields(const std::string& values) const override {
    return grundy_only(values).fields();
  }

  void build(const build_request& req) const override {
    const value_choice kinds = grundy_only(req.values);
    tablebase_header h = build_header(cram_components::ruleset_name, game_.params(), kinds, req);
    h.index = "keys/1";
    h.positions = "all";
    h.symmetry = "square";
    check_build_output(req);  // before the enumeration's minutes
    progress_line(req.reporter(), "[cgtb] enumerating the free polyominoes of 1..%d cells", game_.max_cells());
    const polyomino_census& c = game_.census();
    std::uint64_t total = 0;
    for (std::uint64_t n : c.free_by_cells) total += n;
    progress_line(req.reporter(), "[cgtb] %llu regions (%llu of %d cells) enumerated in %.1f s",
                  static_cast<unsigned long long>(total), static_cast<unsigned long long>(c.free_by_cells.back()),
                  game_.max_cells(), c.seconds);
    solve_and_write<cram_components, impartial_sum_rule>(
        game_, h, req, req.solve, [](const impartial_sum_rule::record& r, std::size_t) { return std::int64_t{r.g}; });
  }

  /// One region: its level and file key; several: level -1 (components()
  /// splits them).
  position_ref parse(const std::string& text) const override {
    const std::vector<region128> parts = region_parts_of_text(text);
    for (const region128& p : parts)
      if (p.count() > game_.max_cells())
        throw input_error("position '" + text + "' has a region of " + std::to_string(p.count()) +
                          " cells; this table holds regions of at most " + std::to_string(game_.max_cells()));
    if (parts.empty()) return {0, 0, text};
    if (parts.size() == 1) return {parts[0].count(), polyomino_code(parts[0]), text};
    return {-1, 0, text};
  }
  bool splits_into_components() const override { return true; }
  std::vector<position_ref> components(const position_ref& p) const override {
    if (p.text.empty()) return {p};
    std::vector<position_ref> out = refs_of_parts(region_parts_of_text(p.text));
    if (out.empty()) out.push_back({0, 0, ""});
    return out;
  }

  std::string format(int level, std::uint64_t key) const override {
    if (level < 0 || level > game_.max_cells())
      throw input_error("no level " + std::to_string(level) + " in a table of regions of at most " +
                        std::to_string(game_.max_cells()) + " cells");
    return region_text(polyomino_of_code(level, key));
  }

  /// Every domino of the position as written, with the position it leaves.
  std::vector<option_ref> options(const position_ref& p) const override {
    std::vector<option_ref> out;
    if (p.text.empty()) return out;
    const region128 b = board_of_text(p.text);
    const box_edges e(b.rows, b.cols);
    for_each_domino(b.cells, b.cols, e, [&](int i, int j) {
      cells128 d;
      d.set(i);
      d.set(j);
      out.push_back({cell_name(i, b.cols) + "-" + cell_name(j, b.cols),
                     position_ref{-1, 0, region_text({b.cells.without(d), b.rows, b.cols})}});
    });
    for (option_ref& o : out) o.after = parse(o.after.text);
    return out;
  }

  void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const override {
    const std::int64_t g = value_of(tb, p);
    std::vector<std::string> winning;
    for (const option_ref& o : options(p))
      if (value_of(tb, o.after) == 0) winning.push_back(o.move);
    const std::vector<position_ref> parts = components(p);
    if (json) {
      nlohmann::ordered_json j;
      j["position"] = p.text;
      j["regions"] = parts.size() == 1 && parts[0].text.empty() ? 0 : parts.size();
      j["grundy"] = g;
      j["normal_outcome"] = g ? "N" : "P";
      put_move_list(j, "normal_winning_moves", winning, max_moves());
      out << json_text(j) << "\n";
      return;
    }
    out << p.text << "\n";
    if (parts.size() > 1) {
      out << "  regions ";
      for (const position_ref& c : parts)
        out << (&c == &parts.front() ? "" : " + ") << c.text << " (" << value_of(tb, c) << ")";
      out << "\n";
    }
    out << "  normal  Grundy value " << g << ", outcome " << (g ? "N" : "P") << ", winning moves: "
        << (winning.empty() ? no_winning_moves_text(g != 0) : move_list_text(winning, max_moves(), " ")) << "\n";
  }

 private:
  /// The Grundy value of a position: the XOR of its regions' stored values.
  /// Throws input_error for a region the file does not store.
  std::int64_t value_of(tablebase& tb, const position_ref& p) const {
    std::int64_t x = 0;
    for (const position_ref& c : components(p)) {
      const std::int64_t r = tb.stored_rank(c.level, c.rank);
      if (r < 0)
        throw input_error("region '" + c.text + "' (" + std::to_string(c.level) + " cells) is not in " + tb.path());
      x ^= tb.value(c.level, static_cast<std::uint64_t>(r), 0);
    }
    return x;
  }
};

}  // namespace

game_entry cram_components_entry() {
  return {"cram-components",
          "Cram regions: the Grundy value of every connected region (free polyomino) of at most K cells",
          "any Cram position text ('.' empty, '#' covered, rows joined by '/'), in any orientation; its regions are "
          "looked up and XORed",
          {{"max-cells", "largest region, in cells (1..20)", "12", game_option::integer}},
          driver_from<cram_components_driver>(
              [](const cxxopts::ParseResult& r) { return cram_components(r["max-cells"].as<int>()); }),
          driver_from<cram_components_driver>(&cram_components::from_params)};
}

}  // namespace cgtb
