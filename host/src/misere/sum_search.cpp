// The sum search (cgtb/misere_sum.hpp): what the solver knows of each
// component, the theorem shortcuts, the misère search with its memo, and
// the answers of sum_solver. Components come from their sources
// (component_source.hpp); nothing here depends on a component's kind.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "cgtb/error.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/misere_sum.hpp"
#include "component_source.hpp"
#include "sum_memo.hpp"

namespace cgtb {

using misere_detail::component;
using misere_detail::component_info;
using misere_detail::heredity;
using misere_detail::nim_heap_component;
using misere_detail::shape;
using misere_detail::sum_term;

/// The solver's state: the sources, what is known of each component, the
/// memos and counters.
struct sum_solver::impl {
  explicit impl(sum_settings s) : set(s), sources(set, [this](component c) { return options_of(c).second != 0; }) {}

  sum_settings set;
  misere_detail::component_sources sources;
  std::unordered_map<component, std::uint32_t> q_element;  // shortcut (4): a proven quotient
  std::vector<std::uint32_t> q_table;
  std::vector<char> q_p;
  std::uint32_t q_order = 0;
  std::unordered_map<component, component_info> info;
  misere_detail::option_arena option_arena;  // per option: count, then its parts
  misere_detail::sum_memo memo;
  sum_stats st;

  // ------------------------------------------------------- the components

  /// What is known of c, asked of its source the first time.
  component_info& info_of(component c) {
    auto it = info.find(c);
    if (it != info.end()) return it->second;
    const component_info ci = sources.of(c).describe(c, option_arena);
    ++st.components;
    return info.emplace(c, ci).first->second;
  }

  /// (first option offset, option count) of c.
  std::pair<std::uint32_t, std::uint32_t> options_of(component c) {
    const component_info& ci = info_of(c);
    return {ci.first_option, ci.options};
  }

  /// Genus of the sum s: its nim-sum and gamma_k = G-(s + k*2), k = 0..7
  /// (Winning Ways ch. 13), every value searched.
  genus genus_of_sum(std::vector<component> s) {
    genus gn;
    gn.g = static_cast<unsigned>(nim_sum(s));
    std::sort(s.begin(), s.end());
    for (int k = 0; k <= 7; ++k) {
      gn.run.push_back(misere_value(s));
      s.insert(s.begin(), nim_heap_component(2));  // heaps sort first
    }
    return gn;
  }

  /// Fills in the genus of a component whose source stores none (a Cram
  /// region or an octal heap) and is small enough (the source says), the
  /// first time it is asked: misère value searches of the component beside
  /// 0..7 heaps of *2, every option searched. No-op for others.
  void searched_genus(component c) {
    const misere_detail::component_source& src = sources.of(c);
    if (!src.genus_searched()) return;
    component_info& ci = info_of(c);
    if (ci.genus_tried) return;
    ci.genus_tried = true;
    if (!src.genus_within_reach(c)) return;
    const genus gn = genus_of_sum({c});
    component_info& done = info_of(c);
    misere_detail::set_genus(done, gn);
    done.misere = static_cast<std::int16_t>(gn.run[0]);
  }

  /// True when c and every position it can reach are tame.
  bool hereditarily_tame(component c) {
    searched_genus(c);
    component_info& ci = info_of(c);
    if (ci.hereditary == heredity::tame) return true;
    if (ci.hereditary != heredity::unknown) return false;
    if (ci.kind != shape::fickle && ci.kind != shape::firm) {
      ci.hereditary = heredity::not_tame;
      return false;
    }
    ci.hereditary = heredity::in_progress;
    const std::uint32_t first = ci.first_option, n = ci.options;
    bool tame = true;
    std::uint32_t at = first;
    for (std::uint32_t i = 0; i < n && tame; ++i) {
      const std::uint64_t parts = option_arena[at++];
      for (std::uint64_t j = 0; j < parts && tame; ++j) tame = hereditarily_tame(option_arena[at + j]);
      at += static_cast<std::uint32_t>(parts);
    }
    info_of(c).hereditary = tame ? heredity::tame : heredity::not_tame;
    return tame;
  }

  /// Normal-play Grundy value of c: known to its source (a heap's size),
  /// stored, or the mex of its options' nim-sums (computed once).
  std::uint64_t grundy_of(component c) {
    const std::int64_t known = sources.of(c).plain_grundy(c);
    if (known >= 0) return static_cast<std::uint64_t>(known);
    component_info& ci = info_of(c);
    if (ci.grundy >= 0) return static_cast<std::uint64_t>(ci.grundy);
    std::vector<bool> seen(ci.options + 1, false);
    std::uint32_t at = ci.first_option;
    for (std::uint32_t k = 0; k < ci.options; ++k) {
      std::uint64_t x = 0;
      const std::uint64_t parts = option_arena[at];
      for (std::uint64_t j = 0; j < parts; ++j) x ^= grundy_of(option_arena[at + 1 + j]);
      if (x < seen.size()) seen[x] = true;
      at += 1 + static_cast<std::uint32_t>(parts);
    }
    std::uint64_t g = 0;
    while (seen[g]) ++g;
    info_of(c).grundy = static_cast<std::int64_t>(g);
    return g;
  }

  /// Normal-play Grundy value of the sum s (Sprague-Grundy: the nim-sum).
  std::uint64_t nim_sum(const std::vector<component>& s) {
    std::uint64_t x = 0;
    for (component c : s) x ^= grundy_of(c);
    return x;
  }

  // ------------------------------------------------------------ the search

  /// The theorems of sum_solver's docstring: 1 = the mover wins, 0 = loses,
  /// -1 = no shortcut applies. `s` is sorted, without terminal components.
  int shortcut(const component* s, std::size_t n) {
    if (q_order) {  // (4) a proven quotient (Plambeck and Siegel)
      std::uint32_t x = 0;
      std::size_t i = 0;
      for (; i < n; ++i) {
        const auto it = q_element.find(s[i]);
        if (it == q_element.end()) break;
        x = q_table[static_cast<std::size_t>(x) * q_order + it->second];
      }
      if (i == n) {
        ++st.by_quotient;
        return q_p[x] ? 0 : 1;
      }
    }
    for (std::size_t i = 0; i < n; ++i) searched_genus(s[i]);
    if (n == 1 && info_of(s[0]).misere >= 0) {  // (1) one component
      ++st.by_value;
      return info_of(s[0]).misere != 0;
    }
    // (2) X beside k heaps of *2 (the sort puts heaps first; a Nim heap X
    // has no genus run, so only a component with a genus is decided here).
    std::size_t twos = 0;
    while (twos < n && s[twos] == nim_heap_component(2)) ++twos;
    if (twos == n - 1 && twos <= 7) {
      const component_info& ci = info_of(s[n - 1]);
      if (ci.has_run) {
        ++st.by_genus_run;
        return ci.run[twos] != 0;
      }
    }
    // (3) every component hereditarily tame (Winning Ways ch. 13).
    for (std::size_t i = 0; i < n; ++i) {
      const shape k = info_of(s[i]).kind;
      if (k != shape::fickle && k != shape::firm) return -1;
    }
    std::uint64_t x = 0;
    bool firm = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!hereditarily_tame(s[i])) return -1;
      const component_info& ci = info_of(s[i]);
      x ^= static_cast<std::uint64_t>(ci.grundy);
      firm = firm || ci.kind == shape::firm;
    }
    ++st.by_tame;
    const bool p_position = firm ? x == 0 : x == 1;
    return p_position ? 0 : 1;
  }

  /// Calls f(next) for every sum one move from s (sorted, terminal
  /// components dropped; equal components moved once) until f returns true;
  /// returns whether it did. Options a source makes on the fly (Nim heaps)
  /// are made here, the others read from the option arena.
  template <class F>
  bool for_each_child(const std::vector<component>& s, F&& f) {
    std::vector<component> next, parts;
    auto rest = [&](std::size_t i) {
      next.clear();
      for (std::size_t j = 0; j < s.size(); ++j)
        if (j != i) next.push_back(s[j]);
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i > 0 && s[i] == s[i - 1]) continue;  // equal components have the same moves
      const misere_detail::component_source& src = sources.of(s[i]);
      if (src.generates_options()) {
        const std::uint64_t count = src.generated_options(s[i]);
        for (std::uint64_t k = 0; k < count; ++k) {
          rest(i);
          parts.clear();
          src.generated_option(s[i], k, parts);
          next.insert(next.end(), parts.begin(), parts.end());
          std::sort(next.begin(), next.end());
          if (f(next)) return true;
        }
        continue;
      }
      const auto [first, count] = options_of(s[i]);
      std::uint32_t at = first;
      for (std::uint32_t k = 0; k < count; ++k) {
        rest(i);
        const std::uint64_t n = option_arena[at];
        for (std::uint64_t j = 0; j < n; ++j) {
          const component p = option_arena[at + 1 + j];
          if (options_of(p).second) next.push_back(p);
        }
        std::sort(next.begin(), next.end());
        if (f(next)) return true;
        at += 1 + static_cast<std::uint32_t>(option_arena[at]);
      }
    }
    return false;
  }

  /// True when the player to move wins the misère sum s (sorted, without
  /// terminal components).
  bool win(const std::vector<component>& s) {
    if (s.empty()) return true;  // no move: the player to move wins misère play
    if (set.shortcuts) {
      const int r = shortcut(s.data(), s.size());
      if (r >= 0) return r == 1;
    }
    const int m = memo.find(s.data(), s.size());
    if (m >= 0) {
      ++st.memo_hits;
      return m == 1;
    }
    ++st.expanded;
    const bool result = for_each_child(s, [&](const std::vector<component>& next) { return !win(next); });
    if (memo.bytes() > set.memo_bytes) {
      memo.clear();
      ++st.memo_clears;
    }
    memo.insert(s.data(), s.size(), result);
    return result;
  }

  /// True when the player to move wins the misère sum s (any order).
  bool misere_win_of(std::vector<component> s) {
    std::sort(s.begin(), s.end());
    return win(s);
  }

  /// Hash of a sorted sum, for value_memo.
  struct parts_hash {
    std::size_t operator()(const std::vector<component>& k) const {
      std::uint64_t h = k.size();
      for (component x : k) {
        h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
      }
      return static_cast<std::size_t>(h ^ (h >> 31));
    }
  };
  std::unordered_map<std::vector<component>, std::uint8_t, parts_hash> value_memo;  // misère values of sums

  /// Misère Grundy value of the sum s (sorted, without terminal components):
  /// the mex of its options' values, 1 with no option (Winning Ways ch. 13).
  /// Throws resource_error for a value past 255.
  unsigned misere_value(const std::vector<component>& s) {
    if (s.empty()) return 1;
    auto it = value_memo.find(s);
    if (it != value_memo.end()) return it->second;
    std::vector<bool> seen(256, false);
    for_each_child(s, [&](const std::vector<component>& next) {
      const unsigned v = misere_value(next);
      if (v < 256) seen[v] = true;
      return false;
    });
    unsigned v = 0;
    while (v < 256 && seen[v]) ++v;
    if (v > 255) throw resource_error("a misère Grundy value past 255");
    value_memo.emplace(s, static_cast<std::uint8_t>(v));
    return v;
  }

  // --------------------------------------------------------------- a sum

  using terms = std::vector<std::unique_ptr<sum_term>>;

  /// Reads every term (component_sources::parse); throws input_error for
  /// no term or a bad one.
  terms parse_terms(const std::vector<std::string>& raw) {
    if (raw.empty()) throw input_error("a sum needs at least one term (FILE:POSITION or *n)");
    terms out;
    for (const auto& t : raw) out.push_back(sources.parse(t));
    return out;
  }

  /// The components of every term but the one numbered `skip`.
  static std::vector<component> all_parts(const terms& ts, std::size_t skip) {
    std::vector<component> s;
    for (std::size_t i = 0; i < ts.size(); ++i)
      if (i != skip) s.insert(s.end(), ts[i]->parts.begin(), ts[i]->parts.end());
    return s;
  }

  /// sum_solver::solve: the outcomes by the conventions asked for, then
  /// each term's moves tried for the winning ones.
  sum_answer solve(const std::vector<std::string>& raw) {
    const std::uint64_t expanded0 = st.expanded;
    const terms ts = parse_terms(raw);
    sum_answer a;
    for (const auto& t : ts) a.text += (a.text.empty() ? "" : " + ") + t->text;
    a.normal = set.normal;
    a.misere = set.misere;
    a.moves_listed = set.winning_moves;
    const std::vector<component> whole = all_parts(ts, ts.size());
    if (set.normal) {
      a.grundy = nim_sum(whole);
      a.normal_outcome = a.grundy ? 'N' : 'P';
    }
    if (set.misere) a.misere_outcome = misere_win_of(whole) ? 'N' : 'P';
    const bool moves_wanted =
        set.winning_moves && ((set.normal && a.normal_outcome == 'N') || (set.misere && a.misere_outcome == 'N'));
    for (std::size_t i = 0; i < ts.size() && moves_wanted; ++i) {
      const std::vector<component> rest = all_parts(ts, i);
      ts[i]->for_each_move([&](const std::string& move, const std::string& after, const std::vector<component>& parts) {
        std::vector<component> s = rest;
        s.insert(s.end(), parts.begin(), parts.end());
        if (set.normal && a.normal_outcome == 'N' && nim_sum(s) == 0) a.normal_winning.push_back({i + 1, move, after});
        if (set.misere && a.misere_outcome == 'N' && !misere_win_of(s))
          a.misere_winning.push_back({i + 1, move, after});
      });
    }
    a.searched = st.expanded - expanded0;
    return a;
  }
};

sum_solver::sum_solver(sum_settings s) : impl_(std::make_unique<impl>(s)) {}
sum_solver::~sum_solver() = default;

sum_answer sum_solver::solve(const std::vector<std::string>& terms) { return impl_->solve(terms); }

bool sum_solver::misere_win(const std::vector<std::string>& terms) {
  if (!impl_->set.misere) throw input_error("this solver was made for normal play only");
  return impl_->misere_win_of(impl_->all_parts(impl_->parse_terms(terms), terms.size()));
}

std::vector<std::uint64_t> sum_solver::components_of(const std::string& term) {
  return impl_->sources.parse(term)->parts;
}

bool sum_solver::misere_win_of(std::vector<std::uint64_t> components) {
  return impl_->misere_win_of(std::move(components));
}

unsigned sum_solver::misere_value_of(std::vector<std::uint64_t> components) {
  std::sort(components.begin(), components.end());
  return impl_->misere_value(components);
}

void sum_solver::use_quotient(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& element,
                              std::vector<std::uint32_t> table, std::vector<char> p_portion) {
  if (table.size() != p_portion.size() * p_portion.size())
    throw std::invalid_argument("use_quotient: the table is not order x order");
  impl_->q_element.clear();
  for (const auto& [c, x] : element) {
    if (x >= p_portion.size()) throw std::invalid_argument("use_quotient: an element past the order");
    impl_->q_element[c] = x;
  }
  impl_->q_table = std::move(table);
  impl_->q_p = std::move(p_portion);
  impl_->q_order = static_cast<std::uint32_t>(impl_->q_p.size());
}

std::vector<std::vector<std::uint64_t>> sum_solver::options(std::uint64_t c) {
  std::vector<std::vector<std::uint64_t>> out;
  impl_->for_each_child({c}, [&](const std::vector<std::uint64_t>& next) {
    out.push_back(next);
    return false;
  });
  return out;
}

bool sum_solver::hereditarily_tame(std::uint64_t c) { return impl_->hereditarily_tame(c); }

genus sum_solver::sum_genus(const std::vector<std::uint64_t>& components) { return impl_->genus_of_sum(components); }

std::uint64_t sum_solver::grundy_of(const std::vector<std::uint64_t>& components) { return impl_->nim_sum(components); }

sum_stats sum_solver::stats() const {
  sum_stats s = impl_->st;
  s.memo_entries = impl_->memo.entries();
  return s;
}

std::size_t sum_solver::memory_bytes() const {
  return impl_->memo.bytes() + impl_->option_arena.capacity() * sizeof(component) + impl_->value_memo.size() * 64 +
         impl_->info.size() * (sizeof(component_info) + 3 * sizeof(void*));
}

}  // namespace cgtb
