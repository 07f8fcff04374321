// The game_driver of impartial games: builds normal/misère/genus tablebases
// with impartial_rule, answers queries (values, outcomes, winning moves) and
// runs the census of reachable positions. Any ruleset with the Cram-like host
// interface (parse, format, moves, move_name, level_of, start, host_view)
// plugs in.
#pragma once

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>
#include <utility>

#include "cgtb/build.hpp"
#include "cgtb/classify.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/text.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

/// True when a view provides for_each_parent (un-moves), which the census
/// needs; rulesets without a single start position may leave it out.
struct ignore_parent {
  void operator()(int, std::uint64_t) const {}
};
template <class View, class = void>
struct has_parents : std::false_type {};
template <class View>
struct has_parents<View, std::void_t<decltype(std::declval<const View&>().for_each_parent(
                             0, std::declval<typename View::position>(), ignore_parent{}))>> : std::true_type {};

template <class Game>
class impartial_driver : public owner_driver<Game> {
  using owner_driver<Game>::game_;

 public:
  using owner_driver<Game>::owner_driver;

  void build(const build_request& req) const override {
    const value_choice kinds = value_choice::parse("impartial", req.values);
    if (kinds.has("genus"))
      build_with<impartial_rule<7>>(req, kinds);
    else if (kinds.has("misere"))
      build_with<impartial_rule<0>>(req, kinds);
    else
      build_with<impartial_rule<-1>>(req, kinds);
  }

  std::uint64_t level_positions(tablebase& tb, int level) const override {
    return positions_of_level(game_, tb, level);
  }
  std::vector<level_count> table_levels() const override { return levels_of(game_); }
  std::uint64_t orbit_size(int level, std::uint64_t key) const override { return orbit_of(game_, level, key); }
  std::vector<field_spec> value_fields(const std::string& values) const override {
    return value_choice::parse("impartial", values).fields();
  }

  void plan(const build_request& req, std::ostream& out) const override {
    if constexpr (keyed_game<Game>::value) {
      const value_choice kinds = value_choice::parse("impartial", req.values);
      const bool genus = kinds.has("genus");
      const std::size_t bytes = genus                 ? stored_record_bytes<impartial_rule<7>>()
                                : kinds.has("misere") ? stored_record_bytes<impartial_rule<0>>()
                                                      : stored_record_bytes<impartial_rule<-1>>();
      print_reachable_plan(Game::ruleset_name, game_.rows(), game_.cols(), game_.symmetry().count, bytes, req, out,
                           genus && interned_record<impartial_rule<7>>::value,
                           genus ? sizeof(typename impartial_rule<7>::record) : bytes);
    } else {
      game_driver::plan(req, out);
    }
  }

  /// A position as written on the table's board, or for Cram on a
  /// non-square board also as written on its transpose (transposed_frame).
  position_ref parse(const std::string& text) const override {
    if constexpr (cell_mask_game<Game>::value)
      if (frame_.holds(text)) return frame_.ref(game_, frame_.parse(text));
    return ref(game_.parse(text));
  }

  using locator = position_locator<Game>;
  position_ref from_code(std::uint64_t code) const override { return ref_of_code(game_, code); }

  std::string format(int level, std::uint64_t rank) const override { return format_by_rank(game_, level, rank); }

  /// Every move from p (as written, for keyed tables), each with the index
  /// key of the position it leads to and that position's text in p's
  /// orientation.
  std::vector<option_ref> options(const position_ref& p) const override {
    std::vector<option_ref> out;
    if (frame_.holds(p.text)) {
      if constexpr (cell_mask_game<Game>::value) {
        const auto& t = frame_.game();
        for (const auto& m : t.moves(frame_.parse(p.text))) out.push_back({t.move_name(m), frame_.ref(game_, m.after)});
      }
      return out;
    }
    auto pos = locator::at(game_, p);
    for (const auto& m : game_.moves(pos)) {
      const int level = game_.level_of(m.after);
      out.push_back({game_.move_name(m), {level, locator::key(game_, m.after), game_.format(m.after)}});
    }
    return out;
  }

  /// The options' levels and keys, no text (game_driver::option_keys).
  void option_keys(int level, std::uint64_t key, std::vector<option_key>& out) const override {
    const auto pos = locator::at(game_, {level, key, std::string()});
    const auto key_of = locator::option_keyer(game_, pos);
    out.clear();
    for (const auto& m : game_.moves(pos)) out.push_back({game_.level_of(m.after), key_of(m.after)});
  }

  void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const override {
    const auto& h = tb.header();
    if (!tb.find_level(p.level)) {
      std::string held;
      for (const auto& l : tb.levels()) held += (held.empty() ? "" : ",") + std::to_string(l.level);
      throw input_error("position '" + p.text + "' is on level " + std::to_string(p.level) +
                        "; this tablebase holds levels " + held +
                        " (Cram tables hold the regions whose empty-cell count has the board's parity)");
    }
    const int fg = h.field_index(cgtb::field_name::grundy), fm = h.field_index(cgtb::field_name::misere);
    std::int64_t v[64], ov[64];
    tb.entry(p.level, locator::stored_rank(tb, p), v);
    // Winning moves: options whose value is 0 under each convention.
    std::vector<std::string> win_normal, win_misere;
    for (const auto& o : options(p)) {
      tb.entry(o.after.level, locator::stored_rank(tb, o.after), ov);
      if (fg >= 0 && ov[fg] == 0) win_normal.push_back(o.move);
      if (fm >= 0 && ov[fm] == 0) win_misere.push_back(o.move);
    }
    const bool has_genus = has_genus_fields(h);
    genus gn;
    if (has_genus) gn = genus_of([&](int f) { return v[f]; }, fg, fm);
    if (json) {
      nlohmann::ordered_json j;
      j["position"] = p.text;
      j["level"] = p.level;
      if (fg >= 0) {
        j["grundy"] = v[fg];
        j["normal_outcome"] = v[fg] ? "N" : "P";
        put_move_list(j, "normal_winning_moves", win_normal, this->max_moves());
      }
      if (fm >= 0) {
        j["misere"] = v[fm];
        j["misere_outcome"] = v[fm] ? "N" : "P";
        put_move_list(j, "misere_winning_moves", win_misere, this->max_moves());
      }
      if (has_genus) {
        j["genus"] = gn.symbol();
        j["tame"] = gn.tame();
      }
      out << json_text(j) << "\n";
      return;
    }
    auto join = [this](const std::vector<std::string>& w, bool n_position) {
      return !w.empty() ? move_list_text(w, this->max_moves(), " ") : no_winning_moves_text(n_position);
    };
    out << p.text << "\n";
    if (fg >= 0)
      out << "  normal  Grundy value " << v[fg] << ", outcome " << (v[fg] ? "N" : "P")
          << ", winning moves: " << join(win_normal, v[fg] != 0) << "\n";
    if (fm >= 0)
      out << "  misere  Grundy value " << v[fm] << ", outcome " << (v[fm] ? "N" : "P")
          << ", winning moves: " << join(win_misere, v[fm] != 0) << "\n";
    if (has_genus) out << "  genus   " << gn.symbol() << ", " << (gn.tame() ? "tame" : "wild") << "\n";
  }

  /// classify on tables of every position of each level; census on tables
  /// whose positions are reachable from a start (keyed tables, or views with
  /// for_each_parent).
  std::vector<std::string> analyses() const override {
    std::vector<std::string> a;
    if constexpr (keyed_game<Game>::value || has_parents<typename Game::view_type>::value) a.push_back("census");
    if constexpr (!keyed_game<Game>::value) a.push_back("classify");
    return a;
  }
  std::string analysis_hint(const std::string& analysis) const override {
    if (analysis == "classify" && keyed_game<Game>::value)
      return "it needs a table of every region: build it with --positions all";
    if (analysis == "census") return "the ruleset has no single start position";
    return "";
  }

  classify_report classify(tablebase& tb) const override {
    if constexpr (keyed_game<Game>::value) {
      return game_driver::classify(tb);
    } else {
      auto view = game_.host_view();
      return classify_table(game_, tb, [&](int l, std::uint64_t r) { return game_.format(view.unrank(l, r)); });
    }
  }

  census_report census(tablebase& tb) const override {
    if constexpr (keyed_game<Game>::value) {
      return census_keyed(tb);
    } else if constexpr (!has_parents<typename Game::view_type>::value) {
      return game_driver::census(tb);
    } else {
      return census_impl(tb);
    }
  }

 private:
  /// Census of a keyed table: every stored position is reachable, and a
  /// class counts with its orbit size.
  census_report census_keyed(tablebase& tb) const {
    const auto& h = tb.header();
    const int fg = h.field_index(cgtb::field_name::grundy), fm = h.field_index(cgtb::field_name::misere);
    if (!has_genus_fields(h)) throw input_error("census needs a tablebase built with --values genus");
    const int top = game_.level_of(game_.start());
    census_report rep;
    rep.reachable_by_level.assign(static_cast<std::size_t>(top) + 1, 0);
    rep.wild_by_level.assign(static_cast<std::size_t>(top) + 1, 0);
    std::vector<int> levels = game_.levels();
    std::sort(levels.rbegin(), levels.rend());
    for (int level : levels) {
      const level_entry* le = tb.find_level(level);
      if (!le) throw input_error("tablebase lacks level " + std::to_string(level));
      const level_counts n = count_level(tb, *le, [&](const decoded_block& d, level_counts& c) {
        if (d.keys.size() != d.count) throw input_error(tb.path() + ": block without keys in a keyed table");
        for (std::uint32_t i = 0; i < d.count; ++i)
          c.add(d.first + i, static_cast<std::uint64_t>(game_.orbit_size(game_.from_file_key(level, d.keys[i]))),
                genus_of([&](int f) { return d.get(i, f); }, fg, fm).tame());
      });
      add_census_level(rep, tb, level, n, fg, fm,
                       [&](std::uint64_t r) { return game_.format(game_.from_file_key(level, tb.key_of(level, r))); });
    }
    return rep;
  }

  /// The counts of one level of a census: positions reached, wild ones, and
  /// the rank of the first wild one.
  struct level_counts {
    std::uint64_t reach = 0, wild = 0, first_wild = ~0ull;
    /// A reached position of rank r standing for `weight` positions.
    void add(std::uint64_t r, std::uint64_t weight, bool tame) {
      reach += weight;
      if (!tame) {
        wild += weight;
        first_wild = std::min(first_wild, r);
      }
    }
  };

  /// Runs count(block, counts) on every block of level `le` in parallel
  /// (for_each_block) and sums the counts; a block's error is rethrown with
  /// its type.
  template <class Count>
  static level_counts count_level(tablebase& tb, const level_entry& le, Count count) {
    std::vector<level_counts> per_block(static_cast<std::size_t>(le.blocks));
    for_each_block(tb, le, [&](std::uint64_t b, const decoded_block& d) { count(d, per_block[b]); });
    level_counts sum;
    sum.first_wild = ~0ull;
    for (const level_counts& c : per_block) {
      sum.reach += c.reach;
      sum.wild += c.wild;
      sum.first_wild = std::min(sum.first_wild, c.first_wild);
    }
    return sum;
  }

  /// Adds one level's counts to a census; `text(rank)` names the level's
  /// first wild position (rank n.first_wild) when n.wild > 0.
  template <class Text>
  static void add_census_level(census_report& rep, tablebase& tb, int level, const level_counts& n, int fg, int fm,
                               Text text) {
    rep.reachable += n.reach;
    rep.wild += n.wild;
    rep.reachable_by_level[static_cast<std::size_t>(level)] = n.reach;
    rep.wild_by_level[static_cast<std::size_t>(level)] = n.wild;
    if (n.wild) {
      rep.smallest_wild_level = level;
      rep.smallest_wild_example = text(n.first_wild);
      rep.smallest_wild_genus = genus_of([&](int f) { return tb.value(level, n.first_wild, f); }, fg, fm).symbol();
    }
  }

  census_report census_impl(tablebase& tb) const {
    const auto& h = tb.header();
    const int fg = h.field_index(cgtb::field_name::grundy), fm = h.field_index(cgtb::field_name::misere);
    if (!has_genus_fields(h)) throw input_error("census needs a tablebase built with --values genus");
    auto view = game_.host_view();
    auto start = game_.start();
    const int top = game_.level_of(start);
    census_report rep;
    rep.reachable_by_level.assign(static_cast<std::size_t>(top) + 1, 0);
    rep.wild_by_level.assign(static_cast<std::size_t>(top) + 1, 0);
    std::vector<std::uint8_t> above, here;
    std::vector<int> levels = game_.levels();
    std::sort(levels.rbegin(), levels.rend());
    for (int level : levels) {
      const level_entry* le = tb.find_level(level);
      if (!le) throw input_error("tablebase lacks level " + std::to_string(level));
      if (le->positions != view.level_size(level))
        throw input_error("tablebase level " + std::to_string(level) + " holds " + std::to_string(le->positions) +
                          " positions, not the game's " + std::to_string(view.level_size(level)));
      here.assign(le->positions, 0);
      const level_counts n = count_level(tb, *le, [&](const decoded_block& d, level_counts& c) {
        auto p = view.unrank(level, d.first);
        for (std::uint32_t i = 0; i < d.count; ++i, p = i < d.count ? view.next(level, p) : p) {
          const std::uint64_t r = d.first + i;
          bool reach = level == top ? p == start : false;
          if (!reach && level != top)
            view.for_each_parent(level, p, [&](int, std::uint64_t pr) { reach = reach || above[pr]; });
          if (!reach) continue;
          here[r] = 1;
          c.add(r, 1, genus_of([&](int f) { return d.get(i, f); }, fg, fm).tame());
        }
      });
      add_census_level(rep, tb, level, n, fg, fm, [&](std::uint64_t r) { return ref(view.unrank(level, r)).text; });
      above.swap(here);
    }
    return rep;
  }

 protected:
  position_ref ref(typename Game::position p) const {
    return {game_.level_of(p), locator::key(game_, p), game_.format(p)};
  }
  /// Positions written on the transposed board (Cram on a non-square board).
  transposed_frame<Game> frame_{game_};

  template <class Rule>
  void build_with(const build_request& req, const value_choice& kinds) const {
    tablebase_header h = build_header(Game::ruleset_name, game_.params(), kinds, req);
    locator::describe(game_, h);
    const std::vector<int> fids = kinds.rule_fields();
    solve_and_write<Game, Rule>(game_, h, req, req.solve, [&](const typename Rule::record& r, std::size_t f) {
      return static_cast<std::int64_t>(Rule::field(r, fids[f]));
    });
  }
};

}  // namespace cgtb
