// The game_driver of partizan games: builds outcome-class tablebases with
// partizan_rule (normal and misère play), answers queries (the class under
// each convention and each player's winning moves when moving first) and
// lists each player's options. Any ruleset with the partizan host interface
// plugs in: parse, format, level_of, host_view, left_moves, right_moves,
// move_name (moves carry the position after in `after`), params, levels.
#pragma once

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "cgtb/build.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/impartial_driver.hpp"
#include "cgtb/rules/partizan.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/text.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

template <class Game>
class partizan_driver : public owner_driver<Game> {
  using owner_driver<Game>::game_;

 public:
  using owner_driver<Game>::owner_driver;

  void build(const build_request& req) const override {
    const value_choice kinds = value_choice::parse("partizan", req.values);
    tablebase_header h = build_header(Game::ruleset_name, game_.params(), kinds, req);
    locator::describe(game_, h);
    const std::vector<int> fids = kinds.rule_fields();
    solve_and_write<Game, partizan_rule>(game_, h, req, req.solve, [&](const partizan_record& r, std::size_t f) {
      return static_cast<std::int64_t>(partizan_rule::field(r, fids[f]));
    });
  }

  std::uint64_t level_positions(tablebase& tb, int level) const override {
    return positions_of_level(game_, tb, level);
  }
  std::vector<level_count> table_levels() const override { return levels_of(game_); }
  std::uint64_t orbit_size(int level, std::uint64_t key) const override { return orbit_of(game_, level, key); }
  std::vector<field_spec> value_fields(const std::string& values) const override {
    return value_choice::parse("partizan", values).fields();
  }

  void plan(const build_request& req, std::ostream& out) const override {
    if constexpr (keyed_game<Game>::value) {
      value_choice::parse("partizan", req.values);
      print_reachable_plan(Game::ruleset_name, game_.rows(), game_.cols(), game_.symmetry().count,
                           sizeof(partizan_record), req, out);
    } else {
      game_driver::plan(req, out);
    }
  }

  using locator = position_locator<Game>;
  /// A position as written on the table's board. A Domineering position
  /// written on the transposed board is refused with a one-line error: it
  /// is a position of the other game, whose Left is this table's Right.
  position_ref parse(const std::string& text) const override {
    if constexpr (cell_mask_game<Game>::value)
      if (frame_.holds(text)) {
        frame_.parse(text);  // throws for malformed text
        throw input_error("position '" + text + "' is written on the " + std::to_string(game_.cols()) + "x" +
                          std::to_string(game_.rows()) + " board, and this is a " + game_.params() + " " +
                          Game::ruleset_name + " table; the transpose exchanges Left and Right, so write the " +
                          "position on the " + game_.params() + " board and read Left for Right, or build " +
                          Game::ruleset_name + " --board " + std::to_string(game_.cols()) + "x" +
                          std::to_string(game_.rows()));
      }
    return ref(game_.parse(text));
  }
  std::string format(int level, std::uint64_t rank) const override { return format_by_rank(game_, level, rank); }
  position_ref from_code(std::uint64_t code) const override { return ref_of_code(game_, code); }

  /// Every move of both players, Left's first.
  std::vector<option_ref> options(const position_ref& p) const override {
    auto pos = locator::at(game_, p);
    std::vector<option_ref> out;
    for (const auto& m : game_.left_moves(pos)) out.push_back({game_.move_name(m), ref(m.after), mover::left});
    for (const auto& m : game_.right_moves(pos)) out.push_back({game_.move_name(m), ref(m.after), mover::right});
    return out;
  }

  /// The options' levels and keys, no text (game_driver::option_keys).
  void option_keys(int level, std::uint64_t key, std::vector<option_key>& out) const override {
    const auto pos = locator::at(game_, {level, key, std::string()});
    const auto key_of = locator::option_keyer(game_, pos);
    out.clear();
    for (const auto& m : game_.left_moves(pos)) out.push_back({game_.level_of(m.after), key_of(m.after), mover::left});
    for (const auto& m : game_.right_moves(pos))
      out.push_back({game_.level_of(m.after), key_of(m.after), mover::right});
  }

  void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const override {
    const std::uint64_t rank = check_level(tb, p);
    const auto& h = tb.header();
    auto pos = locator::at(game_, p);
    auto lm = game_.left_moves(pos), rm = game_.right_moves(pos);
    nlohmann::ordered_json j;
    j["position"] = p.text;
    j["level"] = p.level;
    std::ostringstream txt;
    txt << p.text << "\n";
    for (const char* conv : {"normal", "misere"}) {
      const int f = h.field_index(std::string(conv) + "_class");
      if (f < 0) continue;
      const unsigned c = static_cast<unsigned>(tb.value(p.level, rank, f));
      // Left moving first wins with a move after which Right moving first
      // loses (bit 1 of the option's class clear); symmetrically for Right.
      std::vector<std::string> lw, rw;
      for (const auto& m : lm)
        if (!(option_class(tb, m.after, f) & 2u)) lw.push_back(game_.move_name(m));
      for (const auto& m : rm)
        if (!(option_class(tb, m.after, f) & 1u)) rw.push_back(game_.move_name(m));
      const std::string cv = conv;
      j[cv + "_outcome"] = std::string(1, outcome_letter(c));
      j[cv + "_left_first_wins"] = (c & 1u) != 0;
      j[cv + "_right_first_wins"] = (c & 2u) != 0;
      put_move_list(j, cv + "_left_winning_moves", lw, this->max_moves());
      put_move_list(j, cv + "_right_winning_moves", rw, this->max_moves());
      txt << "  " << (cv == "normal" ? "normal" : "misere") << "  outcome " << outcome_letter(c)
          << "; Left moving first " << side_text(c & 1u, lm.empty(), lw, this->max_moves()) << "; Right moving first "
          << side_text(c & 2u, rm.empty(), rw, this->max_moves()) << "\n";
    }
    out << (json ? json_text(j) + "\n" : txt.str());
  }

  /// Prints "Left: OPTION (normal C, misere C), ..." and "Right: ..." lines
  /// (options named by move_name with the outcome classes of the position
  /// they lead to, "none" if a player has no move); with json, each option
  /// with its position and classes. At most max_moves() options a player.
  void list_options(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const override {
    check_level(tb, p);
    auto pos = locator::at(game_, p);
    const int fn = tb.header().field_index(cgtb::field_name::normal_class),
              fm = tb.header().field_index(cgtb::field_name::misere_class);
    const std::size_t limit = this->max_moves();
    auto side = [&](const std::vector<typename Game::move>& ms, nlohmann::ordered_json& j, const std::string& key) {
      std::vector<std::string> texts;
      nlohmann::ordered_json arr = nlohmann::ordered_json::array();
      for (std::size_t i = 0; i < std::min(limit, ms.size()); ++i) {
        const auto& m = ms[i];
        nlohmann::ordered_json o;
        o["move"] = game_.move_name(m);
        o["position"] = game_.format(m.after);
        std::string classes;
        for (const auto& [conv, f] : {std::pair<const char*, int>{"normal", fn}, {"misere", fm}}) {
          if (f < 0) continue;
          const std::string c(1, outcome_letter(option_class(tb, m.after, f)));
          o[std::string(conv) + "_outcome"] = c;
          classes += (classes.empty() ? "" : ", ") + std::string(conv) + " " + c;
        }
        texts.push_back(game_.move_name(m) + (classes.empty() ? "" : " (" + classes + ")"));
        arr.push_back(o);
      }
      j[key] = arr;
      if (ms.size() > texts.size()) j[key + "_left_out"] = ms.size() - texts.size();
      texts.resize(ms.size());  // the options left out, for move_list_text's count
      return ms.empty() ? std::string("none") : move_list_text(texts, limit, ", ");
    };
    nlohmann::ordered_json j;
    j["position"] = p.text;
    const std::string l = side(game_.left_moves(pos), j, "left_options"),
                      r = side(game_.right_moves(pos), j, "right_options");
    out << (json ? json_text(j) + "\n" : p.text + "\nLeft: " + l + "\nRight: " + r + "\n");
  }

 protected:
  position_ref ref(const typename Game::position& p) const {
    return {game_.level_of(p), locator::key(game_, p), game_.format(p)};
  }

  /// Text written on the transposed board (refused by parse).
  transposed_frame<Game> frame_{game_};

  /// The rank at which `tb` stores p; throws input_error when it does not.
  std::uint64_t check_level(tablebase& tb, const position_ref& p) const {
    const level_entry* le = tb.find_level(p.level);
    if (!le)
      throw input_error("position " + p.text + " is on level " + std::to_string(p.level) +
                        ", which this tablebase does not hold");
    const std::uint64_t r = locator::stored_rank(tb, p);
    if (r >= le->positions)
      throw input_error("position " + p.text + " is on level " + std::to_string(p.level) +
                        ", which this tablebase does not hold");
    return r;
  }

  unsigned option_class(tablebase& tb, const typename Game::position& q, int field) const {
    const int l = game_.level_of(q);
    return static_cast<unsigned>(
        tb.value(l, locator::stored_rank(tb, {l, locator::key(game_, q), game_.format(q)}), field));
  }

  static std::string side_text(unsigned wins, bool no_moves, const std::vector<std::string>& w, std::size_t limit) {
    if (!wins) return no_moves ? "loses (no move)" : "loses";
    if (no_moves) return "wins (no move)";
    return "wins with " + move_list_text(w, limit, " ");
  }
};

}  // namespace cgtb
