// cgtb verify (cgtb/verify.hpp). Written apart from the solver on purpose:
// it includes nothing from cuda/include/cgtb/rules/, and every value rule
// below is a plain statement of its definition.
#include "cgtb/verify.hpp"

#include <omp.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bitset>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <unordered_map>

#include "cgtb/backend.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/text.hpp"

namespace cgtb {

namespace {

/// Genus fields of a file: genus1..genus7, so the states p + a*(*2) + b*(*1)
/// with a + b <= 7 are derived (36 per position).
constexpr int kHeapDepth = 7;
constexpr int kStates = (kHeapDepth + 1) * (kHeapDepth + 2) / 2;

/// Index of state (a heaps of *2, b heaps of *1): rows of a, each of length
/// kHeapDepth + 1 - a.
constexpr int state_index(int a, int b) { return a * (kHeapDepth + 1) - a * (a - 1) / 2 + b; }

/// The least value not in `seen` (the minimum excludant).
unsigned mex(const std::bitset<256>& seen) {
  unsigned v = 0;
  while (v < 256 && seen[v]) ++v;
  return v;
}

/// Marks v in `seen`; false when v cannot be a value of a file (negative or
/// over 255).
bool mark(std::bitset<256>& seen, std::int64_t v) {
  if (v < 0 || v > 255) return false;
  seen.set(static_cast<std::size_t>(v));
  return true;
}

/// Outcome class codes as files store them (docs/format.md): bit 0 = Left
/// moving first wins, bit 1 = Right moving first wins.
const char* class_letter(std::int64_t c) { return c >= 0 && c <= 3 ? &"P\0L\0R\0N"[2 * c] : "?"; }

/// A located option component: where the file stores it.
struct located {
  int level = 0;
  std::uint64_t stored = 0;  ///< rank in the file
  std::string text;
};

/// The fields of the file, by kind.
struct field_map {
  int grundy = -1, misere = -1, genus1 = -1;  // impartial
  int normal_class = -1, misere_class = -1;   // partizan
  int gs = -1;                                // scoring
  int safe = -1, winning = -1;                // blocking
};

/// One thread's reader and scratch space.
struct worker {
  explicit worker(const std::string& path) : tb(path, std::size_t{256} << 20) {}
  tablebase tb;
  std::int64_t v[kMaxFields], ov[kMaxFields];
  std::uint64_t options = 0;
  std::uint64_t genus_positions = 0;  ///< positions whose genus fields were compared
};

/// A level's derived genus states: in full runs, dense arrays over every
/// stored position and which of them are done; in sampled runs, a map
/// holding the sampled positions and their followers only.
struct state_level {
  std::vector<std::uint8_t> states;  // kStates per stored position
  std::unique_ptr<std::atomic<std::uint8_t>[]> done;
  std::unordered_map<std::uint64_t, std::array<std::uint8_t, kStates>> sparse;  // stored rank -> states
};

static_assert(kVerifyGenusStateBytes >= kStates + 8 + 16 + 8,
              "a sampled run's map holds the states, the key, the node's link and hash, and a bucket");

class verifier {
 public:
  verifier(const std::string& path, const verify_options& opt) : path_(path), opt_(opt), main_(path) {
    const auto& h = main_.tb.header();
    drv_ = driver_for_header(h);
    for (std::size_t i = 0; i < h.fields.size(); ++i) {
      const std::string& n = h.fields[i].name;
      const int f = static_cast<int>(i);
      if (n == "grundy") fm_.grundy = f;
      if (n == "misere") fm_.misere = f;
      if (n == "genus1") fm_.genus1 = f;
      if (n == "normal_class") fm_.normal_class = f;
      if (n == "misere_class") fm_.misere_class = f;
      if (n == "gs") fm_.gs = f;
      if (n == "safe") fm_.safe = f;
      if (n == "winning") fm_.winning = f;
    }
    genus_ = fm_.genus1 >= 0 && opt.genus;
  }

  verify_report run() {
    const auto t0 = std::chrono::steady_clock::now();
    verify_report rep;
    rep.failure = check_header();
    if (rep.failure.empty()) {
      for (const auto& f : main_.tb.header().fields)
        if (genus_ || f.name.rfind("genus", 0) != 0) rep.fields.push_back(f.name);
      check_levels(rep);
    }
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
  }

 private:
  /// The header against the ruleset: names, parameters, fields, levels.
  std::string check_header() const {
    const auto& h = main_.tb.header();
    if (drv_->ruleset() != h.ruleset) return "header ruleset '" + h.ruleset + "' is read as '" + drv_->ruleset() + "'";
    if (drv_->params() != h.params)
      return "header params '" + h.params + "' are not canonical (the ruleset writes '" + drv_->params() + "')";
    std::vector<field_spec> want;
    try {
      want = drv_->value_fields(h.values);
    } catch (const input_error& e) {
      return std::string("header values: ") + e.what();
    }
    auto names = [](const std::vector<field_spec>& fs) {
      std::string s;
      for (const auto& f : fs) s += (s.empty() ? "" : ",") + f.name + (f.is_signed ? ":s" : ":u");
      return s;
    };
    if (names(want) != names(h.fields))
      return "header fields " + names(h.fields) + " do not match values '" + h.values + "' (the ruleset writes " +
             names(want) + ")";
    const bool impartial = fm_.grundy >= 0 || fm_.misere >= 0;
    if (impartial && (fm_.genus1 >= 0) != (h.field_index("genus" + std::to_string(kHeapDepth)) >= 0))
      return "header holds part of the genus fields";
    std::vector<level_count> levels = drv_->table_levels();
    const auto& have = main_.tb.levels();
    if (levels.size() != have.size())
      return "file holds " + std::to_string(have.size()) + " levels; the ruleset has " + std::to_string(levels.size());
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const level_entry* le = main_.tb.find_level(levels[i].level);
      if (!le) return "file lacks level " + std::to_string(levels[i].level);
      if (levels[i].positions != kCountFoundBySolve && levels[i].positions != le->positions)
        return "level " + std::to_string(le->level) + " holds " + std::to_string(le->positions) +
               " positions; the ruleset has " + std::to_string(levels[i].positions);
    }
    if (main_.tb.keyed() && !have.empty()) {
      // The start (the empty board) is the only position of the top level.
      int top = have.front().level;
      for (const auto& l : have) top = std::max(top, l.level);
      if (main_.tb.find_level(top)->positions != 1)
        return "top level " + std::to_string(top) + " of a reachable table holds " +
               std::to_string(main_.tb.find_level(top)->positions) + " positions, not just the start";
    }
    return {};
  }

  /// Where the file stores one component of an option, found from its text
  /// alone; false with `why` set when it is not stored or does not parse
  /// back to itself.
  bool locate(worker& w, const position_ref& c, located& out, std::string& why) const {
    out.text = c.text.empty() ? drv_->format(c.level, c.rank) : c.text;
    std::vector<position_ref> back;
    try {
      back = drv_->components(drv_->parse(out.text));
    } catch (const input_error& e) {
      why = "option '" + out.text + "' does not parse: " + e.what();
      return false;
    }
    if (back.size() != 1 || back[0].level != c.level || back[0].rank != c.rank) {
      why = "option '" + out.text + "' parses to another position";
      return false;
    }
    out.level = c.level;
    const level_entry* le = w.tb.find_level(c.level);
    if (!le) {
      why = "option '" + out.text + "' is on level " + std::to_string(c.level) + ", which the file lacks";
      return false;
    }
    if (w.tb.keyed()) {
      const std::int64_t s = w.tb.rank_of_key(c.level, c.rank);
      if (s < 0) {
        why = "option '" + out.text + "' is not stored";
        return false;
      }
      out.stored = static_cast<std::uint64_t>(s);
    } else {
      if (c.rank >= le->positions) {
        why = "option '" + out.text + "' has rank " + std::to_string(c.rank) + " past its level";
        return false;
      }
      out.stored = c.rank;
    }
    return true;
  }

  /// The position stored at (level, rank) as the driver parses its text.
  position_ref stored_position(worker& w, int level, std::uint64_t rank) const {
    const std::uint64_t key = w.tb.keyed() ? w.tb.key_of(level, rank) : rank;
    return drv_->parse(drv_->format(level, key));
  }

  /// Derived genus states of the position stored at (level, stored); derives
  /// them (and, in sampled runs, those of its followers) when not yet done.
  /// Returns nullptr with `why` set on an inconsistency, or with `why` empty
  /// and out_of_states_ set when a sampled run's states pass genus_memory.
  const std::uint8_t* states_of(worker& w, int level, std::uint64_t stored, std::string& why) {
    state_level& sl = states_.at(level);
    if (sparse_) {
      const auto it = sl.sparse.find(stored);
      if (it != sl.sparse.end()) return it->second.data();
    } else if (sl.done[stored].load(std::memory_order_acquire)) {
      return &sl.states[stored * kStates];
    }
    const position_ref p = stored_position(w, level, stored);
    std::vector<located> opts;
    for (const auto& o : drv_->options(p)) {
      const auto comps = drv_->components(o.after);
      located loc;
      if (comps.size() != 1) {
        why = "option " + o.move + " of '" + p.text + "' is a sum of components, whose misère values " +
              "the table cannot give";
        return nullptr;
      }
      if (!locate(w, comps[0], loc, why)) return nullptr;
      opts.push_back(loc);
      ++w.options;
    }
    return derive_states(w, level, stored, p.text, opts, why);
  }

  /// Derives the genus states of the position stored at (level, stored),
  /// named `text`, from its options `opts` (deriving theirs first where not
  /// done).
  const std::uint8_t* derive_states(worker& w, int level, std::uint64_t stored, const std::string& text,
                                    const std::vector<located>& opts, std::string& why) {
    std::vector<const std::uint8_t*> os;
    for (const auto& loc : opts) {
      if (loc.level >= level) {
        why = "option '" + loc.text + "' of '" + text + "' lies on level " + std::to_string(loc.level) +
              ", not below level " + std::to_string(level);
        return nullptr;
      }
      const std::uint8_t* s = states_of(w, loc.level, loc.stored, why);
      if (!s) return nullptr;
      os.push_back(s);
    }
    std::array<std::uint8_t, kStates> out{};
    for (int a = 0; a <= kHeapDepth; ++a)
      for (int b = 0; a + b <= kHeapDepth; ++b) {
        std::bitset<256> seen;
        for (const std::uint8_t* s : os) seen.set(s[state_index(a, b)]);
        if (a > 0) {
          seen.set(out[state_index(a - 1, b + 1)]);  // *2 -> *1
          seen.set(out[state_index(a - 1, b)]);      // *2 -> 0
        }
        if (b > 0) seen.set(out[state_index(a, b - 1)]);  // *1 -> 0
        const unsigned v = seen.none() ? 1u : mex(seen);  // misère: no move at all wins
        if (v > 255) {
          why = "misère value of '" + text + "' beside heaps exceeds 255";
          return nullptr;
        }
        out[state_index(a, b)] = static_cast<std::uint8_t>(v);
      }
    state_level& sl = states_.at(level);
    if (sparse_) {
      if (sparse_count_ >= sparse_cap_) {
        out_of_states_ = true;
        why.clear();
        return nullptr;
      }
      ++sparse_count_;
      std::array<std::uint8_t, kStates>& kept = sl.sparse[stored];  // nodes stay put as the map grows
      kept = out;
      return kept.data();
    }
    std::uint8_t* kept = &sl.states[stored * kStates];
    std::copy(out.begin(), out.end(), kept);
    sl.done[stored].store(1, std::memory_order_release);
    return kept;
  }

  /// Derives and compares the values of the position stored at (level,
  /// rank); returns the inconsistency or "".
  std::string check_position(worker& w, int level, std::uint64_t rank) {
    w.tb.entry(level, rank, w.v);
    position_ref p;
    {
      const std::uint64_t key = w.tb.keyed() ? w.tb.key_of(level, rank) : rank;
      const std::string text = drv_->format(level, key);
      try {
        p = drv_->parse(text);
      } catch (const input_error& e) {
        return "position '" + text + "' (level " + std::to_string(level) + ", rank " + std::to_string(rank) +
               ") does not parse: " + e.what();
      }
      const std::vector<position_ref> back = drv_->components(p);
      if (back.size() != 1 || back[0].level != level || back[0].rank != key)
        return "position '" + text + "' (level " + std::to_string(level) + ", rank " + std::to_string(rank) +
               ") parses to another position";
    }
    const auto where = [&] {
      return "position '" + p.text + "' (level " + std::to_string(level) + ", rank " + std::to_string(rank) + ")";
    };
    const auto differs = [&](const std::string& field, const std::string& stored, const std::string& derived) {
      return where() + ": " + field + " stored " + stored + ", derived " + derived;
    };
    std::bitset<256> g_seen, m_seen;
    std::vector<located> singles;  // options that are one stored position
    bool left_any = false, right_any = false;
    bool nl = false, nr = false, ml = false, mr = false;  // Left/Right moving first wins, normal/misère
    std::int64_t best = 0, winning = 0;
    bool best_set = false;
    std::string why;
    const std::vector<option_ref> opts = drv_->options(p);
    for (const auto& o : opts) {
      const auto comps = drv_->components(o.after);
      std::int64_t g = 0;
      std::vector<located> locs(comps.size());
      for (std::size_t i = 0; i < comps.size(); ++i) {
        if (!locate(w, comps[i], locs[i], why)) return where() + ": " + why;
        w.tb.entry(locs[i].level, locs[i].stored, w.ov);
        ++w.options;
        if (fm_.grundy >= 0) g ^= w.ov[fm_.grundy];
      }
      if (fm_.grundy >= 0 && !mark(g_seen, g))
        return where() + ": option " + o.move + " has Grundy value " + std::to_string(g) + ", out of range";
      if (comps.size() != 1) {
        if (fm_.grundy < 0 || fm_.misere >= 0 || fm_.normal_class >= 0 || fm_.gs >= 0 || fm_.safe >= 0)
          return where() + ": option " + o.move + " is a sum of components; only Grundy values combine over sums";
        continue;
      }
      singles.push_back(locs[0]);
      if (marks_) marks_->at(locs[0].level)[locs[0].stored].store(1, std::memory_order_relaxed);
      const std::int64_t* ov = w.ov;
      if (fm_.misere >= 0 && !mark(m_seen, ov[fm_.misere]))
        return where() + ": option " + o.move + " has misère value " + std::to_string(ov[fm_.misere]) +
               ", out of range";
      if (fm_.normal_class >= 0 || fm_.misere_class >= 0) {
        const std::int64_t cn = fm_.normal_class >= 0 ? ov[fm_.normal_class] : 0;
        const std::int64_t cm = fm_.misere_class >= 0 ? ov[fm_.misere_class] : 0;
        if (o.by == mover::left || o.by == mover::either) {
          left_any = true;
          nl = nl || !(cn & 2);  // Right, moving first from the option, loses
          ml = ml || !(cm & 2);
        }
        if (o.by == mover::right || o.by == mover::either) {
          right_any = true;
          nr = nr || !(cn & 1);
          mr = mr || !(cm & 1);
        }
      }
      if (fm_.gs >= 0) {
        const std::int64_t v = static_cast<std::int64_t>(o.points) - ov[fm_.gs];
        if (!best_set || v > best) best = v;
        best_set = true;
      }
      if (fm_.safe >= 0 && ov[fm_.safe]) ++winning;
    }
    const std::int64_t* v = w.v;
    if (fm_.grundy >= 0) {
      const std::int64_t d = mex(g_seen);
      if (v[fm_.grundy] != d) return differs("Grundy value", std::to_string(v[fm_.grundy]), std::to_string(d));
    }
    if (fm_.misere >= 0) {
      const std::int64_t d = m_seen.none() ? 1 : mex(m_seen);
      if (v[fm_.misere] != d) return differs("misère Grundy value", std::to_string(v[fm_.misere]), std::to_string(d));
    }
    const std::uint8_t* s = genus_ && !out_of_states_ ? derive_states(w, level, rank, p.text, singles, why) : nullptr;
    if (genus_ && !s && !out_of_states_) return where() + ": " + why;
    if (s) {
      ++w.genus_positions;
      if (s[state_index(0, 0)] != v[fm_.misere])
        return differs("misère Grundy value", std::to_string(v[fm_.misere]), std::to_string(s[state_index(0, 0)]));
      for (int k = 1; k <= kHeapDepth; ++k)
        if (s[state_index(k, 0)] != v[fm_.genus1 + k - 1])
          return differs("genus" + std::to_string(k) + " (G- beside " + std::to_string(k) + " heaps of *2)",
                         std::to_string(v[fm_.genus1 + k - 1]), std::to_string(s[state_index(k, 0)]));
    }
    if (fm_.normal_class >= 0) {
      const std::int64_t d = (nl ? 1 : 0) | (nr ? 2 : 0);
      if (v[fm_.normal_class] != d)
        return differs("normal-play outcome class", class_letter(v[fm_.normal_class]), class_letter(d));
    }
    if (fm_.misere_class >= 0) {
      const std::int64_t d = (ml || !left_any ? 1 : 0) | (mr || !right_any ? 2 : 0);
      if (v[fm_.misere_class] != d)
        return differs("misère outcome class", class_letter(v[fm_.misere_class]), class_letter(d));
    }
    if (fm_.gs >= 0 && v[fm_.gs] != best) return differs("G_s", std::to_string(v[fm_.gs]), std::to_string(best));
    if (fm_.winning >= 0 && v[fm_.winning] != winning)
      return differs("winning options", std::to_string(v[fm_.winning]), std::to_string(winning));
    if (fm_.safe >= 0) {
      const std::int64_t d = static_cast<std::uint64_t>(winning) <= drv_->blocked_options(p) ? 1 : 0;
      if (v[fm_.safe] != d) return differs("safe", std::to_string(v[fm_.safe]), std::to_string(d));
    }
    return {};
  }

  /// Ranks of level `le` to check: all, or a sorted random sample.
  std::vector<std::uint64_t> ranks_to_check(const level_entry& le) const {
    std::vector<std::uint64_t> r;
    if (opt_.sample == 0 || opt_.sample >= le.positions) return r;  // empty: every rank
    std::mt19937_64 rng(opt_.seed * 1000003u + static_cast<std::uint64_t>(le.level));
    std::uniform_int_distribution<std::uint64_t> pick(0, le.positions - 1);
    for (std::uint64_t i = 0; i < opt_.sample; ++i) r.push_back(pick(rng));
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
  }

  void check_levels(verify_report& rep) {
    tablebase& tb = main_.tb;
    std::vector<level_entry> levels = tb.levels();
    std::sort(levels.begin(), levels.end(),
              [](const level_entry& a, const level_entry& b) { return a.level < b.level; });
    const bool full = opt_.sample == 0;
    // Sampled runs of genus tables derive followers' states on demand, which
    // one thread does; everything else runs a level's positions in parallel
    // (their options lie on lower levels, done before).
    int threads = opt_.threads > 0 ? opt_.threads : omp_get_max_threads();
    if (genus_ && !full) threads = 1;
    sparse_ = genus_ && !full;
    if (sparse_) {
      const std::size_t budget = opt_.genus_memory ? opt_.genus_memory : detail::host_available_bytes() / 2;
      sparse_cap_ = budget / kVerifyGenusStateBytes;
      for (const auto& l : levels) states_[l.level];
    } else if (genus_) {
      std::uint64_t total = 0;
      for (const auto& l : levels) total += l.positions;
      struct sysinfo si {};
      const std::uint64_t bytes = total * (kStates + 1);
      if (sysinfo(&si) == 0 && bytes > static_cast<std::uint64_t>(si.totalram) * si.mem_unit / 4 * 3)
        throw resource_error("verifying the genus of " + std::to_string(total) + " positions needs " +
                             std::to_string(bytes >> 20) +
                             " MB of genus states, more than this machine has (--no-genus checks the other values)");
      for (const auto& l : levels) {
        state_level& sl = states_[l.level];
        sl.states.assign(l.positions * kStates, 0);
        sl.done.reset(new std::atomic<std::uint8_t>[l.positions]());
      }
    }
    int top = levels.empty() ? 0 : levels.back().level;
    if (full && tb.keyed()) {
      marks_ = std::make_unique<std::map<int, std::unique_ptr<std::atomic<std::uint8_t>[]>>>();
      for (const auto& l : levels) (*marks_)[l.level].reset(new std::atomic<std::uint8_t>[l.positions]());
    }
    std::vector<std::unique_ptr<worker>> workers;
    for (int t = 0; t < threads; ++t) workers.push_back(std::make_unique<worker>(path_));
    for (const auto& le : levels) {
      const auto lt0 = std::chrono::steady_clock::now();
      const std::vector<std::uint64_t> sample = ranks_to_check(le);
      const std::uint64_t n = sample.empty() && (full || opt_.sample >= le.positions) ? le.positions : sample.size();
      const std::uint64_t chunk = std::max<std::uint64_t>(1, tb.header().block_entries);
      const std::int64_t chunks = static_cast<std::int64_t>((n + chunk - 1) / chunk);
      std::uint64_t first_bad = ~0ull;
      std::string failure, error;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
      for (std::int64_t c = 0; c < chunks; ++c) {
        worker& w = *workers[static_cast<std::size_t>(omp_get_thread_num())];
        const std::uint64_t lo = static_cast<std::uint64_t>(c) * chunk, hi = std::min(n, lo + chunk);
        for (std::uint64_t i = lo; i < hi; ++i) {
          const std::uint64_t r = sample.empty() ? i : sample[i];
          std::string bad;
          try {
            bad = check_position(w, le.level, r);
          } catch (const input_error& e) {
#pragma omp critical
            error = e.what();
            break;
          }
          if (!bad.empty()) {
#pragma omp critical
            if (r < first_bad) {
              first_bad = r;
              failure = bad;
            }
            break;
          }
        }
      }
      if (!error.empty()) throw input_error(error);
      rep.positions += n;
      if (out_of_states_ && genus_) {
        rep.genus_left_out_from = le.level;
        // The genus of this level's sample needs more states than
        // genus_memory: leave it out from here up, and free the states.
        genus_ = false;
        sparse_count_ = 0;
        for (auto& [l, sl] : states_)
          std::unordered_map<std::uint64_t, std::array<std::uint8_t, kStates>>().swap(sl.sparse);
        progress_line(opt_.progress,
                      "[cgtb] verify level %d: the genus states of the sample pass %s; genus left out from here up",
                      le.level, bytes_text(static_cast<double>(sparse_cap_ * kVerifyGenusStateBytes)).c_str());
      }
      if (!failure.empty()) {
        rep.failure = failure;
        break;
      }
      if (opt_.progress) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - lt0).count();
        progress_line(opt_.progress, "[cgtb] verify level %d: %llu positions agree (%.2f s)", le.level,
                      static_cast<unsigned long long>(n), s);
      }
    }
    for (const auto& w : workers) {
      rep.options += w->options;
      rep.genus_positions += w->genus_positions;
    }
    if (rep.failure.empty() && marks_) {
      for (const auto& le : levels) {
        if (le.level == top) continue;
        const auto& m = (*marks_)[le.level];
        for (std::uint64_t r = 0; r < le.positions; ++r)
          if (!m[r].load(std::memory_order_relaxed)) {
            rep.failure = "position '" + stored_position(main_, le.level, r).text + "' (level " +
                          std::to_string(le.level) + ", rank " + std::to_string(r) +
                          ") is stored but is no option of a stored position";
            return;
          }
      }
      rep.exact_index = true;
    }
  }

  std::string path_;
  verify_options opt_;
  worker main_;
  std::unique_ptr<game_driver> drv_;
  field_map fm_;
  bool genus_ = false;
  bool sparse_ = false;         ///< sampled genus run: states kept in maps
  std::size_t sparse_cap_ = 0;  ///< positions' states the maps may hold
  std::size_t sparse_count_ = 0;
  bool out_of_states_ = false;  ///< the maps reached sparse_cap_
  std::map<int, state_level> states_;
  std::unique_ptr<std::map<int, std::unique_ptr<std::atomic<std::uint8_t>[]>>> marks_;
};

}  // namespace

verify_report verify_tablebase(const std::string& path, const verify_options& options) {
  verifier v(path, options);
  return v.run();
}

}  // namespace cgtb
