// The record dictionary of a solve, in the backend's memory (the kernels'
// side is cgtb/record_dictionary.hpp). Included by level_loop.hpp.
#pragma once

#include <thrust/copy.h>
#include <thrust/fill.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/record_dictionary.hpp"

namespace cgtb::detail {

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

}  // namespace cgtb::detail
