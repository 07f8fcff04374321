// The search of `cgtb search cram` (cgtb/cram_search.hpp).
#include "cgtb/cram_search.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <new>
#include <tuple>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/cram_components.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/tablebase_writer.hpp"
#include "cgtb/text.hpp"

namespace cgtb {

namespace {

/// Thrown through the search when it must stop (time limit, interrupt).
struct search_stopped {};

/// One region of the transposition table: 32 bytes.
struct tt_entry {
  std::uint64_t lo = 0, hi = 0;     ///< the canonical region's cells
  std::uint64_t excluded = 0;       ///< bit v: G is not v
  std::uint32_t work = 0;           ///< nodes its searches took (saturating): what a replacement keeps
  std::uint8_t rows = 0, cols = 0;  ///< rows 0: an empty slot
  std::uint8_t exact = kUnknown;    ///< G, or kUnknown
  std::uint8_t age = 0;             ///< the solve() that last stored it
  static constexpr std::uint8_t kUnknown = 255;
  bool holds(const region128& r) const {
    return rows == r.rows && cols == r.cols && lo == r.cells.lo && hi == r.cells.hi;
  }
};
static_assert(sizeof(tt_entry) == 32, "a transposition table entry is 32 bytes");

/// The bounded transposition table: buckets of 4 entries, a lock per 64
/// buckets. A full bucket gives up the entry of an older solve(), else the
/// one whose searches took the least work.
class transposition_table {
 public:
  static constexpr int kWays = 4;
  explicit transposition_table(std::size_t bytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * kWays * sizeof(tt_entry) <= bytes) buckets *= 2;
    count_ = buckets * kWays;
    try {
      slots_ = zeroed_host_pages<tt_entry>(count_);  // huge pages: probes land at random
    } catch (const resource_error&) {
      throw resource_error("the transposition table of " + bytes_text(static_cast<double>(bytes)) +
                           " cannot be allocated (--tt-memory)");
    }
    mask_ = buckets - 1;
    locks_ = std::vector<std::atomic<bool>>((buckets + 63) / 64);
  }
  std::size_t capacity() const { return count_; }
  const tt_entry* slots() const { return slots_.get(); }
  /// Puts back an entry read from a file (any capacity): as store() does.
  void put_back(const tt_entry& e) {
    const region128 r{cells128{e.lo, e.hi}, e.rows, e.cols};
    store(r, e.exact == tt_entry::kUnknown ? 64 : e.exact, e.excluded, e.work);
  }
  std::uint64_t entries() const { return entries_.load(std::memory_order_relaxed); }
  std::size_t bytes() const { return count_ * sizeof(tt_entry); }
  void next_age() { ++age_; }

  /// The entry of r, or false.
  bool find(const region128& r, tt_entry& out) {
    const std::size_t b = bucket(r);
    const spin_guard g(locks_[b / 64]);
    for (int i = 0; i < kWays; ++i) {
      const tt_entry& e = slots_[b * kWays + static_cast<std::size_t>(i)];
      if (e.rows && e.holds(r)) {
        out = e;
        return true;
      }
    }
    return false;
  }
  /// Adds what is known of r: its value (exact < 64) or more excluded values.
  void store(const region128& r, unsigned exact, std::uint64_t excluded, std::uint64_t work) {
    const std::size_t b = bucket(r);
    const spin_guard g(locks_[b / 64]);
    // r's own entry, else the slot to give up: an empty one, else one of an
    // earlier solve(), else the one whose searches took the least work.
    auto keep_score = [this](const tt_entry& e) { return std::make_tuple(e.rows != 0, e.age == age_, e.work); };
    tt_entry* victim = nullptr;
    for (int i = 0; i < kWays; ++i) {
      tt_entry& e = slots_[b * kWays + static_cast<std::size_t>(i)];
      if (e.holds(r)) {  // an empty slot holds nothing: r has at least one row
        victim = &e;
        break;
      }
      if (!victim || keep_score(e) < keep_score(*victim)) victim = &e;
    }
    if (!victim->holds(r)) {
      if (!victim->rows) entries_.fetch_add(1, std::memory_order_relaxed);
      *victim = tt_entry{};
      victim->lo = r.cells.lo;
      victim->hi = r.cells.hi;
      victim->rows = static_cast<std::uint8_t>(r.rows);
      victim->cols = static_cast<std::uint8_t>(r.cols);
    }
    if (exact < 64) victim->exact = static_cast<std::uint8_t>(exact);
    victim->excluded |= excluded;
    victim->work = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(std::uint64_t{victim->work} + work, std::uint64_t{0xffffffffu}));
    victim->age = age_;
  }

 private:
  std::size_t bucket(const region128& r) const {
    std::uint64_t h = r.cells.lo * 0x9e3779b97f4a7c15ull;
    h ^= (r.cells.hi + (static_cast<std::uint64_t>(r.rows) << 8 | static_cast<std::uint64_t>(r.cols))) *
         0xc2b2ae3d27d4eb4full;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return static_cast<std::size_t>(h) & mask_;
  }
  host_pages<tt_entry> slots_;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
  /// A lock held for a few loads and stores: taken by spinning.
  struct spin_guard {
    std::atomic<bool>& lock;
    explicit spin_guard(std::atomic<bool>& l) : lock(l) {
      while (lock.exchange(true, std::memory_order_acquire))
        while (lock.load(std::memory_order_relaxed)) {
        }
    }
    ~spin_guard() { lock.store(false, std::memory_order_release); }
  };
  std::vector<std::atomic<bool>> locks_;
  std::atomic<std::uint64_t> entries_{0};
  std::uint8_t age_ = 1;
};

/// The parts of what a domino leaves of a region, canonical, pairs of equal
/// parts removed (they cancel: G(P + P) = 0), largest last.
struct option_parts {
  region128 part[8];
  int count = 0;
};

option_parts parts_after(const region128& r, const box_edges& e, int i, int j) {
  cells128 d;
  d.set(i);
  d.set(j);
  region128 found[8];
  int n = 0;
  for_each_connected_part(r.cells.without(d), r.cols, e,
                          [&](cells128 part) { found[n++] = canonical_region128(crop(part, r.rows, r.cols)); });
  // At most 6 parts (the domino's cells have 6 other neighbours): an
  // insertion sort, smallest first.
  for (int k = 1; k < n; ++k)
    for (int m = k; m > 0 && (found[m].count() != found[m - 1].count() ? found[m].count() < found[m - 1].count()
                                                                       : found[m] < found[m - 1]);
         --m)
      std::swap(found[m], found[m - 1]);
  option_parts out;
  for (int k = 0; k < n; ++k) {
    if (k + 1 < n && found[k] == found[k + 1]) {
      ++k;
      continue;
    }
    out.part[out.count++] = found[k];
  }
  return out;
}

/// The values of a component table, read whole into memory: per level the
/// codes (ascending) and the values, 9 bytes a region.
class component_values {
 public:
  component_values() = default;
  /// Reads every block of a cram-components tablebase; throws input_error
  /// for another kind of file.
  explicit component_values(const std::string& path) {
    tablebase tb(path, 1 << 20);
    if (tb.header().ruleset != cram_components::ruleset_name)
      throw input_error(path + " is a table of " + tb.header().ruleset + ", not of cram-components");
    k_ = cram_components::from_params(tb.header().params).max_cells();
    codes_.resize(static_cast<std::size_t>(k_) + 1);
    values_.resize(static_cast<std::size_t>(k_) + 1);
    for (const level_entry& le : tb.levels()) {
      if (le.level < 0 || le.level > k_) throw corrupt_file_error(path + ": level " + std::to_string(le.level));
      auto& codes = codes_[static_cast<std::size_t>(le.level)];
      auto& values = values_[static_cast<std::size_t>(le.level)];
      codes.resize(le.positions);
      values.resize(le.positions);
      for_each_block(tb, le, [&](std::uint64_t, const decoded_block& d) {
        for (std::uint32_t i = 0; i < d.count; ++i) {
          codes[d.first + i] = d.keys[i];
          values[d.first + i] = static_cast<std::uint8_t>(d.get(i, 0));
        }
      });
    }
  }
  int max_cells() const { return k_; }
  std::size_t bytes() const {
    std::size_t b = 0;
    for (const auto& c : codes_) b += c.size() * 9;
    return b;
  }
  /// The value of the canonical region of n <= max_cells() cells with code
  /// `code`; throws corrupt_file_error when the table lacks it.
  unsigned value(int n, std::uint64_t code, const region128& r) const {
    const auto& c = codes_[static_cast<std::size_t>(n)];
    const auto it = std::lower_bound(c.begin(), c.end(), code);
    if (it == c.end() || *it != code)
      throw corrupt_file_error("the component table lacks the region " + region_text(r) + " of " + std::to_string(n) +
                               " cells");
    return values_[static_cast<std::size_t>(n)][static_cast<std::size_t>(it - c.begin())];
  }

 private:
  int k_ = 0;
  std::vector<std::vector<std::uint64_t>> codes_;
  std::vector<std::vector<std::uint8_t>> values_;
};

}  // namespace

struct cram_search::impl {
  cram_search_options opt;
  transposition_table tt;
  component_values table;
  int table_k = 0;
  std::atomic<bool> stop{false};
  std::atomic<bool> interrupted{false};
  std::atomic<std::uint64_t> nodes{0};
  std::chrono::steady_clock::time_point t0, last_line;
  std::mutex line_lock;
  const char* stop_reason = "";

  std::uint64_t tt_loaded = 0;

  explicit impl(const cram_search_options& o) : opt(o), tt(o.tt_bytes) {
    if (!o.table.empty()) {
      progress_line(o.progress, "[cgtb] reading the component table %s", o.table.c_str());
      table = component_values(o.table);
      table_k = table.max_cells();
    }
    if (!o.tt_file.empty() && std::ifstream(o.tt_file, std::ios::binary)) load(o.tt_file);
  }

  /// Reads a saved transposition table (save()) into this one.
  void load(const std::string& file) {
    const std::string bytes = read_checksummed_file(file, kTtMagic, "transposition table file");
    if (bytes.size() % sizeof(tt_entry) != 0)
      throw corrupt_file_error("transposition table file '" + file + "' is corrupt");
    const std::size_t n = bytes.size() / sizeof(tt_entry);
    for (std::size_t i = 0; i < n; ++i) {
      tt_entry e;
      std::memcpy(&e, bytes.data() + i * sizeof(tt_entry), sizeof e);
      if (!e.rows || e.rows > kRegion128MaxSide || e.cols > kRegion128MaxSide || e.rows * e.cols > 128 ||
          (e.exact != tt_entry::kUnknown && e.exact >= 64))
        throw corrupt_file_error("transposition table file '" + file + "' holds an impossible region");
      tt.put_back(e);
      ++tt_loaded;
    }
    progress_line(opt.progress, "[cgtb] %llu regions read from %s", static_cast<unsigned long long>(tt_loaded),
                  file.c_str());
  }

  /// Writes the used entries of the transposition table to `file`
  /// (checksummed, under a temporary name, then renamed).
  void save(const std::string& file) const {
    std::vector<tt_entry> used;
    used.reserve(static_cast<std::size_t>(tt.entries()));
    for (std::size_t i = 0; i < tt.capacity(); ++i)
      if (tt.slots()[i].rows) used.push_back(tt.slots()[i]);
    write_checksummed_file(file, kTtMagic, {{used.data(), used.size() * sizeof(tt_entry)}});
  }
  static constexpr const char* kTtMagic = "CGTBTT01";

  /// The search on one thread, with a small direct-mapped cache of the
  /// component table's values (the same small parts come back again and
  /// again; a hit skips the code and the binary search).
  struct worker {
    struct cached_value {
      std::uint64_t lo = 0, hi = 0;
      std::uint32_t dims = 0;  ///< rows << 8 | cols; 0: empty
      std::uint32_t value = 0;
    };
    static constexpr std::size_t kCacheSlots = std::size_t{1} << 16;
    impl& s;
    std::uint64_t local_nodes = 0, table_reads = 0, tt_hits = 0;
    std::vector<cached_value> cache;

    explicit worker(impl& owner) : s(owner), cache(owner.table_k ? kCacheSlots : 0) {}

    /// The component table's value of canonical r (r.count() <= table_k).
    unsigned table_value(const region128& r) {
      const std::uint32_t dims = static_cast<std::uint32_t>(r.rows << 8 | r.cols);
      std::uint64_t h = (r.cells.lo ^ (r.cells.hi * 0x9e3779b97f4a7c15ull) ^ dims) * 0xbf58476d1ce4e5b9ull;
      cached_value& c = cache[static_cast<std::size_t>(h >> 48)];
      if (c.dims == dims && c.lo == r.cells.lo && c.hi == r.cells.hi) return c.value;
      c = {r.cells.lo, r.cells.hi, dims, s.table.value(r.count(), polyomino_code(r), r)};
      return c.value;
    }

    /// What is known of canonical r without a search: true with g set when
    /// its value is known, else its excluded values in `excluded`.
    bool known(const region128& r, unsigned& g, std::uint64_t& excluded) {
      excluded = 0;
      const int n = r.count();
      if (n <= 1) {
        g = 0;
        return true;
      }
      if (n == 2) {  // a domino: one move, to the empty region
        g = 1;
        return true;
      }
      if (n <= s.table_k) {
        g = table_value(r);
        ++table_reads;
        return true;
      }
      tt_entry e;
      if (s.tt.find(r, e)) {
        ++tt_hits;
        if (e.exact != tt_entry::kUnknown) {
          g = e.exact;
          return true;
        }
        excluded = e.excluded;
      }
      return false;
    }

    void count_node() {
      ++local_nodes;
      if ((local_nodes & 0xfff) == 0) {
        s.nodes.fetch_add(0x1000, std::memory_order_relaxed);
        s.tick();
      }
      if (s.stop.load(std::memory_order_relaxed)) throw search_stopped{};
    }

    /// The exact value of canonical r.
    unsigned value(const region128& r) {
      unsigned g;
      std::uint64_t excluded;
      if (known(r, g, excluded)) return g;
      for (unsigned u = 0; u < 64; ++u) {
        if (excluded >> u & 1) continue;
        const std::uint64_t before = local_nodes;
        if (has_option_of_value(r, u)) {
          s.tt.store(r, 64, std::uint64_t{1} << u, local_nodes - before);
          continue;
        }
        s.tt.store(r, u, 0, local_nodes - before);
        return u;
      }
      throw resource_error("region " + region_text(r) + " has a Grundy value of 64 or more");
    }

    /// Whether G(r) == w, r canonical.
    bool has_value(const region128& r, unsigned w) {
      unsigned g;
      std::uint64_t excluded;
      if (known(r, g, excluded)) return g == w;
      if (excluded >> w & 1) return false;
      std::uint64_t before = local_nodes;
      if (has_option_of_value(r, w)) {
        s.tt.store(r, 64, std::uint64_t{1} << w, local_nodes - before);
        return false;
      }
      // No option of value w: G(r) = w unless some u < w has no option either.
      for (unsigned u = 0; u < w; ++u) {
        if (excluded >> u & 1) continue;
        before = local_nodes;
        if (has_option_of_value(r, u)) {
          s.tt.store(r, 64, std::uint64_t{1} << u, local_nodes - before);
          continue;
        }
        s.tt.store(r, u, 0, local_nodes - before);
        return false;
      }
      s.tt.store(r, w, 0, 0);
      return true;
    }

    /// Whether some option of canonical r has value u.
    bool has_option_of_value(const region128& r, unsigned u) {
      count_node();
      const box_edges e(r.rows, r.cols);
      // Options whose parts are all known first (no search), the others by
      // the size of their largest unknown part.
      struct pending {
        option_parts parts;
        unsigned x;  // XOR of the known parts' values
        int unknown_cells;
      };
      std::vector<pending> later;
      bool found = false;
      for_each_domino(r.cells, r.cols, e, [&](int i, int j) {
        if (found) return;
        pending p{parts_after(r, e, i, j), 0, 0};
        option_parts rest;
        for (int k = 0; k < p.parts.count; ++k) {
          unsigned g;
          std::uint64_t ex;
          if (known(p.parts.part[k], g, ex))
            p.x ^= g;
          else
            rest.part[rest.count++] = p.parts.part[k];
        }
        if (rest.count == 0) {
          found = p.x == u;
          return;
        }
        p.parts = rest;
        p.unknown_cells = rest.part[rest.count - 1].count();
        later.push_back(p);
      });
      if (found) return true;
      std::sort(later.begin(), later.end(),
                [](const pending& a, const pending& b) { return a.unknown_cells < b.unknown_cells; });
      for (const pending& p : later)
        if (sum_has_value(p.parts, p.x, u)) return true;
      return false;
    }

    /// Whether x xor G(parts) == u: the smaller parts' values found first,
    /// then only the largest part (last) asked whether it has the rest.
    bool sum_has_value(const option_parts& parts, unsigned x, unsigned u) {
      if (parts.count == 0) return x == u;
      for (int k = 0; k + 1 < parts.count; ++k) x ^= value(parts.part[k]);
      return has_value(parts.part[parts.count - 1], u ^ x);
    }
  };

  /// The progress line and the time limit, checked every 4096 nodes.
  void tick() {
    const auto now = std::chrono::steady_clock::now();
    const double secs = std::chrono::duration<double>(now - t0).count();
    if (opt.time_limit > 0 && secs > opt.time_limit) {
      stop_reason = "time limit";
      stop = true;
    }
    if (!opt.progress) return;
    std::unique_lock<std::mutex> g(line_lock, std::try_to_lock);
    if (!g.owns_lock() || std::chrono::duration<double>(now - last_line).count() < 5) return;
    last_line = now;
    const std::uint64_t n = nodes.load();
    progress_line(opt.progress, "[cgtb] search: %llu nodes (%.0f/s), table %.1f %% full, %s",
                  static_cast<unsigned long long>(n), secs > 0 ? static_cast<double>(n) / secs : 0.0,
                  100.0 * static_cast<double>(tt.entries()) / static_cast<double>(tt.capacity()),
                  duration_text(secs).c_str());
  }
};

cram_search::cram_search(const cram_search_options& opt) : impl_(std::make_unique<impl>(opt)) {}
cram_search::~cram_search() = default;

void cram_search::interrupt() {
  impl_->stop_reason = "interrupted";
  impl_->interrupted = true;
  impl_->stop = true;
}

cram_search_report cram_search::solve(const std::string& text) {
  impl& s = *impl_;
  s.t0 = s.last_line = std::chrono::steady_clock::now();
  s.stop = s.interrupted.load();
  s.nodes = 0;
  s.tt.next_age();
  cram_search_report rep;
  rep.position = text;
  rep.table_max_cells = s.table_k;
  const int threads = s.opt.threads > 0 ? s.opt.threads : omp_get_max_threads();
  rep.threads = threads;
  const std::vector<region128> parts = region_parts_of_text(text);
  // The pairing argument, only when asked: an empty board with both sides even.
  if (s.opt.symmetry_shortcut && parts.size() == 1 && parts[0].count() == parts[0].rows * parts[0].cols &&
      parts[0].rows % 2 == 0 && parts[0].cols % 2 == 0) {
    rep.complete = rep.by_symmetry = true;
    rep.regions.push_back({region_text(parts[0]), parts[0].count(), true, 0, 0});
    return rep;
  }
  std::vector<impl::worker> workers;
  workers.reserve(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t) workers.emplace_back(s);
  unsigned x = 0;
  bool complete = true;
  for (const region128& r : parts) {
    searched_region out{region_text(r), r.count(), false, 0, 0};
    try {
      if (!complete) throw search_stopped{};
      unsigned g;
      std::uint64_t excluded;
      if (workers[0].known(r, g, excluded)) {
        out.solved = true;
        out.grundy = g;
      } else {
        // The value of the region value by value; the options of each value
        // are shared among the threads, each searching on with its own worker.
        const box_edges e(r.rows, r.cols);
        std::vector<option_parts> options;
        for_each_domino(r.cells, r.cols, e, [&](int i, int j) { options.push_back(parts_after(r, e, i, j)); });
        for (unsigned u = 0; u < 64 && !out.solved; ++u) {
          if (excluded >> u & 1) continue;
          std::atomic<bool> found{false}, stopped{false};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
          for (std::size_t k = 0; k < options.size(); ++k) {
            if (found.load() || stopped.load()) continue;
            impl::worker& w = workers[static_cast<std::size_t>(omp_get_thread_num())];
            try {
              if (w.sum_has_value(options[k], 0, u)) found = true;
            } catch (const search_stopped&) {
              stopped = true;
            }
          }
          if (stopped) throw search_stopped{};
          if (found) {
            s.tt.store(r, 64, std::uint64_t{1} << u, 0);
            excluded |= std::uint64_t{1} << u;
          } else {
            s.tt.store(r, u, 0, 0);
            out.solved = true;
            out.grundy = u;
          }
        }
      }
    } catch (const search_stopped&) {
      complete = false;
      tt_entry e;
      if (s.tt.find(r, e)) out.excluded = e.excluded;
    }
    if (out.solved) x ^= out.grundy;
    rep.regions.push_back(out);
  }
  rep.complete = complete;
  rep.grundy = complete ? x : 0;
  if (!complete) rep.stopped = s.stop_reason;
  std::uint64_t local = 0;
  for (const auto& w : workers) {
    local += w.local_nodes & 0xfff;
    rep.table_reads += w.table_reads;
    rep.tt_hits += w.tt_hits;
  }
  rep.nodes = s.nodes.load() + local;
  rep.tt_entries = s.tt.entries();
  rep.tt_capacity = s.tt.capacity();
  rep.tt_bytes = s.tt.bytes();
  rep.tt_loaded = s.tt_loaded;
  if (!s.opt.tt_file.empty()) {
    s.save(s.opt.tt_file);
    rep.tt_saved = true;
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.t0).count();
  return rep;
}

std::string empty_board_text(int rows, int cols) {
  if (rows < 1 || cols < 1 || rows > kRegion128MaxSide || cols > kRegion128MaxSide || rows * cols > 128)
    throw input_error("board " + std::to_string(rows) + "x" + std::to_string(cols) +
                      ": the search takes boards of at most 128 cells, sides up to " +
                      std::to_string(kRegion128MaxSide));
  std::string s;
  for (int r = 0; r < rows; ++r) s += (r ? "/" : "") + std::string(static_cast<std::size_t>(cols), '.');
  return s;
}

}  // namespace cgtb
