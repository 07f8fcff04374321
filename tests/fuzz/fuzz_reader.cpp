// Fuzz target: the whole tablebase reader on mutated .cgtb files. Input: one
// flag byte, then the file (at most 64 KiB). When the flag's low bit is set
// the target first recomputes the file's checksums (preamble, every block the
// block table locates, index) so that mutations reach the parsing past them.
// The file is written to a memfd and opened with cgtb::tablebase; then what
// `cgtb info` reads (header, levels, positions per level, every block's
// check), 16 queries at random ranks through the driver from
// driver_for_header (format, parse, query, options), and the census. Work is
// bounded: files declaring more than 1e6 positions in all are skipped before
// any block is read. Only input_error and resource_error may come out.
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include <random>
#include <sstream>

#include "fuzz_support.hpp"

namespace {

constexpr std::size_t kMaxInput = 64 * 1024;
constexpr std::uint64_t kMaxPositions = 1'000'000;
constexpr int kQueries = 16;

std::uint64_t get64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint32_t get32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
void put64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// Recomputes the checksums of a (mutated) file where its structure locates
/// them (docs/format.md): the preamble's, each block's, the index's.
void fix_checksums(std::vector<std::uint8_t>& f) {
  const std::uint64_t n = f.size();
  if (n < 24) return;
  const std::uint32_t version = get32(&f[8]);
  const std::uint64_t hlen = get64(&f[16]);
  if (hlen <= (1u << 20) && 24 + hlen + 8 <= n) put64(&f[24 + hlen], XXH64(f.data(), 24 + hlen, 0));
  if (n < 32) return;
  std::uint8_t* tr = &f[n - 32];
  const std::uint64_t ioff = get64(tr), ilen = get64(tr + 8);
  if (ioff > n - 32 || ilen != n - 32 - ioff || ilen < 16) return;
  std::uint8_t* idx = &f[ioff];
  const std::uint64_t nl = get32(idx);
  const std::uint64_t bpos = 8 + nl * 32;
  if (bpos + 8 <= ilen) {
    const std::uint64_t nb = get64(idx + bpos);
    const std::uint64_t esize = version == 1 ? 24 : 32;
    for (std::uint64_t i = 0; i < nb && bpos + 8 + (i + 1) * esize <= ilen; ++i) {
      std::uint8_t* e = idx + bpos + 8 + i * esize;
      const std::uint64_t off = get64(e), cs = get32(e + 8);
      if (off <= n && cs <= n - off) put64(e + 16, XXH64(f.data() + off, cs, 0));
    }
  }
  put64(tr + 16, XXH64(idx, ilen, 0));
}

/// The file lives in a memfd: a regular file no other run sees.
const std::string& memfd_path(int& fd) {
  static int the_fd = -1;
  static std::string path;
  if (the_fd < 0) {
    the_fd = memfd_create("cgtb-fuzz-reader", 0);
    if (the_fd < 0) cgtb_fuzz::finding("memfd_create failed");
    path = "/proc/self/fd/" + std::to_string(the_fd);
  }
  fd = the_fd;
  return path;
}

void exercise(cgtb::tablebase& tb, std::uint64_t seed) {
  const auto& h = tb.header();
  // Bounds: a run measures robustness, not patience.
  std::uint64_t total = 0;
  for (const auto& l : tb.levels()) {
    if (l.positions > kMaxPositions || total + l.positions > kMaxPositions) return;
    total += l.positions;
  }
  std::ostringstream out;
  out << h.to_text();
  std::unique_ptr<cgtb::game_driver> d;
  if (!cgtb_fuzz::expected_errors("driver_for_header", [&] { d = cgtb::driver_for_header(h); })) d.reset();
  // cgtb info: positions per level, then every block's check.
  for (const auto& l : tb.levels())
    cgtb_fuzz::expected_errors("level_positions", [&] { out << (d ? d->level_positions(tb, l.level) : 0); });
  for (std::uint64_t b = 0; b < tb.blocks().size(); ++b) out << tb.check_block(b);
  if (!d || tb.levels().empty()) return;
  std::mt19937_64 rng(seed);
  for (int q = 0; q < kQueries; ++q) {
    const auto& l = tb.levels()[rng() % tb.levels().size()];
    if (l.positions == 0) continue;
    const std::uint64_t r = rng() % l.positions;
    cgtb_fuzz::expected_errors("query", [&] {
      std::int64_t values[cgtb::kMaxFields];
      tb.entry(l.level, r, values);
      const std::uint64_t key = tb.keyed() ? tb.key_of(l.level, r) : r;
      const cgtb::position_ref p = d->parse(d->format(l.level, key));
      d->query(tb, p, q % 2 == 1, out);
      d->list_options(tb, p, q % 2 == 1, out);
    });
  }
  cgtb_fuzz::expected_errors("census", [&] { d->census(tb); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool init = (cgtb_fuzz::init_once(), true);
  (void)init;
  if (size == 0 || size > kMaxInput) return 0;
  std::vector<std::uint8_t> file(data + 1, data + size);
  if (data[0] & 1) fix_checksums(file);
  int fd;
  const std::string& path = memfd_path(fd);
  if (ftruncate(fd, 0) != 0 || pwrite(fd, file.data(), file.size(), 0) != static_cast<ssize_t>(file.size()))
    cgtb_fuzz::finding("writing the memfd failed");
  std::unique_ptr<cgtb::tablebase> tb;
  if (!cgtb_fuzz::expected_errors("open", [&] { tb = std::make_unique<cgtb::tablebase>(path, std::size_t{1} << 24); }))
    return 0;
  exercise(*tb, XXH64(data, size, 0));
  return 0;
}
