// A resumable build's files (docs/format.md, "Partial files and
// checkpoints"): the build's name, the checkpoint written after each level
// (the manifest that commits the partial file's bytes so far), and the
// take-over of a checkpoint by a resumed build.
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <stdexcept>

#include "cgtb/error.hpp"
#include "cgtb/tablebase_writer.hpp"
#include "file_bytes.hpp"
#include "index_table.hpp"

namespace cgtb {

using namespace file_detail;

std::string build_file_name(const std::string& path, const tablebase_header& header) {
  const std::string text = header.to_text();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, static_cast<std::uint64_t>(XXH64(text.data(), text.size(), 0)));
  return path + ".partial-" + hex;
}

// PATH.partial-HASH.ckpt, little-endian: magic "CGTBCKP1"; u64 header-text
// length and the text; u64 file offset; the level and block tables as the
// file's index writes them (docs/format.md, "Index"); u64 payload length and
// the payload; XXH64 of everything before. Written to PATH.partial-HASH.ckpt.tmp,
// flushed and renamed once the partial file's bytes up to the offset are on
// disk: the checkpoint is the manifest that commits them.

namespace {
constexpr char kCkptMagic[9] = "CGTBCKP1";

/// Writes `head`, then `pieces` in order, then the XXH64 of both, to
/// FILE.tmp, flushes it to disk and renames it to `file` (a checkpoint is
/// whole or absent). The checksum is taken as the bytes go out: the pieces
/// are never copied. Throws resource_error when it cannot.
void write_checksummed(const std::string& file, const std::string& head,
                       const std::vector<tablebase_writer::payload_piece>& pieces) {
  std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> hash(XXH64_createState(), &XXH64_freeState);
  if (!hash || XXH64_reset(hash.get(), 0) != XXH_OK) throw std::bad_alloc();
  const std::string tmp = file + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw resource_error("cannot write checkpoint '" + tmp + "': " + std::strerror(errno));
  auto out = [&](const void* p, std::size_t n) {
    XXH64_update(hash.get(), p, n);
    return std::fwrite(p, 1, n, f) == n;
  };
  bool ok = out(head.data(), head.size());
  for (const auto& p : pieces) ok = ok && (p.size == 0 || out(p.data, p.size));
  std::string tail;
  put64(tail, XXH64_digest(hash.get()));
  ok = ok && std::fwrite(tail.data(), 1, tail.size(), f) == tail.size() && std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  std::fclose(f);
  if (!ok || std::rename(tmp.c_str(), file.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw resource_error("writing checkpoint '" + file + "' failed: " + std::strerror(errno));
  }
}
}  // namespace

void tablebase_writer::checkpoint(const std::vector<payload_piece>& pieces) {
  if (!resumable_) throw std::logic_error("tablebase_writer: checkpoint of a writer that is not resumable");
  if (std::fflush(f_) != 0 || fsync(fileno(f_)) != 0)
    throw resource_error("flushing '" + tmp_ + "' failed: " + std::strerror(errno));
  std::uint64_t payload_size = 0;
  for (const payload_piece& p : pieces) payload_size += p.size;
  std::string head(kCkptMagic, 8);
  const std::string text = header_.to_text();
  put64(head, text.size());
  head += text;
  put64(head, offset_);
  head += index_bytes();
  put64(head, payload_size);
  write_checksummed(ckpt_path(), head, pieces);
}

bool tablebase_writer::take_over_checkpoint() {
  const std::string ckpt = ckpt_path();
  std::ifstream in(ckpt, std::ios::binary | std::ios::ate);
  if (!in) {
    if (errno == ENOENT) return false;  // no checkpoint: the build starts afresh (keeping its saved keys)
    throw input_error("cannot read checkpoint '" + ckpt + "': " + std::strerror(errno));
  }
  // Read at its size in one allocation (a checkpoint holds a level's records).
  const std::streamoff size = static_cast<std::streamoff>(in.tellg());
  std::string bytes(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) bytes.clear();
  auto bad = [&](const std::string& why) {
    return corrupt_file_error("checkpoint '" + ckpt + "' " + why + "; remove '" + tmp_ + "' and it to build afresh");
  };
  if (bytes.size() < 32 || bytes.compare(0, 8, kCkptMagic) != 0) throw bad("is not a cgtb checkpoint");
  const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t end = bytes.size() - 8;
  if (get64(u + end) != XXH64(bytes.data(), end, 0)) throw bad("is corrupt");
  const std::uint64_t hl = get64(u + 8);
  if (hl > end - 16) throw bad("is corrupt");
  if (bytes.compare(16, hl, header_.to_text()) != 0) throw bad("belongs to a build with other parameters");
  std::size_t pos = 16 + hl;
  if (end - pos < 8) throw bad("is truncated");
  offset_ = get64(u + pos);
  pos += 8;
  file_index index;
  std::size_t used = 0;
  if (!decode_index(u + pos, end - pos, kFormatVersion, false, index, &used).empty()) throw bad("is truncated");
  pos += used;
  if (end - pos < 8) throw bad("is truncated");
  const std::uint64_t pl = get64(u + pos);
  pos += 8;
  if (pl > end - pos) throw bad("is truncated");
  levels_ = std::move(index.levels);
  blocks_ = std::move(index.blocks);
  // The payload keeps the file's buffer (no second copy of a level's records).
  bytes.resize(pos + pl);
  bytes.erase(0, pos);
  payload_ = std::move(bytes);
  // The partial file is cut back to the checkpointed offset.
  if (std::fseek(f_, 0, SEEK_END) != 0 || static_cast<std::uint64_t>(std::ftell(f_)) < offset_)
    throw bad("commits more bytes than '" + tmp_ + "' holds");
  if (::ftruncate(fileno(f_), static_cast<off_t>(offset_)) != 0 || std::fseek(f_, 0, SEEK_END) != 0)
    throw input_error("cannot continue '" + tmp_ + "': " + std::strerror(errno));
  resumed_ = true;
  return true;
}

namespace {
constexpr char kRankCkptMagic[9] = "CGTBRCK1";
}

std::string rank_checkpoint_path(const std::string& path, const tablebase_header& header, int rank, int ranks,
                                 int level) {
  return build_file_name(path, header) + ".rank-" + std::to_string(rank) + "-of-" + std::to_string(ranks) + "." +
         std::to_string(level);
}

void write_checksummed_file(const std::string& file, const char* magic,
                            const std::vector<tablebase_writer::payload_piece>& pieces) {
  std::uint64_t size = 0;
  for (const auto& p : pieces) size += p.size;
  std::string head(magic, 8);
  put64(head, size);
  write_checksummed(file, head, pieces);
}

std::string read_checksummed_file(const std::string& file, const char* magic, const std::string& what) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) throw corrupt_file_error(what + " '" + file + "' cannot be read: " + std::strerror(errno));
  const std::streamoff size = static_cast<std::streamoff>(in.tellg());
  std::string bytes(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) bytes.clear();
  if (bytes.size() < 24 || bytes.compare(0, 8, magic, 8) != 0)
    throw corrupt_file_error(what + " '" + file + "' is not a cgtb " + what);
  const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t end = bytes.size() - 8;
  if (get64(u + end) != XXH64(bytes.data(), end, 0) || get64(u + 8) != end - 16)
    throw corrupt_file_error(what + " '" + file + "' is corrupt");
  bytes.resize(end);
  bytes.erase(0, 16);
  return bytes;
}

void write_rank_checkpoint(const std::string& file, const std::vector<tablebase_writer::payload_piece>& pieces) {
  write_checksummed_file(file, kRankCkptMagic, pieces);
}

std::string read_rank_checkpoint(const std::string& file) {
  if (!std::ifstream(file, std::ios::binary))
    throw corrupt_file_error("checkpoint '" + file +
                             "' is missing (a build resumes with as many ranks as made its checkpoints; remove its "
                             "partial files to build afresh)");
  return read_checksummed_file(file, kRankCkptMagic, "rank checkpoint");
}

}  // namespace cgtb
