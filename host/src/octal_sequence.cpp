// Octal Grundy sequences by the sparse-space method (cgtb/octal_sequence.hpp).
#include "cgtb/octal_sequence.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/text.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

namespace {

inline int parity(std::uint32_t v) { return __builtin_popcount(v) & 1; }

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

/// The option values of one heap: a bitset over 0 .. 2^k - 1 (every value
/// and every XOR of two values so far lies below 2^k) with room for the mex.
class value_set {
 public:
  void reset(std::uint32_t max_value) {
    std::uint32_t bound = 64;
    while (bound <= max_value) bound <<= 1;
    words_ = bound / 64 + 1;
    if (bits_.size() < words_) bits_.resize(words_);
    std::fill(bits_.begin(), bits_.begin() + static_cast<std::ptrdiff_t>(words_), 0);
  }
  void set(std::uint32_t v) { bits_[v >> 6] |= std::uint64_t{1} << (v & 63); }
  bool has(std::uint32_t v) const { return (bits_[v >> 6] >> (v & 63)) & 1; }
  /// The least value not in the set, from `from` on.
  std::uint32_t mex(std::uint32_t from) const {
    for (std::size_t w = from >> 6; w < words_; ++w)
      if (~bits_[w]) return static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(~bits_[w])));
    return static_cast<std::uint32_t>(words_ * 64);
  }

 private:
  std::vector<std::uint64_t> bits_;
  std::size_t words_ = 0;
};

/// A move that leaves two heaps of r beans in all (b + c = r, 1 <= b <= c),
/// with the pairs b < cursor already entered in the value set.
struct split_move {
  std::uint64_t r, cursor;
};

/// Pairs each two-heap move scans one by one (entering every value it sees)
/// before the rest of its pairs is searched for the one missing value.
constexpr std::uint64_t kSerialBudget = 1024;
/// Searches longer than this go on over all threads after this many pairs.
constexpr std::uint64_t kParallelScan = std::uint64_t{1} << 16;
/// A long search first runs this many pairs on one thread: a value that is
/// there is almost always found in them.
constexpr std::uint64_t kSerialHead = std::uint64_t{1} << 15;

// Copies of the search loops for AVX-512 and AVX2 beside the baseline, the
// one that fits the CPU chosen at load time (x86-64 only).
#if defined(__x86_64__) && defined(__clang__)
#define CGTB_SIMD_CLONES __attribute__((target_clones("avx512bw", "avx2", "default")))
#elif defined(__x86_64__)
#define CGTB_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define CGTB_SIMD_CLONES
#endif

/// The number of pairs examined up to and including the 4096-pair chunk
/// where a[i] ^ b[i] == x first holds, or `count` plus one when it never
/// does (i < count). One loop the compiler vectorises, inlined into the
/// cloned find_xor8 and find_xor16.
template <class T>
inline __attribute__((always_inline)) std::uint64_t find_xor(const T* a, const T* b, std::uint64_t count, T x) {
  constexpr std::uint64_t kChunk = 4096;  // an early stop every chunk
  for (std::uint64_t at = 0; at < count; at += kChunk) {
    const std::uint64_t end = at + kChunk < count ? at + kChunk : count;
    unsigned acc = 0;
    for (std::uint64_t i = at; i < end; ++i) acc |= static_cast<T>(a[i] ^ b[i]) == x;
    if (acc) return end;
  }
  return count + 1;
}
CGTB_SIMD_CLONES std::uint64_t find_xor8(const std::uint8_t* a, const std::uint8_t* b, std::uint64_t count,
                                         std::uint8_t x) {
  return find_xor(a, b, count, x);
}
CGTB_SIMD_CLONES std::uint64_t find_xor16(const std::uint16_t* a, const std::uint16_t* b, std::uint64_t count,
                                          std::uint16_t x) {
  return find_xor(a, b, count, x);
}

/// The number of bytes examined up to and including the 2048-byte chunk
/// where a nibble of a[i] ^ b[i] ^ xx is 0 (xx: the value in every nibble),
/// or `bytes` plus one when none is. Whole 8-byte words with the zero-nibble
/// test (w - 0x11..1) & ~w & 0x88..8, which is exact for "some nibble is 0";
/// cloned like find_xor8.
CGTB_SIMD_CLONES std::uint64_t find_zero_nibble(const std::uint8_t* a, const std::uint8_t* b, std::uint64_t bytes,
                                                std::uint64_t xx) {
  constexpr std::uint64_t kOnes = 0x1111111111111111ull, kHigh = 0x8888888888888888ull, kChunk = 2048;
  for (std::uint64_t at = 0; at < bytes; at += kChunk) {
    const std::uint64_t end = at + kChunk < bytes ? at + kChunk : bytes, words = (end - at) / 8;
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < words; ++i) {
      std::uint64_t u, v;
      std::memcpy(&u, a + at + 8 * i, 8);
      std::memcpy(&v, b + at + 8 * i, 8);
      const std::uint64_t w = u ^ v ^ xx;
      acc |= (w - kOnes) & ~w & kHigh;
    }
    for (std::uint64_t i = at + 8 * words; i < end; ++i) {
      const unsigned w = (a[i] ^ b[i] ^ static_cast<unsigned>(xx)) & 0xff;
      acc |= ((w & 15) == 0 || (w >> 4) == 0) ? 1 : 0;
    }
    if (acc) return end;
  }
  return bytes + 1;
}

/// The sequence in the layout the search for one option value streams: the
/// values and a reversed copy (rev[M - k] = G(k), M = the largest heap), so
/// that the pairs G(b), G(r - b), b = lo..hi, are two forward runs. Nibbles
/// while every value is below 16 (two reversed copies, one shifted by a
/// nibble, so that the two runs always meet byte against byte), bytes while
/// below 256, two bytes after.
class pair_search {
 public:
  explicit pair_search(std::uint64_t max_heap)
      : m_(max_heap),
        f4_(max_heap / 2 + 2),
        r4_{std::vector<std::uint8_t>(max_heap / 2 + 2), std::vector<std::uint8_t>(max_heap / 2 + 2)} {}
  void push(std::uint64_t n, std::uint16_t g, const std::uint16_t* G) {
    if (width_ == 4 && g > 0xf) {  // every value so far, as bytes
      width_ = 8;
      free(f4_);
      free(r4_[0]);
      free(r4_[1]);
      f8_.assign(m_ + 1, 0);
      r8_.assign(m_ + 1, 0);
      for (std::uint64_t k = 0; k < n; ++k) f8_[k] = r8_[m_ - k] = static_cast<std::uint8_t>(G[k]);
    }
    if (width_ == 8 && g > 0xff) {  // two bytes: the forward run is G itself
      width_ = 16;
      free(f8_);
      free(r8_);
      r16_.assign(m_ + 1, 0);
      for (std::uint64_t k = 0; k < n; ++k) r16_[m_ - k] = G[k];
    }
    if (width_ == 4) {
      set_nibble(f4_, n, g);
      set_nibble(r4_[0], m_ - n, g);
      set_nibble(r4_[1], m_ - n + 1, g);
    } else if (width_ == 8) {
      f8_[n] = static_cast<std::uint8_t>(g);
      r8_[m_ - n] = static_cast<std::uint8_t>(g);
    } else {
      r16_[m_ - n] = g;
    }
  }

  /// True when G(b) ^ G(r - b) == x for some lo <= b <= hi (r - hi >= 1);
  /// adds the pairs examined to `examined`.
  bool any(const std::uint16_t* G, std::uint64_t r, std::uint64_t lo, std::uint64_t hi, std::uint32_t x, int threads,
           std::uint64_t& examined) const {
    if (x >> width_) {  // every XOR of values below 2^width is below 2^width
      examined += hi - lo + 1;
      return false;
    }
    if (width_ == 4) return any_nibble(r, lo, hi, x, threads, examined);
    const std::uint64_t off = m_ - r + lo;
    return split_search(hi - lo + 1, 1, threads, examined, [&](std::uint64_t a, std::uint64_t c) {
      return width_ == 8 ? find_xor8(f8_.data() + lo + a, r8_.data() + off + a, c, static_cast<std::uint8_t>(x))
                         : find_xor16(G + lo + a, r16_.data() + off + a, c, static_cast<std::uint16_t>(x));
    });
  }

 private:
  template <class T>
  static void free(std::vector<T>& v) {
    std::vector<T>().swap(v);
  }
  static void set_nibble(std::vector<std::uint8_t>& v, std::uint64_t pos, unsigned g) {
    std::uint8_t& byte = v[pos >> 1];
    const unsigned shift = (pos & 1) * 4;
    byte = static_cast<std::uint8_t>((byte & ~(0xfu << shift)) | (g << shift));
  }
  static unsigned nibble(const std::vector<std::uint8_t>& v, std::uint64_t pos) {
    return (v[pos >> 1] >> ((pos & 1) * 4)) & 0xf;
  }

  /// Runs find(a, c) over [0, count) (`unit` pairs per element): the first
  /// kSerialHead pairs in one piece, then the rest in one piece, or one per
  /// thread when it is longer than kParallelScan pairs. True when some piece
  /// found it.
  template <class Find>
  static bool split_search(std::uint64_t count, std::uint64_t unit, int threads, std::uint64_t& examined, Find find) {
    const std::uint64_t head = std::min(count, kSerialHead / unit);
    const std::uint64_t e = find(0, head);
    examined += std::min(e, head) * unit;
    if (e <= head) return true;
    if (head == count) return false;
    const std::uint64_t rest = count - head;
    if (threads <= 1 || rest * unit <= kParallelScan) {
      const std::uint64_t f = find(head, rest);
      examined += std::min(f, rest) * unit;
      return f <= rest;
    }
    int found = 0;
    std::uint64_t seen = 0;
    const std::uint64_t step = (rest + static_cast<std::uint64_t>(threads) - 1) / static_cast<std::uint64_t>(threads);
#pragma omp parallel for num_threads(threads) reduction(| : found) reduction(+ : seen) schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
      const std::uint64_t a = static_cast<std::uint64_t>(t) * step;
      if (a >= rest) continue;
      const std::uint64_t c = std::min(step, rest - a), f = find(head + a, c);
      seen += std::min(f, c);
      found |= f <= c ? 1 : 0;
    }
    examined += seen * unit;
    return found != 0;
  }

  /// The nibble search: heap b's partner r - b sits at nibble b + 2d of the
  /// reversed copy shifted by s = (M - r) mod 2, d = (M - r + s) / 2, so whole
  /// bytes meet; an odd first and an even last heap are checked alone.
  bool any_nibble(std::uint64_t r, std::uint64_t lo, std::uint64_t hi, std::uint32_t x, int threads,
                  std::uint64_t& examined) const {
    const std::uint64_t s = (m_ - r) & 1, d = (m_ - r + s) / 2;
    const std::vector<std::uint8_t>& rev = r4_[s];
    auto one = [&](std::uint64_t b) { return (nibble(f4_, b) ^ nibble(rev, b + 2 * d)) == x; };
    if (lo & 1) {
      ++examined;
      if (one(lo)) return true;
      ++lo;
    }
    if (lo <= hi && !(hi & 1)) {
      ++examined;
      if (one(hi)) return true;
      if (hi == lo) return false;
      --hi;
    }
    if (lo > hi) return false;
    const std::uint64_t first = lo / 2, bytes = (hi - lo + 1) / 2, xx = 0x1111111111111111ull * x;
    return split_search(bytes, 2, threads, examined, [&](std::uint64_t a, std::uint64_t c) {
      return find_zero_nibble(f4_.data() + first + a, rev.data() + first + d + a, c, xx);
    });
  }

  std::uint64_t m_;
  int width_ = 4;  ///< bits per value in the copies
  std::vector<std::uint8_t> f4_, r4_[2], f8_, r8_;
  std::vector<std::uint16_t> r16_;
};

}  // namespace

std::string sparse_split::text() const {
  if (mask == 0) return "none (plain method)";
  return "mask " + hex(mask) + (domain ? ", domain type" : ", range type") + ", common label " + std::to_string(common);
}

void value_histogram::add(std::uint64_t n, std::uint32_t g) {
  if (n == 0) return;
  const std::size_t i = 2 * static_cast<std::size_t>(g) + (n & 1);
  if (i >= count.size()) count.resize(std::max<std::size_t>(2 * count.size(), i + 2));
  ++count[i];
  max_value = std::max(max_value, g);
}

bool split_fits(const sparse_split& s, const std::vector<int>& split_takes) {
  if (s.mask == 0) return false;
  for (int i : split_takes)
    if (s.common != (1 ^ (s.domain ? (i & 1) : 0))) return false;
  return true;
}

sparse_split best_split(const value_histogram& h, const std::vector<int>& split_takes, std::uint64_t* rare) {
  int bits = 0;
  while (bits < 12 && (h.max_value >> bits)) ++bits;
  std::uint64_t total = 0;
  for (std::uint64_t c : h.count) total += c;
  sparse_split best;  // mask 0: every heap common
  std::uint64_t best_rare = 0;
  bool have = false;
  for (std::uint32_t m = 1; m < (1u << bits); ++m) {
    std::uint64_t range[2] = {0, 0}, domain[2] = {0, 0};  // heaps per label
    for (std::uint32_t v = 0; v <= h.max_value; ++v) {
      const int pv = parity(v & m);
      const std::uint64_t even = h.at(v, 0), odd = h.at(v, 1);
      range[pv] += even + odd;
      domain[pv] += even;
      domain[pv ^ 1] += odd;
    }
    for (int d = 0; d < 2; ++d)
      for (int c = 0; c < 2; ++c) {
        const sparse_split s{m, d == 1, c};
        if (!split_fits(s, split_takes)) continue;
        const std::uint64_t r = total - (d ? domain[c] : range[c]);
        if (!have || r < best_rare) {
          have = true;
          best_rare = r;
          best = s;
        }
      }
  }
  if (rare) *rare = have ? best_rare : 0;
  return best;
}

std::vector<std::uint16_t> octal_sequence(const take_break& code, std::uint64_t max_heap, const sequence_options& opt,
                                          sequence_report* report) {
  if (max_heap > kMaxSequenceHeap)
    throw input_error("--max-heap " + std::to_string(max_heap) + " is over the largest sequence, " +
                      std::to_string(kMaxSequenceHeap) + " heaps");
  const double need = 4.0 * static_cast<double>(max_heap + 1);  // the values, and pair_search's copies
  if (need > static_cast<double>(detail::host_available_bytes()))
    throw resource_error("the sequence to heap " + std::to_string(max_heap) + " needs " + bytes_text(need) +
                         " of memory, more than the " +
                         bytes_text(static_cast<double>(detail::host_available_bytes())) + " available");
  std::vector<std::uint16_t> G;
  try {
    G.assign(max_heap + 1, 0);
  } catch (const std::bad_alloc&) {
    throw resource_error("the sequence to heap " + std::to_string(max_heap) + " needs " + bytes_text(need) +
                         " of memory, which could not be allocated");
  }
  progress_line(opt.progress, "[cgtb] %s: heaps 0..%llu, %s of memory", opt.label.c_str(),
                static_cast<unsigned long long>(max_heap), bytes_text(need).c_str());
  const int threads = opt.threads > 0 ? opt.threads : omp_get_max_threads();
  const auto t0 = std::chrono::steady_clock::now();
  auto last_line = t0;

  sparse_split split = opt.force_split ? opt.split : sparse_split{};
  bool used_sparse = split.mask != 0;
  std::vector<std::uint64_t> rare;  // rare heaps >= 1, ascending
  value_histogram hist;
  std::uint32_t max_value = 0;
  std::uint64_t pairs = 0, next_choice = 256, next_period = 256;
  octal_period proven;
  value_set set;
  pair_search search(max_heap);
  std::vector<split_move> splits;
  splits.reserve(static_cast<std::size_t>(code.max_take) + 1);
  const std::uint16_t* g = G.data();
  const std::vector<int> takes = split_takes(code);

  for (std::uint64_t n = 1; n <= max_heap; ++n) {
    set.reset(max_value);
    splits.clear();
    // Moves that leave at most one heap, and the list of two-heap moves.
    for (int i = (code.digit[0] & 4) ? 0 : 1; i <= code.max_take && static_cast<std::uint64_t>(i) <= n; ++i) {
      const int d = code.digit[i];
      const std::uint64_t r = n - static_cast<std::uint64_t>(i);
      if (r == 0) {
        if (d & 1) set.set(0);
        continue;
      }
      if (d & 2) set.set(g[r]);
      if ((d & 4) && r >= 2) splits.push_back({r, 1});
    }
    // Values of the cheap parity: every pair with a rare heap.
    for (const split_move& s : splits)
      for (std::uint64_t b : rare) {
        if (b >= s.r) break;
        set.set(static_cast<std::uint32_t>(g[b] ^ g[s.r - b]));
        ++pairs;
      }
    // The mex: a missing value of the expensive parity of some move is
    // looked for pair by pair.
    std::uint32_t mex = set.mex(0);
    for (;;) {
      const int pm = parity(mex & split.mask);
      // Each move whose pairs give values of the parity of `mex`: first a
      // few pairs of each in turn, entering every value seen, then a search
      // of the rest of its pairs for `mex` alone.
      bool found = false;
      for (std::uint64_t budget = 64; !found && budget <= kSerialBudget; budget *= 4)
        for (split_move& s : splits) {
          if ((split.domain ? static_cast<int>(s.r & 1) : 0) != pm) continue;  // its values of this parity are in
          const std::uint64_t start = s.cursor, hi = std::min(s.r / 2, s.cursor + budget - 1);
          for (; s.cursor <= hi; ++s.cursor) {
            const std::uint32_t v = g[s.cursor] ^ g[s.r - s.cursor];
            set.set(v);
            if (v == mex) break;
          }
          pairs += s.cursor - start;
          if (s.cursor <= hi) {  // stopped on mex
            ++pairs;
            ++s.cursor;
            found = true;
            break;
          }
        }
      for (std::size_t i = 0; !found && i < splits.size(); ++i) {
        const split_move& s = splits[i];
        if ((split.domain ? static_cast<int>(s.r & 1) : 0) != pm || s.cursor > s.r / 2) continue;
        found = search.any(g, s.r, s.cursor, s.r / 2, mex, threads, pairs);
      }
      if (!found) break;
      set.set(mex);
      mex = set.mex(mex);
    }
    if (mex > 0xffff)
      throw resource_error("G(" + std::to_string(n) + ") = " + std::to_string(mex) +
                           " does not fit the sequence's 16-bit values");
    G[n] = static_cast<std::uint16_t>(mex);
    search.push(n, G[n], g);
    max_value = std::max(max_value, mex);
    hist.add(n, mex);
    if (split.rare(n, mex)) rare.push_back(n);

    if (!opt.force_split && n == next_choice) {  // choose the split again from the values so far
      next_choice *= 2;
      std::uint64_t count = 0;
      sparse_split s = best_split(hist, takes, &count);
      if (count > (n + 1) / 8) s = sparse_split{};  // no split pays: the plain method
      if (!(s == split)) {
        split = s;
        rare.clear();
        for (std::uint64_t b = 1; b <= n; ++b)
          if (split.rare(b, g[b])) rare.push_back(b);
      }
      used_sparse = used_sparse || split.mask != 0;
    }
    if (opt.extend_by_period && n == next_period && n < max_heap) {
      next_period *= 2;
      proven = prove_octal_period(g, n + 1, code.max_take);
      if (proven.proven) {
        for (std::uint64_t m = n + 1; m <= max_heap; ++m) G[m] = G[m - proven.period];
        progress_line(opt.progress, "[cgtb] %s: %s; heaps %llu..%llu written from the period", opt.label.c_str(),
                      proven.text().c_str(), static_cast<unsigned long long>(n + 1),
                      static_cast<unsigned long long>(max_heap));
        break;
      }
    }
    if (opt.progress && (n & 4095) == 0) {
      const bool tty = opt.progress->rewrites();
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last_line).count() >= (tty ? 0.2 : 5.0)) {
        last_line = now;
        const double el = std::chrono::duration<double>(now - t0).count();
        const double rate = static_cast<double>(n) / el;
        char text[256];
        std::snprintf(text, sizeof text,
                      "[cgtb] %s: heap %llu of %llu (%.1f%%), %.3g heaps/s, %s left, %zu rare, max %u",
                      opt.label.c_str(), static_cast<unsigned long long>(n), static_cast<unsigned long long>(max_heap),
                      100.0 * static_cast<double>(n) / max_heap, rate,
                      duration_text(static_cast<double>(max_heap - n) / rate).c_str(), rare.size(), max_value);
        opt.progress->status(text);
        opt.progress->advance(n, max_heap);
      }
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const sparse_space space = sparse_space_of(g, max_heap + 1, split);
  progress_line(opt.progress, "[cgtb] %s: %llu heaps in %s, sparse space: %s", opt.label.c_str(),
                static_cast<unsigned long long>(max_heap + 1), duration_text(secs).c_str(), space.text().c_str());
  if (report) {
    report->space = space;
    if (proven.proven) {
      report->extended_from = proven.length;
      report->period = proven.period;
      report->preperiod = proven.preperiod;
    }
    report->sparse = used_sparse;
    report->pairs = pairs;
    report->seconds = secs;
  }
  return G;
}

std::vector<std::uint16_t> read_octal_sequence(tablebase& tb) {
  const level_entry* l = tb.find_level(0);
  if (!l) throw input_error("'" + tb.path() + "' holds no sequence (level 0 is missing)");
  const int fg = tb.header().field_index(field_name::grundy);
  std::vector<std::uint16_t> s(l->positions);
  for (std::uint64_t n = 0; n < l->positions; ++n) {
    const std::int64_t v = tb.value(0, n, fg);
    if (v < 0 || v > 0xffff)
      throw input_error("'" + tb.path() + "': heap " + std::to_string(n) + " has value " + std::to_string(v) +
                        ", outside a sequence's 0..65535");
    s[n] = static_cast<std::uint16_t>(v);
  }
  return s;
}

std::vector<int> split_takes(const take_break& code) {
  std::vector<int> t;
  for (int i = 0; i <= code.max_take; ++i)
    if (code.digit[i] & 4) t.push_back(i);
  return t;
}

sparse_space sparse_space_of(const std::uint16_t* s, std::uint64_t length, const sparse_split& split) {
  sparse_space sp;
  sp.split = split;
  for (std::uint64_t n = 0; n < length; ++n) {
    sp.max_value = std::max<std::uint32_t>(sp.max_value, s[n]);
    if (split.mask == 0 || n == 0 || !split.rare(n, s[n])) continue;
    ++sp.rare_heaps;
    sp.last_rare = static_cast<std::int64_t>(n);
    sp.rare_values.push_back(s[n]);
  }
  std::sort(sp.rare_values.begin(), sp.rare_values.end());
  sp.rare_values.erase(std::unique(sp.rare_values.begin(), sp.rare_values.end()), sp.rare_values.end());
  return sp;
}

std::string sparse_space::text() const {
  std::string t = split.text();
  if (split.mask)
    t += "; " + std::to_string(rare_heaps) + " rare heaps, the last n = " + std::to_string(last_rare) + ", " +
         std::to_string(rare_values.size()) + " rare values" +
         (rare_values.empty() ? "" : ", the largest " + std::to_string(rare_values.back()));
  return t + "; largest value " + std::to_string(max_value);
}

std::string octal_period::text() const {
  if (period == 0) return "no period proven up to n = " + std::to_string(length ? length - 1 : 0);
  std::string s = "period " + std::to_string(period) + ", preperiod " + std::to_string(preperiod) + " (" +
                  (preperiod ? "last exception n = " + std::to_string(preperiod - 1) : std::string("no exception")) +
                  ")";
  if (proven)
    return s + ", proven: G(n + " + std::to_string(period) + ") = G(n) for " + std::to_string(preperiod) + " <= n < " +
           std::to_string(needed + 1 - period) + " (2 n0 + p + t, t = " + std::to_string(max_take) + "), heaps 0.." +
           std::to_string(length - 1);
  const std::uint64_t span = length - period - preperiod;
  return "no period proven up to n = " + std::to_string(length - 1) + "; candidate " + s + ", G(n + " +
         std::to_string(period) + ") = G(n) seen for " + std::to_string(span) + " heaps (" +
         count_text(span / period, "whole period") + "), needs heaps to n = " + std::to_string(needed);
}

octal_period prove_octal_period(const std::uint16_t* s, std::uint64_t length, int max_take) {
  octal_period best;
  best.length = length;
  best.max_take = max_take;
  const std::uint64_t t = static_cast<std::uint64_t>(max_take);
  std::uint64_t best_span = 0;
  for (std::uint64_t p = 1; 2 * p <= length; ++p) {
    // The least n0 with s[n + p] = s[n] for n0 <= n < length - p.
    std::uint64_t n0 = length - p;
    while (n0 > 0 && s[n0 - 1] == s[n0 - 1 + p]) --n0;
    // The largest index the theorem's check reads (from n0 >= 1: a split
    // leaving heap b - p = 0 would not be a split).
    const std::uint64_t needed = 2 * std::max<std::uint64_t>(n0, 1) + 2 * p + t - 1;
    if (needed < length) {
      best.proven = true;
      best.period = p;
      best.preperiod = n0;
      best.needed = needed;
      return best;
    }
    // Unproven: keep the candidate whose agreement G(n + p) = G(n) runs over
    // the most heaps, at least one whole period (the tail repeats at least
    // twice); a true period beats its multiples and short tail fits.
    const std::uint64_t span = length - p - n0;
    if (span >= p && span > best_span) {
      best_span = span;
      best.period = p;
      best.preperiod = n0;
      best.needed = needed;
    }
  }
  return best;
}

}  // namespace cgtb
