// The reachable, symmetry-reduced index of the domino games (Cram,
// Domineering): a level stores only the positions that can arise from the
// empty board, once per class of the board's symmetries.
//
// Stored set. A region of empty cells arises in play exactly when its covered
// cells can be tiled by dominoes; the solver finds these sets by a forward
// pass from the empty board (the options of stored positions, every domino in
// either orientation, so Domineering tables serve sums where either player
// moves anywhere). Each class is stored as its canonical image: the least
// bitmask among the images of the position under the symmetry group (for
// k-subsets, numeric order of masks is colexicographic order, so this is also
// the image of least combinatorial rank).
//
// Index. A level is the sorted list of its canonical masks (`keys`), kept as
// an Elias–Fano sequence (reachable_level): about 2.2 bytes a key on the
// boards that matter, against 8 for the plain list and 12 more for a hash
// table. Rank r is the r-th key (unrank: one select over the sequence's
// upper bits); ranking an option is one select of its bucket's zero and a
// short walk over the bucket; where memory allows, a hash rank table ranks
// faster. No per-thread arrays of prefix sums are needed, only the images of
// the position under each symmetry, kept in registers. Files store, per
// level, the combinatorial rank of each key (docs/format.md, index scheme
// keys/1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Most symmetries a board has (the dihedral group of the square).
inline constexpr int kMaxSymmetries = 8;
/// Key of an empty hash slot (no position of a board under 64 cells is ~0).
inline constexpr std::uint64_t kEmptySlot = ~0ull;

/// 64-bit finaliser of MurmurHash3 (a bijective mixer): spreads the
/// structured masks of board regions over the hash table.
CGTB_HD inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

/// First slot of a key's probe sequence in a table of `count` slots.
CGTB_HD inline std::uint64_t hash_home(std::uint64_t key, std::uint64_t count) { return mulhi64(mix64(key), count); }

/// Device-side descriptor of one stored level: its canonical masks (keys),
/// ascending, as an Elias–Fano sequence (P. Elias, "Efficient storage and
/// retrieval by content and address of static files", J. ACM 21, 1974;
/// S. Vigna, "Quasi-succinct indices", WSDM 2013, section 3). Key i is split
/// into its low `low_bits` bits, packed in `lower`, and its high part h_i
/// (its bucket), stored as bit h_i + i of `upper`; the zeros of `upper` end
/// the buckets. `ones[j]` is the position in `upper` of key 256·j and
/// `zeros[j]` that of zero number 64·j. Reachable sets cluster at every scale
/// (most buckets are empty, a few full), so buckets are made 2 to 4 times as
/// many as keys: an empty bucket costs one bit. About log2(universe / size)
/// + 4.7 bits a key (2.2 bytes for the middle levels of 6×7). Ranking a key
/// selects its bucket's zero (a sample, then a word or two) and walks the
/// bucket (about 3.5 keys); unrank selects the key's one. Trivially
/// copyable; pointers are in the memory of the processor that runs the
/// kernels.
struct reachable_level {
  const std::uint64_t* upper = nullptr;
  const std::uint64_t* lower = nullptr;
  const std::uint64_t* ones = nullptr;
  const std::uint64_t* zeros = nullptr;
  std::uint64_t size = 0;     ///< stored positions (classes) of the level
  std::uint64_t buckets = 0;  ///< zeros of `upper`: (largest key >> low_bits) + 1
  int low_bits = 0;
  /// Optional rank table, where memory allows (a faster rank): an
  /// open-addressing hash table of `slot_count` 8-byte slots, each the low 32
  /// bits of a key's hash (a fingerprint) and its rank + 1 (0: free). A
  /// lookup compares fingerprints only; that is exact for every stored key
  /// when no other key with the same fingerprint lies earlier on its probe
  /// path, which the builder checks for every key of the level (else it sets
  /// `check_keys`, and lookups also compare the key itself).
  const std::uint64_t* slots = nullptr;
  std::uint64_t slot_count = 0;
  int check_keys = 0;

  /// Low bits of key i.
  CGTB_HD std::uint64_t low(std::uint64_t i) const {
    if (low_bits == 0) return 0;
    const std::uint64_t bit = i * static_cast<std::uint64_t>(low_bits), w = bit >> 6;
    const int off = static_cast<int>(bit & 63);
    std::uint64_t v = lower[w] >> off;
    if (off + low_bits > 64) v |= lower[w + 1] << (64 - off);
    return v & ((1ull << low_bits) - 1);
  }
  /// Address of the low parts from rank r on (for prefetching).
  CGTB_HD const std::uint64_t* lower_at(std::uint64_t r) const {
    return lower + ((r * static_cast<std::uint64_t>(low_bits)) >> 6);
  }
  CGTB_HD bool upper_bit(std::uint64_t pos) const { return (upper[pos >> 6] >> (pos & 63)) & 1; }
  /// Position of the k-th one of `upper` (the k-th zero when `zeros_of` is
  /// set) counting from position p, itself such a bit (k = 0 gives p): the
  /// select that follows a sample.
  CGTB_HD std::uint64_t select_from(std::uint64_t p, std::uint64_t k, bool zeros_of) const {
    const std::uint64_t flip = zeros_of ? ~0ull : 0ull;
    std::uint64_t w = p >> 6, word = (upper[w] ^ flip) & (~0ull << (p & 63));
    for (std::uint64_t c = static_cast<std::uint64_t>(popcount64(word)); k >= c;
         c = static_cast<std::uint64_t>(popcount64(word))) {
      k -= c;
      word = upper[++w] ^ flip;
    }
    return (w << 6) + static_cast<std::uint64_t>(select_in_word(word, static_cast<int>(k)));
  }
  /// Position in `upper` of key r (r < size).
  CGTB_HD std::uint64_t one_position(std::uint64_t r) const { return select_from(ones[r >> 8], r & 255, false); }
  /// Calls f(r, key of rank r) for r = first .. last - 1 in order: one
  /// select, then a walk over `upper` (first a multiple of 256: no select).
  template <class F>
  CGTB_HD void for_each_key(std::uint64_t first, std::uint64_t last, F&& f) const {
    if (first >= last) return;
    std::uint64_t pos = one_position(first);
    for (std::uint64_t r = first; r < last; ++r, ++pos) {
      while (!upper_bit(pos)) ++pos;
      f(r, ((pos - r) << low_bits) | low(r));
    }
  }
  /// Key of rank r (r < size): unrank.
  CGTB_HD std::uint64_t key(std::uint64_t r) const { return ((one_position(r) - r) << low_bits) | low(r); }

  /// Bucket of `key` (buckets when past the last).
  CGTB_HD std::uint64_t bucket(std::uint64_t key) const {
    const std::uint64_t h = key >> low_bits;
    return h < buckets ? h : buckets;
  }
  /// The select sample a lookup in bucket h reads first (for prefetching).
  CGTB_HD const std::uint64_t* zero_sample(std::uint64_t h) const { return zeros + (h ? (h - 1) >> 6 : 0); }
  /// Position in `upper` where bucket h (h < buckets) starts: after zero
  /// number h - 1.
  CGTB_HD std::uint64_t bucket_start(std::uint64_t h) const { return bucket_start_from(h, h ? *zero_sample(h) : 0); }
  /// bucket_start(h) from `sample`, the value of *zero_sample(h) (any value
  /// for h = 0), for a caller that read it in an earlier step.
  CGTB_HD std::uint64_t bucket_start_from(std::uint64_t h, std::uint64_t sample) const {
    return h == 0 ? 0 : select_from(sample, (h - 1) & 63, true) + 1;
  }
  /// Rank of `key` in bucket h starting at position `start` of `upper`, or
  /// `size`.
  CGTB_HD std::uint64_t find_in(std::uint64_t key, std::uint64_t h, std::uint64_t start) const {
    const std::uint64_t want = key & (low_bits ? (1ull << low_bits) - 1 : 0);
    for (std::uint64_t r = start - h, pos = start; r < size && upper_bit(pos); ++r, ++pos) {
      const std::uint64_t l = low(r);
      if (l >= want) return l == want ? r : size;
    }
    return size;
  }
  /// Rank of `key`, or `size` when the level does not hold it (the
  /// self-test checks that every option of a stored position is stored).
  CGTB_HD std::uint64_t find(std::uint64_t key) const {
    const std::uint64_t h = bucket(key);
    return h == buckets ? size : find_in(key, h, bucket_start(h));
  }
  /// First slot of a key's probe sequence in the rank table.
  CGTB_HD std::uint64_t home(std::uint64_t key) const { return hash_home(key, slot_count); }
  /// Rank of `key` through the rank table (slots set), or `size`.
  CGTB_HD std::uint64_t table_find(std::uint64_t key) const {
    const std::uint64_t h = mix64(key);
    const std::uint32_t fp = static_cast<std::uint32_t>(h);
    std::uint64_t i = mulhi64(h, slot_count);
    for (std::uint64_t probes = 0; probes < slot_count; ++probes) {
      const std::uint64_t s = slots[i];
      if (s == 0u) break;
      if (static_cast<std::uint32_t>(s >> 32) == fp) {
        const std::uint64_t r = (s & 0xffffffffull) - 1;
        if (!check_keys || this->key(r) == key) return r;
      }
      if (++i == slot_count) i = 0;
    }
    return size;
  }
  /// Rank of `key` (the rank table's where the level has one), or `size`.
  CGTB_HD std::uint64_t rank(std::uint64_t key) const { return slots ? table_find(key) : find(key); }
  /// The key after stored `key` (not the last key).
  CGTB_HD std::uint64_t next(std::uint64_t key) const {
    const std::uint64_t h = key >> low_bits, r = find_in(key, h, bucket_start(h));
    std::uint64_t pos = h + r + 1;  // key r's one is at h + r
    while (!upper_bit(pos)) ++pos;
    return ((pos - r - 1) << low_bits) | low(r + 1);
  }
};

/// Slot of a rank table holding rank r of a key with hash h.
CGTB_HD inline std::uint64_t rank_slot(std::uint64_t h, std::uint64_t r) { return (h << 32) | (r + 1); }

/// Most positions a level's rank table can rank (ranks + 1 fit 32 bits);
/// larger levels rank through their Elias–Fano keys alone.
inline constexpr std::uint64_t kMaxRankTableLevel = 0xffffffffull;

/// Inserts rank r of `key` into a rank table of `count` slots (keys are
/// distinct). Returns false when the table is full.
CGTB_HD inline bool rank_table_insert(std::uint64_t* slots, std::uint64_t count, std::uint64_t key, std::uint64_t r) {
  const std::uint64_t h = mix64(key);
  std::uint64_t i = mulhi64(h, count);
  for (std::uint64_t probes = 0; probes < count; ++probes) {
    if (atomic_cas64(&slots[i], 0u, rank_slot(h, r)) == 0u) return true;
    if (++i == count) i = 0;
  }
  return false;
}

/// Part (0 .. parts - 1) of the forward pass that gathers the class whose
/// images sum to `image_sum` (symmetric_images::image_sum): from the low half
/// of its hash, so that a part's keys spread over the whole hash set (whose
/// slots come from the high half of the key's hash). A class's part is known
/// before its canonical image is, so a pass skips other parts' options
/// without canonicalising them.
CGTB_HD inline std::uint64_t orbit_part(std::uint64_t image_sum, std::uint64_t parts) {
  return ((mix64(image_sum) & 0xffffffffull) * parts) >> 32;
}

/// Probes after which an insert into a hash set gives up, as if the set
/// were full (the caller enlarges it and inserts again): at the load the
/// forward pass accepts (4/5), a run of free-less slots this long is all but
/// impossible, and a set filled past its estimate fails fast instead of
/// scanning itself for every key left.
constexpr std::uint64_t kMaxProbes = 4096;

/// Inserts `key` into an open-addressing set of `count` masks (slots of
/// kEmptySlot are free; linear probing). Returns false when the set is full
/// (or the key found no free slot within kMaxProbes probes).
CGTB_HD inline bool hash_set_insert(std::uint64_t* slots, std::uint64_t count, std::uint64_t key) {
  std::uint64_t i = hash_home(key, count);
  const std::uint64_t limit = count < kMaxProbes ? count : kMaxProbes;
  for (std::uint64_t probes = 0; probes < limit; ++probes) {
    std::uint64_t cur = slots[i];
    if (cur == key) return true;
    if (cur == kEmptySlot) {
      cur = atomic_cas64(&slots[i], kEmptySlot, key);
      if (cur == kEmptySlot || cur == key) return true;
    }
    if (++i == count) i = 0;
  }
  return false;
}

/// A level's keys in host memory, Elias–Fano coded (reachable_level): built
/// from ascending keys by elias_fano_builder, serialised for the spill file.
struct elias_fano_keys {
  std::vector<std::uint64_t> upper, lower, ones, zeros;
  std::uint64_t size = 0, buckets = 0;
  int low_bits = 0;

  /// View over these vectors (valid while they live).
  reachable_level view() const {
    return {upper.data(), lower.data(), ones.data(), zeros.data(), size, buckets, low_bits};
  }
  /// Bytes of the four arrays.
  std::uint64_t bytes() const { return 8 * (upper.size() + lower.size() + ones.size() + zeros.size()); }
  /// Writes keys first .. first + count - 1 to out (ascending; count may be 0).
  void decode(std::uint64_t first, std::uint64_t count, std::uint64_t* out) const;
};

/// Bytes of the Elias–Fano coding of n keys below `universe` (for plans).
double elias_fano_bytes(double n, double universe);

/// Builds elias_fano_keys from keys pushed in strictly increasing order; `n`
/// and `largest` (the last key) must be known first. Throws
/// std::logic_error on a key out of order or a count other than n.
class elias_fano_builder {
 public:
  elias_fano_builder(std::uint64_t n, std::uint64_t largest);
  void push(std::uint64_t key);
  /// The keys, with their select samples.
  elias_fano_keys finish();

 private:
  elias_fano_keys k_;
  std::uint64_t pushed_ = 0, last_ = 0;
};

/// Elias–Fano keys of the n ascending keys k[0..n) (host).
elias_fano_keys encode_keys(const std::uint64_t* k, std::uint64_t n);

/// Merges ascending, pairwise disjoint runs of keys into one (host; a k-way
/// merge decoding each run in chunks of 2^16 keys).
elias_fano_keys merge_key_runs(const std::vector<elias_fano_keys>& runs);

/// The symmetries of a rows x cols board that a game uses, as cell maps:
/// image_bit[s * 64 + c] is the one-bit mask of the image of cell c under
/// symmetry s (s = 0 is the identity). Each distinct map appears once, so
/// `count` is the order of the group acting on this board (what a plan
/// divides the positions by to estimate the classes): a 1×n strip's
/// rectangle group acts as 2 maps, since its mirror across the strip is the
/// identity.
struct board_symmetry {
  int count = 1;                         ///< distinct cell maps (1 to kMaxSymmetries)
  std::vector<std::uint64_t> image_bit;  ///< count * 64 entries
  std::string name;                      ///< "none", "rectangle-4" or "square-8" (file header)

  /// The group: `none` (identity only), `rectangle` (identity, the two
  /// mirrors and the half turn, which keep each domino's orientation) or
  /// `square` (the 8 symmetries of the square; needs rows == cols; throws
  /// input_error otherwise, or for an unknown group).
  static board_symmetry make(int rows, int cols, const std::string& group);
};

/// Images of one position under each symmetry, kept in registers (the loops
/// have a constant bound), and the canonical image of the position minus a
/// domino.
struct symmetric_images {
  std::uint64_t img[kMaxSymmetries];

  /// Images of p under the `count` symmetries of `image_bit`.
  CGTB_HD symmetric_images(const std::uint64_t* image_bit, int count, std::uint64_t p) {
    CGTB_UNROLL
    for (int s = 0; s < kMaxSymmetries; ++s) img[s] = 0;
    for (std::uint64_t rest = p; rest; rest &= rest - 1) {
      const int c = ctz64(rest);
      CGTB_UNROLL
      for (int s = 0; s < kMaxSymmetries; ++s)
        if (s < count) img[s] |= image_bit[s * 64 + c];
    }
  }

  /// Least image of the position with cells x and y removed.
  CGTB_HD std::uint64_t canonical_without(const std::uint64_t* image_bit, int count, int x, int y) const {
    std::uint64_t best = kEmptySlot;
    CGTB_UNROLL
    for (int s = 0; s < kMaxSymmetries; ++s) {
      if (s < count) {
        const std::uint64_t q = img[s] & ~(image_bit[s * 64 + x] | image_bit[s * 64 + y]);
        best = q < best ? q : best;
      }
    }
    return best;
  }

  /// Sum (mod 2^64) of the `count` images: the same for every image of a
  /// position (a symmetry permutes the images), so a function of its class
  /// that can be had without canonicalising (forward-pass parts, orbit_part).
  CGTB_HD std::uint64_t image_sum(int count) const {
    std::uint64_t sum = 0;
    for (int s = 0; s < kMaxSymmetries; ++s)
      if (s < count) sum += img[s];
    return sum;
  }
  /// What removing cell c takes off image_sum: the sum of c's images.
  CGTB_HD static std::uint64_t cell_image_sum(const std::uint64_t* image_bit, int count, int c) {
    std::uint64_t sum = 0;
    for (int s = 0; s < kMaxSymmetries; ++s)
      if (s < count) sum += image_bit[s * 64 + c];
    return sum;
  }

  /// Least image of the position itself.
  CGTB_HD std::uint64_t canonical(int count) const {
    std::uint64_t best = img[0];
    for (int s = 1; s < kMaxSymmetries; ++s)
      if (s < count && img[s] < best) best = img[s];
    return best;
  }

  /// Number of distinct images (the size of the position's class).
  CGTB_HD int orbit_size(int count) const {
    int n = 0;
    for (int s = 0; s < count; ++s) {
      bool seen = false;
      for (int t = 0; t < s; ++t) seen = seen || img[t] == img[s];
      n += seen ? 0 : 1;
    }
    return n;
  }
};

}  // namespace cgtb
