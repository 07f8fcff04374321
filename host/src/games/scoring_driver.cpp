// `cgtb build scoring-octal` and `cgtb build scoring-sum`: scoring play octal
// games (cgtb/games/scoring_octal.hpp) with the scoring rule
// (cgtb/rules/scoring.hpp).
#include "cgtb/scoring_driver.hpp"

#include <algorithm>
#include <chrono>
#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cgtb/error.hpp"
#include "cgtb/impartial_driver.hpp"
#include "cgtb/periodicity.hpp"
#include "cgtb/rules/scoring.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

scoring_position_text parse_scoring_position(const std::string& text_in) {
  // The thesis's symbols are accepted too: △ (conjunctive), ▽ (selective), ▷ (sequential).
  std::string text = text_in;
  for (auto [from, to] : {std::pair<const char*, const char*>{"\u25B3", "^"}, {"\u25BD", "v"}, {"\u25B7", ">"}}) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from))
      text.replace(at, std::string(from).size(), to);
  }
  scoring_position_text out;
  std::string num;
  bool sep_seen = false;
  // A ',' or an operator stands between two heaps: '5vv3', '5,,3', '3+' and
  // ',3' are refused, not read as heaps.
  bool heap_seen = false;  // a heap since the last ',' or operator
  char last_mark = 0;
  auto flush = [&]() {
    if (num.empty()) return;
    if (num.size() > 9) throw input_error("position '" + text + "': heap '" + num + "' is too large");
    out.heaps.push_back(std::stoi(num));
    num.clear();
    heap_seen = true;
  };
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      num += c;
      continue;
    }
    flush();
    if (c == ' ' || c == '\t') {
      sep_seen = true;
      continue;
    }
    if (c == ',' || c == '+' || c == '^' || c == 'v' || c == 'V' || c == '>') {
      if (!heap_seen && !out.heaps.empty())
        throw input_error("position '" + text + "': '" + std::string(1, c) + "' without a heap before it");
      heap_seen = false;
      last_mark = c;
    }
    if (c == ',') {
      if (out.heaps.empty()) throw input_error("position '" + text + "': ',' before any heap");
      continue;
    }
    if (c == '-' && !heap_seen) throw input_error("position '" + text + "': heap sizes are 0 or more, not negative");
    if (c == '+' || c == '^' || c == 'v' || c == 'V' || c == '>') {
      char o = c == 'V' ? 'v' : c;
      if (out.heaps.empty()) throw input_error("position '" + text + "': operator '" + c + "' before any heap");
      if (out.op && out.op != o)
        throw input_error("position '" + text + "' mixes operators '" + out.op + "' and '" + o + "'");
      out.op = o;
      continue;
    }
    throw input_error("position '" + text + "': unexpected character '" + std::string(1, c) +
                      "' (write a heap n, heaps '3 5 7', or n+m, n^m, n v m, n>m)");
  }
  flush();
  (void)sep_seen;
  if (out.heaps.empty()) throw input_error("position '" + text + "' names no heap");
  if (!heap_seen)
    throw input_error("position '" + text + "': '" + std::string(1, last_mark) + "' without a heap after it");
  if (out.op && out.op != '+' && out.heaps.size() != 2)
    throw input_error("position '" + text + "': operator '" + out.op + "' joins exactly two heaps");
  if (out.op == '+' && out.heaps.size() != 2) out.op = 0;  // 3+5+7: a list of heaps of one game
  return out;
}

namespace {

/// Fields of a scoring table built with --values VALUES; throws input_error
/// for another value kind.
std::vector<field_spec> scoring_fields(const std::string& values) {
  return value_choice::parse("scoring", values).fields();
}

/// Writes a scoring tablebase of `Game` (any owner whose view gives scored options).
template <class Game>
void build_scoring(const Game& game, const build_request& req) {
  const tablebase_header h =
      build_header(Game::ruleset_name, game.params(), value_choice::parse("scoring", req.values), req);
  // Levels of a few thousand positions take microseconds each; with threads
  // left to OpenMP, a barrier per level costs more than the level itself on a
  // loaded machine (docs/performance.md). Such tables run on one thread
  // unless --threads says otherwise.
  solve_options so = req.solve;
  std::uint64_t widest = 0;
  const auto view = game.host_view();
  for (int l : game.levels()) widest = std::max<std::uint64_t>(widest, view.level_size(l));
  if (so.threads == 0 && widest < (std::uint64_t{1} << 16)) so.threads = 1;
  solve_and_write<Game, scoring_rule>(game, h, req, so,
                                      [](const scoring_record& r, std::size_t) { return std::int64_t{r.v}; });
}

std::string outcome_of(std::int64_t gs) { return gs > 0 ? "N" : gs < 0 ? "P" : "T"; }

/// Shared query/options code of the scoring drivers. Derived classes give
/// `parse` and `moves(position_ref) -> (move text, option ref, points)`.
template <class Game>
class scoring_driver_base : public owner_driver<Game> {
 public:
  using owner_driver<Game>::owner_driver;
  struct scored_move {
    std::string move;
    position_ref after;
    std::int32_t points;
  };
  virtual std::vector<scored_move> scored_moves(const position_ref& p) const = 0;

  std::vector<option_ref> options(const position_ref& p) const override {
    std::vector<option_ref> out;
    for (auto& m : scored_moves(p)) out.push_back({m.move, m.after, mover::either, m.points});
    return out;
  }
  std::vector<field_spec> value_fields(const std::string& values) const override { return scoring_fields(values); }
  std::vector<std::string> analyses() const override { return {"table", "period"}; }
  /// `cgtb period`: the preperiod and period of G_s(n) (find_period), and of
  /// each row G_s(n OP m), m in req.rows, of a two-heap table.
  int period(tablebase& tb, const game_driver::period_request& req, std::ostream& out) const override {
    if (req.repeats < 1) throw input_error("--repeats must be >= 1");
    scoring_lookup look(tb);
    const int N = look.max();
    out << look.describe() << ", n = 0.." << N << "\n";
    auto row = [&](int m) {
      std::vector<std::int64_t> s;
      for (int n = 0; n <= N; ++n) s.push_back(look.at(n, m));
      return s;
    };
    // Exit status 4 where a sequence shows no period, as for octal sequences.
    if (!look.two_heaps()) {
      const period_report r = find_period(row(0), look.recurrent() ? look.window() : 0, req.repeats);
      out << "G_s(n): " << r.text() << "\n";
      return r.found ? 0 : 4;
    }
    const auto dots = req.rows.find("..");
    if (dots == std::string::npos || req.rows.find_first_not_of("0123456789.") != std::string::npos)
      throw input_error("--rows '" + req.rows + "' is not a range A..B");
    const int m0 = std::stoi(req.rows.substr(0, dots)), m1 = std::stoi(req.rows.substr(dots + 2));
    if (m1 > N) throw input_error("row " + std::to_string(m1) + " is over the table's range 0.." + std::to_string(N));
    bool every_row = true;
    for (int m = m0; m <= m1; ++m) {
      const period_report r = find_period(row(m), 0, req.repeats);
      every_row = every_row && r.found;
      out << "m = " << m << ": G_s(n " << sum_op_symbol(look.op()) << " " << m << "): " << r.text() << "\n";
    }
    return every_row ? 0 : 4;
  }

  void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const override {
    if (!tb.find_level(p.level) || p.rank >= tb.find_level(p.level)->positions)
      throw input_error("position " + p.text + " is outside this tablebase (" + tb.header().params + ")");
    const int f = tb.header().field_index(cgtb::field_name::gs);
    if (f < 0) throw input_error("'" + tb.path() + "' holds no scoring values");
    const std::int64_t gs = tb.value(p.level, p.rank, f);
    std::vector<std::string> best;
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const auto& m : scored_moves(p)) {
      const std::int64_t v = m.points - tb.value(m.after.level, m.after.rank, f);
      if (v == gs) best.push_back(m.move);
      moves.push_back({{"move", m.move}, {"after", m.after.text}, {"points", m.points}, {"value", v}});
    }
    if (json) {
      nlohmann::ordered_json j;
      j["position"] = p.text;
      j["level"] = p.level;
      j["gs"] = gs;
      j["final_score_left_first"] = gs;
      j["final_score_right_first"] = -gs;
      j["outcome"] = outcome_of(gs);
      j["best_moves"] = best;
      j["moves"] = moves;
      out << json_text(j) << "\n";
      return;
    }
    std::string b;
    for (const auto& x : best) b += (b.empty() ? "" : ", ") + x;
    out << p.text << "\n  G_s = " << gs << " (G_F^SL = " << gs << ", G_F^SR = " << -gs << "), outcome "
        << outcome_of(gs) << ", best moves: " << (b.empty() ? "none" : b) << "\n";
  }
};

std::string take_text(int t, int from, std::int32_t pts) {
  return "take " + std::to_string(t) + " from " + std::to_string(from) + " (" + (pts >= 0 ? "+" : "") +
         std::to_string(pts) + ")";
}

class scoring_octal_driver : public scoring_driver_base<scoring_octal> {
 public:
  using scoring_driver_base::scoring_driver_base;

  std::vector<level_count> table_levels() const override {
    if (game_.positions() == scoring_octal::space::heaps) return levels_of(scoring_octal_heaps(game_));
    return levels_of(scoring_octal_multisets(game_));
  }

  void build(const build_request& req) const override {
    if (game_.positions() == scoring_octal::space::heaps)
      build_scoring(scoring_octal_heaps(game_), req);
    else
      build_scoring(scoring_octal_multisets(game_), req);
  }

  position_ref parse(const std::string& text) const override {
    auto t = parse_scoring_position(text);
    if (t.op && t.op != '+')
      throw input_error("position '" + text + "': operator '" + t.op + "' needs a scoring-sum tablebase");
    std::vector<int> h;
    for (int x : t.heaps)
      if (x > 0) h.push_back(x);
    std::sort(h.rbegin(), h.rend());
    std::int64_t total = 0;  // heaps of up to 9 digits each: their sum may pass INT_MAX
    for (int x : h) total += x;
    if (game_.positions() == scoring_octal::space::heaps && h.size() > 1)
      throw input_error("position '" + text +
                        "' has several heaps; this table holds single heaps (build with "
                        "--positions multisets)");
    if (total > game_.max())
      throw input_error("position '" + text + "' has " + std::to_string(total) + " beans; the table holds up to " +
                        std::to_string(game_.max()));
    return ref(h);
  }

  std::string format(int level, std::uint64_t rank) const override {
    if (level < 0 || level > game_.max() ||
        (game_.positions() == scoring_octal::space::heaps
             ? rank != 0
             : rank >= scoring_octal_multisets(game_).host_view().level_size(level)))
      throw input_error("no position of rank " + std::to_string(rank) + " on level " + std::to_string(level));
    return ref(heaps_of({level, rank, ""})).text;
  }

  std::vector<scored_move> scored_moves(const position_ref& p) const override {
    std::vector<int> h = heaps_of(p);
    std::vector<scored_move> out;
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (i > 0 && h[i] == h[i - 1]) continue;
      const int n = h[i];
      game_.rules().for_each_move(n, [&](int a, int b, std::int32_t pts) {
        std::vector<int> q = h;
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(i));
        if (a) q.push_back(a);
        if (b) q.push_back(b);
        std::sort(q.rbegin(), q.rend());
        std::string mv = take_text(n - a - b, n, pts);
        if (a) mv += " leaving " + std::to_string(a) + "+" + std::to_string(b);
        out.push_back({mv, ref(q), pts});
      });
    }
    return out;
  }

 private:
  std::vector<int> heaps_of(const position_ref& p) const {
    if (game_.positions() == scoring_octal::space::heaps)
      return p.level ? std::vector<int>{p.level} : std::vector<int>{};
    scoring_octal_multisets m(game_);
    return cgtb::heaps_of(m.host_view().unrank(p.level, p.rank));
  }
  position_ref ref(const std::vector<int>& h) const {
    int total = 0;
    std::string text;
    for (int x : h) {
      total += x;
      text += (text.empty() ? "" : " ") + std::to_string(x);
    }
    if (text.empty()) text = "0";
    if (game_.positions() == scoring_octal::space::heaps) return {total, 0, text};
    scoring_octal_multisets m(game_);
    return {total, m.host_view().rank(total, multiset_of(h)), text};
  }
};

class scoring_sum_driver : public scoring_driver_base<scoring_sum> {
 public:
  using scoring_driver_base::scoring_driver_base;
  void build(const build_request& req) const override { build_scoring(game_, req); }
  std::vector<level_count> table_levels() const override { return levels_of(game_); }

  position_ref parse(const std::string& text) const override {
    auto t = parse_scoring_position(text);
    const char want = sum_op_symbol(game_.op());
    if (t.heaps.size() != 2 || (t.op && t.op != want))
      throw input_error("position '" + text + "': this table holds n" + std::string(1, want) + "m (" +
                        sum_op_name(game_.op()) + " sum of two heaps)");
    for (int x : t.heaps)
      if (x > game_.max())
        throw input_error("position '" + text + "': heap " + std::to_string(x) + " is over the table's range 0.." +
                          std::to_string(game_.max()));
    return ref(t.heaps[0], t.heaps[1]);
  }

  std::string format(int level, std::uint64_t rank) const override {
    auto v = game_.host_view();
    if (level < 0 || level > 2 * game_.max() || rank >= v.level_size(level))
      throw input_error("no position of rank " + std::to_string(rank) + " on level " + std::to_string(level));
    auto q = v.unrank(level, rank);
    return ref(q.n, q.m).text;
  }

  std::vector<scored_move> scored_moves(const position_ref& p) const override {
    auto v = game_.host_view();
    auto pos = v.unrank(p.level, p.rank);
    std::vector<scored_move> out;
    v.for_each_scored_option(p.level, pos, [&](int l, std::uint64_t r, std::int32_t pts) {
      auto q = v.unrank(l, r);
      std::string mv;
      if (q.n != pos.n) mv = "take " + std::to_string(pos.n - q.n) + " from " + std::to_string(pos.n);
      if (q.m != pos.m)
        mv += std::string(mv.empty() ? "" : " and ") + "take " + std::to_string(pos.m - q.m) + " from " +
              std::to_string(pos.m);
      mv += std::string(" (") + (pts >= 0 ? "+" : "") + std::to_string(pts) + ")";
      out.push_back({mv, ref(q.n, q.m), pts});
    });
    return out;
  }

 private:
  position_ref ref(int n, int m) const {
    auto v = game_.host_view();
    return {n + m, v.rank(n + m, {n, m}), std::to_string(n) + sum_op_symbol(game_.op()) + std::to_string(m)};
  }
};

/// --code/--subtract/--points of one game.
take_break rules_from_options(const cxxopts::ParseResult& r) {
  const std::string pts = r.count("points") ? r["points"].as<std::string>() : "";
  if (r.count("code") && r.count("subtract")) throw input_error("give either --code or --subtract, not both");
  if (r.count("subtract")) return take_break::subtraction(r["subtract"].as<std::string>(), pts);
  if (!r.count("code")) throw input_error("scoring-octal needs --code CODE (with --points) or --subtract SET");
  if (!r.count("points")) throw input_error("--code needs --points (one value per take size)");
  return take_break::parse_scoring(r["code"].as<std::string>(), pts);
}

/// "CODE:POINTS" of --left/--right; "s:4,5" is a subtraction set.
take_break rules_from_text(const std::string& cp, const std::string& which) {
  auto colon = cp.find(':');
  if (cp.rfind("s", 0) == 0 && colon == 1) return take_break::subtraction(cp.substr(2), "");
  if (colon == std::string::npos)
    throw input_error(which + " '" + cp + "' is not of the form CODE:POINTS (e.g. 123:123)");
  if (colon + 1 == cp.size()) throw input_error(which + " '" + cp + "': points missing after ':'");
  return take_break::parse_scoring(cp.substr(0, colon), cp.substr(colon + 1));
}

}  // namespace

// ------------------------------------------------------------ scoring_lookup

scoring_lookup::scoring_lookup(tablebase& tb) : tb_(tb) {
  const auto& h = tb.header();
  if (h.family != "scoring" || h.field_index(cgtb::field_name::gs) < 0)
    throw input_error("'" + tb.path() + "' is not a scoring tablebase (ruleset " + h.ruleset + ")");
  if (h.ruleset == scoring_octal::ruleset_name)
    one_ = std::make_unique<scoring_octal>(scoring_octal::from_params(h.params));
  else if (h.ruleset == scoring_sum::ruleset_name)
    sum_ = std::make_unique<scoring_sum>(scoring_sum::from_params(h.params));
  else
    throw input_error("'" + tb.path() + "': unknown scoring ruleset " + h.ruleset);
}

int scoring_lookup::max() const { return sum_ ? sum_->max() : one_->max(); }
sum_op scoring_lookup::op() const { return sum_ ? sum_->op() : sum_op::disjunctive; }
int scoring_lookup::window() const { return sum_ ? sum_->left().max_take : one_->rules().max_take; }
bool scoring_lookup::recurrent() const { return sum_ ? false : !one_->rules().breaking(); }

std::string scoring_lookup::describe() const {
  auto game = [](const take_break& r) {
    std::string c, p;
    for (int i = 1; i <= r.max_take; ++i) {
      c += static_cast<char>('0' + r.digit[i]);
      p += (i > 1 ? "," : "") + std::to_string(r.points[i]);
    }
    return "(" + c + "; " + p + ")";
  };
  if (one_) return "n in " + game(one_->rules());
  return std::string("n in ") + game(sum_->left()) + " " + sum_op_symbol(sum_->op()) + " m in " + game(sum_->right()) +
         " (" + sum_op_name(sum_->op()) + ")";
}

std::int64_t scoring_lookup::at(int n, int m) {
  const int f = tb_.header().field_index(cgtb::field_name::gs);
  if (n < 0 || m < 0 || n > max() || m > max() || (!sum_ && m != 0))
    throw input_error("heap " + std::to_string(n > max() || n < 0 ? n : m) + " is over the table's range 0.." +
                      std::to_string(max()));
  if (sum_) {
    auto v = sum_->host_view();
    return tb_.value(n + m, v.rank(n + m, {n, m}), f);
  }
  if (one_->positions() == scoring_octal::space::heaps) return tb_.value(n, 0, f);
  scoring_octal_multisets ms(*one_);
  return tb_.value(n, ms.host_view().rank(n, multiset_of({n})), f);
}

// ------------------------------------------------------------- registration

game_entry scoring_octal_entry() {
  return {
      "scoring-octal",
      "scoring play octal game (Stewart's thesis, ch. 3): single heaps or multisets of heaps",
      "a list of heaps, '3 5 9'",
      {{"code", "octal code, one digit 0-7 per take size (e.g. 0033)", ""},
       {"points", "points per take size: digits (1234) or a comma list (1,-2,10)", ""},
       {"subtract", "subtraction set, e.g. 4,5 (points = beans taken unless --points)", ""},
       {"max", "largest heap (heaps) or total (multisets)", "64", game_option::integer},
       {"positions", "heaps (single heaps; taking-no-breaking games) or multisets (sums of heaps, total <= max)", ""}},
      driver_from<scoring_octal_driver>([](const cxxopts::ParseResult& r) {
        take_break rules = rules_from_options(r);
        std::string pos = r.count("positions") ? r["positions"].as<std::string>() : "";
        if (pos.empty()) pos = rules.breaking() ? "multisets" : "heaps";
        if (pos != "heaps" && pos != "multisets") throw input_error("--positions must be heaps or multisets");
        return scoring_octal(rules, r["max"].as<int>(),
                             pos == "heaps" ? scoring_octal::space::heaps : scoring_octal::space::multisets);
      }),
      driver_from<scoring_octal_driver>(&scoring_octal::from_params)};
}

game_entry scoring_sum_entry() {
  return {"scoring-sum",
          "two scoring octal heaps under +, conjunctive, selective or sequential sum (Stewart's thesis, ch. 4)",
          "two heaps: 'n+m' (disjunctive), 'n^m' (conjunctive), 'n v m' (selective), 'n>m' (sequential join)",
          {{"op", "disjunctive, conjunctive, selective or sequential", "disjunctive"},
           {"left", "game of heap n: CODE:POINTS (e.g. 123:123) or s:SET (subtraction set)", ""},
           {"right", "game of heap m, as --left", ""},
           {"max", "largest heap N (the table holds n, m <= N)", "64", game_option::integer}},
          driver_from<scoring_sum_driver>([](const cxxopts::ParseResult& r) {
            if (!r.count("left") || !r.count("right")) throw input_error("scoring-sum needs --left and --right");
            return scoring_sum(parse_sum_op(r["op"].as<std::string>()),
                               rules_from_text(r["left"].as<std::string>(), "--left"),
                               rules_from_text(r["right"].as<std::string>(), "--right"), r["max"].as<int>());
          }),
          driver_from<scoring_sum_driver>(&scoring_sum::from_params)};
}

}  // namespace cgtb
