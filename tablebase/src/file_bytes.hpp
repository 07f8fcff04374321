// Byte-level helpers of the .cgtb file and its checkpoints (docs/format.md):
// little-endian integers, bit planes read and written at any bit offset,
// zigzag codes. Private to tablebase/src.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace cgtb::file_detail {

inline constexpr unsigned char kMagic[8] = {'C', 'G', 'T', 'B', 0x0D, 0x0A, 0x1A, 0x0A};
inline constexpr unsigned char kEndMagic[8] = {'C', 'G', 'T', 'B', 'E', 'N', 'D', 0x0A};
inline constexpr std::size_t kLevelEntryBytes = 32, kTrailerBytes = 32;
/// Block table entry: 24 bytes in version 1, 32 (with first_key) from version 2.
inline constexpr std::size_t kBlockEntryBytesV1 = 24, kBlockEntryBytes = 32;
/// Padding after a raw block in memory, so that bit reads may load 9 bytes
/// from any bit offset inside the block.
inline constexpr std::size_t kPadding = 16;
/// Widest value field (a value is read as one 64-bit word shifted by < 8).
inline constexpr int kMaxValueWidth = 56;
/// Widest key delta.
inline constexpr int kMaxKeyWidth = 64;

inline void put32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline void put64(std::string& s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline std::uint32_t get32(const unsigned char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
inline std::uint64_t get64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Bit planes are sequences of little-endian 64-bit words read at any byte
// offset: load and store them as little-endian explicitly, whatever the host.
#if !defined(__BYTE_ORDER__) || (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ && __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__)
#error "cgtb needs a little- or big-endian host (__BYTE_ORDER__)"
#endif

inline std::uint64_t load_le64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

inline void store_le64(unsigned char* p, std::uint64_t v) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  std::memcpy(p, &v, 8);
}

/// Ors the w low bits of u (w <= 64, u < 2^w) into the plane p at bit offset
/// `bit`, least significant bit first; p needs 9 bytes from bit / 8 on.
inline void put_bits(unsigned char* p, std::uint64_t bit, std::uint64_t u, int w) {
  unsigned char* q = p + bit / 8;
  const int s = static_cast<int>(bit % 8);
  store_le64(q, load_le64(q) | (u << s));
  if (s && s + w > 64) q[8] = static_cast<unsigned char>(q[8] | (u >> (64 - s)));
}

/// Reads w bits (w <= 64) at bit offset `bit` of the plane p; p needs 9
/// bytes from bit / 8 on.
inline std::uint64_t get_bits(const unsigned char* p, std::uint64_t bit, int w) {
  const unsigned char* q = p + bit / 8;
  const int s = static_cast<int>(bit % 8);
  std::uint64_t v = load_le64(q) >> s;
  if (s && s + w > 64) v |= static_cast<std::uint64_t>(q[8]) << (64 - s);
  return w >= 64 ? v : v & ((std::uint64_t{1} << w) - 1);
}

inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t u) {
  return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
}

inline int bit_width(std::uint64_t v) {
  int w = 0;
  while (v) {
    ++w;
    v >>= 1;
  }
  return w;
}

}  // namespace cgtb::file_detail
