// Prefetch hints: how a kernel reads memory scattered over large arrays (the
// records of the options of a position, the slots of a hash table).
//
// The backend chooses, and the kernels pass its choice down; value rules and
// views stay backend-agnostic. A CPU thread runs one position at a time, so
// its reads are latency-bound: it prefetches a batch of addresses before it
// uses them, so that their cache misses overlap. On the GPU other warps hide
// the latency, and each read is used at once.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Up to N values whose memory is prefetched before each is used.
/// push(x, addr, use) prefetches addr and queues x, handing the whole batch to
/// use(x) in push order once N are queued; flush(use) hands over the rest.
/// With N = 0 (the default of every caller that names no batch), push calls
/// use(x) at once and flush does nothing.
template <class T, int N>
struct prefetch_queue {
  T items[N];
  int n = 0;

  template <class Use>
  CGTB_HD void push(const T& x, const void* addr, Use&& use) {
    __builtin_prefetch(addr);
    items[n++] = x;
    if (n == N) flush(use);
  }
  template <class Use>
  CGTB_HD void flush(Use&& use) {
    for (int i = 0; i < n; ++i) use(items[i]);
    n = 0;
  }
};
template <class T>
struct prefetch_queue<T, 0> {
  template <class Use>
  CGTB_HD void push(const T& x, const void*, Use&& use) {
    use(x);
  }
  template <class Use>
  CGTB_HD void flush(Use&&) {}
};

/// Batch size of the record lookup a value rule is given: Lookup::prefetch_batch
/// where the lookup declares one (the level kernel's, set by the backend),
/// else 0 (a plain callable, e.g. a test's or verifier's lambda).
template <class Lookup, class = void>
struct lookup_prefetch_batch : std::integral_constant<int, 0> {};
template <class Lookup>
struct lookup_prefetch_batch<Lookup, std::void_t<decltype(Lookup::prefetch_batch)>>
    : std::integral_constant<int, Lookup::prefetch_batch> {};

/// The address to prefetch before reading the record lookup(L, r):
/// lookup.address(L, r) where the lookup declares it (a lookup through
/// interned ids prefetches the id, its cache miss), else the record itself.
template <class Lookup, class = void>
struct lookup_has_address : std::false_type {};
template <class Lookup>
struct lookup_has_address<Lookup, std::void_t<decltype(std::declval<const Lookup&>().address(0, 0))>> : std::true_type {
};
template <class Lookup>
CGTB_HD const void* record_address(const Lookup& lookup, int level, std::uint64_t rank) {
  if constexpr (lookup_has_address<Lookup>::value)
    return lookup.address(level, rank);
  else
    return &lookup(level, rank);
}

}  // namespace cgtb
