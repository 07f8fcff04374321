// The index of a solve, shared by both backends: the ruleset's own perfect
// hash, or, for keyed (reachable) games, the index the forward pass builds
// from the start position (hash sets in parts, compaction, sorting, the merge
// of parts into Elias–Fano coded keys, the spill file and the saved keys of a
// resumable build), and the rank tables of resident levels. `Backend`
// supplies memory, transfers and the Thrust execution policy. Included by
// level_loop.hpp.
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
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/level_solver.hpp"
#include "cgtb/memory_model.hpp"
#include "cgtb/text.hpp"
#include "level_pipeline.hpp"

namespace cgtb::detail {

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
    // Slots of kept keys: each level's, then (distributed builds) the
    // options each level's part of the level above has.
    level_slots_ = static_cast<std::size_t>(top) + 1;
    stored_.resize(2 * level_slots_);
    sizes_.assign(2 * level_slots_, 0);
    bytes_.assign(2 * level_slots_, 0);
    offsets_.assign(2 * level_slots_, -1);
    checksums_.assign(2 * level_slots_, 0);
    no_table_.assign(static_cast<std::size_t>(top) + 1, 0);
    options_kept_.assign(static_cast<std::size_t>(top) + 1, 0);
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
      progress_line(opts.progress, "[cgtb] level keys read from %s", saved_path_.c_str());
    } else {
      if (found_to >= 0)
        progress_line(opts.progress, "[cgtb] level keys %d to %d read from %s; the forward pass goes on from level %d",
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
  double table_bytes(int level) const { return has_table(level) ? memory_model::rank_table_bytes(size(level)) : 0.0; }
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
  /// rank with them); nothing where they are.
  void make_resident(int level) {
    if (resident_.count(level)) return;
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
  /// Distributed builds (solve_options::exchange): the distinct canonical
  /// options (coded keys on level `below`) of this rank's part of the level
  /// above it, kept from the forward pass; handed out once.
  elias_fano_keys option_keys(int below) {
    elias_fano_keys found = load(options_slot(below));
    discard_option_keys(below);
    return found;
  }
  /// Distributed builds: the distinct options on level L of this rank's
  /// part of the level above, as the forward pass found them.
  std::uint64_t options_found(int level) const { return sizes_[static_cast<std::size_t>(options_slot(level))]; }
  /// Resident level L as the kernels see it (its keys and rank table; host
  /// memory on host-visible backends).
  reachable_level level_view(int level) const { return host_levels_[static_cast<std::size_t>(level)]; }
  /// Distributed builds: level L's keys become `keys` (the options a rank
  /// reads, whose records it fetched), resident, with a rank table where the
  /// level would have one.
  void replace(int level, elias_fano_keys keys) {
    const std::size_t l = static_cast<std::size_t>(level);
    drop(level);
    sizes_[l] = keys.size;
    bytes_[l] = keys.bytes();
    resident r;
    r.host = std::move(keys);
    host_levels_[l] = on_backend(r.host, r.dev);
    dirty_ = true;
    resident_.emplace(level, std::move(r));
    build_rank_table(level);
    sync();
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

 public:
  /// Distributed builds: a resident level moved out of the index (take()).
  struct held_level {
    reachable_level view;  ///< its keys and rank table, as the kernels see them
    resident keys;
  };

  /// Distributed builds: moves resident level L out of the index (a rank's
  /// part of the level below the one in work, which answers the other
  /// ranks' requests while the options fetched for each chunk of the level
  /// in work take its place); L is then not resident.
  held_level take(int level) {
    const std::size_t l = static_cast<std::size_t>(level);
    held_level h{host_levels_[l], std::move(resident_.at(level))};
    drop(level);
    return h;
  }

  /// Distributed builds: the distinct canonical options on level `below` of
  /// the positions of ranks [first, last) of resident level `level`, as
  /// coded keys, found as the forward pass finds a level (reach(), its hash
  /// set sized for `estimate` keys).
  elias_fano_keys options_of(int level, std::uint64_t first, std::uint64_t last, int below, double estimate,
                             const solve_options& opts) {
    std::vector<std::uint64_t> part(last - first);
    resident_.at(level).host.decode(first, last - first, part.data());
    const elias_fano_keys above = encode_keys(part.data(), part.size());
    std::vector<std::uint64_t>().swap(part);
    std::uint64_t parts = 0;
    return reach(above, below, std::max(estimate, 1.0), opts, parts);
  }

  /// Distributed builds: forgets the options kept from the forward pass for
  /// the level above `below` (its solve finds them again chunk by chunk).
  void discard_option_keys(int below) {
    const std::size_t slot = static_cast<std::size_t>(options_slot(below));
    stored_[slot] = elias_fano_keys();
    bytes_[slot] = 0;
    options_kept_[static_cast<std::size_t>(below)] = 0;
  }
  /// Distributed builds: whether the forward pass kept the options of the
  /// level above `below` (it does where they came in one part).
  bool has_option_keys(int below) const { return options_kept_[static_cast<std::size_t>(below)] != 0; }

 private:
  static std::uint64_t slot_count(std::uint64_t n) { return memory_model::rank_table_slots(n); }
  /// The slot of kept keys that holds the options on level L (store()).
  int options_slot(int level) const { return static_cast<int>(level_slots_) + level; }
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

  /// Slots per block of the forward pass's compaction on host-visible
  /// backends (occupied_block_count): 512 KB of slots, a work item each.
  static constexpr std::uint64_t kCompactBlock = std::uint64_t{1} << 16;

  /// The forward pass, from the start or (found_to >= 0) on from level
  /// found_to, whose keys and those of the levels above are stored already.
  void forward(const std::vector<int>& levels, const solve_options& opts, int found_to) {
    using clock = std::chrono::steady_clock;
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
      // The start: rank 0's in a distributed build.
      const std::uint64_t start = game_.canonical(game_.start());
      cur = encode_keys(&start, !opts.exchange || opts.exchange->rank() == 0 ? 1 : 0);
      store(top, cur);
      if (opts.forward_level_done) opts.forward_level_done(top);
    } else {
      for (; levels[i] != found_to; --i) next_growth(size(levels[i]), size(levels[i - 1]));
      cur = load(found_to);
    }
    for (; i > 0; --i) {
      const auto t0 = clock::now();
      const int below = levels[i - 1];
      const std::uint64_t n = cur.size;
      std::uint64_t parts = 0;
      std::uint64_t found_all = 0;
      if (!opts.exchange) {
        cur = reach(cur, below, growth * static_cast<double>(n), opts, parts);
        found_all = cur.size;
      } else {
        cur = reach_across_ranks(cur, below, growth * static_cast<double>(n), opts, parts);
        found_all = opts.exchange->sum(cur.size);
      }
      store(below, cur);
      // The growth of the hash set's count: of the options this rank found
      // (in a distributed build, before they went to their owners; a rank
      // whose part is empty keeps its estimate).
      if (n) next_growth(n, opts.exchange ? options_found(below) : cur.size);
      progress_line(opts.progress, "[cgtb] reachable level %3d: %14llu %s stored in %8.3f s%s", below,
                    static_cast<unsigned long long>(found_all), found_all == 1 ? "position" : "positions",
                    std::chrono::duration<double>(clock::now() - t0).count(),
                    parts > 1 ? (" (" + std::to_string(parts) + " parts)").c_str() : "");
      if (opts.forward_level_done) opts.forward_level_done(below);
    }
  }

  /// A distributed build's forward pass into level `below` from this rank's
  /// part `cur` of the level above: each part of its options (reach(), the
  /// same parts on every rank) goes to its owners as soon as it is found, so
  /// that a rank holds one part's options at a time; returns this rank's
  /// part of level `below`. The options themselves are kept for the solve
  /// (options_slot) where they came in one part, and counted
  /// (options_found) always: the parts hold distinct classes.
  elias_fano_keys reach_across_ranks(const elias_fano_keys& cur, int below, double estimate, const solve_options& opts,
                                     std::uint64_t& parts) {
    parts = opts.exchange->max(opts.forward_parts
                                   ? opts.forward_parts
                                   : memory_model::forward_parts(estimate, static_cast<double>(be_.available_bytes())));
    std::vector<elias_fano_keys> own_runs;
    std::uint64_t options = 0;
    elias_fano_keys kept;
    const std::function<void(elias_fano_keys&&, std::uint64_t)> on_run = [&](elias_fano_keys&& run,
                                                                             std::uint64_t part) {
      options += run.size;
      std::vector<std::uint64_t> generated(run.size);
      if (run.size) run.decode(0, run.size, generated.data());
      if (parts == 1)
        kept = std::move(run);
      else
        run = elias_fano_keys();
      const std::vector<std::uint64_t> own = opts.exchange->own_keys(below, generated, part, parts);
      std::vector<std::uint64_t>().swap(generated);
      own_runs.push_back(encode_keys(own.data(), own.size()));
    };
    reach(cur, below, estimate, opts, parts, &on_run);
    store(options_slot(below), kept);  // read again by the solve of the level above, where it came whole
    sizes_[static_cast<std::size_t>(options_slot(below))] = options;
    options_kept_[static_cast<std::size_t>(below)] = parts == 1;
    return own_runs.size() == 1 ? std::move(own_runs[0]) : merge_key_runs(own_runs);
  }

  /// The canonical options of the positions whose keys are `cur` (one
  /// level) on level `below`, as coded keys: gathered in a hash set on the
  /// backend sized for `estimate` keys (in `parts` parts by class hash, each
  /// a pass over `cur`, where one set would not fit in a quarter of the free
  /// memory; `parts` given where it is not 0 on entry), compacted, sorted,
  /// and the parts' runs merged. With `on_run`, each part's run goes to it
  /// (with its part number) as soon as it is found instead, and nothing is
  /// returned.
  elias_fano_keys reach(const elias_fano_keys& cur, int below, double estimate, const solve_options& opts,
                        std::uint64_t& parts,
                        const std::function<void(elias_fano_keys&&, std::uint64_t)>* on_run = nullptr) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const view_type v = game_.view(table_, nullptr);
    const std::uint64_t n = cur.size;
    device_keys cur_dev;
    const reachable_level above = on_backend(cur, cur_dev);
    auto full = be_.template allocate<int>(1);
    // The hash set: the estimated count at load 3/4, in as many parts (by
    // key hash, each a pass over the level above) as keep a part's set
    // within a quarter of the memory free now (cgtb/memory_model.hpp).
    if (!parts)
      parts = opts.forward_parts ? opts.forward_parts
                                 : memory_model::forward_parts(estimate, static_cast<double>(be_.available_bytes()));
    std::vector<elias_fano_keys> runs;
    std::uint64_t found_all = 0;
    for (std::uint64_t part = 0; part < parts; ++part) {
      // Capacity for the estimated count at load 3/4; enlarged by half and
      // the pass redone when the set turns out fuller than 4/5 (or full).
      std::uint64_t cap = memory_model::forward_set_slots(estimate, parts);
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
            found =
                static_cast<std::uint64_t>(thrust::count_if(policy, slots.data(), slots.data() + cap, occupied_slot{}));
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
      elias_fano_keys run = encode_keys(be_.download(next.data(), found, keys_copy), found);
      next = typename Backend::template buffer<std::uint64_t>();
      if (on_run)
        (*on_run)(std::move(run), part);
      else
        runs.push_back(std::move(run));
      found_all += found;
      if (parts > 1 && part + 1 < parts)
        progress_line(opts.progress, "[cgtb] reachable level %3d: part %llu of %llu: %llu positions in %.0f s", below,
                      static_cast<unsigned long long>(part + 1), static_cast<unsigned long long>(parts),
                      static_cast<unsigned long long>(found_all),
                      std::chrono::duration<double>(clock::now() - t0).count());
    }
    if (on_run) return elias_fano_keys();
    return runs.size() == 1 ? std::move(runs[0]) : merge_key_runs(runs);
  }

  /// Keeps the keys of slot `slot` (level L's keys in slot L; a
  /// distributed build's options of a level in options_slot(L)): in memory
  /// while all kept keys stay under memory_model::kept_keys_limit, then in an unnamed
  /// temporary file (removed by the system when the process ends, however it
  /// ends) until their level is solved, leaving the host memory to the
  /// levels in work. Saved keys go to their file from the first level on,
  /// and its header is brought up to date after each.
  void store(int slot, const elias_fano_keys& k) {
    const std::size_t l = static_cast<std::size_t>(slot);
    sizes_[l] = k.size;
    bytes_[l] = k.bytes();
    kept_ += k.bytes();
    if (!spill_ &&
        static_cast<double>(kept_) < memory_model::kept_keys_limit(static_cast<double>(be_.available_bytes()))) {
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
    if (!saved_path_.empty() && l < level_slots_) update_saved_header(slot);
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
    std::vector<std::uint64_t> h = {kSavedKeysMagic, signature_, level_slots_, lowest};
    for (std::size_t l = 0; l < level_slots_; ++l) {
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
  /// the block) ends the levels read there, with a line to `progress`.
  int open_saved(const std::vector<int>& levels, progress_sink* progress) {
    std::FILE* f = std::fopen(saved_path_.c_str(), "r+b");
    if (!f) return -1;
    std::vector<std::uint64_t> h(5 + 2 * level_slots_);
    const bool read = std::fread(h.data(), 8, h.size(), f) == h.size();
    std::fill(offsets_.begin(), offsets_.end(), -1);
    for (std::size_t l = 0; read && l < level_slots_; ++l) {
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
          progress_line(progress, "[cgtb] the saved keys of level %d in %s are damaged (checksum); not read", *l,
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
  std::vector<elias_fano_keys> stored_;   ///< by slot (store()): the keys, while not spilled
  std::vector<std::uint64_t> sizes_;      ///< by slot (store()): number of keys
  std::vector<std::uint64_t> bytes_;      ///< by slot (store()): bytes of the coded keys
  std::vector<long> offsets_;             ///< by slot (store()): offset in the spill file, or -1
  std::vector<std::uint64_t> checksums_;  ///< by slot (store()): XXH64 of its block in the spill file
  std::size_t level_slots_ = 0;           ///< top + 1: slots 0..top hold the levels' keys, the next ones the options
  std::string saved_path_;                ///< the file of saved keys, if any
  std::uint64_t signature_ = 0;           ///< of the game (saved keys)
  std::uint64_t kept_ = 0;
  std::vector<char> options_kept_;  ///< by level: the options of the level above it are kept (has_option_keys)
  std::vector<char> no_table_;      ///< by level: 1 where the level gets no rank table
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

}  // namespace cgtb::detail
