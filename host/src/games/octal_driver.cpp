// `cgtb build octal`: octal games (cgtb/games/octal.hpp). With --max-heap N
// the normal Grundy sequence of single heaps 0..N by the sparse-space solver
// (cgtb/octal_sequence.hpp; a sum of heaps is worth the XOR of its heaps);
// with --max-total T every multiset of heaps of total <= T with normal,
// misère and genus values (impartial_driver).
#include <cxxopts.hpp>

#include "cgtb/games/octal.hpp"
#include "cgtb/impartial_driver.hpp"
#include "cgtb/octal_sequence.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

namespace {

/// The value kinds of a single-heap sequence: normal play only (the misère
/// values and genus do not decompose over heaps). Throws input_error.
value_choice normal_only(const std::string& values) {
  const value_choice c = value_choice::parse("impartial", values.empty() || values == "all" ? "normal" : values);
  if (c.text() != "normal")
    throw input_error("--values " + values +
                      ": the single-heap sequence (--max-heap) holds normal values only; use --max-total for " +
                      "misere values and genus");
  return c;
}

/// The parameters of a single-heap sequence: the code and the largest heap.
class octal_heap {
 public:
  static constexpr const char* ruleset_name = "octal";
  /// Throws input_error for a heap bound over kMaxSequenceHeap.
  octal_heap(const take_break& code, long long max_heap) : code_(code) {
    if (max_heap < 0 || static_cast<std::uint64_t>(max_heap) > kMaxSequenceHeap)
      throw input_error("--max-heap " + std::to_string(max_heap) + " is out of range (0 .. " +
                        std::to_string(kMaxSequenceHeap) + ")");
    max_heap_ = static_cast<std::uint64_t>(max_heap);
  }
  std::string params() const { return code_.octal_text() + "-heap" + std::to_string(max_heap_); }
  const take_break& code() const { return code_; }
  std::uint64_t max_heap() const { return max_heap_; }

 private:
  take_break code_;
  std::uint64_t max_heap_;
};

/// The single-heap sequence file: one level (0) of N+1 entries, entry n =
/// G(heap n), field "grundy" (docs/format.md, "Sequences"), computed by
/// octal_sequence.
class octal_sequence_driver : public owner_driver<octal_heap> {
 public:
  using owner_driver::owner_driver;

  std::vector<level_count> table_levels() const override { return {{0, game_.max_heap() + 1}}; }
  std::vector<std::string> analyses() const override { return {"period", "sequence"}; }
  int sequence_max_take() const override { return game_.code().max_take; }
  /// `cgtb period`: the period proven by the octal periodicity theorem and
  /// the sparse space of the values; exit status 0 when proven, 4 when not.
  int period(tablebase& tb, const period_request&, std::ostream& out) const override {
    const take_break& code = game_.code();
    const std::vector<std::uint16_t> s = read_octal_sequence(tb);
    out << "octal " << code.octal_text() << ", heaps 0.." << s.size() - 1 << "\n";
    const octal_period p = prove_octal_period(s.data(), s.size(), code.max_take);
    out << "G(n): " << p.text() << "\n";
    value_histogram h;
    for (std::uint64_t n = 0; n < s.size(); ++n) h.add(n, s[n]);
    out << "sparse space: " << sparse_space_of(s.data(), s.size(), best_split(h, split_takes(code))).text() << "\n";
    return p.proven ? 0 : 4;
  }
  std::string analysis_hint(const std::string& analysis) const override {
    if (analysis != "census" && analysis != "classify") return "";
    return "a single-heap sequence (--max-heap) holds no positions of several heaps; build octal with --max-total";
  }
  std::vector<field_spec> value_fields(const std::string& values) const override {
    return normal_only(values).fields();
  }
  /// A list of heaps is the sum of single heaps (level 0, rank = the heap).
  bool splits_into_components() const override { return true; }
  std::vector<position_ref> components(const position_ref& p) const override {
    std::vector<position_ref> out;
    for (int h : parse_heap_list(p.text, game_.max_heap()))
      if (h > 0) out.push_back({0, static_cast<std::uint64_t>(h), std::to_string(h)});
    if (out.empty()) out.push_back({0, 0, "0"});  // no beans: the empty heap
    return out;
  }

  void build(const build_request& req) const override {
    if (req.solve.backend == backend_kind::cuda)
      throw input_error(
          "the single-heap sequence (--max-heap) is computed on the CPU (the sparse-space solver has no "
          "CUDA path); drop --backend cuda");
    const tablebase_header h = build_header(octal_heap::ruleset_name, game_.params(), normal_only(req.values), req);
    check_build_output(req);
    sequence_options so;
    so.threads = req.solve.threads;
    so.progress = req.reporter();
    so.label = "octal " + game_.code().octal_text();
    sequence_report rep;
    const std::vector<std::uint16_t> seq = octal_sequence(game_.code(), game_.max_heap(), so, &rep);
    tablebase_writer w(req.output, h);
    w.add_level(0, seq.size(), [&](std::uint64_t i, int) { return static_cast<std::int64_t>(seq[i]); });
    w.finish();
    if (req.stats) {
      level_report sum;
      sum.level = 0;
      sum.positions = seq.size();
      sum.options = rep.pairs;
      sum.seconds = rep.seconds;
      std::cout << "sequence: " << seq.size() << " heaps, sparse space: " << rep.space.text() << ", " << rep.pairs
                << " two-heap options examined";
      if (rep.extended_from)
        std::cout << "; heaps " << rep.extended_from << ".." << seq.size() - 1 << " written from the proven period "
                  << rep.period << " (preperiod " << rep.preperiod << ")";
      std::cout << "\n";
      print_build_stats(std::cout, {sum}, rep.seconds, req.output, w.bytes_written());
    }
  }

  position_ref parse(const std::string& text) const override {
    auto heaps = parse_heap_list(text, game_.max_heap());
    std::string s;
    std::sort(heaps.rbegin(), heaps.rend());
    for (int x : heaps) s += (s.empty() ? "" : " ") + std::to_string(x);
    return {-1, 0, s.empty() ? "0" : s};
  }

  std::string format(int level, std::uint64_t rank) const override {
    if (level != 0 || rank > game_.max_heap())
      throw input_error("no heap of size " + std::to_string(rank) + " in this sequence (level " +
                        std::to_string(level) + ")");
    return std::to_string(rank);
  }

  std::vector<option_ref> options(const position_ref& p) const override {
    std::vector<option_ref> out;
    auto heaps = parse_heap_list(p.text, game_.max_heap());
    for (std::size_t i = 0; i < heaps.size(); ++i) {
      if (i > 0 && heaps[i] == heaps[i - 1]) continue;
      game_.code().for_each_move(heaps[i], [&](int b, int c, std::int32_t) {
        std::vector<int> q = heaps;
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(i));
        if (b) q.push_back(b);
        if (c) q.push_back(c);
        std::string t;
        for (int x : q) t += (t.empty() ? "" : " ") + std::to_string(x);
        out.push_back({octal_move_text(heaps[i], b, c), parse(t.empty() ? "0" : t)});
      });
    }
    return out;
  }

  void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const override {
    const int fg = tb.header().field_index(cgtb::field_name::grundy);
    auto G = [&](const std::string& text) {
      std::int64_t x = 0;
      for (int h : parse_heap_list(text, game_.max_heap())) x ^= tb.value(0, static_cast<std::uint64_t>(h), fg);
      return x;
    };
    const std::int64_t g = G(p.text);
    std::vector<std::string> win;
    for (const auto& o : options(p))
      if (G(o.after.text) == 0) win.push_back(o.move);
    nlohmann::ordered_json j;
    j["position"] = p.text;
    j["grundy"] = g;
    j["normal_outcome"] = g ? "N" : "P";
    put_move_list(j, "normal_winning_moves", win, max_moves());
    const std::string ws = move_list_text(win, max_moves(), " ");
    if (json)
      out << json_text(j) << "\n";
    else
      out << p.text << "\n  normal  Grundy value " << g << " (XOR of the heaps' values), outcome " << (g ? "N" : "P")
          << ", winning moves: " << (ws.empty() ? "none" : ws) << "\n";
  }

 private:
};

std::unique_ptr<game_driver> make_octal(const std::string& code, long long max_heap, long long max_total) {
  take_break c = take_break::parse_octal(code);
  if ((max_heap >= 0) == (max_total >= 0))
    throw input_error("octal needs exactly one of --max-heap N (single-heap sequence) or --max-total T (positions " +
                      std::string("of several heaps)"));
  if (max_heap >= 0) return std::make_unique<octal_sequence_driver>(octal_heap(c, max_heap));
  if (max_total > kOctalMaxHeap)
    throw input_error("--max-total " + std::to_string(max_total) + " is out of range (0 .. " +
                      std::to_string(kOctalMaxHeap) + ")");
  return std::make_unique<impartial_driver<octal>>(octal(c, static_cast<int>(max_total)));
}

}  // namespace

game_entry octal_entry() {
  game_entry e;
  e.name = "octal";
  e.summary = "octal games: Grundy sequence of single heaps (--max-heap) or several heaps (--max-total)";
  e.position_syntax = "a list of heaps, '3 5 9' (or 3,5,9 or 3+5+9; 0 the empty position)";
  e.options = {
      {"code", "octal code D.DDD (e.g. 0.07 Dawson's Kayles, 0.137 Dawson's chess, 4.7)", "0.07"},
      {"max-heap", "normal Grundy sequence of single heaps 0..N", "", game_option::wide_integer},
      {"max-total", "every position of several heaps with total <= T (T <= 63)", "", game_option::wide_integer}};
  e.from_options = [](const cxxopts::ParseResult& r) -> std::unique_ptr<game_driver> {
    for (const char* opt : {"max-heap", "max-total"})
      if (r.count(opt) && r[opt].as<long long>() < 0)
        throw input_error(std::string("--") + opt + " " + std::to_string(r[opt].as<long long>()) +
                          " is negative (give 0 or more)");
    return make_octal(r["code"].as<std::string>(), r.count("max-heap") ? r["max-heap"].as<long long>() : -1,
                      r.count("max-total") ? r["max-total"].as<long long>() : -1);
  };
  e.from_params = [](const std::string& params) -> std::unique_ptr<game_driver> {
    auto dash = params.rfind('-');
    if (dash == std::string::npos) throw input_error("octal parameters '" + params + "' are malformed");
    std::string code = params.substr(0, dash), rest = params.substr(dash + 1);
    auto num = [&](std::size_t skip) { return std::atoll(rest.c_str() + skip); };
    if (rest.rfind("heap", 0) == 0) return make_octal(code, num(4), -1);
    if (rest.rfind("total", 0) == 0) return make_octal(code, -1, num(5));
    throw input_error("octal parameters '" + params + "' are malformed");
  };
  return e;
}

}  // namespace cgtb
