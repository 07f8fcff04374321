// Level-by-level driver shared by both backends. `Backend` supplies memory,
// transfers, the Thrust execution policy and the prefetch hint of the kernels
// (prefetch_batch, cgtb/prefetch.hpp); everything else is common.
// Included only by backend_cpu.cpp and backend_cuda.cu.
#pragma once

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/level_solver.hpp"
#include "cgtb/text.hpp"
#include "level_pipeline.hpp"

namespace cgtb::detail {

/// Text of the error a build fails with when a record overflows: names the
/// rule's value_limit where the rule declares one.
template <class Rule, class = void>
struct rule_value_limit_text {
  static std::string text() { return "the limit of its field"; }
};
template <class Rule>
struct rule_value_limit_text<Rule, std::void_t<decltype(Rule::value_limit)>> {
  static std::string text() { return std::to_string(Rule::value_limit); }
};

/// The index of a solve for games whose index is the ruleset's own: the view
/// over the uploaded constant table, level sizes from the host view.
template <class Backend, class Game, bool Keyed = keyed_game<Game>::value>
class solve_index {
 public:
  using view_type = typename Game::view_type;
  solve_index(Backend&, const Game& game, const std::uint64_t* table, const solve_options&)
      : view_(game.view(table)), host_(game.host_view()) {}
  view_type view() const { return view_; }
  std::uint64_t size(int level) const { return host_.level_size(level); }
  /// Bytes of index data a resident level needs beside its records.
  double key_bytes(int) const { return 0; }
  double table_bytes(int) const { return 0; }
  void drop_rank_table(int) {}
  void make_resident(int) {}
  void build_rank_table(int) {}
  void drop(int) {}
  void sync() {}
  const elias_fano_keys* keys(int) const { return nullptr; }

 private:
  view_type view_, host_;
};

/// The index of a keyed game (cgtb/reachable_index.hpp), built by the solver.
/// The constructor runs the forward pass: from the canonical start, each
/// level's stored positions are the canonical options of the level above,
/// gathered in a hash set on the backend (in parts by key hash where the set
/// would not fit in a quarter of the free memory), compacted and sorted, and
/// kept as Elias–Fano coded keys (cgtb/reachable_index.hpp; host memory, or a temporary file past
/// 256 MB). During the solve, a resident level has its keys on the backend,
/// described by levels[L] of the view; ranking reads them directly.
template <class Backend, class Game>
class solve_index<Backend, Game, true> {
 public:
  using view_type = typename Game::view_type;

  solve_index(Backend& be, const Game& game, const std::uint64_t* table, const solve_options& opts)
      : be_(be), game_(game), table_(table) {
    const std::vector<int> levels = game.levels();
    const int top = levels.back();
    stored_.resize(static_cast<std::size_t>(top) + 1);
    sizes_.assign(static_cast<std::size_t>(top) + 1, 0);
    bytes_.assign(static_cast<std::size_t>(top) + 1, 0);
    offsets_.assign(static_cast<std::size_t>(top) + 1, -1);
    checksums_.assign(static_cast<std::size_t>(top) + 1, 0);
    no_table_.assign(static_cast<std::size_t>(top) + 1, 0);
    host_levels_.resize(static_cast<std::size_t>(top) + 1);
    dev_levels_ = be.template allocate<reachable_level>(host_levels_.size());
    int found_to = -1;  // saved keys: the lowest level of a forward pass saved before
    if (!opts.saved_keys.empty()) {
      saved_path_ = opts.saved_keys;
      signature_ = signature(levels);
      found_to = open_saved(levels, opts.progress);
      if (found_to < 0) {
        spill_ = std::fopen(saved_path_.c_str(), "w+b");
        if (!spill_) throw resource_error("cannot create '" + saved_path_ + "' for the level keys");
        update_saved_header(-1);  // no level saved yet
      }
    }
    if (found_to == levels.front()) {
      if (opts.progress) std::fprintf(stderr, "[cgtb] level keys read from %s\n", saved_path_.c_str());
    } else {
      if (found_to >= 0 && opts.progress)
        std::fprintf(stderr, "[cgtb] level keys %d to %d read from %s; the forward pass goes on from level %d\n",
                     levels.back(), found_to, saved_path_.c_str(), found_to);
      forward(levels, opts, found_to);
    }
    sync();
  }

  view_type view() const { return game_.view(table_, dev_levels_.data()); }
  std::uint64_t size(int level) const { return sizes_[static_cast<std::size_t>(level)]; }
  /// Bytes of a resident level's keys (Elias–Fano coded), and of its rank
  /// table (built once the level is solved and the level below it dropped;
  /// none when rank tables are off or the level is too large for one).
  double key_bytes(int level) const { return static_cast<double>(bytes_[static_cast<std::size_t>(level)]); }
  double table_bytes(int level) const {
    return has_table(level) ? static_cast<double>(slot_count(size(level))) * sizeof(std::uint64_t) : 0.0;
  }
  /// Level L gets no rank table (faster ranks, 12 bytes a stored position):
  /// the solver drops those that would not fit beside the levels using them.
  void drop_rank_table(int level) { no_table_[static_cast<std::size_t>(level)] = 1; }
  /// Keys of resident level L in host memory (valid until drop(L)), or null
  /// when L is not resident.
  const elias_fano_keys* keys(int level) const {
    const auto it = resident_.find(level);
    return it == resident_.end() ? nullptr : &it->second.host;
  }

  /// Makes level L's keys resident on the backend (the kernels unrank and
  /// rank with them).
  void make_resident(int level) {
    resident r;
    r.host = load(level);
    host_levels_[static_cast<std::size_t>(level)] = on_backend(r.host, r.dev);
    dirty_ = true;
    resident_.erase(level);
    resident_.emplace(level, std::move(r));
  }
  /// Builds the rank table of resident level L (needed by the levels whose
  /// options land on L: built after L is solved, so that it is never resident
  /// beside the tables the solve of L reads).
  void build_rank_table(int level) {
    if (!has_table(level)) return;
    resident& r = resident_.at(level);
    const std::uint64_t n = size(level), cap = slot_count(n), chunk = Backend::chunk_size;
    r.slots = be_.template allocate<std::uint64_t>(cap);
    reachable_level lv = host_levels_[static_cast<std::size_t>(level)];
    auto full = be_.template allocate<int>(1);
    const int zero = 0;
    be_.copy_to_device(full.data(), &zero, 1);
    be_.with_policy(n, [&](auto policy) {
      thrust::fill(policy, r.slots.data(), r.slots.data() + cap, std::uint64_t{0});
      thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                       thrust::counting_iterator<std::uint64_t>((n + chunk - 1) / chunk),
                       rank_table_kernel{lv, chunk, r.slots.data(), cap, full.data()});
      be_.check("rank table");
    });
    if (*be_.to_host(full.data(), 1, flag_copy_))
      throw resource_error("rank table of level " + std::to_string(level) + " is full");
    // Fingerprint lookups must give every key its own rank; where two keys
    // collide, the level's lookups compare keys too.
    lv.slots = r.slots.data();
    lv.slot_count = cap;
    be_.copy_to_device(full.data(), &zero, 1);
    be_.with_policy(n, [&](auto policy) {
      thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                       thrust::counting_iterator<std::uint64_t>((n + chunk - 1) / chunk),
                       rank_table_check_kernel{lv, chunk, full.data()});
      be_.check("rank table check");
    });
    lv.check_keys = *be_.to_host(full.data(), 1, flag_copy_);
    host_levels_[static_cast<std::size_t>(level)] = lv;
    dirty_ = true;
  }
  void drop(int level) {
    host_levels_[static_cast<std::size_t>(level)] = reachable_level{};
    resident_.erase(level);
    dirty_ = true;
  }
  /// Copies the changed level descriptors to the backend.
  void sync() {
    if (!dirty_) return;
    be_.copy_to_device(dev_levels_.data(), host_levels_.data(), host_levels_.size());
    dirty_ = false;
  }

 private:
  using words = typename Backend::template buffer<std::uint64_t>;
  /// A level's keys in the backend's memory (device backends; host-visible
  /// backends read the host arrays).
  struct device_keys {
    words upper, lower, ones, zeros;
  };
  struct resident {
    elias_fano_keys host;
    device_keys dev;
    words slots;  ///< the rank table, once built
  };

  /// Slots of a rank table for n keys: load about 2/3 (any size: slots are
  /// found by range reduction, not by a mask).
  static std::uint64_t slot_count(std::uint64_t n) { return n + n / 2 + 16; }
  bool has_table(int level) const {
    return !no_table_[static_cast<std::size_t>(level)] && size(level) <= kMaxRankTableLevel;
  }

  /// The view over keys k in the backend's memory, uploading them to `dev`
  /// where the backend cannot read host memory.
  reachable_level on_backend(const elias_fano_keys& k, device_keys& dev) {
    if constexpr (Backend::host_visible) {
      return k.view();
    } else {
      dev.upper = be_.upload(k.upper);
      dev.lower = be_.upload(k.lower);
      dev.ones = be_.upload(k.ones);
      dev.zeros = be_.upload(k.zeros);
      return {dev.upper.data(), dev.lower.data(), dev.ones.data(), dev.zeros.data(), k.size, k.buckets, k.low_bits};
    }
  }

  /// Elias–Fano keys of n ascending keys.
  static elias_fano_keys encode(const std::uint64_t* k, std::uint64_t n) {
    elias_fano_builder b(n, n ? k[n - 1] : 0);
    for (std::uint64_t i = 0; i < n; ++i) b.push(k[i]);
    return b.finish();
  }

  /// Merges the ascending, disjoint key runs into one.
  static elias_fano_keys merge(const std::vector<elias_fano_keys>& runs) {
    std::uint64_t n = 0, largest = 0;
    for (const auto& r : runs)
      if (r.size) {
        n += r.size;
        largest = std::max(largest, r.view().key(r.size - 1));
      }
    elias_fano_builder b(n, largest);
    struct cursor {
      std::vector<std::uint64_t> buf;
      std::uint64_t next = 0, at = 0;
    };
    std::vector<cursor> cur(runs.size());
    constexpr std::uint64_t chunk = 1 << 16;
    auto head = [&](std::size_t i) -> const std::uint64_t* {
      cursor& c = cur[i];
      if (c.at == c.buf.size()) {
        const std::uint64_t m = std::min(chunk, runs[i].size - c.next);
        if (!m) return nullptr;
        c.buf.resize(m);
        runs[i].decode(c.next, m, c.buf.data());
        c.next += m;
        c.at = 0;
      }
      return &c.buf[c.at];
    };
    for (std::uint64_t done = 0; done < n; ++done) {
      std::size_t best = runs.size();
      std::uint64_t key = 0;
      for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::uint64_t* h = head(i);
        if (h && (best == runs.size() || *h < key)) {
          best = i;
          key = *h;
        }
      }
      b.push(key);
      ++cur[best].at;
    }
    return b.finish();
  }

  /// Slots per block of the forward pass's compaction on host-visible
  /// backends (occupied_block_count): 512 KB of slots, a work item each.
  static constexpr std::uint64_t kCompactBlock = std::uint64_t{1} << 16;

  /// The forward pass, from the start or (found_to >= 0) on from level
  /// found_to, whose keys and those of the levels above are stored already.
  void forward(const std::vector<int>& levels, const solve_options& opts, int found_to) {
    using clock = std::chrono::steady_clock;
    const view_type v = game_.view(table_, nullptr);
    const int top = levels.back();
    double growth = static_cast<double>(game_.max_options()), prev_ratio = 0;
    // Growth of the hash set's estimate: this level's growth, extrapolated
    // where growth falls (the middle levels), 10 % high.
    auto next_growth = [&](std::uint64_t above, std::uint64_t found) {
      const double ratio = above ? static_cast<double>(found) / static_cast<double>(above) : 1.0;
      growth = 1.1 * ratio * std::min(1.0, prev_ratio > 0 ? ratio / prev_ratio : 1.0);
      prev_ratio = ratio;
    };
    std::size_t i = levels.size() - 1;
    elias_fano_keys cur;
    if (found_to < 0) {
      const std::uint64_t start = game_.canonical(game_.start());
      cur = encode(&start, 1);
      store(top, cur);
      if (opts.forward_level_done) opts.forward_level_done(top);
    } else {
      for (; levels[i] != found_to; --i) next_growth(size(levels[i]), size(levels[i - 1]));
      cur = load(found_to);
    }
    auto full = be_.template allocate<int>(1);
    for (; i > 0; --i) {
      const auto t0 = clock::now();
      const int below = levels[i - 1];
      const std::uint64_t n = cur.size;
      device_keys cur_dev;
      const reachable_level above = on_backend(cur, cur_dev);
      // The hash set: the estimated count at load 3/4, in as many parts (by
      // key hash, each a pass over the level above) as keep a part's set
      // within a quarter of the memory free now.
      const double estimate = growth * static_cast<double>(n);
      const double budget = std::max(16.0 * (1 << 20), static_cast<double>(be_.available_bytes()) / 4);
      const std::uint64_t parts =
          opts.forward_parts
              ? opts.forward_parts
              : std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(8.0 * 4.0 / 3.0 * estimate / budget)));
      std::vector<elias_fano_keys> runs;
      std::uint64_t found_all = 0;
      for (std::uint64_t part = 0; part < parts; ++part) {
        // Capacity for the estimated count at load 3/4; enlarged by half and
        // the pass redone when the set turns out fuller than 4/5 (or full).
        std::uint64_t cap = 1024 + static_cast<std::uint64_t>(4.0 / 3.0 * estimate / static_cast<double>(parts));
        std::uint64_t found = 0;
        typename Backend::template buffer<std::uint64_t> next;
        std::vector<std::uint64_t> block_counts;  // host-visible backends: per block, then offsets
        for (bool done = false; !done;) {
          auto slots = be_.template allocate<std::uint64_t>(cap);
          const int zero = 0;
          be_.copy_to_device(full.data(), &zero, 1);
          be_.with_policy(n, [&](auto policy) {
            thrust::fill(policy, slots.data(), slots.data() + cap, kEmptySlot);
            using kernel = reach_kernel<view_type, Backend::prefetch_batch>;
            const std::uint64_t chunk = Backend::chunk_size == 1 ? 1 : kernel::kCpuChunk;
            thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                             thrust::counting_iterator<std::uint64_t>((n + chunk - 1) / chunk),
                             kernel{v, above, chunk, part, parts, slots.data(), cap, full.data()});
            if constexpr (Backend::host_visible) {
              // Thrust's OpenMP copy_if keeps two index arrays of the set's
              // length; the compaction in blocks keeps one count per block.
              block_counts.resize((cap + kCompactBlock - 1) / kCompactBlock);
              thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                               thrust::counting_iterator<std::uint64_t>(block_counts.size()),
                               occupied_block_count{slots.data(), cap, kCompactBlock, block_counts.data()});
              found = 0;
              for (std::uint64_t& c : block_counts) found += std::exchange(c, found);
            } else {
              found = static_cast<std::uint64_t>(
                  thrust::count_if(policy, slots.data(), slots.data() + cap, occupied_slot{}));
            }
            be_.check("forward pass");
          });
          done = !*be_.to_host(full.data(), 1, flag_copy_) && 5 * found <= 4 * cap;
          if (!done) {
            cap += cap / 2;
            continue;
          }
          next = be_.template allocate<std::uint64_t>(found);
          be_.with_policy(found, [&](auto policy) {
            if constexpr (Backend::host_visible)
              thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                               thrust::counting_iterator<std::uint64_t>(block_counts.size()),
                               occupied_block_copy{slots.data(), cap, kCompactBlock, block_counts.data(), next.data()});
            else
              thrust::copy_if(policy, slots.data(), slots.data() + cap, next.data(), occupied_slot{});
            be_.check("forward pass compaction");
          });
        }
        be_.with_policy(found, [&](auto policy) {
          thrust::sort(policy, next.data(), next.data() + found);
          be_.check("forward pass sort");
        });
        std::vector<std::uint64_t> keys_copy;  // a device backend's host copy
        runs.push_back(encode(be_.download(next.data(), found, keys_copy), found));
        found_all += found;
        if (opts.progress && parts > 1 && part + 1 < parts)
          std::fprintf(stderr, "[cgtb] reachable level %3d: part %llu of %llu: %llu positions in %.0f s\n", below,
                       static_cast<unsigned long long>(part + 1), static_cast<unsigned long long>(parts),
                       static_cast<unsigned long long>(found_all),
                       std::chrono::duration<double>(clock::now() - t0).count());
      }
      cur_dev = device_keys();
      cur = runs.size() == 1 ? std::move(runs[0]) : merge(runs);
      runs.clear();
      store(below, cur);
      next_growth(n, found_all);
      if (opts.progress)
        std::fprintf(stderr, "[cgtb] reachable level %3d: %14llu %s stored in %8.3f s%s\n", below,
                     static_cast<unsigned long long>(found_all), found_all == 1 ? "position" : "positions",
                     std::chrono::duration<double>(clock::now() - t0).count(),
                     parts > 1 ? (" (" + std::to_string(parts) + " parts)").c_str() : "");
      if (opts.forward_level_done) opts.forward_level_done(below);
    }
  }

  /// Keeps level L's keys: in memory while all levels' keys stay under
  /// kKeptKeysBytes, then in an unnamed temporary file (removed by the system when
  /// the process ends, however it ends) until their level is solved, leaving
  /// the host memory to the levels in work. Saved keys go to their file from
  /// the first level on, and its header is brought up to date after each.
  void store(int level, const elias_fano_keys& k) {
    const std::size_t l = static_cast<std::size_t>(level);
    sizes_[l] = k.size;
    bytes_[l] = k.bytes();
    kept_ += k.bytes();
    if (!spill_ && kept_ < kKeptKeysBytes) {
      stored_[l] = k;
      return;
    }
    if (!spill_) {
      spill_ = std::tmpfile();
      if (!spill_) throw resource_error("cannot create a temporary file for the level keys");
      for (std::size_t m = 0; m < stored_.size(); ++m)
        if (bytes_[m] && m != l) {
          write_spill(m, stored_[m]);
          stored_[m] = elias_fano_keys();
        }
    }
    write_spill(l, k);
    if (!saved_path_.empty()) update_saved_header(level);
  }

  // Saved keys (FILE.partial-PID.keys, this machine's byte order): a header
  // of 5 + 2 * (top + 1) words -- the magic "CGTBKEY2", a signature of the
  // game, top + 1, the lowest level saved so far (levels are saved from the
  // top down, so every level above it is saved too), then for each level its
  // block's offset (-1: not saved) and XXH64, and last an FNV-1a check of the
  // header -- followed by the blocks (write_spill). The header is rewritten
  // after each level's block is written and flushed, so a pass killed at any
  // point leaves a file whose header names only whole blocks.
  static constexpr std::uint64_t kSavedKeysMagic = 0x3259454b42544743ull;  // "CGTBKEY2"

  /// Identifies the game whose keys a saved file holds: FNV-1a over the
  /// symmetry table, the levels and the start.
  std::uint64_t signature(const std::vector<int>& levels) const {
    fnv h;
    for (std::uint64_t w : game_.table()) h.mix(w);
    for (int l : levels) h.mix(static_cast<std::uint64_t>(l));
    h.mix(game_.canonical(game_.start()));
    return h.value;
  }
  struct fnv {
    std::uint64_t value = 14695981039346656037ull;
    void mix(std::uint64_t v) {
      for (int i = 0; i < 8; ++i, v >>= 8) value = (value ^ (v & 0xff)) * 1099511628211ull;
    }
  };
  std::vector<std::uint64_t> saved_header(std::uint64_t lowest) const {
    std::vector<std::uint64_t> h = {kSavedKeysMagic, signature_, offsets_.size(), lowest};
    for (std::size_t l = 0; l < offsets_.size(); ++l) {
      h.push_back(static_cast<std::uint64_t>(offsets_[l]));
      h.push_back(checksums_[l]);
    }
    fnv c;
    for (std::uint64_t w : h) c.mix(w);
    h.push_back(c.value);
    return h;
  }
  /// Rewrites the saved keys' header: every level down to `lowest` (-1:
  /// none) is saved whole.
  void update_saved_header(int lowest) {
    const std::vector<std::uint64_t> h = saved_header(static_cast<std::uint64_t>(static_cast<std::int64_t>(lowest)));
    if (std::fseek(spill_, 0, SEEK_SET) != 0 || std::fwrite(h.data(), 8, h.size(), spill_) != h.size() ||
        std::fflush(spill_) != 0)
      throw resource_error("writing '" + saved_path_ + "' failed");
  }
  /// Opens the saved keys of this game at saved_path_, if any: returns the
  /// lowest level down to which every level's keys are saved whole and their
  /// XXH64 holds (then the file stays open for the forward pass to go on), or
  /// -1 when there is no file or it is not usable (then the pass starts
  /// afresh). A damaged block (e.g. a power loss that kept the header but not
  /// the block) ends the levels read there, with a line when `progress`.
  int open_saved(const std::vector<int>& levels, bool progress) {
    std::FILE* f = std::fopen(saved_path_.c_str(), "r+b");
    if (!f) return -1;
    std::vector<std::uint64_t> h(5 + 2 * offsets_.size());
    const bool read = std::fread(h.data(), 8, h.size(), f) == h.size();
    std::fill(offsets_.begin(), offsets_.end(), -1);
    for (std::size_t l = 0; read && l < offsets_.size(); ++l) {
      offsets_[l] = static_cast<long>(h[4 + 2 * l]);
      checksums_[l] = h[5 + 2 * l];
    }
    int found_to = -1;
    if (read && saved_header(h[3]) == h && static_cast<std::int64_t>(h[3]) >= 0 && std::fseek(f, 0, SEEK_END) == 0) {
      const std::uint64_t file_size = static_cast<std::uint64_t>(std::ftell(f));
      for (auto l = levels.rbegin(); l != levels.rend() && *l >= static_cast<int>(h[3]); ++l) {
        const std::size_t i = static_cast<std::size_t>(*l);
        std::uint64_t head[7];
        if (offsets_[i] < 0 || std::fseek(f, offsets_[i], SEEK_SET) != 0 || std::fread(head, sizeof head, 1, f) != 1 ||
            static_cast<std::uint64_t>(offsets_[i]) + 8 * (7 + head[3] + head[4] + head[5] + head[6]) > file_size)
          break;
        if (saved_block_checksum(f, head) != checksums_[i]) {
          if (progress)
            std::fprintf(stderr, "[cgtb] the saved keys of level %d in %s are damaged (checksum); not read\n", *l,
                         saved_path_.c_str());
          break;
        }
        sizes_[i] = head[0];
        bytes_[i] = 8 * (head[3] + head[4] + head[5] + head[6]);
        found_to = *l;
      }
    }
    if (found_to < 0) {
      std::fclose(f);
      std::fill(offsets_.begin(), offsets_.end(), -1);
      return -1;
    }
    for (int l : levels)
      if (l < found_to) offsets_[static_cast<std::size_t>(l)] = -1;
    spill_ = f;
    return found_to;
  }

  /// Writes level l's keys at the end of the spill file: 7 words (keys,
  /// buckets, low bits, and the word counts of the four arrays), then the
  /// arrays; keeps the block's offset and XXH64.
  void write_spill(std::size_t l, const elias_fano_keys& k) {
    if (std::fseek(spill_, 0, SEEK_END) != 0) throw resource_error("writing the level keys to a temporary file failed");
    offsets_[l] = std::ftell(spill_);
    const std::uint64_t head[7] = {k.size,         k.buckets,      static_cast<std::uint64_t>(k.low_bits),
                                   k.upper.size(), k.lower.size(), k.ones.size(),
                                   k.zeros.size()};
    bool ok = std::fwrite(head, sizeof head, 1, spill_) == 1;
    for (const auto* a : {&k.upper, &k.lower, &k.ones, &k.zeros})
      ok = ok && std::fwrite(a->data(), 8, a->size(), spill_) == a->size();
    if (!ok || std::fflush(spill_) != 0) throw resource_error("writing the level keys to a temporary file failed");
    checksums_[l] = block_checksum(head, k);
  }
  /// XXH64 of a saved block as the file holds it: `head`, just read, and
  /// the arrays after it (read from f's position, 1 MB at a time); as
  /// block_checksum() computes it from memory. 0 on a short read.
  static std::uint64_t saved_block_checksum(std::FILE* f, const std::uint64_t (&head)[7]) {
    std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> st(XXH64_createState(), &XXH64_freeState);
    XXH64_reset(st.get(), 0);
    XXH64_update(st.get(), head, sizeof head);
    std::vector<std::uint64_t> buf(std::size_t{1} << 17);
    for (std::uint64_t left = head[3] + head[4] + head[5] + head[6]; left > 0;) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size()));
      if (std::fread(buf.data(), 8, n, f) != n) return 0;
      XXH64_update(st.get(), buf.data(), 8 * n);
      left -= n;
    }
    return XXH64_digest(st.get());
  }
  static std::uint64_t block_checksum(const std::uint64_t (&head)[7], const elias_fano_keys& k) {
    XXH64_state_t* st = XXH64_createState();
    XXH64_reset(st, 0);
    XXH64_update(st, head, sizeof head);
    for (const auto* a : {&k.upper, &k.lower, &k.ones, &k.zeros}) XXH64_update(st, a->data(), 8 * a->size());
    const std::uint64_t c = XXH64_digest(st);
    XXH64_freeState(st);
    return c;
  }
  elias_fano_keys load(int level) const {
    const std::size_t l = static_cast<std::size_t>(level);
    if (!spill_ || offsets_[l] < 0) return stored_[l];
    elias_fano_keys k;
    std::uint64_t head[7];
    bool ok = std::fseek(spill_, offsets_[l], SEEK_SET) == 0 && std::fread(head, sizeof head, 1, spill_) == 1;
    if (ok) {
      k.size = head[0];
      k.buckets = head[1];
      k.low_bits = static_cast<int>(head[2]);
    }
    std::vector<std::uint64_t>* arrays[4] = {&k.upper, &k.lower, &k.ones, &k.zeros};
    for (int a = 0; a < 4 && ok; ++a) {
      arrays[a]->resize(head[3 + a]);
      ok = std::fread(arrays[a]->data(), 8, arrays[a]->size(), spill_) == arrays[a]->size();
    }
    if (!ok) throw resource_error("reading the level keys back from the temporary file failed");
    if (block_checksum(head, k) != checksums_[l])
      throw resource_error(saved_path_.empty() ? std::string("the level keys read back from the temporary file differ")
                                               : "the level keys in '" + saved_path_ +
                                                     "' are corrupt; remove it to run the forward pass again");
    return k;
  }

  Backend& be_;
  const Game& game_;
  const std::uint64_t* table_;
  std::vector<elias_fano_keys> stored_;   ///< by level: the keys, while not spilled
  std::vector<std::uint64_t> sizes_;      ///< by level: number of keys
  std::vector<std::uint64_t> bytes_;      ///< by level: bytes of the coded keys
  std::vector<long> offsets_;             ///< by level: offset in the spill file, or -1
  std::vector<std::uint64_t> checksums_;  ///< by level: XXH64 of its block in the spill file
  std::string saved_path_;                ///< the file of saved keys, if any
  std::uint64_t signature_ = 0;           ///< of the game (saved keys)
  std::uint64_t kept_ = 0;
  std::vector<char> no_table_;  ///< by level: 1 where the level gets no rank table
  typename Backend::template staging<int> flag_copy_;
  std::FILE* spill_ = nullptr;
  std::vector<reachable_level> host_levels_;
  typename Backend::template buffer<reachable_level> dev_levels_;
  std::map<int, resident> resident_;
  bool dirty_ = false;

 public:
  ~solve_index() {
    if (spill_) std::fclose(spill_);
  }
  solve_index(const solve_index&) = delete;
  solve_index& operator=(const solve_index&) = delete;
};

/// The record dictionary of a solve whose rule's records are interned
/// (cgtb/record_dictionary.hpp), in the backend's memory: entries, slots and
/// the id counter. Ids stay valid while it grows.
template <class Backend, class Record>
class dictionary_store {
 public:
  dictionary_store(Backend& be, std::uint64_t capacity) : be_(be) {
    if (capacity) allocate(capacity, 0);
  }
  record_dictionary<Record> view() { return {slots_.data(), 2 * capacity_, entries_.data(), capacity_, count_.data()}; }
  /// Entries in use (ids 0.. count() - 1; a full pass may have counted past
  /// the capacity).
  std::uint64_t count() {
    const unsigned long long c = *be_.to_host(count_.data(), 1, count_copy_);
    return std::min<std::uint64_t>(c, capacity_);
  }
  /// Bytes the dictionary holds: entries, and two 8-byte slots per entry.
  double bytes() const { return static_cast<double>(capacity_) * (sizeof(Record) + 16); }
  /// Doubles the capacity, keeping every entry and its id (the pass that
  /// found it full runs again).
  void grow() {
    const std::uint64_t n = count();
    if (2 * capacity_ > 0x7fffffffull)
      throw resource_error("the build has more than 2^31 distinct records, more than its record ids hold");
    typename Backend::template buffer<Record> old = std::move(entries_);
    allocate(2 * capacity_, n);
    be_.with_policy(n, [&](auto policy) {
      thrust::copy(policy, old.data(), old.data() + n, entries_.data());
      be_.check("record dictionary copy");
    });
    reinsert(n);
  }
  /// Replaces the entries by `bytes` (a resumed build's checkpoint).
  void load(const std::string& bytes) {
    const std::uint64_t n = bytes.size() / sizeof(Record);
    std::vector<Record> e(n);
    if (n) std::memcpy(e.data(), bytes.data(), n * sizeof(Record));
    std::uint64_t cap = capacity_ ? capacity_ : 1024;
    while (cap < 2 * n) cap *= 2;
    allocate(cap, n);
    if (n) be_.copy_to_device(entries_.data(), e.data(), n);
    reinsert(n);
  }
  const Record* entries() const { return entries_.data(); }
  /// Entries the dictionary has room for.
  std::uint64_t capacity() const { return capacity_; }

 private:
  void allocate(std::uint64_t capacity, std::uint64_t in_use) {
    capacity_ = capacity;
    entries_ = be_.template allocate<Record>(capacity);
    slots_ = be_.template allocate<std::uint64_t>(2 * capacity);
    if (!count_.data()) count_ = be_.template allocate<unsigned long long>(1);
    const unsigned long long c = in_use;
    be_.copy_to_device(count_.data(), &c, 1);
    be_.with_policy(2 * capacity, [&](auto policy) {
      thrust::fill(policy, slots_.data(), slots_.data() + 2 * capacity, std::uint64_t{0});
      be_.check("record dictionary");
    });
  }
  void reinsert(std::uint64_t n) {
    be_.with_policy(n, [&](auto policy) {
      thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n),
                       dictionary_reinsert_kernel<Record>{view()});
      be_.check("record dictionary growth");
    });
  }

  Backend& be_;
  std::uint64_t capacity_ = 0;
  typename Backend::template buffer<Record> entries_;
  typename Backend::template buffer<std::uint64_t> slots_;
  typename Backend::template buffer<unsigned long long> count_;
  typename Backend::template staging<unsigned long long> count_copy_;
};

/// Levels of this many positions and more are consumed (copied to the host,
/// compressed and written) on the level pipeline's thread while the backend
/// solves the next levels; smaller ones on the solving thread, where handing
/// over would cost more than it hides.
constexpr std::uint64_t kOverlapPositions = std::uint64_t{1} << 16;

/// The memory a build may still use, for its refusals: "1.20 GB", with
/// " (the --max-memory limit)" where that limit, not free memory, is what
/// the backend reports.
template <class Backend>
std::string available_text(const Backend& be, const solve_options& opts) {
  const std::size_t a = be.available_bytes();
  return bytes_text(static_cast<double>(a)) +
         (opts.max_memory && a == opts.max_memory ? std::string(" (the --max-memory limit)") : std::string());
}

template <class Backend, class Game, class Rule>
void solve_with(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume) {
  using record = typename Rule::record;
  using view_type = typename Game::view_type;
  using clock = std::chrono::steady_clock;
  // Rules with large records (the genus) keep a 4-byte id per position and
  // one dictionary of the distinct records (cgtb/record_dictionary.hpp).
  constexpr bool interned = interned_record<Rule>::value;
  using stored = std::conditional_t<interned, std::uint32_t, record>;

  Backend be(opts);
  auto table = be.template upload<std::uint64_t>(game.table());
  solve_index<Backend, Game> index(be, game, table.data(), opts);
  const view_type view = index.view();
  std::vector<int> levels = game.levels();
  const int top = levels.empty() ? 0 : levels.back();
  const int span = game.option_level_span();
  if (opts.levels_known) {
    std::vector<std::uint64_t> sizes;
    for (int l : levels) sizes.push_back(index.size(l));
    opts.levels_known(sizes);
  }
  dictionary_store<Backend, record> dict(be, interned ? std::max<std::uint64_t>(opts.dictionary_capacity, 1) : 0);

  // by_level[L] points to level L's records (or ids) while L is resident.
  std::vector<const stored*> by_level_host(static_cast<std::size_t>(top) + 1, nullptr);
  auto by_level = be.template allocate<const stored*>(by_level_host.size());
  auto flags = be.template allocate<int>(2);  // [0]: a value overflowed; [1]: the dictionary is full
  // Before solving anything: the largest working set (a level plus the levels
  // its options reach, with their index data) must fit in the memory the
  // backend has now. A rank table that would not fit beside the solve of a
  // level using it is left out (those ranks go through the coded keys).
  {
    const double avail = static_cast<double>(be.available_bytes());
    double peak = 0;
    int peak_level = 0, without_tables = 0;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      auto reaches = [&](std::size_t j) { return j < i && (span == 0 || levels[j] >= levels[i] - span); };
      double need = 0;
      for (std::size_t j = 0; j <= i; ++j)
        if (j == i || reaches(j))
          need += static_cast<double>(index.size(levels[j])) * sizeof(stored) + index.key_bytes(levels[j]);
      for (std::size_t j = i; j-- > 0;) {
        if (!reaches(j)) continue;
        if (opts.rank_tables && need + index.table_bytes(levels[j]) <= avail) {
          need += index.table_bytes(levels[j]);
        } else if (index.table_bytes(levels[j]) > 0) {
          index.drop_rank_table(levels[j]);
          ++without_tables;
        }
      }
      if (need > peak) {
        peak = need;
        peak_level = levels[i];
      }
    }
    if (peak > avail)
      throw resource_error("level " + std::to_string(peak_level) + " with the levels its options reach needs " +
                           bytes_text(peak) + " of " + be.memory_name() + " memory, but only " +
                           available_text(be, opts) + " is available");
    if (without_tables && opts.progress)
      std::fprintf(stderr, "[cgtb] %d %s without a rank table (ranked through the coded keys, to fit in memory)\n",
                   without_tables, without_tables == 1 ? "level" : "levels");
  }
  std::map<int, typename Backend::template buffer<stored>> resident;
  // Host copies of solved levels for their consumer: two, so that a level's
  // copy can be made while the consumer still reads the level before it.
  typename Backend::template staging<stored> copies[2];
  typename Backend::template staging<record> entry_copies[2];
  typename Backend::template staging<int> flag_copy;
  // The consumer of a large level runs beside the solve of the next levels
  // (declared after every buffer a job reads, so that it ends first).
  level_pipeline pipeline([&be] { be.enter_thread(); });
  std::size_t solved = 0;
  // Entries of by_level_host changed since the last copy to the device: only
  // those are copied (games with many levels, e.g. one per heap size).
  std::size_t dirty_lo = 0, dirty_hi = by_level_host.size();
  auto mark = [&](int l) {
    const std::size_t i = static_cast<std::size_t>(l);
    if (dirty_lo >= dirty_hi) {
      dirty_lo = i;
      dirty_hi = i + 1;
    } else {
      dirty_lo = std::min(dirty_lo, i);
      dirty_hi = std::max(dirty_hi, i + 1);
    }
  };

  // Drops the resident levels below `lowest`: no option of the levels still
  // to solve reaches them.
  auto drop_below = [&](int lowest) {
    if (pipeline.in_flight() != level_pipeline::none && pipeline.in_flight() < lowest) pipeline.wait();
    for (auto it = resident.begin(); it != resident.end();) {
      if (it->first < lowest) {
        by_level_host[static_cast<std::size_t>(it->first)] = nullptr;
        mark(it->first);
        index.drop(it->first);
        it = resident.erase(it);
      } else {
        ++it;
      }
    }
  };

  for (int level : levels) {
    if (span > 0) drop_below(level - span);
    const std::uint64_t n = index.size(level);
    const double need =
        static_cast<double>(n) * sizeof(stored) + index.key_bytes(level) + (interned ? dict.bytes() : 0.0);
    if (need > static_cast<double>(be.available_bytes()))
      throw resource_error("level " + std::to_string(level) + " has " + std::to_string(n) + " positions and needs " +
                           bytes_text(need) + " but only " + available_text(be, opts) + " of " + be.memory_name() +
                           " memory is available");
    if (level <= opts.resume_after) {
      // Solved by the build this one resumes: only the levels the next
      // unsolved level's options reach are loaded.
      int next_level = top + 1;
      for (int l : levels)
        if (l > opts.resume_after) {
          next_level = l;
          break;
        }
      if (span == 0 || level >= next_level - span) {
        std::string entries;
        if (!opts.load_level) throw std::logic_error("resumed solve without load_level");
        auto in = be.template allocate<stored>(n);
        if constexpr (Backend::host_visible) {
          opts.load_level(level, n, in.data(), interned ? &entries : nullptr);
        } else {
          std::vector<stored> saved(n);
          opts.load_level(level, n, saved.data(), interned ? &entries : nullptr);
          if (n) be.copy_to_device(in.data(), saved.data(), n);
        }
        if constexpr (interned) dict.load(entries);
        index.make_resident(level);
        index.build_rank_table(level);
        index.sync();
        by_level_host[static_cast<std::size_t>(level)] = in.data();
        mark(level);
        resident.emplace(level, std::move(in));
      }
      continue;
    }
    auto t0 = clock::now();
    index.make_resident(level);
    index.sync();
    auto out = be.template allocate<stored>(n);
    if (dirty_lo < dirty_hi)
      be.copy_to_device(by_level.data() + dirty_lo, by_level_host.data() + dirty_lo, dirty_hi - dirty_lo);
    dirty_lo = dirty_hi = 0;

    const std::uint64_t chunk = Backend::chunk_size;
    const std::uint64_t items = (n + chunk - 1) / chunk;
    level_report rep;
    rep.level = level;
    rep.positions = n;
    rep.keys = index.keys(level);
    // The level pass; with interned records, where the dictionary filled up,
    // grown and run again over the positions whose record found no entry.
    for (bool retry = false;; retry = true) {
      const int zero[2] = {0, 0};
      be.copy_to_device(flags.data(), zero, 2);
      // The backend picks the execution policy for a level of n positions.
      be.with_policy(n, [&](auto policy) {
        if constexpr (interned) {
          using kernel_type = interned_level_kernel<view_type, Rule, Backend::prefetch_batch>;
          const kernel_type kernel{
              view, level, n, chunk, by_level.data(), dict.view(), out.data(), flags.data(), flags.data() + 1, retry};
          thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                           thrust::counting_iterator<std::uint64_t>(items), kernel);
        } else {
          using kernel_type = level_kernel<view_type, Rule, Backend::prefetch_batch>;
          const kernel_type kernel{view, level, n, chunk, by_level.data(), out.data(), flags.data()};
          thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                           thrust::counting_iterator<std::uint64_t>(items), kernel);
        }
        be.check("level kernel");
      });
      const int* f = be.to_host(flags.data(), 2, flag_copy);
      rep.overflow = f[0] != 0;
      if (!interned || f[1] == 0 || rep.overflow) break;
      pipeline.wait();  // a level still being written reads the entries
      dict.grow();
      ++rep.dictionary_growths;
      if (opts.progress)
        std::fprintf(stderr,
                     "[cgtb] level %d: the record dictionary filled up; grown to %llu entries, solving the positions "
                     "whose record was new again\n",
                     level, static_cast<unsigned long long>(dict.capacity()));
    }
    if (opts.count_options)
      be.with_policy(n, [&](auto policy) {
        rep.options = thrust::transform_reduce(
            policy, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n),
            option_count_kernel<view_type>{view, level}, std::uint64_t{0}, thrust::plus<std::uint64_t>());
        be.check("option count");
      });
    if constexpr (interned) rep.dictionary_entries = dict.count();
    rep.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (rep.overflow)
      throw resource_error("level " + std::to_string(level) + ": a value reached " +
                           rule_value_limit_text<Rule>::text() + ", more than the value record holds");
    // The level's copy to the host and its consumer: on the pipeline's
    // thread for large levels, while this thread goes on to the next level,
    // where the host has room for both (the consumer holds the level's host
    // copy where the backend's buffers are not the host's, and the writer's
    // blocks in flight; a checkpoint writes the records where they lie. Beside
    // it: the keys and rank table of this level and the keys and records of
    // the next, which take host memory only where the backend's buffers are
    // the host's; a device backend still keeps a host copy of the next
    // level's keys).
    // Interned records: the entries the level's ids name are never written
    // again, so the copy reads them while the next levels add theirs.
    const stored* solved_records = out.data();
    const std::size_t slot = solved++ % 2;
    auto& copy = copies[slot];
    auto& entry_copy = entry_copies[slot];
    const record* entries = interned ? dict.entries() : nullptr;
    const std::uint64_t entry_count = rep.dictionary_entries;
    auto job = [&be, &consume, &copy, &entry_copy, rep, solved_records, n, entries, entry_count] {
      level_records<record> view_of_level;
      if constexpr (interned) {
        view_of_level.ids = be.to_host(solved_records, n, copy);
        view_of_level.entries = be.to_host(entries, entry_count, entry_copy);
        view_of_level.entry_count = entry_count;
      } else {
        view_of_level.records = be.to_host(solved_records, n, copy);
      }
      consume(rep, view_of_level);
    };
    const auto here = std::find(levels.begin(), levels.end(), level);
    const std::uint64_t next_n = here + 1 != levels.end() ? index.size(*(here + 1)) : 0;
    const double next_keys = next_n ? index.key_bytes(*(here + 1)) : 0.0;
    const double beside =
        index.key_bytes(level) + index.table_bytes(level) + static_cast<double>(next_n) * sizeof(stored) + next_keys;
    const double both =
        (Backend::host_visible ? beside : static_cast<double>(n) * sizeof(stored) + next_keys) + kLevelConsumerBytes;
    if (n >= kOverlapPositions && be.pipelined() && both < static_cast<double>(host_available_bytes()))
      pipeline.submit(level, job);
    else
      pipeline.run_here(job);
    by_level_host[static_cast<std::size_t>(level)] = out.data();
    mark(level);
    resident.emplace(level, std::move(out));
    // Levels the next level's options cannot reach go before this level's
    // rank table is built, so that the two never share the memory.
    if (span > 0 && here + 1 != levels.end()) drop_below(*(here + 1) - span);
    index.build_rank_table(level);
  }
  pipeline.wait();
}

}  // namespace cgtb::detail
