// Interned records: a level stores a 4-byte id per position instead of its
// record, and the ids index one dictionary of the distinct records of the
// build. For the misère genus (9-byte records: G and gamma_0..gamma_7) this
// divides the memory of a level by two and more: a large Cram board has some 10^9 positions per
// level but only thousands of distinct records (docs/architecture.md,
// "Interned records"). Same source on both backends: the dictionary is an
// open-addressing table filled with atomics by the level kernel.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cgtb/hd.hpp"

namespace cgtb {

/// True when the solver interns the records of Rule: rules whose record is
/// larger than 8 bytes (the genus rule, impartial_rule<7>) and has no
/// padding (records are hashed and compared byte by byte).
template <class Rule>
struct interned_record : std::bool_constant<(sizeof(typename Rule::record) > 8) &&
                                            std::has_unique_object_representations_v<typename Rule::record>> {};

/// Bytes a level holds per position while it is resident: 4 (an id) for
/// interned records, else the record.
template <class Rule>
constexpr std::size_t stored_record_bytes() {
  return interned_record<Rule>::value ? sizeof(std::uint32_t) : sizeof(typename Rule::record);
}

/// The id intern() returns for a record that found no free entry (ids are
/// below 2^31, the most a dictionary holds).
constexpr std::uint32_t kNoRecordId = 0xffffffffu;

/// The dictionary as a kernel sees it: `capacity` records at `entries` (ids
/// 0.. *count - 1 are taken) and `slot_count` = 2 * capacity slots, each 0
/// (free) or (32-bit hash << 32) | (id + 1). Ids are handed out by an atomic
/// counter before their record is published with a compare-and-swap, so an
/// insert never waits for another thread; a thread that loses the race for a
/// slot leaves its entry unused (rare: two threads inserting the same new
/// record at once). The load of the table stays below 1/2, so every probe
/// sequence ends at a free slot.
template <class Record>
struct record_dictionary {
  std::uint64_t* slots;
  std::uint64_t slot_count;
  Record* entries;
  std::uint64_t capacity;
  unsigned long long* count;

  /// 64-bit hash of a record's bytes.
  CGTB_HD static std::uint64_t hash(const Record& r) {
    const unsigned char* b = reinterpret_cast<const unsigned char*>(&r);
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (std::size_t i = 0; i < sizeof(Record); ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    return h ^ (h >> 29);
  }
  CGTB_HD static bool same(const Record& a, const Record& b) {
    const unsigned char* x = reinterpret_cast<const unsigned char*>(&a);
    const unsigned char* y = reinterpret_cast<const unsigned char*>(&b);
    for (std::size_t i = 0; i < sizeof(Record); ++i)
      if (x[i] != y[i]) return false;
    return true;
  }

  /// Id of record r, inserted if new. Sets *full and returns kNoRecordId
  /// when r is new and the dictionary has no free entry left: the solver then
  /// grows it and solves again the positions that got kNoRecordId (records
  /// already known keep being found while the dictionary is full).
  CGTB_HD std::uint32_t intern(const Record& r, int* full) const {
    const std::uint64_t h = hash(r);
    const std::uint64_t tag = (h >> 32) << 32;
    std::uint64_t i = mulhi64(h, slot_count);
    std::uint64_t mine = 0;  // the entry this thread wrote, once it wrote one
    for (;;) {
      std::uint64_t s = atomic_load64(&slots[i]);
      if (s == 0) {
        if (mine == 0) {
          const unsigned long long id = atomic_add_u64(count, 1);
          if (id >= capacity) {
            *full = 1;
            return kNoRecordId;
          }
          entries[id] = r;
          mine = tag | (id + 1);
          memory_fence();  // the entry is visible before the slot that names it
        }
        s = atomic_cas64(&slots[i], 0u, mine);
        if (s == 0) return static_cast<std::uint32_t>((mine & 0xffffffffull) - 1);
      }
      if ((s >> 32) == (h >> 32) && same(entries[(s & 0xffffffffull) - 1], r))
        return static_cast<std::uint32_t>((s & 0xffffffffull) - 1);
      if (++i == slot_count) i = 0;
    }
  }

  /// Enters the existing entry `id` into the slots (growing the dictionary
  /// re-enters every entry into a larger table).
  CGTB_HD void reinsert(std::uint64_t id) const {
    const std::uint64_t h = hash(entries[id]);
    std::uint64_t i = mulhi64(h, slot_count);
    while (atomic_cas64(&slots[i], 0u, ((h >> 32) << 32) | (id + 1)) != 0u)
      if (++i == slot_count) i = 0;
  }
};

/// Kernel functor of the dictionary's growth: reinserts entry id.
template <class Record>
struct dictionary_reinsert_kernel {
  record_dictionary<Record> dict;
  CGTB_HD void operator()(std::uint64_t id) const { dict.reinsert(id); }
};

}  // namespace cgtb
