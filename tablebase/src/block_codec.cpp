#include "block_codec.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "cgtb/error.hpp"
#include "file_bytes.hpp"

namespace cgtb::file_detail {

namespace {

/// Appends a plane of `count` values of w bits each, value(j) for entry j, to
/// raw (LSB first, padded to a whole byte).
template <class Value>
void append_plane(std::string& raw, std::uint64_t count, int w, Value value) {
  const std::uint64_t bytes = (count * static_cast<std::uint64_t>(w) + 7) / 8;
  if (w == 0) return;
  std::vector<unsigned char> plane(bytes + kPadding, 0);
  std::uint64_t bit = 0;
  for (std::uint64_t j = 0; j < count; ++j, bit += static_cast<std::uint64_t>(w))
    put_bits(plane.data(), bit, value(j), w);
  raw.append(reinterpret_cast<const char*>(plane.data()), bytes);
}

}  // namespace

std::string pack_block(const std::vector<field_spec>& fields, std::uint64_t count, const std::int64_t* values,
                       const std::uint64_t* keys) {
  const std::size_t nf = fields.size();
  std::vector<int> widths(nf);
  std::string raw;
  auto code = [&](std::size_t f, std::uint64_t j) {
    const std::int64_t v = values[f * count + j];
    return fields[f].is_signed ? zigzag(v) : static_cast<std::uint64_t>(v);
  };
  for (std::size_t f = 0; f < nf; ++f) {
    std::uint64_t maxu = 0;
    for (std::uint64_t j = 0; j < count; ++j) {
      if (!fields[f].is_signed && values[f * count + j] < 0)
        throw std::logic_error("negative value in unsigned field " + fields[f].name);
      maxu = std::max(maxu, code(f, j));
    }
    widths[f] = bit_width(maxu);
    if (widths[f] > kMaxValueWidth) throw resource_error("field " + fields[f].name + " needs more than 56 bits");
    raw.push_back(static_cast<char>(widths[f]));
  }
  auto delta = [&](std::uint64_t j) { return j ? keys[j] - keys[j - 1] : std::uint64_t{0}; };
  int key_width = 0;
  if (keys) {
    std::uint64_t maxd = 0;
    for (std::uint64_t j = 1; j < count; ++j) maxd = std::max(maxd, delta(j));
    key_width = bit_width(maxd);
    raw.push_back(static_cast<char>(key_width));
  }
  for (std::size_t f = 0; f < nf; ++f) append_plane(raw, count, widths[f], [&](std::uint64_t j) { return code(f, j); });
  if (keys) append_plane(raw, count, key_width, delta);
  return raw;
}

std::string unpack_block(decoded_block& d, std::uint32_t raw_size, const std::vector<field_spec>& fields, bool keyed,
                         std::uint64_t first_key, const std::uint64_t* next_first_key) {
  const std::size_t nf = fields.size();
  const std::size_t nw = nf + (keyed ? 1 : 0);
  if (raw_size < nw) return "too short";
  std::uint64_t bit = nw * 8;
  for (std::size_t f = 0; f < nf; ++f) {
    d.widths.push_back(d.bytes[f]);
    d.is_signed.push_back(fields[f].is_signed);
    if (d.bytes[f] > kMaxValueWidth) return "bad field width";
    d.plane_start.push_back(bit);
    bit += (static_cast<std::uint64_t>(d.count) * d.bytes[f] + 7) / 8 * 8;
  }
  const int key_width = keyed ? d.bytes[nf] : 0;
  const std::uint64_t key_start = bit;
  if (keyed) {
    if (key_width > kMaxKeyWidth) return "bad key width";
    bit += (static_cast<std::uint64_t>(d.count) * static_cast<std::uint64_t>(key_width) + 7) / 8 * 8;
  }
  if (bit != static_cast<std::uint64_t>(raw_size) * 8) return "size does not match its fields";
  if (keyed && d.count > 0) {
    d.keys.resize(d.count);
    std::uint64_t key = first_key;
    if (get_bits(d.bytes.data(), key_start, key_width) != 0) return "corrupt key plane (first key delta is not 0)";
    d.keys[0] = key;
    for (std::uint32_t j = 1; j < d.count; ++j) {
      const std::uint64_t delta = get_bits(
          d.bytes.data(), key_start + static_cast<std::uint64_t>(j) * static_cast<std::uint64_t>(key_width), key_width);
      if (delta == 0) return "corrupt key plane (keys not increasing: delta 0 at entry " + std::to_string(j) + ")";
      if (key > std::numeric_limits<std::uint64_t>::max() - delta)
        return "corrupt key plane (key overflows at entry " + std::to_string(j) + ")";
      key += delta;
      d.keys[j] = key;
    }
    if (next_first_key && key >= *next_first_key)
      return "corrupt key plane (last key " + std::to_string(key) + " reaches the next block's first key " +
             std::to_string(*next_first_key) + ")";
  }
  return "";
}

}  // namespace cgtb::file_detail
