// `cgtb build blocking-nim`: dynamic one-pile Blocking Nim ("Dynamic One-Pile
// Blocking Nim", Electronic Journal of Combinatorics 10, 2003;
// cgtb/games/blocking_nim.hpp) with the blocking rule (cgtb/rules/blocking.hpp).
#include <chrono>
#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cgtb/build.hpp"
#include "cgtb/games/blocking_nim.hpp"
#include "cgtb/impartial_driver.hpp"
#include "cgtb/rules/blocking.hpp"
#include "cgtb/text.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

namespace {

class blocking_nim_driver : public owner_driver<blocking_nim> {
 public:
  using owner_driver::owner_driver;

  std::vector<level_count> table_levels() const override { return levels_of(game_); }
  std::vector<field_spec> value_fields(const std::string& values) const override {
    return value_choice::parse("blocking", values).fields();
  }
  std::uint64_t blocked_options(const position_ref& p) const override {
    return game_.host_view().blocks(game_.host_view().unrank(p.level, p.rank));
  }

  void build(const build_request& req) const override {
    const tablebase_header h =
        build_header(blocking_nim::ruleset_name, game_.params(), value_choice::parse("blocking", req.values), req);
    solve_options so = req.solve;
    if (so.backend == backend_kind::cpu && game_.max_pile() < 5000) so.threads = 1;  // small levels
    solve_and_write<blocking_nim, blocking_rule>(game_, h, req, so, [](const blocking_rule::record& r, std::size_t f) {
      return static_cast<std::int64_t>(f == 0 ? r.safe : r.winning);
    });
  }

  position_ref parse(const std::string& text) const override { return ref(game_.parse(text)); }
  std::string format(int level, std::uint64_t rank) const override { return format_by_rank(game_, level, rank); }

  std::vector<option_ref> options(const position_ref& p) const override {
    std::vector<option_ref> out;
    for (const auto& m : game_.moves(game_.host_view().unrank(p.level, p.rank)))
      out.push_back({game_.move_name(m), ref(m.after)});
    return out;
  }

  void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const override {
    const int fs = tb.header().field_index(cgtb::field_name::safe),
              fw = tb.header().field_index(cgtb::field_name::winning);
    if (fs < 0 || fw < 0) throw input_error("'" + tb.path() + "' lacks the safe/winning fields");
    const bool safe = tb.value(p.level, p.rank, fs) != 0;
    const auto winning = tb.value(p.level, p.rank, fw);
    const int k = static_cast<int>(p.rank) + 1;
    const auto c = static_cast<std::int64_t>(game_.c(k));
    std::vector<std::string> wins;
    auto opts = options(p);
    for (const auto& o : opts)
      if (tb.value(o.after.level, o.after.rank, fs)) wins.push_back(o.move);
    nlohmann::ordered_json j;
    j["position"] = p.text;
    j["pile"] = p.level;
    j["move"] = k;
    j["safe"] = safe;
    j["outcome"] = safe ? "P" : "N";
    j["options"] = opts.size();
    j["winning_options"] = winning;
    j["blocks"] = c;
    if (!safe) j["winning_beyond_blocks"] = winning - c;
    j["winning_moves"] = wins;
    if (json) {
      out << json_text(j) << "\n";
      return;
    }
    std::string ws;
    for (const auto& x : wins) ws += (ws.empty() ? "" : " ") + x;
    // A safe position is a P-position: the opponent blocks every option to a
    // safe position, so those are listed as such, not as winning moves.
    out << p.text << " (pile " << p.level << " before move " << k << ")\n  "
        << (safe ? "safe (outcome P: the player to move loses)" : "unsafe (outcome N: the player to move wins)") << ": "
        << count_text(opts.size(), "option") << ", " << winning << " to a safe position, up to " << c << " blocked";
    if (!safe) out << "; " << (winning - c) << " winning option(s) beyond the blocks";
    out << "\n  " << (safe ? "options to a safe position (all blocked): " : "winning moves (to a safe position): ")
        << (ws.empty() ? "none" : ws) << "\n";
  }

  std::vector<std::string> analyses() const override { return {"intervals"}; }

 private:
  position_ref ref(blocking_nim::position p) const {
    return {game_.level_of(p), game_.host_view().rank(game_.level_of(p), p), game_.format(p)};
  }
};

}  // namespace

game_entry blocking_nim_entry() {
  return {"blocking-nim",
          "dynamic one-pile Blocking Nim (sequences c_i, m_i, M_i; safe positions)",
          "PILE or PILE@MOVE: '15' (pile 15 before move 1) or '15@3' (before move 3)",
          {{"blocks", "c_i: options the opponent may block (5 | 1,3,4 | 2+3i | cycle:1,2)", "0"},
           {"min", "m_i: fewest counters a move takes", "1"},
           {"max", "M_i: most counters a move takes", "2"},
           {"max-pile", "largest pile N (table: piles 0..N, moves 1..N-pile+1)", "100", game_option::integer}},
          driver_from<blocking_nim_driver>([](const cxxopts::ParseResult& r) {
            return blocking_nim(int_sequence::parse(r["blocks"].as<std::string>(), "c"),
                                int_sequence::parse(r["min"].as<std::string>(), "m"),
                                int_sequence::parse(r["max"].as<std::string>(), "M"), r["max-pile"].as<int>());
          }),
          driver_from<blocking_nim_driver>(&blocking_nim::from_params)};
}

}  // namespace cgtb
