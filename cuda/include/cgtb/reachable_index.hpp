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
// Index. A level is the sorted list of its canonical masks (`keys`): rank r is
// the r-th key, so unrank is one read. Ranking an option is a lookup in an
// open-addressing hash table (linear probing, 8-byte slots holding a hash
// fingerprint and the rank; reachable_level); no per-thread arrays of
// prefix sums are needed, only the images of the position under each
// symmetry, kept in registers. Files store, per level, the combinatorial rank
// of each key (docs/format.md, index scheme keys/1).
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

/// Device-side descriptor of one stored level: its sorted keys and the hash
/// table that ranks them. Trivially copyable; pointers are in the memory of
/// the processor that runs the kernels. A slot of the rank table is 8 bytes:
/// the low 32 bits of the key's hash (a fingerprint) and rank + 1 (0: free).
/// A lookup compares fingerprints only; that is exact for every stored key
/// when no other key with the same fingerprint lies earlier on its probe
/// path, which the builder checks for every key of the level (else it sets
/// `check_keys`, and lookups also compare the key itself).
struct reachable_level {
  const std::uint64_t* keys = nullptr;   ///< canonical masks, ascending
  const std::uint64_t* slots = nullptr;  ///< rank table of slot_count slots
  std::uint64_t size = 0;                ///< stored positions (classes) of the level
  std::uint64_t slot_count = 0;
  int check_keys = 0;

  /// First slot of a key's probe sequence.
  CGTB_HD std::uint64_t home(std::uint64_t key) const { return mulhi64(mix64(key), slot_count); }
};

/// Slot of a rank table holding rank r of a key with hash h.
CGTB_HD inline std::uint64_t rank_slot(std::uint64_t h, std::uint64_t r) { return (h << 32) | (r + 1); }

/// Most positions a level of a keyed index may store (ranks + 1 fit 32 bits).
inline constexpr std::uint64_t kMaxLevelSize = 0xffffffffull;

/// First slot of a key's probe sequence in a table of `count` slots.
CGTB_HD inline std::uint64_t hash_home(std::uint64_t key, std::uint64_t count) { return mulhi64(mix64(key), count); }

/// Inserts `key` into an open-addressing set of `count` masks (slots of
/// kEmptySlot are free; linear probing). Returns false when the set is full.
CGTB_HD inline bool hash_set_insert(std::uint64_t* slots, std::uint64_t count, std::uint64_t key) {
  std::uint64_t i = hash_home(key, count);
  for (std::uint64_t probes = 0; probes < count; ++probes) {
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

/// Inserts rank r of keys[r] into a rank table of `count` slots (keys are
/// distinct). Returns false when the table is full.
CGTB_HD inline bool rank_table_insert(std::uint64_t* slots, std::uint64_t count, const std::uint64_t* keys,
                                      std::uint64_t r) {
  const std::uint64_t h = mix64(keys[r]);
  std::uint64_t i = mulhi64(h, count);
  for (std::uint64_t probes = 0; probes < count; ++probes) {
    if (atomic_cas64(&slots[i], 0u, rank_slot(h, r)) == 0u) return true;
    if (++i == count) i = 0;
  }
  return false;
}

/// Rank of a stored canonical mask; `size` of the level when it is absent
/// (the self-test checks that every option of a stored position is stored).
CGTB_HD inline std::uint64_t rank_table_find(const reachable_level& lv, std::uint64_t key) {
  const std::uint64_t h = mix64(key);
  const std::uint32_t fp = static_cast<std::uint32_t>(h);
  std::uint64_t i = mulhi64(h, lv.slot_count);
  for (std::uint64_t probes = 0; probes < lv.slot_count; ++probes) {
    const std::uint64_t s = lv.slots[i];
    if (s == 0u) break;
    if (static_cast<std::uint32_t>(s >> 32) == fp) {
      const std::uint64_t r = (s & 0xffffffffull) - 1;
      if (!lv.check_keys || lv.keys[r] == key) return r;
    }
    if (++i == lv.slot_count) i = 0;
  }
  return lv.size;
}

/// The symmetries of a rows x cols board that a game uses, as cell maps:
/// image_bit[s * 64 + c] is the one-bit mask of the image of cell c under
/// symmetry s (s = 0 is the identity).
struct board_symmetry {
  int count = 1;
  std::vector<std::uint64_t> image_bit;  ///< count * 64 entries
  std::string name;                      ///< "none", "rectangle-4" or "square-8" (file header)

  /// The group: `none` (identity only), `rectangle` (identity, the two
  /// mirrors and the half turn, which keep each domino's orientation) or
  /// `square` (the 8 symmetries of the square; needs rows == cols).
  static board_symmetry make(int rows, int cols, const std::string& group);
};

/// Images of one position under each symmetry, kept in registers (the loops
/// have a constant bound), and the canonical image of the position minus a
/// domino.
struct symmetric_images {
  std::uint64_t img[kMaxSymmetries];

  /// Images of p under the `count` symmetries of `image_bit`.
  CGTB_HD symmetric_images(const std::uint64_t* image_bit, int count, std::uint64_t p) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int s = 0; s < kMaxSymmetries; ++s) img[s] = 0;
    for (std::uint64_t rest = p; rest; rest &= rest - 1) {
      const int c = ctz64(rest);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int s = 0; s < kMaxSymmetries; ++s)
        if (s < count) img[s] |= image_bit[s * 64 + c];
    }
  }

  /// Least image of the position with cells x and y removed.
  CGTB_HD std::uint64_t canonical_without(const std::uint64_t* image_bit, int count, int x, int y) const {
    std::uint64_t best = kEmptySlot;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int s = 0; s < kMaxSymmetries; ++s) {
      if (s < count) {
        const std::uint64_t q = img[s] & ~(image_bit[s * 64 + x] | image_bit[s * 64 + y]);
        best = q < best ? q : best;
      }
    }
    return best;
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
