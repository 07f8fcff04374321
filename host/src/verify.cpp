// cgtb verify (cgtb/verify.hpp). Written apart from the solver on purpose:
// it includes nothing from cuda/include/cgtb/rules/, and every value rule
// below is a plain statement of its definition.
#include "cgtb/verify.hpp"

#include <omp.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <unordered_map>

#include "cgtb/backend.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/octal_sequence.hpp"
#include "cgtb/reachable_index.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/text.hpp"
#include "cgtb/verify_checkpoint.hpp"

namespace cgtb {

namespace {

/// Genus fields of a file: genus1..genus7. Deep runs derive the states
/// p + a*(*2) + b*(*1) with a + b <= 7 (36 per position).
constexpr int kHeapDepth = 7;
constexpr int kStates = (kHeapDepth + 1) * (kHeapDepth + 2) / 2;

/// Index of state (a heaps of *2, b heaps of *1): rows of a, each of length
/// kHeapDepth + 1 - a.
constexpr int state_index(int a, int b) { return a * (kHeapDepth + 1) - a * (a - 1) / 2 + b; }

/// A set of values 0..255 (the values a mex is taken over), as four words.
struct value_set {
  std::uint64_t word[4] = {0, 0, 0, 0};
  /// Adds v (0..255).
  void set(unsigned v) { word[v >> 6] |= std::uint64_t{1} << (v & 63); }
  bool none() const { return (word[0] | word[1] | word[2] | word[3]) == 0; }
};

/// The least value not in `seen` (the minimum excludant).
unsigned mex(const value_set& seen) {
  for (unsigned i = 0; i < 4; ++i)
    if (~seen.word[i]) return 64 * i + static_cast<unsigned>(__builtin_ctzll(~seen.word[i]));
  return 256;
}

/// Marks v in `seen`; false when v cannot be a value of a file (negative or
/// over 255).
bool mark(value_set& seen, std::int64_t v) {
  if (v < 0 || v > 255) return false;
  seen.set(static_cast<unsigned>(v));
  return true;
}

/// Outcome class codes as files store them (docs/format.md): bit 0 = Left
/// moving first wins, bit 1 = Right moving first wins.
const char* class_letter(std::int64_t c) { return c >= 0 && c <= 3 ? &"P\0L\0R\0N"[2 * c] : "?"; }

/// A level decoded into memory, for the lookups of the options that land on
/// it and for the pass that checks the level itself. Keyed levels keep their
/// keys as an Elias–Fano sequence (the solver's reachable_level, about 2.5
/// bytes a key): it gives the keys in rank order and ranks a key exactly,
/// and it is small enough to stay in the cache, where a hash table from key
/// to rank (ten times the bytes; 16-byte slots, 60 % full) was slower on
/// Cram 6×6, even with its lookups' reads overlapped (106 s against 92 s).
/// Keys are the file's (colex ranks on the domino games): verifying with
/// canonical masks instead saved ranking each option but made the buckets
/// uneven (reachable masks cluster), and took 106 s too. Every field of
/// every entry is kept in the narrowest width that holds the level's
/// values. Read-only once loaded, shared by the threads.
class resident_level {
 public:
  /// Decodes level `le` of `tb`, a batch of blocks at a time (in parallel
  /// where the caller is not in a parallel region). Throws input_error for a
  /// corrupt block or keys out of order.
  resident_level(const tablebase& tb, const level_entry& le)
      : positions_(le.positions), fields_(tb.header().fields.size()) {
    stride_ = fields_ + 1;
    v8_ = zeroed_host_pages<std::uint8_t>(positions_ * stride_);
    v8_size_ = positions_ * stride_;
    const bool keyed = tb.keyed() && positions_ > 0;
    std::unique_ptr<elias_fano_builder> ef;
    std::uint64_t final_key = 0;
    if (keyed) {
      if (!le.blocks)
        throw corrupt_file_error(tb.path() + ": level " + std::to_string(le.level) + " holds " +
                                 std::to_string(positions_) + " positions in no block");
      const decoded_block last = tb.read_block(le.first_block + le.blocks - 1);
      if (last.keys.empty())
        throw corrupt_file_error(tb.path() + ": level " + std::to_string(le.level) + " has no keys");
      final_key = last.keys.back();
      ef = std::make_unique<elias_fano_builder>(positions_, final_key);
    }
    constexpr std::uint64_t kBatch = 256;  // blocks decoded at a time: about 10^6 entries
    std::vector<decoded_block> blocks;
    std::uint64_t next_rank = 0, last_key = 0;
    for (std::uint64_t b0 = 0; b0 < le.blocks; b0 += kBatch) {
      const std::int64_t nb = static_cast<std::int64_t>(std::min(kBatch, le.blocks - b0));
      blocks.assign(static_cast<std::size_t>(nb), decoded_block{});
      std::exception_ptr failed;
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t b = 0; b < nb; ++b) {
        try {
          blocks[static_cast<std::size_t>(b)] = tb.read_block(le.first_block + b0 + static_cast<std::uint64_t>(b));
        } catch (...) {
#pragma omp critical(cgtb_resident_level)
          if (!failed) failed = std::current_exception();
        }
      }
      if (failed) std::rethrow_exception(failed);
      widen_for(blocks);
      // Keys in rank order into the sequence, checked to increase.
      for (const decoded_block& d : blocks) {
        if (d.first != next_rank || next_rank + d.count > positions_ || (keyed && d.keys.size() != d.count))
          throw corrupt_file_error(tb.path() + ": level " + std::to_string(le.level) + " has a block of " +
                                   std::to_string(d.count) + " entries at rank " + std::to_string(d.first) +
                                   " where rank " + std::to_string(next_rank) + " follows");
        if (keyed)
          for (std::uint64_t k : d.keys) {
            if ((next_rank > 0 && k <= last_key) || k > final_key)
              throw corrupt_file_error(tb.path() + ": keys of level " + std::to_string(le.level) +
                                       " are not increasing at rank " + std::to_string(next_rank));
            ef->push(k);
            last_key = k;
            ++next_rank;
          }
        else
          next_rank += d.count;
      }
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t b = 0; b < nb; ++b) {
        const decoded_block& d = blocks[static_cast<std::size_t>(b)];
        for (std::uint32_t e = 0; e < d.count; ++e) {
          const std::uint64_t r = d.first + e;
          for (std::size_t f = 0; f < fields_; ++f) set(r, f, d.get(e, static_cast<int>(f)));
        }
      }
    }
    if (next_rank != positions_)
      throw corrupt_file_error(tb.path() + ": level " + std::to_string(le.level) + " holds " +
                               std::to_string(next_rank) + " entries, its index says " + std::to_string(positions_));
    if (ef) {
      keys_ = ef->finish();
      view_ = keys_.view();
    }
  }

  /// Bytes a level of `positions` entries of `fields` fields takes at most
  /// in bytes (wider values are rare, and counted once loaded): the keys
  /// take about 2.5 bytes each on the boards that matter; 4 are allowed.
  static std::size_t bytes_for(std::uint64_t positions, std::size_t fields, bool keyed) {
    return static_cast<std::size_t>(positions) * (fields + 1 + (keyed ? 4 : 0));
  }
  std::size_t bytes() const {
    return v8_size_ + v16_.size() * 2 + v64_.size() * 8 + reached_.size() + static_cast<std::size_t>(keys_.bytes());
  }

  /// The rank of `key` on a keyed level, -1 when the level does not hold it.
  std::int64_t rank_of(std::uint64_t key) const { return rank_from(key, rank_start(key, rank_sample(key))); }

  /// rank_of in steps, so that a caller ranking many keys has the memory
  /// reads of each step overlap across the keys: prefetch_key asks for the
  /// bucket's select sample; rank_sample reads it and asks for the upper
  /// bits it points to; rank_start selects the bucket's start there (a
  /// cursor) and asks for the low bits; rank_from walks the bucket. Each
  /// step passes kNoBucket on for a key past the level's last bucket.
  void prefetch_key(std::uint64_t key) const {
    if (!positions_) return;
    const std::uint64_t h = view_.bucket(key);
    if (h < view_.buckets) __builtin_prefetch(view_.zero_sample(h));
  }
  std::uint64_t rank_sample(std::uint64_t key) const {
    const std::uint64_t h = positions_ ? view_.bucket(key) : 0;
    if (!positions_ || h == view_.buckets) return kNoBucket;
    const std::uint64_t sample = h ? *view_.zero_sample(h) : 0;
    const std::uint64_t* at = view_.upper + (sample >> 6);
    __builtin_prefetch(at);
    __builtin_prefetch(at + 1);  // the select's zero may lie in the next word
    return sample;
  }
  std::uint64_t rank_start(std::uint64_t key, std::uint64_t sample) const {
    if (sample == kNoBucket) return kNoBucket;
    const std::uint64_t h = view_.bucket(key), start = view_.bucket_start_from(h, sample);
    __builtin_prefetch(view_.lower_at(start - h));
    return start;
  }
  std::int64_t rank_from(std::uint64_t key, std::uint64_t start) const {
    if (start == kNoBucket) return -1;
    const std::uint64_t r = view_.find_in(key, view_.bucket(key), start);
    return r < positions_ ? static_cast<std::int64_t>(r) : -1;
  }
  /// The cursor of a key past the level's last bucket.
  static constexpr std::uint64_t kNoBucket = ~std::uint64_t{0};

  /// Calls f(r, key of rank r) for r = first .. last - 1 of a keyed level.
  template <class F>
  void for_each_key(std::uint64_t first, std::uint64_t last, F&& f) const {
    if (first < last) view_.for_each_key(first, last, f);
  }
  /// The key of rank r of a keyed level.
  std::uint64_t key(std::uint64_t r) const { return view_.key(r); }

  /// Asks for the memory of the entry of rank r before it is read.
  void prefetch(std::uint64_t r) const {
    const std::size_t at = r * stride_;
    __builtin_prefetch(width_ == 1   ? static_cast<const void*>(&v8_[at])
                       : width_ == 2 ? static_cast<const void*>(&v16_[at])
                                     : &v64_[at]);
  }

  /// Marks the entry of rank r as an option of a stored position: a byte
  /// beside its values on byte-wide levels (in the cache line its values
  /// were just read from), else a byte of its own. Any thread may call it.
  void mark_reached(std::uint64_t r) const {
    std::uint8_t* b = width_ == 1 ? &v8_[r * stride_ + fields_] : &reached_[r];
    if (!__atomic_load_n(b, __ATOMIC_RELAXED)) __atomic_store_n(b, std::uint8_t{1}, __ATOMIC_RELAXED);
  }
  /// Whether mark_reached(r) was called.
  bool reached(std::uint64_t r) const {
    return __atomic_load_n(width_ == 1 ? &v8_[r * stride_ + fields_] : &reached_[r], __ATOMIC_RELAXED) != 0;
  }
  std::uint64_t positions() const { return positions_; }

  /// Every field of the entry of rank r into out[0 .. fields).
  void entry(std::uint64_t r, std::int64_t* out) const {
    const std::size_t at = r * stride_;
    if (width_ == 1) {
      for (std::size_t f = 0; f < fields_; ++f) out[f] = v8_[at + f];
    } else {
      for (std::size_t f = 0; f < fields_; ++f) out[f] = width_ == 2 ? v16_[at + f] : v64_[at + f];
    }
  }

 private:
  /// Field f of rank r (in the current width).
  void set(std::uint64_t r, std::size_t f, std::int64_t v) {
    const std::size_t at = r * stride_ + f;
    if (width_ == 1) v8_[at] = static_cast<std::uint8_t>(v);
    if (width_ == 2) v16_[at] = static_cast<std::int16_t>(v);
    if (width_ == 8) v64_[at] = v;
  }
  /// Widens the values kept so far where a block of `blocks` holds values
  /// the current width does not: unsigned fields of at most 8 bits fit
  /// bytes; fields of at most 15 bits (16 zigzag-coded signed ones) 16-bit
  /// words; else 64 bits. Byte-wide levels keep their reached mark in the
  /// row; wider ones in reached_.
  void widen_for(const std::vector<decoded_block>& blocks) {
    int need = width_;
    for (const decoded_block& d : blocks)
      for (std::size_t f = 0; f < fields_ && f < d.widths.size(); ++f) {
        const int w = d.widths[f];
        if (d.is_signed[f] || w > 8) need = std::max(need, 2);
        if (w > (d.is_signed[f] ? 16 : 15)) need = 8;
      }
    if (need == width_) return;
    const std::size_t old_stride = stride_;
    std::vector<std::int64_t> all(positions_ * fields_);
    for (std::uint64_t r = 0; r < positions_; ++r) entry(r, &all[r * fields_]);
    if (width_ == 1) {
      reached_.resize(positions_);
      for (std::uint64_t r = 0; r < positions_; ++r) reached_[r] = v8_[r * old_stride + fields_];
    }
    v8_.reset();
    v8_size_ = 0;
    std::vector<std::int16_t>().swap(v16_);
    width_ = need;
    stride_ = fields_;
    if (width_ == 2) v16_.resize(positions_ * stride_);
    if (width_ == 8) v64_.resize(positions_ * stride_);
    for (std::uint64_t r = 0; r < positions_; ++r)
      for (std::size_t f = 0; f < fields_; ++f) set(r, f, all[r * fields_ + f]);
  }

  std::uint64_t positions_;
  std::size_t fields_;
  int width_ = 1;
  elias_fano_keys keys_;    ///< keyed levels: the keys in rank order
  reachable_level view_{};  ///< over keys_
  std::size_t stride_ = 0;  ///< entries per row of v8_/v16_/v64_: the fields, and on byte-wide levels a reached byte
  host_pages<std::uint8_t> v8_;  ///< byte-wide levels (v8_size_ bytes)
  std::size_t v8_size_ = 0;
  mutable std::vector<std::uint8_t> reached_;  ///< levels wider than bytes: mark_reached's bytes
  std::vector<std::int16_t> v16_;
  std::vector<std::int64_t> v64_;
};

/// A located option component: where the file stores it.
struct located {
  int level = 0;
  std::uint64_t stored = 0;  ///< rank in the file
  std::string text;
  const resident_level* from = nullptr;  ///< its level in memory, or null: read through the file
};

/// The fields of the file, by kind.
struct field_map {
  int grundy = -1, misere = -1, genus1 = -1;  // impartial
  int normal_class = -1, misere_class = -1;   // partizan
  int gs = -1;                                // scoring
  int safe = -1, winning = -1;                // blocking
};

/// One position of a group that check_group checks: what the caller sets
/// (level, rank, key, stored values), and what the phases leave for the
/// next.
struct pending {
  int level = 0;
  std::uint64_t rank = 0, key = 0;
  std::int64_t v[kMaxFields];
  bool round_trip = false;
  position_ref p;                    ///< by key alone on the fast path, else parsed from its text
  std::vector<option_ref> opts;      ///< the options with their texts, where they are parsed back
  std::size_t first = 0, count = 0;  ///< its options in worker::keys and worker::located_options
  std::string bad;                   ///< an inconsistency found so far
};

/// Positions a thread checks together (check_group): their options' lookups
/// overlap.
constexpr std::size_t kGroupPositions = 16;

/// One thread's reader and scratch space.
struct worker {
  explicit worker(const std::string& path) : tb(path, std::size_t{256} << 20) {}
  tablebase tb;
  std::int64_t v[kMaxFields], ov[kMaxFields];
  std::uint64_t options = 0;
  std::uint64_t genus_positions = 0;  ///< positions whose genus fields were compared
  std::uint64_t round_trips = 0;      ///< positions whose options' texts were parsed back
  std::uint64_t period_checked = 0;   ///< heaps checked against a proven period
  /// This level pass's view of the resident levels, by level: null = not
  /// asked yet, kNotResident = read through the file.
  std::vector<const resident_level*> resident;
  std::vector<located> locs;             ///< scratch: one option's components
  std::vector<located> located_options;  ///< scratch: beside `keys`, where each option of one position is stored
  std::vector<position_ref> comps;       ///< scratch: one option's components, for drivers that split options
  std::vector<option_key> keys;          ///< scratch: the options of a group's positions
  std::vector<std::uint64_t> starts;     ///< scratch: beside `keys`, the first step of each one's lookup
  std::vector<option_key> some_keys;     ///< scratch: one position's options
  std::vector<pending> group;            ///< scratch: the positions check_group checks
  std::vector<std::uint64_t> own_keys;   ///< scratch: the keys of the ranks of a chunk of the checked level
};

/// worker::resident's mark of a level read through the file this pass.
const resident_level* const kNotResident = reinterpret_cast<const resident_level*>(1);

/// worker::starts' mark of an option whose lookup has not begun.
constexpr std::uint64_t kNoStart = ~std::uint64_t{0} - 1;

/// Positions whose options' texts are printed and parsed back in a full
/// run that is not deep: one rank in this many on every level (rank 0
/// included).
constexpr std::uint64_t kRoundTripEvery = 1024;

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
    deep_ = opt.deep;
    splits_ = drv_->splits_into_components();
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
    if (main_.tb.keyed() && h.positions == "reachable" && !have.empty()) {
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
  /// Without `round_trip`, the option is located by the level and key the
  /// move generator gave it, and its text is printed only for a message.
  bool locate(worker& w, const position_ref& c, located& out, std::string& why, bool round_trip = true) {
    out.text = c.text;
    out.from = nullptr;
    if (!round_trip) return locate_key(w, c.level, c.rank, out, why);
    if (out.text.empty()) out.text = drv_->format(c.level, c.rank);
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

  /// locate() without the text: the option of `level` and index key `key`.
  /// `start`: the option level's rank_start(key), where the caller took
  /// that step already (check_group), else kNoStart.
  bool locate_key(worker& w, int level, std::uint64_t key, located& out, std::string& why,
                  std::uint64_t start = kNoStart) {
    out.level = level;
    out.from = nullptr;
    const auto text = [&] { return text_of({level, key, std::string()}); };
    const level_entry* le = w.tb.find_level(level);
    if (!le) {
      why = "option '" + text() + "' is on level " + std::to_string(level) + ", which the file lacks";
      return false;
    }
    out.from = resident_for(w, level);
    if (!w.tb.keyed()) {
      if (key < le->positions) {
        out.stored = key;
        return true;
      }
      why = "option '" + text() + "' has rank " + std::to_string(key) + " past its level";
      return false;
    }
    const std::int64_t s = !out.from           ? w.tb.rank_of_key(level, key)
                           : start == kNoStart ? out.from->rank_of(key)
                                               : out.from->rank_from(key, start);
    if (s >= 0) {
      out.stored = static_cast<std::uint64_t>(s);
      return true;
    }
    why = "option '" + text() + "' is not stored";
    return false;
  }

  /// The level `level` in memory for worker w's lookups, loaded on first use
  /// while it fits resident_budget_; null where it is read through the
  /// file. Levels are loaded and dropped only between level passes'
  /// lookups (drop_untouched), so the pointer holds for the pass.
  const resident_level* resident_for(worker& w, int level) {
    const std::size_t i = static_cast<std::size_t>(level - min_level_);
    if (i >= w.resident.size()) return nullptr;
    if (!w.resident[i]) {
      std::lock_guard<std::mutex> lock(resident_mutex_);
      touched_.insert(level);
      const level_entry* le = w.tb.find_level(level);
      const resident_level* rl = le ? load_resident(w.tb, *le) : nullptr;
      w.resident[i] = rl ? rl : kNotResident;
    }
    return w.resident[i] == kNotResident ? nullptr : w.resident[i];
  }

  /// Between level passes: drops the resident levels that the pass just
  /// ended did not read (levels are checked from the lowest up, so those
  /// are the least likely to be read again; a level dropped too early is
  /// loaded again), and clears the workers' views.
  void drop_untouched(int level, std::vector<std::unique_ptr<worker>>& workers) {
    reach_.clear();
    for (int t : touched_) reach_.insert(level - t);
    for (auto it = resident_.begin(); it != resident_.end();)
      if (!touched_.count(it->first)) {
        fold_marks(it->first, *it->second);
        resident_bytes_ -= it->second->bytes();
        it = resident_.erase(it);
      } else {
        ++it;
      }
    touched_.clear();
    for (auto& w : workers) std::fill(w->resident.begin(), w->resident.end(), nullptr);
  }

  /// Before the pass of `level`: loads the levels it will likely read (as
  /// far below it as the last pass read below its own level), with every
  /// thread, where they fit.
  void preload(worker& w, int level) {
    for (int d : reach_)
      if (const level_entry* le = w.tb.find_level(level - d)) load_resident(w.tb, *le);
  }

  /// Level `le` in memory: the resident copy, else one decoded now where it
  /// fits resident_budget_; null where it does not.
  const resident_level* load_resident(const tablebase& tb, const level_entry& le) {
    const auto it = resident_.find(le.level);
    if (it != resident_.end()) return it->second.get();
    const std::size_t need = resident_level::bytes_for(le.positions, tb.header().fields.size(), tb.keyed());
    if (resident_bytes_ + need > resident_budget_) return nullptr;
    auto rl = std::make_unique<resident_level>(tb, le);
    resident_bytes_ += rl->bytes();
    return resident_.emplace(le.level, std::move(rl)).first->second.get();
  }

  /// The text of a component: its own, or printed from its level and key.
  std::string text_of(const position_ref& c) const {
    if (!c.text.empty()) return c.text;
    try {
      return drv_->format(c.level, c.rank);
    } catch (const input_error&) {
      return "key " + std::to_string(c.rank) + " of level " + std::to_string(c.level);
    }
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
        value_set seen;
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

  /// Phase 1 of a position's check (check_group): names the position stored
  /// at (c.level, c.rank) by its key (c.key; c.v holds its stored values),
  /// or by its text where its options are printed and parsed back, and
  /// appends its options to w.keys (c.first, c.count), asking for the
  /// memory their lookups read first. Sets c.bad on an inconsistency.
  void gather(worker& w, pending& c) {
    c.round_trip = deep_ || opt_.sample > 0 || c.rank % kRoundTripEvery == 0;
    if (c.round_trip) ++w.round_trips;
    c.first = w.keys.size();
    c.count = 0;
    c.opts.clear();
    c.bad.clear();
    // The fast path names the position by its level and key alone; blocking
    // games count the blocked options from its text, and drivers that split
    // options into sums read positions from their text.
    const bool by_key = !c.round_trip && fm_.safe < 0 && !splits_;
    if (by_key) {
      c.p = {c.level, c.key, std::string()};
      drv_->option_keys(c.level, c.key, w.some_keys);
      w.keys.insert(w.keys.end(), w.some_keys.begin(), w.some_keys.end());
    } else {
      const std::string text = drv_->format(c.level, c.key);
      try {
        c.p = drv_->parse(text);
      } catch (const input_error& e) {
        c.bad = "position '" + text + "' (level " + std::to_string(c.level) + ", rank " + std::to_string(c.rank) +
                ") does not parse: " + e.what();
        return;
      }
      const std::vector<position_ref> back = drv_->components(c.p);
      if (back.size() != 1 || back[0].level != c.level || back[0].rank != c.key) {
        c.bad = "position '" + text + "' (level " + std::to_string(c.level) + ", rank " + std::to_string(c.rank) +
                ") parses to another position";
        return;
      }
      c.opts = drv_->options(c.p);
      for (const option_ref& o : c.opts) w.keys.push_back({o.after.level, o.after.rank, o.by, o.points});
    }
    c.count = w.keys.size() - c.first;
    for_each_key_lookup(w, c, [&](std::size_t i, const resident_level& rl) { rl.prefetch_key(w.keys[i].key); });
  }

  /// Where the check of c reports: the position's text, level and rank.
  std::string where(const pending& c) const {
    return "position '" + text_of(c.p) + "' (level " + std::to_string(c.level) + ", rank " + std::to_string(c.rank) +
           ")";
  }

  /// Between phases 1 and 2 (check_group): the middle steps of the lookup
  /// of each of c's options that is located by its key in a level in memory
  /// (resident_level::rank_sample, then rank_start), their cursors in
  /// w.starts.
  void sample_lookups(worker& w, const pending& c) {
    for_each_key_lookup(w, c,
                        [&](std::size_t i, const resident_level& rl) { w.starts[i] = rl.rank_sample(w.keys[i].key); });
  }
  void start_lookups(worker& w, const pending& c) {
    for_each_key_lookup(w, c, [&](std::size_t i, const resident_level& rl) {
      w.starts[i] = rl.rank_start(w.keys[i].key, w.starts[i]);
    });
  }
  /// Calls f(i, option level) for each of c's options (w.keys[i]) that is
  /// located by its key in a level in memory.
  template <class F>
  void for_each_key_lookup(worker& w, const pending& c, F&& f) {
    if (splits_ || !c.bad.empty() || !c.opts.empty() || !w.tb.keyed()) return;
    for (std::size_t i = c.first; i < c.first + c.count; ++i)
      if (const resident_level* rl = resident_for(w, w.keys[i].level)) f(i, *rl);
  }

  /// Phase 2 (check_group): locates each of c's options that is one position
  /// (w.located_options, beside w.keys) and asks for the memory of its
  /// values. Sets c.bad on an option that is not stored.
  void locate_options(worker& w, pending& c) {
    if (splits_ || !c.bad.empty()) return;
    w.located_options.resize(w.keys.size());
    std::string why;
    for (std::size_t i = c.first; i < c.first + c.count; ++i) {
      const option_key& o = w.keys[i];
      located& loc = w.located_options[i];
      const bool found = c.opts.empty() ? locate_key(w, o.level, o.key, loc, why, w.starts[i])
                                        : locate(w, c.opts[i - c.first].after, loc, why, c.round_trip);
      if (!found) {
        c.bad = where(c) + ": " + why;
        return;
      }
      if (loc.from) loc.from->prefetch(loc.stored);
    }
  }

  /// Checks the positions of `group` (whose level, rank, key and stored
  /// values are set) in phases, each over the whole group, so that the
  /// memory reads of one position's options overlap those of the others:
  /// options found (gather), the middle steps of their lookups
  /// (sample_lookups, start_lookups), located (locate_options), their values read and the
  /// position's derived (check_position). Returns the first inconsistency
  /// in the group's order, or "".
  std::string check_group(worker& w, std::vector<pending>& group) {
    w.keys.clear();
    for (pending& c : group) gather(w, c);
    w.starts.assign(w.keys.size(), kNoStart);
    for (pending& c : group) sample_lookups(w, c);
    for (pending& c : group) start_lookups(w, c);
    for (pending& c : group) locate_options(w, c);
    for (pending& c : group) {
      if (c.bad.empty()) c.bad = check_position(w, c);
      if (!c.bad.empty()) return c.bad;
    }
    return {};
  }

  /// Phase 3 (check_group): derives the values of position c from its
  /// options' stored values and compares them with its own; returns the
  /// inconsistency or "".
  std::string check_position(worker& w, pending& c) {
    const position_ref& p = c.p;
    const int level = c.level;
    const bool round_trip = c.round_trip;
    const auto where = [&] { return this->where(c); };
    const auto differs = [&](const std::string& field, const std::string& stored, const std::string& derived) {
      return where() + ": " + field + " stored " + stored + ", derived " + derived;
    };
    value_set g_seen, m_seen;
    value_set gamma_seen[kHeapDepth + 1];  // local genus check: the options' gamma_k, k >= 1
    const bool local_genus = genus_ && !deep_;
    std::vector<located> singles;  // deep runs: the options that are one stored position
    bool left_any = false, right_any = false;
    bool nl = false, nr = false, ml = false, mr = false;  // Left/Right moving first wins, normal/misère
    std::int64_t best = 0, winning = 0;
    bool best_set = false;
    std::string why;
    const std::vector<option_ref>& opts = c.opts;
    const option_key* keys = w.keys.data() + c.first;
    const located* located_options = w.located_options.data() + c.first;
    const auto name_of = [&](std::size_t i) {
      return i < opts.size() ? opts[i].move : "to '" + text_of({keys[i].level, keys[i].key, std::string()}) + "'";
    };
    for (std::size_t oi = 0; oi < c.count; ++oi) {
      const option_key& o = keys[oi];
      // Drivers that split options: the option's components, else the one
      // position located above.
      if (splits_) w.comps = drv_->components(opts[oi].after);
      const std::size_t parts = splits_ ? w.comps.size() : 1;
      std::int64_t g = 0;
      std::vector<located>& locs = w.locs;
      if (splits_) locs.resize(parts);
      const located* loc = nullptr;  // the last component's
      for (std::size_t i = 0; i < parts; ++i) {
        if (!splits_)
          loc = &located_options[oi];
        else if (!locate(w, w.comps[i], locs[i], why, round_trip))
          return where() + ": " + why;
        else
          loc = &locs[i];
        if (loc->from)
          loc->from->entry(loc->stored, w.ov);
        else
          w.tb.entry(loc->level, loc->stored, w.ov);
        ++w.options;
        if (fm_.grundy >= 0) g ^= w.ov[fm_.grundy];
      }
      if (fm_.grundy >= 0 && !mark(g_seen, g))
        return where() + ": option " + name_of(oi) + " has Grundy value " + std::to_string(g) + ", out of range";
      if (parts != 1) {
        if (fm_.grundy < 0 || fm_.misere >= 0 || fm_.normal_class >= 0 || fm_.gs >= 0 || fm_.safe >= 0)
          return where() + ": option " + name_of(oi) + " is a sum of components; only Grundy values combine over sums";
        continue;
      }
      if (deep_) singles.push_back(*loc);
      if (marks_) {
        if (loc->from)
          loc->from->mark_reached(loc->stored);
        else
          mark_reached(loc->level, loc->stored);
      }
      const std::int64_t* ov = w.ov;
      if (local_genus)
        for (int k = 1; k <= kHeapDepth; ++k)
          if (!mark(gamma_seen[k], ov[fm_.genus1 + k - 1]))
            return where() + ": option " + name_of(oi) + " has genus" + std::to_string(k) + " " +
                   std::to_string(ov[fm_.genus1 + k - 1]) + ", out of range";
      if (fm_.misere >= 0 && !mark(m_seen, ov[fm_.misere]))
        return where() + ": option " + name_of(oi) + " has misère value " + std::to_string(ov[fm_.misere]) +
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
    const std::int64_t* v = c.v;
    if (fm_.grundy >= 0) {
      const std::int64_t d = mex(g_seen);
      if (v[fm_.grundy] != d) return differs("Grundy value", std::to_string(v[fm_.grundy]), std::to_string(d));
    }
    if (fm_.misere >= 0) {
      const std::int64_t d = m_seen.none() ? 1 : mex(m_seen);
      if (v[fm_.misere] != d) return differs("misère Grundy value", std::to_string(v[fm_.misere]), std::to_string(d));
    }
    if (local_genus) {
      ++w.genus_positions;
      // gamma_k = mex(options' gamma_k, own gamma_{k-1}, own gamma_{k-1} xor 1).
      for (int k = 1; k <= kHeapDepth; ++k) {
        const std::int64_t below = v[k == 1 ? fm_.misere : fm_.genus1 + k - 2];
        if (!mark(gamma_seen[k], below) || !mark(gamma_seen[k], below ^ 1))
          return where() + ": misère value beside " + std::to_string(k - 1) + " heaps of *2 is " +
                 std::to_string(below) + ", out of range";
        const std::int64_t d = mex(gamma_seen[k]), stored = v[fm_.genus1 + k - 1];
        if (stored != d)
          return differs("genus" + std::to_string(k) + " (G- beside " + std::to_string(k) + " heaps of *2)",
                         std::to_string(stored), std::to_string(d));
      }
    }
    const std::uint8_t* s =
        genus_ && deep_ && !out_of_states_ ? derive_states(w, level, c.rank, p.text, singles, why) : nullptr;
    if (genus_ && deep_ && !s && !out_of_states_) return where() + ": " + why;
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

  /// Heap sequences: the value stored at (level, rank), rank >= periodic_from_,
  /// against the one `period` heaps lower; returns the inconsistency or "".
  std::string check_periodic(worker& w, int level, std::uint64_t rank) {
    const std::uint64_t p = period_.period;
    w.tb.entry(level, rank, w.v);
    w.tb.entry(level, rank - p, w.ov);
    for (std::size_t f = 0; f < w.tb.header().fields.size(); ++f)
      if (w.v[f] != w.ov[f])
        return "heap " + std::to_string(rank) + " (level " + std::to_string(level) + ", rank " + std::to_string(rank) +
               "): " + w.tb.header().fields[f].name + " stored " + std::to_string(w.v[f]) + ", but the period " +
               std::to_string(p) + " that heaps 0.." + std::to_string(periodic_from_ - 1) + " prove gives " +
               std::to_string(w.ov[f]);
    ++w.period_checked;
    return {};
  }

  /// Heap sequences: the period that a prefix of the stored values proves by
  /// the octal periodicity theorem (Winning Ways, ch. 4), if any. Heaps past
  /// the largest one the theorem's hypothesis reads are then checked against
  /// the period, the others from their options: together a complete check.
  void find_period(verify_report& rep) {
    const int t = drv_->sequence_max_take();
    const level_entry* le = main_.tb.find_level(0);
    if (t <= 0 || !le || main_.tb.levels().size() != 1) return;
    const std::vector<std::uint16_t> s = read_octal_sequence(main_.tb);
    // The first period proven by a prefix (of 256, 512, ... heaps): a wrong
    // value past it is then found by the period, not by its options.
    for (std::uint64_t length = 256;; length *= 2) {
      period_ = prove_octal_period(s.data(), std::min<std::uint64_t>(length, s.size()), t);
      if (period_.proven || length >= s.size()) break;
    }
    if (!period_.proven) return;
    periodic_from_ = period_.needed + 1;
    rep.period = period_.text();
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
    if (!deep_) find_period(rep);
    // Deep sampled runs of genus tables derive followers' states on demand,
    // which one thread does; everything else runs a level's positions in
    // parallel (their options lie on lower levels, done before).
    int threads = opt_.threads > 0 ? opt_.threads : omp_get_max_threads();
    const bool deep_genus = genus_ && deep_;
    if (deep_genus && !full) threads = 1;
    sparse_ = deep_genus && !full;
    if (sparse_) {
      const std::size_t budget = opt_.genus_memory ? opt_.genus_memory : detail::host_available_bytes() / 2;
      sparse_cap_ = budget / kVerifyGenusStateBytes;
      for (const auto& l : levels) states_[l.level];
    } else if (deep_genus) {
      std::uint64_t total = 0;
      for (const auto& l : levels) total += l.positions;
      struct sysinfo si {};
      const std::uint64_t bytes = total * (kStates + 1);
      if (sysinfo(&si) == 0 && bytes > static_cast<std::uint64_t>(si.totalram) * si.mem_unit / 4 * 3)
        throw resource_error("verifying the genus of " + std::to_string(total) + " positions needs " +
                             std::to_string(bytes >> 20) +
                             " MB of genus states, more than this machine has (without --deep the genus is checked "
                             "from the stored values; --no-genus checks the other values)");
      for (const auto& l : levels) {
        state_level& sl = states_[l.level];
        sl.states.assign(l.positions * kStates, 0);
        sl.done.reset(new std::atomic<std::uint8_t>[l.positions]());
      }
    }
    int top = levels.empty() ? 0 : levels.back().level;
    if (full && tb.keyed() && tb.header().positions == "reachable") {
      marks_ = std::make_unique<std::map<int, std::unique_ptr<std::atomic<std::uint64_t>[]>>>();
      for (const auto& l : levels) (*marks_)[l.level].reset(new std::atomic<std::uint64_t>[(l.positions + 63) / 64]());
    }
    std::uint64_t total = 0, done = 0;
    for (const auto& l : levels) total += full || opt_.sample >= l.positions ? l.positions : opt_.sample;
    // --resume: what a stopped run established (the levels below and at
    // carried.last_level, their counts, the marks so far).
    detail::verify_progress carried;
    bool resumed = false;
    std::vector<detail::verify_marks> mark_list;
    if (opt_.resume) {
      if (!full || deep_) throw input_error("--resume needs a full check (without --sample and --deep)");
      if (marks_)
        for (const auto& l : levels) mark_list.push_back({l.level, (*marks_)[l.level].get(), (l.positions + 63) / 64});
      carried.identity = checkpoint_identity();
      resumed = detail::read_verify_checkpoint(checkpoint_path(), carried, mark_list);
      if (resumed) {
        reach_.insert(carried.reach.begin(), carried.reach.end());
        rep.positions = carried.positions;
        progress_line(opt_.progress, "[cgtb] verify: continuing after level %d (checkpoint '%s')", carried.last_level,
                      checkpoint_path().c_str());
      }
    }
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<worker>> workers;
    min_level_ = levels.empty() ? 0 : levels.front().level;
    for (int t = 0; t < threads; ++t) {
      workers.push_back(std::make_unique<worker>(path_));
      if (!deep_ && !levels.empty())
        workers.back()->resident.assign(static_cast<std::size_t>(top - min_level_ + 1), nullptr);
    }
    resident_budget_ = opt_.level_memory ? opt_.level_memory : detail::host_available_bytes() / 2;
    for (const auto& le : levels) {
      if (resumed && le.level <= carried.last_level) {
        done += le.positions;
        continue;
      }
      const auto lt0 = std::chrono::steady_clock::now();
      // In a full run, the level itself in memory where it fits: the pass
      // reads its keys and values there, and the next passes its options'
      // values. A sampled run reads its few positions through the file.
      const std::vector<std::uint64_t> sample = ranks_to_check(le);
      const resident_level* own = nullptr;
      if (!deep_) {
        preload(*workers.front(), le.level);
        own = sample.empty() ? load_resident(tb, le) : nullptr;
        if (own) touched_.insert(le.level);
      }
      const std::uint64_t n = sample.empty() && (full || opt_.sample >= le.positions) ? le.positions : sample.size();
      const std::uint64_t chunk = std::max<std::uint64_t>(1, tb.header().block_entries);
      const std::int64_t chunks = static_cast<std::int64_t>((n + chunk - 1) / chunk);
      std::uint64_t first_bad = ~0ull;
      std::string failure, error;
      std::atomic<std::uint64_t> level_done{0};
      auto last_status = std::chrono::steady_clock::now();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
      for (std::int64_t c = 0; c < chunks; ++c) {
        worker& w = *workers[static_cast<std::size_t>(omp_get_thread_num())];
        if (opt_.progress && omp_get_thread_num() == 0)
          report_status(le.level, done + level_done.load(), total, start, last_status);
        const std::uint64_t lo = static_cast<std::uint64_t>(c) * chunk, hi = std::min(n, lo + chunk);
        const bool own_keys = own && tb.keyed() && sample.empty();
        if (own_keys) {
          w.own_keys.resize(hi - lo);
          own->for_each_key(lo, hi, [&](std::uint64_t r, std::uint64_t k) { w.own_keys[r - lo] = k; });
        }
        for (std::uint64_t i = lo; i < hi;) {
          std::string bad;
          std::uint64_t r = sample.empty() ? i : sample[i];
          try {
            if (r >= periodic_from_) {
              bad = check_periodic(w, le.level, r);
              ++i;
            } else {
              // The next positions before the periodic part, in a group.
              w.group.resize(kGroupPositions);
              std::size_t g = 0;
              for (; g < kGroupPositions && i < hi && (r = sample.empty() ? i : sample[i]) < periodic_from_; ++g, ++i) {
                pending& pc = w.group[g];
                pc.level = le.level;
                pc.rank = r;
                pc.key = !tb.keyed() ? r : own_keys ? w.own_keys[i - lo] : own ? own->key(r) : w.tb.key_of(le.level, r);
                if (own)
                  own->entry(r, pc.v);
                else
                  w.tb.entry(le.level, r, pc.v);
              }
              w.group.resize(g);
              bad = check_group(w, w.group);
              if (!bad.empty())
                for (const pending& pc : w.group)
                  if (!pc.bad.empty()) {
                    r = pc.rank;
                    break;
                  }
            }
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
        level_done.fetch_add(hi - lo, std::memory_order_relaxed);
      }
      done += n;
      drop_untouched(le.level, workers);
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
        progress_line(opt_.progress, "[cgtb] verify level %d: %s in agreement (%.2f s)", le.level,
                      count_text(n, "position").c_str(), s);
        opt_.progress->advance(done, total);
      }
      if (opt_.resume) save_checkpoint(le.level, rep.positions, carried, workers, mark_list);
    }
    rep.options += carried.options;
    rep.genus_positions += carried.genus_positions;
    rep.round_trips += carried.round_trips;
    rep.period_checked += carried.period_checked;
    for (const auto& w : workers) {
      rep.options += w->options;
      rep.genus_positions += w->genus_positions;
      rep.round_trips += w->round_trips;
      rep.period_checked += w->period_checked;
    }
    for (const auto& [level, rl] : resident_) fold_marks(level, *rl);
    if (rep.failure.empty() && marks_) {
      for (const auto& le : levels) {
        if (le.level == top) continue;
        const auto& m = (*marks_)[le.level];
        for (std::uint64_t r = 0; r < le.positions; ++r)
          if (!(m[r / 64].load(std::memory_order_relaxed) >> (r % 64) & 1)) {
            rep.failure = "position '" + stored_position(main_, le.level, r).text + "' (level " +
                          std::to_string(le.level) + ", rank " + std::to_string(r) +
                          ") is stored but is no option of a stored position";
            break;
          }
        if (!rep.failure.empty()) break;
      }
      if (rep.failure.empty()) rep.exact_index = true;
    }
    if (opt_.resume) std::remove(checkpoint_path().c_str());  // the run ended: its result is the report
  }

  std::string checkpoint_path() const { return verify_checkpoint_path(path_); }
  /// The table and the options a --resume checkpoint belongs to: the file's
  /// size, modification time and header, and the fields checked.
  std::string checkpoint_identity() const {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    const auto mtime = std::filesystem::last_write_time(path_, ec).time_since_epoch().count();
    return "cgtb verify " + path_ + "\nsize " + std::to_string(size) + "\nmodified " + std::to_string(mtime) +
           "\ngenus " + (genus_ ? "yes" : "no") + "\n" + main_.tb.header().to_text();
  }
  /// After the pass of `level` in a --resume run: the counts so far and every
  /// level's marks (those kept by levels in memory entered first) into the
  /// checkpoint.
  void save_checkpoint(int level, std::uint64_t positions, const detail::verify_progress& carried,
                       const std::vector<std::unique_ptr<worker>>& workers,
                       const std::vector<detail::verify_marks>& mark_list) {
    detail::verify_progress p;
    p.identity = carried.identity;
    p.last_level = level;
    p.reach.assign(reach_.begin(), reach_.end());
    p.positions = positions;
    p.options = carried.options;
    p.genus_positions = carried.genus_positions;
    p.round_trips = carried.round_trips;
    p.period_checked = carried.period_checked;
    for (const auto& w : workers) {
      p.options += w->options;
      p.genus_positions += w->genus_positions;
      p.round_trips += w->round_trips;
      p.period_checked += w->period_checked;
    }
    for (const auto& [l, rl] : resident_) fold_marks(l, *rl);
    detail::write_verify_checkpoint(checkpoint_path(), p, mark_list);
  }

  /// Marks the position stored at (level, stored) as an option of a stored
  /// position.
  void mark_reached(int level, std::uint64_t stored) {
    std::atomic<std::uint64_t>& word = marks_->at(level)[stored / 64];
    const std::uint64_t bit = std::uint64_t{1} << (stored % 64);
    if (!(word.load(std::memory_order_relaxed) & bit)) word.fetch_or(bit, std::memory_order_relaxed);
  }

  /// Enters the marks a resident level kept (mark_reached) into marks_,
  /// before the level is dropped or the marks are read.
  void fold_marks(int level, const resident_level& rl) {
    if (!marks_) return;
    auto& m = marks_->at(level);
    const std::int64_t words = static_cast<std::int64_t>((rl.positions() + 63) / 64);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < words; ++i) {
      std::uint64_t word = 0;
      const std::uint64_t first = static_cast<std::uint64_t>(i) * 64;
      for (std::uint64_t r = first; r < std::min(first + 64, rl.positions()); ++r)
        if (rl.reached(r)) word |= std::uint64_t{1} << (r - first);
      m[i].fetch_or(word, std::memory_order_relaxed);
    }
  }

  /// A status line of a long level: positions done of the run's total, and
  /// the time left at the rate so far; at most every 0.2 s on a terminal,
  /// every 10 s elsewhere. Called by one thread.
  void report_status(int level, std::uint64_t done, std::uint64_t total, std::chrono::steady_clock::time_point start,
                     std::chrono::steady_clock::time_point& last) const {
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last).count() < (opt_.progress->rewrites() ? 0.2 : 10.0)) return;
    last = now;
    const double el = std::chrono::duration<double>(now - start).count();
    const double left = done ? el * static_cast<double>(total - done) / static_cast<double>(done) : 0;
    char text[200];
    std::snprintf(text, sizeof text, "[cgtb] verify level %d: %llu of %llu positions (%.1f%%), %s left", level,
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                  total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0,
                  duration_text(left).c_str());
    opt_.progress->status(text);
    opt_.progress->advance(done, total);
  }

  std::string path_;
  verify_options opt_;
  worker main_;
  std::unique_ptr<game_driver> drv_;
  field_map fm_;
  bool genus_ = false;
  bool splits_ = false;         ///< the driver's components() splits options into sums
  bool deep_ = false;           ///< genus from the game tree, every option's text parsed back
  bool sparse_ = false;         ///< sampled genus run: states kept in maps
  std::size_t sparse_cap_ = 0;  ///< positions' states the maps may hold
  std::size_t sparse_count_ = 0;
  bool out_of_states_ = false;  ///< the maps reached sparse_cap_
  octal_period period_;         ///< heap sequences: the period the stored values prove
  // Levels decoded into memory for the options' lookups (resident_for).
  std::mutex resident_mutex_;
  std::map<int, std::unique_ptr<resident_level>> resident_;
  std::set<int> touched_;  ///< levels read in the current pass
  std::set<int> reach_;    ///< how far below its own level the last pass read
  std::size_t resident_bytes_ = 0, resident_budget_ = 0;
  int min_level_ = 0;
  std::uint64_t periodic_from_ = ~std::uint64_t{0};  ///< the first heap checked against it
  std::map<int, state_level> states_;
  /// Full runs of keyed tables: a bit per stored position, set when it is
  /// found as an option of a stored position.
  std::unique_ptr<std::map<int, std::unique_ptr<std::atomic<std::uint64_t>[]>>> marks_;
};

}  // namespace

verify_report verify_tablebase(const std::string& path, const verify_options& options) {
  verifier v(path, options);
  return v.run();
}

}  // namespace cgtb
