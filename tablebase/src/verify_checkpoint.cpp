// cgtb verify --resume's checkpoint file (verify_checkpoint.hpp).
#include "cgtb/verify_checkpoint.hpp"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "cgtb/error.hpp"
#include "file_bytes.hpp"

namespace cgtb::detail {

using namespace file_detail;

namespace {

constexpr char kCheckpointMagic[9] = "CGTBVCK1";
constexpr std::size_t kChunkWords = std::size_t{1} << 17;  // 1 MiB of marks at a time

using hash_state = std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)>;

hash_state new_hash() {
  hash_state h(XXH64_createState(), &XXH64_freeState);
  if (!h || XXH64_reset(h.get(), 0) != XXH_OK) throw std::bad_alloc();
  return h;
}

/// Reads the checkpoint's bytes in order, hashing them; throws the
/// checkpoint's corrupt-file error at a short read.
class hashed_reader {
 public:
  hashed_reader(std::FILE* f, std::string path) : f_(f), path_(std::move(path)), hash_(new_hash()) {}
  void read(void* p, std::size_t n) {
    if (std::fread(p, 1, n, f_) != n) throw corrupt_file_error("verify checkpoint '" + path_ + "' is truncated");
    XXH64_update(hash_.get(), p, n);
  }
  std::uint64_t u64() {
    unsigned char b[8];
    read(b, 8);
    return get64(b);
  }
  std::uint64_t digest() const { return XXH64_digest(hash_.get()); }

 private:
  std::FILE* f_;
  std::string path_;
  hash_state hash_;
};

}  // namespace

void write_verify_checkpoint(const std::string& path, const verify_progress& p,
                             const std::vector<verify_marks>& marks) {
  std::string head(kCheckpointMagic, 8);
  put64(head, p.identity.size());
  head += p.identity;
  put64(head, static_cast<std::uint64_t>(static_cast<std::int64_t>(p.last_level)));
  put64(head, p.reach.size());
  for (int d : p.reach) put64(head, static_cast<std::uint64_t>(static_cast<std::int64_t>(d)));
  for (std::uint64_t c : {p.positions, p.options, p.genus_positions, p.round_trips, p.period_checked}) put64(head, c);
  put64(head, marks.size());
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw resource_error("cannot write verify checkpoint '" + tmp + "': " + std::strerror(errno));
  hash_state hash = new_hash();
  const auto out = [&](const void* data, std::size_t n) {
    XXH64_update(hash.get(), data, n);
    return std::fwrite(data, 1, n, f) == n;
  };
  bool ok = out(head.data(), head.size());
  std::vector<std::uint64_t> chunk;
  for (const verify_marks& m : marks) {
    std::string lh;
    put64(lh, static_cast<std::uint64_t>(static_cast<std::int64_t>(m.level)));
    put64(lh, m.words);
    ok = ok && out(lh.data(), lh.size());
    for (std::uint64_t w = 0; ok && w < m.words; w += kChunkWords) {
      chunk.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kChunkWords, m.words - w)));
      for (std::size_t i = 0; i < chunk.size(); ++i) chunk[i] = m.bits[w + i].load(std::memory_order_relaxed);
      ok = out(chunk.data(), chunk.size() * 8);  // little-endian hosts (the file format's)
    }
  }
  std::string tail;
  put64(tail, XXH64_digest(hash.get()));
  ok = ok && std::fwrite(tail.data(), 1, tail.size(), f) == tail.size() && std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  const int err = errno;
  std::fclose(f);
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw resource_error("writing verify checkpoint '" + path + "' failed: " + std::strerror(ok ? errno : err));
  }
}

bool read_verify_checkpoint(const std::string& path, verify_progress& p, const std::vector<verify_marks>& marks) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    if (errno == ENOENT) return false;
    throw input_error("cannot read verify checkpoint '" + path + "': " + std::strerror(errno));
  }
  std::unique_ptr<std::FILE, decltype(&std::fclose)> closer(f, &std::fclose);
  const auto bad = [&](const std::string& why) {
    return corrupt_file_error("verify checkpoint '" + path + "' " + why + "; remove it to verify afresh");
  };
  hashed_reader in(f, path);
  char magic[8];
  in.read(magic, 8);
  if (std::memcmp(magic, kCheckpointMagic, 8) != 0) throw bad("is not a cgtb verify checkpoint");
  const std::uint64_t il = in.u64();
  if (il > (std::uint64_t{1} << 20)) throw bad("is corrupt");
  std::string identity(static_cast<std::size_t>(il), '\0');
  in.read(identity.data(), identity.size());
  if (identity != p.identity)
    throw input_error("verify checkpoint '" + path +
                      "' belongs to another run (another table, or other options); remove it to verify afresh");
  verify_progress got;
  got.identity = identity;
  got.last_level = static_cast<int>(static_cast<std::int64_t>(in.u64()));
  const std::uint64_t nreach = in.u64();
  if (nreach > 4096) throw bad("is corrupt");
  for (std::uint64_t i = 0; i < nreach; ++i) got.reach.push_back(static_cast<int>(static_cast<std::int64_t>(in.u64())));
  got.positions = in.u64();
  got.options = in.u64();
  got.genus_positions = in.u64();
  got.round_trips = in.u64();
  got.period_checked = in.u64();
  if (in.u64() != marks.size()) throw bad("holds the marks of other levels");
  std::vector<std::uint64_t> chunk;
  for (const verify_marks& m : marks) {
    if (static_cast<int>(static_cast<std::int64_t>(in.u64())) != m.level || in.u64() != m.words)
      throw bad("holds the marks of other levels");
    for (std::uint64_t w = 0; w < m.words; w += kChunkWords) {
      chunk.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kChunkWords, m.words - w)));
      in.read(chunk.data(), chunk.size() * 8);
      for (std::size_t i = 0; i < chunk.size(); ++i) m.bits[w + i].store(chunk[i], std::memory_order_relaxed);
    }
  }
  const std::uint64_t digest = in.digest();
  unsigned char b[8];
  if (std::fread(b, 1, 8, f) != 8) throw bad("is truncated");
  if (get64(b) != digest) throw bad("is corrupt");
  if (std::fgetc(f) != EOF) throw bad("has bytes after its end");
  p = std::move(got);
  return true;
}

}  // namespace cgtb::detail
