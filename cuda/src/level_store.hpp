// The level store of a solve: where solved levels' records live while the
// levels above read them. The level loop (level_loop.hpp) tells the store how
// long to keep each level (keep: until the last level whose options reach it
// is solved, Game::option_level_span) and asks it for the records of the
// levels a level's options reach (records_by_level: the table, by level, of
// the pointers the level kernel reads). This store keeps its levels resident
// in the backend's memory; the interface is the one a store that spills
// levels to disk, or one whose levels other processes own (a distributed
// build), implements. Included by level_loop.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace cgtb::detail {

/// Levels resident in the backend's memory, `Stored` values a position (a
/// record, or a 4-byte id of an interned record).
template <class Backend, class Stored>
class resident_level_store {
 public:
  using buffer = typename Backend::template buffer<Stored>;

  /// A store for levels 0..top on backend `be` (which must outlive it).
  resident_level_store(Backend& be, int top)
      : be_(be),
        host_(static_cast<std::size_t>(top) + 1, nullptr),
        table_(be.template allocate<const Stored*>(host_.size())),
        dirty_hi_(host_.size()) {}

  /// Keeps `records` as level `level`'s until level `until` is solved.
  void keep(int level, buffer records, int until) {
    host_[static_cast<std::size_t>(level)] = records.data();
    mark(level);
    drop(level);
    kept_.emplace(level, entry{std::move(records), until});
    by_until_.emplace(until, level);
  }

  /// Moves level `level`'s records out of the store (a distributed build's
  /// part of the level below the one in work, which answers the other
  /// ranks' requests while fetched records take its place); empty when the
  /// store does not hold it.
  buffer take(int level) {
    const auto it = kept_.find(level);
    if (it == kept_.end()) return buffer();
    buffer records = std::move(it->second.records);
    host_[static_cast<std::size_t>(level)] = nullptr;
    mark(level);
    drop(level);
    return records;
  }

  /// The records of `level` (the backend's memory), or null when the store
  /// does not hold it.
  const Stored* records(int level) const { return host_[static_cast<std::size_t>(level)]; }

  /// The last level whose solve reads `level` (as keep() was told), or -1
  /// when the store does not hold it.
  int kept_until(int level) const {
    const auto it = kept_.find(level);
    return it == kept_.end() ? -1 : it->second.until;
  }

  /// Releases every level kept until a level below `level` (no option of
  /// `level` or above reaches them), calling on_release(l) for each first.
  template <class OnRelease>
  void release_before(int level, OnRelease&& on_release) {
    while (!by_until_.empty() && by_until_.begin()->first < level) {
      const int l = by_until_.begin()->second;
      on_release(l);
      host_[static_cast<std::size_t>(l)] = nullptr;
      mark(l);
      drop(l);
    }
  }

  /// The backend's table of record pointers by level (null for a level not
  /// held), for the level kernel; entries changed since the last call are
  /// copied to the backend first (games with many levels, e.g. one per heap
  /// size, change one or two a level).
  const Stored* const* records_by_level() {
    if (dirty_lo_ < dirty_hi_)
      be_.copy_to_device(table_.data() + dirty_lo_, host_.data() + dirty_lo_, dirty_hi_ - dirty_lo_);
    dirty_lo_ = dirty_hi_ = 0;
    return table_.data();
  }

 private:
  struct entry {
    buffer records;
    int until;
  };
  /// Forgets level l (its records and its place in by_until_).
  void drop(int l) {
    const auto it = kept_.find(l);
    if (it == kept_.end()) return;
    const auto range = by_until_.equal_range(it->second.until);
    for (auto u = range.first; u != range.second; ++u)
      if (u->second == l) {
        by_until_.erase(u);
        break;
      }
    kept_.erase(it);
  }
  void mark(int l) {
    const std::size_t i = static_cast<std::size_t>(l);
    if (dirty_lo_ >= dirty_hi_) {
      dirty_lo_ = i;
      dirty_hi_ = i + 1;
    } else {
      dirty_lo_ = std::min(dirty_lo_, i);
      dirty_hi_ = std::max(dirty_hi_, i + 1);
    }
  }

  Backend& be_;
  std::vector<const Stored*> host_;
  typename Backend::template buffer<const Stored*> table_;
  std::size_t dirty_lo_ = 0, dirty_hi_;  ///< host_ entries changed since the last copy (all, at first)
  std::map<int, entry> kept_;            ///< level -> its records and last reader
  std::multimap<int, int> by_until_;     ///< last reader -> level: release_before reads only what it releases
};

}  // namespace cgtb::detail
