// The level loop of a solve, shared by both backends: every level of the
// game, bottom up, each solved by one kernel pass over its positions (reading
// its options' records from the resident levels below) and handed to the
// consumer. The memory pre-check, the loading of a resumed build's levels,
// the pass with its retry, and the hand-over to the consumer are functions of
// their own. Included only by backend_cpu.cpp and backend_cuda.cu.
#pragma once

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "backend_concept.hpp"
#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/level_solver.hpp"
#include "cgtb/text.hpp"
#include "dictionary_store.hpp"
#include "level_pipeline.hpp"
#include "level_store.hpp"
#include "solve_index.hpp"

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

/// Distributed builds, host-visible backends: out[j] = the record of key
/// keys[j] of a rank's part of a level (`level`, whose stored values are
/// `stored`: records, or ids of the `entries` of a dictionary of interned
/// records); sets *missing where the part does not hold the key.
template <class Stored, class Record>
struct owned_record_copy {
  reachable_level level;
  const Stored* stored;
  const Record* entries;
  const std::uint64_t* keys;
  Record* out;
  int* missing;
  CGTB_HD void operator()(std::uint64_t j) const {
    const std::uint64_t r = level.rank(keys[j]);
    if (r < level.size && level.key(r) == keys[j]) {
      if constexpr (std::is_same<Stored, Record>::value)
        out[j] = stored[r];
      else
        out[j] = entries[stored[r]];
    } else {
      *missing = 1;
    }
  }
};

/// Distributed builds of interned records: ids[j] = the id of records[j] in
/// the dictionary, inserted if new (kNoRecordId and *full where the
/// dictionary has no room: it grows, and a retry interns only those).
template <class Record>
struct record_import_kernel {
  record_dictionary<Record> dict;
  const Record* records;
  std::uint32_t* ids;
  int* full;
  bool retry;
  CGTB_HD void operator()(std::uint64_t j) const {
    if (!retry || ids[j] == kNoRecordId) ids[j] = dict.intern(records[j], full);
  }
};

/// One solve of `Game` under `Rule` on `Backend`: construct, then run().
/// Levels stay resident (records on the backend, with their index data) from
/// the time they are solved or loaded until no option of a level still to
/// solve reaches them (Game::option_level_span; 0: every lower level).
template <class Backend, class Game, class Rule>
class level_loop {
  static_assert(check_backend<Backend>());

 public:
  using record = typename Rule::record;
  using view_type = typename Game::view_type;
  /// Rules with large records (the genus) keep a 4-byte id per position and
  /// one dictionary of the distinct records (cgtb/record_dictionary.hpp).
  static constexpr bool interned = interned_record<Rule>::value;
  using stored = std::conditional_t<interned, std::uint32_t, record>;
  /// What ranks send one another of a class: its stored value, or its whole
  /// record where the stored value is an id of this rank's dictionary.
  using sent = std::conditional_t<interned, record, stored>;

  /// Uploads the game's table and builds its index (for keyed games: runs the
  /// forward pass). Throws resource_error when memory runs out.
  level_loop(const Game& game, const solve_options& opts, const level_consumer<record>& consume)
      : opts_(opts),
        consume_(consume),
        be_(opts),
        table_(be_.template upload<std::uint64_t>(game.table())),
        index_(be_, game, table_.data(), opts),
        view_(index_.view()),
        levels_(game.levels()),
        top_(levels_.empty() ? 0 : levels_.back()),
        span_(game.option_level_span()),
        dict_(be_, interned ? std::max<std::uint64_t>(opts.dictionary_capacity, 1) : 0),
        store_(be_, top_),
        flags_(be_.template allocate<int>(2)),
        pipeline_([this] { be_.enter_thread(); }) {
    check_distributed();
  }

  /// Solves (or, resuming, loads) every level bottom up and hands each
  /// solved level to the consumer. Throws resource_error when a level does
  /// not fit or a value overflows its record; rethrows the consumer's errors.
  void run() {
    std::vector<std::uint64_t> sizes, largest_parts;
    for (int l : levels_) {
      const std::vector<std::uint64_t> parts =
          exchange_ ? exchange_->counts(index_.size(l)) : std::vector<std::uint64_t>{index_.size(l)};
      sizes.push_back(std::accumulate(parts.begin(), parts.end(), std::uint64_t{0}));
      largest_parts.push_back(*std::max_element(parts.begin(), parts.end()));
    }
    if (opts_.levels_known) opts_.levels_known(sizes);
    check_memory(largest_parts);
    for (std::size_t i = 0; i < levels_.size(); ++i) {
      const int level = levels_[i];
      release_before(level);
      check_level_fits(level);
      if (level <= opts_.resume_after) {
        if (reached_after_resume(level)) load_solved(level);
        continue;
      }
      auto out = be_.template allocate<stored>(index_.size(level));
      const level_report rep = exchange_ ? solve_part(i, out.data()) : solve_level(level, out.data());
      hand_over(i, rep, out.data());
      store_.keep(level, std::move(out), last_reader(i));
      // Levels the next level's options cannot reach go before this level's
      // rank table is built, so that the two never share the memory.
      if (i + 1 < levels_.size()) release_before(levels_[i + 1]);
      index_.build_rank_table(level);
    }
    pipeline_.wait();
  }

 private:
  /// Distributed builds are made for keyed games whose options of each
  /// level lie on the level below, on a backend whose memory the host reads;
  /// throws input_error otherwise.
  void check_distributed() const {
    if (!exchange_) return;
    const char* why = nullptr;
    if (!keyed_game<Game>::value)
      why = "are built for the reachable Cram and Domineering tables only";
    else if (!Backend::host_visible)
      why = "run on the CPU backend only so far";
    for (std::size_t i = 1; !why && i < levels_.size(); ++i)
      if (span_ <= 0 || levels_[i] - span_ != levels_[i - 1]) why = "need a game whose options lie on the level below";
    if (why) throw input_error(std::string("builds across several MPI ranks ") + why);
  }

  /// True when level j's records are read by options of level i (j < i).
  bool reaches(std::size_t i, std::size_t j) const { return j < i && (span_ == 0 || levels_[j] >= levels_[i] - span_); }

  /// Before solving anything: the largest working set (a level plus the
  /// levels its options reach, with their index data) must fit in the memory
  /// the backend has now. A rank table that would not fit beside the solve of
  /// a level using it is left out (those ranks go through the coded keys).
  ///
  /// Distributed builds: the figures are this rank's. A level reached by
  /// options is the options of this rank's part (the forward pass counted
  /// them). Writing a level, each rank holds its part's compressed blocks
  /// twice (the run and the message that carries it), and rank 0 also one
  /// other rank's message at a time (`largest_parts`: each level's largest
  /// part), counted at kCompressedClassBytes a class.
  void check_memory(const std::vector<std::uint64_t>& largest_parts) {
    const double avail = static_cast<double>(be_.available_bytes());
    double peak = 0;
    int peak_level = 0, without_tables = 0;
    largest_parts_ = largest_parts;
    for (std::size_t i = 0; i < levels_.size(); ++i) {
      double need = 0;
      if (exchange_) {
        // A part solved in chunks of the fewest options a chunk is sized for.
        need = part_bytes(i, static_cast<double>(std::min(options_fetched(i), memory_model::kMinChunkOptions)));
        if (i > 0 && index_.table_bytes(levels_[i - 1]) > 0 &&
            (!opts_.rank_tables || (need > avail && need - index_.table_bytes(levels_[i - 1]) <= avail))) {
          need -= index_.table_bytes(levels_[i - 1]);
          index_.drop_rank_table(levels_[i - 1]);
          ++without_tables;
        }
        if (need > peak) {
          peak = need;
          peak_level = levels_[i];
        }
        continue;
      }
      for (std::size_t j = 0; j <= i; ++j) {
        if (j != i && !reaches(i, j)) continue;
        need += static_cast<double>(index_.size(levels_[j])) * sizeof(stored) + index_.key_bytes(levels_[j]);
      }
      for (std::size_t j = i; j-- > 0;) {
        if (!reaches(i, j)) continue;
        if (opts_.rank_tables && need + index_.table_bytes(levels_[j]) <= avail) {
          need += index_.table_bytes(levels_[j]);
        } else if (index_.table_bytes(levels_[j]) > 0) {
          index_.drop_rank_table(levels_[j]);
          ++without_tables;
        }
      }
      if (need > peak) {
        peak = need;
        peak_level = levels_[i];
      }
    }
    if (peak > avail)
      throw resource_error("level " + std::to_string(peak_level) + " with the levels its options reach needs " +
                           bytes_text(peak) + " of " + be_.memory_name() + " memory, but only " +
                           available_text(be_, opts_) + " is available");
    if (without_tables)
      progress_line(opts_.progress,
                    "[cgtb] %d %s without a rank table (ranked through the coded keys, to fit in memory)",
                    without_tables, without_tables == 1 ? "level" : "levels");
  }

  /// Distributed builds: the distinct options on level i - 1 of this rank's
  /// part of level i, as the forward pass found them (0 for level 0).
  std::uint64_t options_fetched(std::size_t i) const {
    if constexpr (keyed_game<Game>::value)
      if (i > 0) return index_.options_found(levels_[i - 1]);
    return 0;
  }

  /// Distributed builds: the bytes this rank holds while a chunk of
  /// `options` fetched options of its part of level i is solved: its part
  /// of level i (records, keys) and of the level below (records, keys, rank
  /// table; it answers the other ranks' requests), the options fetched
  /// (memory_model::fetched_option_bytes), an exchange round's buffers
  /// (keys out and records back, both ways), the level's compressed blocks
  /// while they are written (each rank its run and the message carrying it,
  /// rank 0 also one other rank's message: largest_parts_, the largest part
  /// of the level, at kCompressedClassBytes a class), the consumer's buffers
  /// and the record dictionary.
  double part_bytes(std::size_t i, double options) const {
    const int level = levels_[i];
    const double n = static_cast<double>(index_.size(level));
    double need = n * sizeof(stored) + index_.key_bytes(level);
    double asked = options;
    if (i > 0) {
      const int below = levels_[i - 1];
      const double own = static_cast<double>(index_.size(below));
      need += own * sizeof(stored) + index_.key_bytes(below) + index_.table_bytes(below);
      asked = std::max(asked, own);
    }
    need += options * memory_model::fetched_option_bytes(interned ? sizeof(sent) : 0.0, sizeof(stored));
    need += std::min(asked, static_cast<double>(kExchangeRoundKeys)) * (8.0 + sizeof(sent)) * 2;
    need += kCompressedClassBytes *
            (2.0 * n +
             (exchange_->rank() == 0 && i < largest_parts_.size() ? static_cast<double>(largest_parts_[i]) : 0.0));
    need += kLevelConsumerBytes + (interned ? dict_.bytes() : 0.0);
    return need;
  }

  /// The level's records (and the dictionary) must fit in the memory left.
  void check_level_fits(int level) const {
    const std::uint64_t n = index_.size(level);
    const double need =
        static_cast<double>(n) * sizeof(stored) + index_.key_bytes(level) + (interned ? dict_.bytes() : 0.0);
    if (need > static_cast<double>(be_.available_bytes()))
      throw resource_error("level " + std::to_string(level) + " has " + std::to_string(n) + " positions and needs " +
                           bytes_text(need) + " but only " + available_text(be_, opts_) + " of " + be_.memory_name() +
                           " memory is available");
  }

  /// Resumed builds: true when `level` (solved by the build this one
  /// resumes) is reached by the options of the first level still to solve.
  bool reached_after_resume(int level) const {
    for (int l : levels_)
      if (l > opts_.resume_after) return span_ == 0 || level >= l - span_;
    return false;  // every level is solved
  }

  /// Loads a level the resumed build solved (opts.load_level) and makes it
  /// resident, with its rank table.
  void load_solved(int level) {
    const std::uint64_t n = index_.size(level);
    std::string entries;
    if (!opts_.load_level) throw std::logic_error("resumed solve without load_level");
    auto in = be_.template allocate<stored>(n);
    if constexpr (Backend::host_visible) {
      opts_.load_level(level, n, in.data(), interned ? &entries : nullptr);
    } else {
      std::vector<stored> saved(n);
      opts_.load_level(level, n, saved.data(), interned ? &entries : nullptr);
      if (n) be_.copy_to_device(in.data(), saved.data(), n);
    }
    if constexpr (interned) dict_.load(entries);
    index_.make_resident(level);
    index_.build_rank_table(level);
    index_.sync();
    store_.keep(level, std::move(in), last_reader(index_of(level)));
  }

  /// The level pass: one kernel over the level's positions of ranks
  /// [first, last) (default: all) into `out`; with interned records, where
  /// the dictionary filled up, grown and run again over the positions whose
  /// record found no entry.
  level_report solve_level(int level, stored* out, std::uint64_t first = 0, std::uint64_t last = ~std::uint64_t{0}) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t n = std::min(last, index_.size(level)) - first;
    index_.make_resident(level);
    index_.sync();
    const stored* const* by_level = store_.records_by_level();
    const std::uint64_t chunk = Backend::chunk_size;
    const std::uint64_t items = (n + chunk - 1) / chunk;
    level_report rep;
    rep.level = level;
    rep.positions = index_.size(level);
    rep.keys = index_.keys(level);
    for (bool retry = false;; retry = true) {
      const int zero[2] = {0, 0};
      be_.copy_to_device(flags_.data(), zero, 2);
      // The backend picks the execution policy for a level of n positions.
      be_.with_policy(n, [&](auto policy) {
        if constexpr (interned) {
          using kernel_type = interned_level_kernel<view_type, Rule, Backend::prefetch_batch>;
          const kernel_type kernel{view_,        level, first,         first + n,         chunk, by_level,
                                   dict_.view(), out,   flags_.data(), flags_.data() + 1, retry};
          thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                           thrust::counting_iterator<std::uint64_t>(items), kernel);
        } else {
          using kernel_type = level_kernel<view_type, Rule, Backend::prefetch_batch>;
          const kernel_type kernel{view_, level, first, first + n, chunk, by_level, out, flags_.data()};
          thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                           thrust::counting_iterator<std::uint64_t>(items), kernel);
        }
        be_.check("level kernel");
      });
      const int* f = be_.to_host(flags_.data(), 2, flag_copy_);
      rep.overflow = f[0] != 0;
      if (!interned || f[1] == 0 || rep.overflow) break;
      pipeline_.wait();  // a level still being written reads the entries
      dict_.grow();
      ++rep.dictionary_growths;
      progress_line(opts_.progress,
                    "[cgtb] level %d: the record dictionary filled up; grown to %llu entries, solving the positions "
                    "whose record was new again",
                    level, static_cast<unsigned long long>(dict_.capacity()));
    }
    if (opts_.count_options)
      be_.with_policy(n, [&](auto policy) {
        rep.options = thrust::transform_reduce(policy, thrust::counting_iterator<std::uint64_t>(first),
                                               thrust::counting_iterator<std::uint64_t>(first + n),
                                               option_count_kernel<view_type>{view_, level}, std::uint64_t{0},
                                               thrust::plus<std::uint64_t>());
        be_.check("option count");
      });
    if constexpr (interned) rep.dictionary_entries = dict_.count();
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep.overflow)
      throw resource_error("level " + std::to_string(level) + ": a value reached " +
                           rule_value_limit_text<Rule>::text() + ", more than the value record holds");
    return rep;
  }

  /// Distributed builds: this rank's part of level i, solved in chunks of
  /// consecutive positions. Each chunk's distinct options on the level below
  /// (those the forward pass kept, where the whole part's fit in memory;
  /// else found again for the chunk) have their records fetched from their
  /// owners, this rank answering the others' requests from its own part of
  /// the level below (moved aside for the level); the fetched keys and
  /// records take the level below's place while the chunk is solved. A
  /// chunk is sized so that its options fit in the memory the level leaves
  /// (part_bytes), from the option degree of the part (and then of the chunk
  /// before it); every rank goes on exchanging until every rank is done.
  level_report solve_part(std::size_t i, stored* out) {
    const int level = levels_[i];
    if (i == 0) return solve_level(level, out);
    if constexpr (keyed_game<Game>::value && Backend::host_visible) {
      const auto t0 = std::chrono::steady_clock::now();
      const int below = levels_[i - 1];
      const std::uint64_t n = index_.size(level);
      const double room = static_cast<double>(be_.available_bytes()) - part_bytes(i, 0);
      index_.make_resident(level);
      const auto own = index_.take(below);
      const auto own_records = store_.take(below);
      const double below_all = static_cast<double>(exchange_->sum(own.keys.host.size));
      const std::uint64_t found = index_.options_found(below);
      const double budget =
          opts_.chunk_options
              ? static_cast<double>(opts_.chunk_options)
              : std::max(static_cast<double>(memory_model::kMinChunkOptions),
                         room / memory_model::fetched_option_bytes(interned ? sizeof(sent) : 0, sizeof(stored)));
      const bool whole = static_cast<double>(found) <= budget && index_.has_option_keys(below);
      if (!whole) index_.discard_option_keys(below);
      double degree = memory_model::degree_reaching(static_cast<double>(found), static_cast<double>(n), below_all);
      level_report rep;
      std::uint64_t at = 0, chunks = 0;
      while (exchange_->sum(at < n ? 1 : 0) > 0) {
        std::uint64_t last = at;
        if (at < n) {
          // The part's degree underestimates a chunk's (a part's classes,
          // a key range, share options more than a random graph's do): the
          // first chunk aims at half the budget, the next at the degree
          // measured so far.
          const double s = memory_model::classes_reaching(chunks ? budget : budget / 2, degree, below_all);
          last = whole ? n : at + static_cast<std::uint64_t>(std::max(1.0, std::min(s, static_cast<double>(n - at))));
        }
        elias_fano_keys keys =
            whole && at < n ? index_.option_keys(below)
            : at < n
                ? index_.options_of(
                      level, at, last, below,
                      1.1 * memory_model::options_reached(static_cast<double>(last - at), degree, below_all), quiet_)
                : elias_fano_keys();
        if (!whole && last > at)
          degree = std::max(degree, memory_model::degree_reaching(static_cast<double>(keys.size),
                                                                  static_cast<double>(last - at), below_all));
        fetch_option_records(below, level, own, own_records.data(), std::move(keys));
        if (last > at) {
          // (solve_level throws where a value overflows.)
          const level_report r = solve_level(level, out, at, last);
          rep.options += r.options;
          rep.dictionary_growths += r.dictionary_growths;
          ++chunks;
        }
        at = last;
      }
      rep.level = level;
      rep.positions = n;
      rep.keys = index_.keys(level);
      if constexpr (interned) rep.dictionary_entries = dict_.count();
      rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (chunks > 1)
        progress_line(opts_.progress, "[cgtb] level %d: this rank's part solved in %llu chunks", level,
                      static_cast<unsigned long long>(chunks));
      return rep;
    } else {
      return solve_level(level, out);
    }
  }

  /// Distributed builds: the records of the options `keys` (ascending, on
  /// level `below`) fetched from their owners, this rank answering the
  /// others' requests from its part `own` (records `own_stored`); the keys
  /// and records fetched become level `below`'s, kept until `level` is solved.
  template <class Held>
  void fetch_option_records(int below, int level, const Held& own, const stored* own_stored, elias_fano_keys keys) {
    if constexpr (keyed_game<Game>::value && Backend::host_visible) {
      const std::uint64_t n = keys.size;
      std::vector<std::uint64_t> wanted(n);
      if (n) keys.decode(0, n, wanted.data());
      // Interned records travel whole: ids name entries of one rank's
      // dictionary only.
      std::vector<record> whole(interned ? n : 0);
      auto fetched = be_.template allocate<stored>(n);
      const record* entries = interned ? dict_.entries() : nullptr;
      exchange_->fetch_records(
          below, wanted.data(), n, sizeof(sent),
          [&](const std::uint64_t* asked, std::uint64_t m, void* out) {
            int missing = 0;
            be_.with_policy(m, [&](auto policy) {
              using copy = owned_record_copy<stored, sent>;
              thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                               thrust::counting_iterator<std::uint64_t>(m),
                               copy{own.view, own_stored, entries, asked, static_cast<sent*>(out), &missing});
            });
            if (missing)
              throw internal_error("level " + std::to_string(below) +
                                   ": another rank asked for a class this rank does not own");
          },
          interned ? static_cast<void*>(whole.data()) : static_cast<void*>(fetched.data()));
      if constexpr (interned) import_records(whole.data(), n, fetched.data());
      std::vector<record>().swap(whole);
      std::vector<std::uint64_t>().swap(wanted);
      index_.replace(below, std::move(keys));
      store_.keep(below, std::move(fetched), level);
    } else {
      (void)below, (void)level, (void)own, (void)own_stored, (void)keys;
    }
  }

  /// Interned records fetched from other ranks: their ids in this rank's
  /// dictionary (grown where they do not fit).
  void import_records(const record* records, std::uint64_t n, stored* ids) {
    if constexpr (interned) {
      for (bool retry = false;; retry = true) {
        const int zero[2] = {0, 0};
        be_.copy_to_device(flags_.data(), zero, 2);
        be_.with_policy(n, [&](auto policy) {
          thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                           thrust::counting_iterator<std::uint64_t>(n),
                           record_import_kernel<record>{dict_.view(), records, ids, flags_.data() + 1, retry});
        });
        if (be_.to_host(flags_.data(), 2, flag_copy_)[1] == 0) break;
        dict_.grow();
      }
    } else {
      (void)records, (void)n, (void)ids;
    }
  }

  /// The solved level i's copy to the host and its consumer: on the
  /// pipeline's thread for large levels, while this thread goes on to the
  /// next level, where the host has room for both (the consumer holds the
  /// level's host copy where the backend's buffers are not the host's, and
  /// the writer's blocks in flight; a checkpoint writes the records where
  /// they lie. Beside it: the keys and rank table of this level and the keys
  /// and records of the next, which take host memory only where the
  /// backend's buffers are the host's; a device backend still keeps a host
  /// copy of the next level's keys). Interned records: the entries the
  /// level's ids name are never written again, so the copy reads them while
  /// the next levels add theirs.
  void hand_over(std::size_t i, const level_report& rep, const stored* solved_records) {
    const int level = levels_[i];
    const std::uint64_t n = rep.positions;
    const std::size_t slot = solved_++ % 2;
    auto& copy = copies_[slot];
    auto& entry_copy = entry_copies_[slot];
    const record* entries = interned ? dict_.entries() : nullptr;
    const std::uint64_t entry_count = rep.dictionary_entries;
    auto job = [this, &copy, &entry_copy, rep, solved_records, n, entries, entry_count] {
      level_records<record> view_of_level;
      if constexpr (interned) {
        view_of_level.ids = be_.to_host(solved_records, n, copy);
        view_of_level.entries = be_.to_host(entries, entry_count, entry_copy);
        view_of_level.entry_count = entry_count;
      } else {
        view_of_level.records = be_.to_host(solved_records, n, copy);
      }
      consume_(rep, view_of_level);
    };
    const bool last = i + 1 == levels_.size();
    const std::uint64_t next_n = last ? 0 : index_.size(levels_[i + 1]);
    const double next_keys = last ? 0.0 : index_.key_bytes(levels_[i + 1]);
    const double beside =
        index_.key_bytes(level) + index_.table_bytes(level) + static_cast<double>(next_n) * sizeof(stored) + next_keys;
    const double both =
        (Backend::host_visible ? beside : static_cast<double>(n) * sizeof(stored) + next_keys) + kLevelConsumerBytes;
    // A distributed build's consumer calls the exchange: on this thread.
    if (!exchange_ && n >= kOverlapPositions && be_.pipelined() && both < static_cast<double>(host_available_bytes()))
      pipeline_.submit(level, job);
    else
      pipeline_.run_here(job);
  }

  /// The last level whose options reach level i's records (the store keeps
  /// them until that level is solved): the highest level within the game's
  /// option span above it, or the top level for span 0.
  int last_reader(std::size_t i) const {
    if (span_ == 0) return top_;
    int last = levels_[i];
    for (std::size_t j = i + 1; j < levels_.size() && levels_[j] - span_ <= levels_[i]; ++j) last = levels_[j];
    return last;
  }
  std::size_t index_of(int level) const {
    return static_cast<std::size_t>(std::lower_bound(levels_.begin(), levels_.end(), level) - levels_.begin());
  }

  /// Releases the levels no option of `level` or above reaches, and their
  /// index data; waits first where the level pipeline still reads one.
  void release_before(int level) {
    const int in_flight = pipeline_.in_flight();
    if (in_flight != level_pipeline::none && store_.kept_until(in_flight) >= 0 && store_.kept_until(in_flight) < level)
      pipeline_.wait();
    store_.release_before(level, [this](int l) { index_.drop(l); });
  }

  const solve_options& opts_;
  level_exchange* const exchange_ = opts_.exchange;  ///< distributed builds: the other ranks; else null
  /// Distributed builds: the options without a progress sink, for the
  /// forward-pass kernel that finds a chunk's options.
  const solve_options quiet_ = [this] {
    solve_options o = opts_;
    o.progress = nullptr;
    return o;
  }();
  std::vector<std::uint64_t> largest_parts_;  ///< distributed builds: each level's largest part
  const level_consumer<record>& consume_;
  Backend be_;
  typename Backend::template buffer<std::uint64_t> table_;
  solve_index<Backend, Game> index_;
  const view_type view_;
  const std::vector<int> levels_;
  const int top_, span_;
  dictionary_store<Backend, record> dict_;
  resident_level_store<Backend, stored> store_;   ///< the solved levels the levels above read
  typename Backend::template buffer<int> flags_;  ///< [0]: a value overflowed; [1]: the dictionary is full
  /// Host copies of solved levels for their consumer: two, so that a level's
  /// copy can be made while the consumer still reads the level before it.
  typename Backend::template staging<stored> copies_[2];
  typename Backend::template staging<record> entry_copies_[2];
  typename Backend::template staging<int> flag_copy_;
  std::size_t solved_ = 0;
  /// The consumer of a large level runs beside the solve of the next levels
  /// (declared after every buffer a job reads, so that it ends first).
  level_pipeline pipeline_;
};

/// Solves every level of `game` under `Rule` on `Backend` (level_loop).
template <class Backend, class Game, class Rule>
void solve_with(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume) {
  level_loop<Backend, Game, Rule>(game, opts, consume).run();
}

/// A backend's entry point: NAME<Game, Rule>(game, opts, consume) solves on
/// BACKEND. Each backend's file defines it, then instantiates it for every
/// (game, rule) pair of the build with CGTB_SOLVE_ON(NAME, G, R) over
/// cgtb/instantiations.inc.
#define CGTB_DEFINE_SOLVE_ON(NAME, BACKEND)                                                                      \
  template <class Game, class Rule>                                                                              \
  void NAME(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume) { \
    solve_with<BACKEND, Game, Rule>(game, opts, consume);                                                        \
  }
#define CGTB_SOLVE_ON(NAME, G, R) \
  template void NAME<G, R>(const G&, const solve_options&, const level_consumer<typename R::record>&);

}  // namespace cgtb::detail
