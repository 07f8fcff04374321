#include "cgtb/tablebase.hpp"

#include <fcntl.h>
#include <omp.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>

#include "cgtb/error.hpp"

namespace cgtb {

namespace {

constexpr unsigned char kMagic[8] = {'C', 'G', 'T', 'B', 0x0D, 0x0A, 0x1A, 0x0A};
constexpr unsigned char kEndMagic[8] = {'C', 'G', 'T', 'B', 'E', 'N', 'D', 0x0A};
constexpr std::size_t kLevelEntryBytes = 32, kTrailerBytes = 32;
/// Block table entry: 24 bytes in version 1, 32 (with first_key) from version 2.
constexpr std::size_t kBlockEntryBytesV1 = 24, kBlockEntryBytes = 32;
/// Padding after a raw block in memory, so that bit reads may load 9 bytes
/// from any bit offset inside the block.
constexpr std::size_t kPadding = 16;
/// Widest value field (a value is read as one 64-bit word shifted by < 8).
constexpr int kMaxValueWidth = 56;
/// Widest key delta.
constexpr int kMaxKeyWidth = 64;

void put32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put64(std::string& s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
std::uint32_t get32(const unsigned char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint64_t get64(const unsigned char* p) {
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

std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t u) { return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1); }

int bit_width(std::uint64_t v) {
  int w = 0;
  while (v) {
    ++w;
    v >>= 1;
  }
  return w;
}

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

/// Packs values[f * count + j] into a raw block: one width byte per field
/// (and one for the key deltas when keys is not null), then one bit plane per
/// field and the key-delta plane (LSB first), each padded to a whole byte.
/// keys, when given, are the block's count keys, strictly increasing.
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

std::string trim(const std::string& s) {
  auto a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

// ---------------------------------------------------------------- header text

std::string tablebase_header::to_text() const {
  std::ostringstream o;
  o << "ruleset: " << ruleset << "\n";
  o << "params: " << params << "\n";
  o << "family: " << family << "\n";
  o << "values: " << values << "\n";
  o << "fields:";
  for (std::size_t i = 0; i < fields.size(); ++i)
    o << (i ? "," : " ") << fields[i].name << (fields[i].is_signed ? ":i" : ":u");
  o << "\n";
  o << "index: " << index << "\n";
  o << "symmetry: " << symmetry << "\n";
  o << "positions: " << positions << "\n";
  o << "meaningful: all\n";
  o << "block-entries: " << block_entries << "\n";
  o << "codec: zstd\n";
  o << "zstd-level: " << zstd_level << "\n";
  o << "checksum: xxh64\n";
  o << "builder: " << builder << "\n";
  return o.str();
}

tablebase_header tablebase_header::from_text(const std::string& text) {
  tablebase_header h;
  std::istringstream in(text);
  std::string line;
  bool seen_fields = false, seen_ruleset = false, seen_entries = false;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) throw input_error("header line '" + line + "' has no ':'");
    std::string key = line.substr(0, colon), val = trim(line.substr(colon + 1));
    if (key == "ruleset") {
      h.ruleset = val;
      seen_ruleset = true;
    } else if (key == "params") {
      h.params = val;
    } else if (key == "family") {
      h.family = val;
    } else if (key == "values") {
      h.values = val;
    } else if (key == "fields") {
      seen_fields = true;
      std::istringstream fs(val);
      std::string item;
      while (std::getline(fs, item, ',')) {
        auto c = item.rfind(':');
        if (c == std::string::npos || (item.substr(c + 1) != "u" && item.substr(c + 1) != "i"))
          throw input_error("header field '" + item + "' is not NAME:u or NAME:i");
        h.fields.push_back({item.substr(0, c), item.substr(c + 1) == "i"});
      }
    } else if (key == "index") {
      h.index = val;
    } else if (key == "symmetry") {
      h.symmetry = val;
    } else if (key == "positions") {
      h.positions = val;
    } else if (key == "block-entries") {
      h.block_entries = static_cast<std::uint32_t>(std::strtoul(val.c_str(), nullptr, 10));
      seen_entries = true;
    } else if (key == "codec") {
      if (val != "zstd") throw input_error("unsupported codec '" + val + "'");
    } else if (key == "zstd-level") {
      h.zstd_level = std::atoi(val.c_str());
    } else if (key == "checksum") {
      if (val != "xxh64") throw input_error("unsupported checksum '" + val + "'");
    } else if (key == "builder") {
      h.builder = val;
    }
    // "meaningful" and unknown keys: informational, ignored.
  }
  if (h.fields.size() > kMaxFields) throw input_error("header lists more than 64 fields");
  if (!seen_ruleset || !seen_fields || !seen_entries || h.fields.empty() || h.block_entries == 0 ||
      h.block_entries > (1u << 24))
    throw input_error("header lacks ruleset, fields or a valid block-entries line");
  return h;
}

bool known_index_scheme(const std::string& scheme) { return scheme == kIndexRuleset || scheme == kIndexKeys; }

int tablebase_header::field_index(const std::string& name) const {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name) return static_cast<int>(i);
  return -1;
}

// --------------------------------------------------------------------- writer

namespace {

// The partial file of the writer in progress, for the signal handler: a
// SIGINT, SIGTERM or SIGHUP during a build removes it, then takes the
// signal's default action. (SIGKILL cannot be caught: the partial file stays,
// and its name says it is partial.)
char g_partial_path[4096];
struct sigaction g_previous[3];
constexpr int kCleanupSignals[3] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_partial_and_reraise(int sig) {
  if (g_partial_path[0]) ::unlink(g_partial_path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void arm_cleanup(const std::string& tmp) {
  if (tmp.size() >= sizeof g_partial_path) return;
  std::memcpy(g_partial_path, tmp.c_str(), tmp.size() + 1);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = remove_partial_and_reraise;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; ++i) ::sigaction(kCleanupSignals[i], &sa, &g_previous[i]);
}

void disarm_cleanup() {
  if (!g_partial_path[0]) return;
  for (int i = 0; i < 3; ++i) ::sigaction(kCleanupSignals[i], &g_previous[i], nullptr);
  g_partial_path[0] = '\0';
}

}  // namespace

tablebase_writer::tablebase_writer(const std::string& path, tablebase_header header)
    : tablebase_writer(path, std::move(header), false) {}

void tablebase_writer::check_output_path(const std::string& path) {
  if (path.empty()) throw input_error("no output file given");
  // The finished file is renamed onto `path`: never onto a symbolic link (the
  // rename would replace the link itself), a device, a folder or anything else
  // that is not a regular file. Links among the path's folders are followed.
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw input_error("cannot write '" + path + "': it is a symbolic link (write to its target, or remove the link)");
    if (S_ISDIR(st.st_mode)) throw input_error("cannot write '" + path + "': it is a folder, not a regular file");
    if (!S_ISREG(st.st_mode)) throw input_error("cannot write '" + path + "': it exists and is not a regular file");
  }
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw input_error("cannot write '" + path + "': folder '" + dir + "': " + std::strerror(errno));
}

tablebase_writer::tablebase_writer(const std::string& path, tablebase_header header, bool resumable)
    : path_(path),
      tmp_(path + ".partial-" + std::to_string(getpid())),
      header_(std::move(header)),
      resumable_(resumable) {
  if (path.empty()) throw input_error("no output file given");
  if (!known_index_scheme(header_.index))
    throw std::logic_error("tablebase_writer: unknown index scheme '" + header_.index + "' (known: " + kIndexRuleset +
                           ", " + kIndexKeys + ")");
  std::vector<const std::string*> texts = {&header_.ruleset, &header_.params,   &header_.family,    &header_.values,
                                           &header_.index,   &header_.symmetry, &header_.positions, &header_.builder};
  for (const auto& fs : header_.fields) texts.push_back(&fs.name);
  for (const std::string* t : texts)
    if (t->find_first_of("\r\n") != std::string::npos)
      throw std::logic_error("tablebase_writer: header value '" + *t + "' holds a line break");
  check_output_path(path);
  if (resumable_ && take_over_checkpoint()) return;
  // O_NOFOLLOW: a symbolic link planted under the partial name is not written through.
  const int fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  f_ = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!f_) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw input_error("cannot write '" + path_ + "': " + std::strerror(err));
  }
  if (!resumable_) arm_cleanup(tmp_);
  write_preamble();
  // A resumable build's partial file names its build from the start: a later
  // --resume takes over the keys a killed forward pass saved only where this
  // header matches (take_over_saved_keys).
  if (resumable_ && std::fflush(f_) != 0)
    throw resource_error("writing '" + tmp_ + "' failed: " + std::strerror(errno));
}

std::string tablebase_writer::preamble() const {
  std::string pre(reinterpret_cast<const char*>(kMagic), 8);
  put32(pre, kFormatVersion);
  put32(pre, 0);
  std::string text = header_.to_text();
  put64(pre, text.size());
  pre += text;
  put64(pre, XXH64(pre.data(), pre.size(), 0));
  return pre;
}

void tablebase_writer::write_preamble() {
  const std::string pre = preamble();
  write(pre.data(), pre.size());
}

tablebase_writer::~tablebase_writer() {
  if (f_) std::fclose(f_);
  if (!done_ && !resumable_) std::remove(tmp_.c_str());
  if (done_) {
    std::remove(ckpt_path().c_str());
    std::remove(saved_keys_path().c_str());
  }
  disarm_cleanup();
}

// ----------------------------------------------------------------- checkpoints
//
// PATH.partial-PID.ckpt, little-endian: magic "CGTBCKP1"; u64 header-text
// length and the text; u64 file offset; the level and block tables as the
// file's index writes them (docs/format.md, "Index"); u64 payload length and
// the payload; XXH64 of everything before.

namespace {
constexpr char kCkptMagic[9] = "CGTBCKP1";
}

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
  // The checksum is taken as the bytes go out: the payload is never copied.
  std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> hash(XXH64_createState(), &XXH64_freeState);
  if (!hash || XXH64_reset(hash.get(), 0) != XXH_OK) throw std::bad_alloc();
  const std::string tmp = ckpt_path() + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw resource_error("cannot write checkpoint '" + tmp + "': " + std::strerror(errno));
  auto out = [&](const void* p, std::size_t n) {
    XXH64_update(hash.get(), p, n);
    return std::fwrite(p, 1, n, f) == n;
  };
  bool ok = out(head.data(), head.size());
  for (const payload_piece& p : pieces) ok = ok && (p.size == 0 || out(p.data, p.size));
  std::string tail;
  put64(tail, XXH64_digest(hash.get()));
  ok = ok && std::fwrite(tail.data(), 1, tail.size(), f) == tail.size() && std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  std::fclose(f);
  if (!ok || std::rename(tmp.c_str(), ckpt_path().c_str()) != 0)
    throw resource_error("writing checkpoint '" + ckpt_path() + "' failed: " + std::strerror(errno));
}

namespace {
/// A file PATH.partial-PID<suffix> a resumable build of PATH left.
struct left_file {
  std::filesystem::path path;     ///< the file
  std::filesystem::path partial;  ///< PATH.partial-PID, its build's partial file
  std::string pid;
};
/// The files PATH.partial-PID<suffix> (suffix ".ckpt" or ".keys") builds of
/// `path` left (PID may be this process's, from an earlier process of the
/// same number). Throws input_error when another such build is running.
std::vector<left_file> files_left_by_builds(const std::string& path, const std::string& suffix) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = target.filename().string() + ".partial-";
  std::vector<left_file> left;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() < prefix.size() + suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string pid_text = name.substr(prefix.size(), name.size() - suffix.size() - prefix.size());
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
    if (pid != getpid() && ::kill(static_cast<pid_t>(pid), 0) == 0)
      throw input_error("a build of '" + path + "' is still running as process " + pid_text);
    left.push_back({e.path(), dir / (prefix + pid_text), pid_text});
  }
  return left;
}
}  // namespace

bool tablebase_writer::take_over_checkpoint() {
  namespace fs = std::filesystem;
  std::string best_ckpt, best_partial;
  std::uint64_t best_levels = 0;
  std::string best_bytes;
  for (const left_file& e : files_left_by_builds(path_, ".ckpt")) {
    const fs::path& partial = e.partial;
    if (!fs::is_regular_file(partial)) continue;
    // Read at its size in one allocation (a checkpoint holds a level's records).
    std::ifstream in(e.path, std::ios::binary | std::ios::ate);
    const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : -1;
    std::string bytes(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
    in.seekg(0);
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) bytes.clear();
    auto bad = [&](const std::string& why) {
      return input_error("checkpoint '" + e.path.string() + "' " + why + "; remove '" + partial.string() +
                         "' and it to build afresh");
    };
    if (bytes.size() < 32 || bytes.compare(0, 8, kCkptMagic) != 0) throw bad("is not a cgtb checkpoint");
    const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
    if (get64(u + bytes.size() - 8) != XXH64(bytes.data(), bytes.size() - 8, 0)) throw bad("is corrupt");
    const std::uint64_t hl = get64(u + 8);
    if (hl > bytes.size()) throw bad("is corrupt");
    if (bytes.compare(16, hl, header_.to_text()) != 0) throw bad("belongs to a build with other parameters");
    const std::uint64_t nlev = get32(u + 16 + hl + 8);
    if (nlev >= best_levels) {
      best_levels = nlev;
      best_ckpt = e.path.string();
      best_partial = partial.string();
      best_bytes = std::move(bytes);
    }
  }
  if (best_ckpt.empty()) {
    take_over_saved_keys();
    return false;
  }
  // Parse the state (its checksum and header were checked above).
  const auto* u = reinterpret_cast<const unsigned char*>(best_bytes.data());
  const std::size_t end = best_bytes.size() - 8;
  std::size_t pos = 16 + get64(u + 8);
  auto need = [&](std::size_t n) {
    if (pos + n > end) throw input_error("checkpoint '" + best_ckpt + "' is truncated");
  };
  need(16);
  offset_ = get64(u + pos);
  const std::uint32_t nlev = get32(u + pos + 8);
  pos += 16;
  for (std::uint32_t i = 0; i < nlev; ++i, pos += 32) {
    need(32);
    levels_.push_back({static_cast<int>(get32(u + pos)), get64(u + pos + 8), get64(u + pos + 16), get64(u + pos + 24)});
  }
  need(8);
  const std::uint64_t nb = get64(u + pos);
  pos += 8;
  for (std::uint64_t i = 0; i < nb; ++i, pos += 32) {
    need(32);
    blocks_.push_back(
        {get64(u + pos), get32(u + pos + 8), get32(u + pos + 12), get64(u + pos + 16), get64(u + pos + 24)});
  }
  need(8);
  const std::uint64_t pl = get64(u + pos);
  pos += 8;
  need(pl);
  // The payload keeps the file's buffer (no second copy of a level's records).
  best_bytes.resize(pos + pl);
  best_bytes.erase(0, pos);
  payload_ = std::move(best_bytes);
  // Take the files over under this process's names and cut the data back to
  // the checkpointed offset.
  if (best_partial != tmp_ && (std::rename(best_partial.c_str(), tmp_.c_str()) != 0 ||
                               std::rename(best_ckpt.c_str(), ckpt_path().c_str()) != 0))
    throw input_error("cannot take over '" + best_partial + "': " + std::strerror(errno));
  // The saved keys of the solver, where the build kept them.
  const std::string keys = best_partial + ".keys";
  std::error_code ec;
  if (best_partial != tmp_ && fs::is_regular_file(keys, ec) &&
      std::rename(keys.c_str(), saved_keys_path().c_str()) != 0)
    throw input_error("cannot take over '" + keys + "': " + std::strerror(errno));
  f_ = std::fopen(tmp_.c_str(), "r+b");
  if (!f_ || ::ftruncate(fileno(f_), static_cast<off_t>(offset_)) != 0 || std::fseek(f_, 0, SEEK_END) != 0)
    throw input_error("cannot continue '" + tmp_ + "': " + std::strerror(errno));
  resumed_ = true;
  return true;
}

void tablebase_writer::take_over_saved_keys() {
  // A build killed before its first checkpoint leaves the keys its forward
  // pass had saved so far (PATH.partial-PID.keys) and a partial file that
  // holds only the preamble. Where the preamble's header is this build's, the
  // keys are taken over (the solver reads those that are whole,
  // cgtb/backend.hpp solve_options::saved_keys) and the partial file is
  // removed; of several, the largest is taken. Keys of a build with other
  // parameters are refused, as its checkpoint would be.
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string pre = preamble();
  const left_file* best = nullptr;
  std::uintmax_t best_size = 0;
  const std::vector<left_file> left = files_left_by_builds(path_, ".keys");
  for (const left_file& e : left) {
    if (e.pid == std::to_string(getpid())) continue;  // this process's own: the solver opens it
    const std::uintmax_t size = fs::file_size(e.path, ec);
    if (ec || !fs::is_regular_file(e.path, ec)) continue;
    // The partial file must begin with this build's preamble.
    std::ifstream in(e.partial, std::ios::binary);
    std::string got(pre.size(), '\0');
    if (!in.read(got.data(), static_cast<std::streamsize>(got.size())) || got != pre)
      throw input_error("saved keys '" + e.path.string() + "' are not of a build with these parameters; remove '" +
                        e.partial.string() + "' and them to build afresh");
    if (best && size < best_size) continue;
    best = &e;
    best_size = size;
  }
  if (!best) return;
  if (std::rename(best->path.c_str(), saved_keys_path().c_str()) != 0)
    throw input_error("cannot take over '" + best->path.string() + "': " + std::strerror(errno));
  std::remove(best->partial.c_str());
}

void tablebase_writer::write(const void* p, std::size_t n) {
  if (n && std::fwrite(p, 1, n, f_) != n)
    throw resource_error("writing '" + tmp_ + "' failed: " + std::strerror(errno));
  offset_ += n;
}

void tablebase_writer::add_level(int level, std::uint64_t n, const std::function<std::int64_t(std::uint64_t, int)>& get,
                                 const std::uint64_t* keys) {
  const int nf = static_cast<int>(header_.fields.size());
  add_level_blocks(
      level, n,
      [&](std::uint64_t first, std::uint64_t count, std::int64_t* values) {
        for (int f = 0; f < nf; ++f)
          for (std::uint64_t j = 0; j < count; ++j)
            values[static_cast<std::uint64_t>(f) * count + j] = get(first + j, f);
      },
      keys);
}

void tablebase_writer::add_level_blocks(int level, std::uint64_t n, const block_filler& fill,
                                        const std::uint64_t* keys) {
  const std::string where = "tablebase_writer: level " + std::to_string(level) + ": ";
  if (header_.keyed() && !keys && n > 0)
    throw std::logic_error(where + "index " + header_.index + " needs the level's keys");
  if (!header_.keyed() && keys)
    throw std::logic_error(where + "keys given but the index is " + header_.index + ", not " + kIndexKeys);
  if (header_.keyed())
    for (std::uint64_t i = 1; i < n; ++i)
      if (keys[i] <= keys[i - 1])
        throw std::logic_error(where + "keys are not strictly increasing at rank " + std::to_string(i) + " (" +
                               std::to_string(keys[i - 1]) + " then " + std::to_string(keys[i]) + ")");
  key_filler copy;
  if (keys)
    copy = [keys](std::uint64_t first, std::uint64_t count, std::uint64_t* out) {
      std::copy(keys + first, keys + first + count, out);
    };
  add_level_blocks(level, n, fill, copy);
}

void tablebase_writer::add_level_blocks(int level, std::uint64_t n, const block_filler& fill, const key_filler& keys) {
  const std::string where = "tablebase_writer: level " + std::to_string(level) + ": ";
  if (header_.keyed() && !keys && n > 0)
    throw std::logic_error(where + "index " + header_.index + " needs the level's keys");
  if (!header_.keyed() && keys)
    throw std::logic_error(where + "keys given but the index is " + header_.index + ", not " + kIndexKeys);
  const std::uint64_t be = header_.block_entries;
  const std::uint64_t nblocks = (n + be - 1) / be;
  const std::size_t nf = header_.fields.size();
  level_entry le{level, n, blocks_.size(), nblocks};
  // Compress a batch of blocks in parallel, then write them in order.
  const std::uint64_t batch = 256;
  std::vector<std::string> out(batch);
  std::vector<std::uint64_t> raw_sizes(batch), first_keys(batch), last_keys(batch);
  std::uint64_t previous_last = 0;
  for (std::uint64_t b0 = 0; b0 < nblocks; b0 += batch) {
    const std::int64_t bn = static_cast<std::int64_t>(std::min(batch, nblocks - b0));
    std::string err;
    bool misordered = false;
#pragma omp parallel
    {
      ZSTD_CCtx* cctx = ZSTD_createCCtx();
      std::vector<std::int64_t> values;
      std::vector<std::uint64_t> block_keys;
#pragma omp for schedule(dynamic, 4)
      for (std::int64_t i = 0; i < bn; ++i) {
        try {
          std::uint64_t first = (b0 + static_cast<std::uint64_t>(i)) * be;
          std::uint64_t count = std::min(be, n - first);
          values.assign(count * nf, 0);
          fill(first, count, values.data());
          if (keys) {
            block_keys.resize(count);
            keys(first, count, block_keys.data());
            bool ascending = true;
            for (std::uint64_t j = 1; j < count; ++j) ascending = ascending && block_keys[j] > block_keys[j - 1];
            if (!ascending) {
#pragma omp critical
              misordered = true;
              continue;
            }
            first_keys[static_cast<std::size_t>(i)] = block_keys.front();
            last_keys[static_cast<std::size_t>(i)] = block_keys.back();
          }
          std::string raw = pack_block(header_.fields, count, values.data(), keys ? block_keys.data() : nullptr);
          if (raw.size() > std::numeric_limits<std::uint32_t>::max())
            throw resource_error("a block of " + std::to_string(count) + " entries packs to more than 4 GiB");
          raw_sizes[static_cast<std::size_t>(i)] = raw.size();
          std::string& c = out[static_cast<std::size_t>(i)];
          c.resize(ZSTD_compressBound(raw.size()));
          std::size_t cs = ZSTD_compressCCtx(cctx, c.data(), c.size(), raw.data(), raw.size(), header_.zstd_level);
          if (ZSTD_isError(cs)) throw resource_error(std::string("zstd: ") + ZSTD_getErrorName(cs));
          c.resize(cs);
        } catch (const std::exception& e) {
#pragma omp critical
          err = e.what();
        }
      }
      ZSTD_freeCCtx(cctx);
    }
    for (std::int64_t i = 0; keys && i < bn && !misordered; ++i) {
      if (b0 + static_cast<std::uint64_t>(i) > 0 && first_keys[static_cast<std::size_t>(i)] <= previous_last)
        misordered = true;
      previous_last = last_keys[static_cast<std::size_t>(i)];
    }
    if (misordered)
      throw std::logic_error(where + "keys are not strictly increasing in blocks " + std::to_string(b0) + " to " +
                             std::to_string(b0 + static_cast<std::uint64_t>(bn) - 1));
    if (!err.empty()) throw resource_error(err);
    for (std::int64_t i = 0; i < bn; ++i) {
      const std::string& c = out[static_cast<std::size_t>(i)];
      block_entry b{offset_, static_cast<std::uint32_t>(c.size()),
                    static_cast<std::uint32_t>(raw_sizes[static_cast<std::size_t>(i)]), XXH64(c.data(), c.size(), 0),
                    keys ? first_keys[static_cast<std::size_t>(i)] : 0};
      write(c.data(), c.size());
      blocks_.push_back(b);
    }
  }
  levels_.push_back(le);
}

std::string tablebase_writer::index_bytes() const {
  std::string idx;
  put32(idx, static_cast<std::uint32_t>(levels_.size()));
  put32(idx, 0);
  for (const auto& l : levels_) {
    put32(idx, static_cast<std::uint32_t>(l.level));
    put32(idx, 0);
    put64(idx, l.positions);
    put64(idx, l.first_block);
    put64(idx, l.blocks);
  }
  put64(idx, blocks_.size());
  for (const auto& b : blocks_) {
    put64(idx, b.offset);
    put32(idx, b.compressed_size);
    put32(idx, b.raw_size);
    put64(idx, b.checksum);
    put64(idx, b.first_key);
  }
  return idx;
}

void tablebase_writer::finish() {
  const std::string idx = index_bytes();
  std::uint64_t index_offset = offset_;
  write(idx.data(), idx.size());
  std::string tr;
  put64(tr, index_offset);
  put64(tr, idx.size());
  put64(tr, XXH64(idx.data(), idx.size(), 0));
  tr.append(reinterpret_cast<const char*>(kEndMagic), 8);
  write(tr.data(), tr.size());
  if (std::fflush(f_) != 0 || fsync(fileno(f_)) != 0)
    throw resource_error("flushing '" + tmp_ + "' failed: " + std::strerror(errno));
  std::fclose(f_);
  f_ = nullptr;
  check_output_path(path_);  // again: a link may have appeared under the name while solving
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw resource_error("renaming '" + tmp_ + "' to '" + path_ + "' failed: " + std::strerror(errno));
  done_ = true;
}

// --------------------------------------------------------------------- reader

std::int64_t decoded_block::get(std::uint32_t i, int f) const {
  const int w = widths[static_cast<std::size_t>(f)];
  if (w == 0) return 0;
  std::uint64_t bit = plane_start[static_cast<std::size_t>(f)] + static_cast<std::uint64_t>(i) * w;
  std::uint64_t u = (load_le64(&bytes[bit / 8]) >> (bit % 8)) & ((1ull << w) - 1);
  return is_signed[static_cast<std::size_t>(f)] ? unzigzag(u) : static_cast<std::int64_t>(u);
}

tablebase::tablebase(const std::string& path, std::size_t cache_bytes) : path_(path), cache_bytes_(cache_bytes) {
  auto fail = [&](const std::string& what) { return input_error("'" + path + "': " + what); };
  fd_ = ::open(path.c_str(), O_RDONLY);
  if (fd_ < 0) throw fail(std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw fail("not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
  auto read_at = [&](std::uint64_t off, std::size_t n) {
    std::vector<unsigned char> buf(n);
    if (off + n > size_ || ::pread(fd_, buf.data(), n, static_cast<off_t>(off)) != static_cast<ssize_t>(n))
      throw fail("truncated (file ends before byte " + std::to_string(off + n) + ")");
    return buf;
  };
  try {
    auto pre = read_at(0, 24);
    if (std::memcmp(pre.data(), kMagic, 8) != 0) throw fail("not a cgtb tablebase (bad magic)");
    version_ = get32(&pre[8]);
    if (version_ < kOldestFormatVersion || version_ > kFormatVersion)
      throw fail("format version " + std::to_string(version_) + " is not supported (this cgtb reads versions " +
                 std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion) + ")");
    if (get32(&pre[12]) != 0) throw fail("reserved preamble field is not zero");
    std::uint64_t hlen = get64(&pre[16]);
    if (hlen > (1u << 20) || 32 + hlen > size_) throw fail("truncated or corrupt header length");
    auto whole = read_at(0, 24 + hlen + 8);
    if (XXH64(whole.data(), 24 + hlen, 0) != get64(&whole[24 + hlen]))
      throw fail("header checksum mismatch (file corrupt)");
    try {
      header_ =
          tablebase_header::from_text(std::string(whole.begin() + 24, whole.begin() + 24 + static_cast<long>(hlen)));
    } catch (const input_error& e) {
      throw fail(e.what());
    }
    // A rank order this reader does not know must never be read as data.
    if (!known_index_scheme(header_.index))
      throw fail("index scheme '" + header_.index + "' is not supported (this cgtb reads " + kIndexRuleset + " and " +
                 kIndexKeys + ")");
    if (version_ == 1 && header_.index != kIndexRuleset)
      throw fail("index scheme '" + header_.index + "' in a format version 1 file (version 1 has only " +
                 kIndexRuleset + ")");
    keyed_ = header_.keyed();
    const std::size_t block_entry_bytes = version_ == 1 ? kBlockEntryBytesV1 : kBlockEntryBytes;
    if (size_ < 32 + hlen + kTrailerBytes) throw fail("truncated (no trailer)");
    auto tr = read_at(size_ - kTrailerBytes, kTrailerBytes);
    if (std::memcmp(&tr[24], kEndMagic, 8) != 0) throw fail("truncated or unfinished (no end marker)");
    std::uint64_t ioff = get64(&tr[0]), ilen = get64(&tr[8]);
    if (ioff < 32 + hlen || ilen < 16 || ioff + ilen != size_ - kTrailerBytes) throw fail("corrupt trailer");
    auto idx = read_at(ioff, ilen);
    if (XXH64(idx.data(), ilen, 0) != get64(&tr[16])) throw fail("index checksum mismatch (file corrupt)");
    std::uint32_t nl = get32(&idx[0]);
    std::size_t pos = 8;
    if (8 + static_cast<std::uint64_t>(nl) * kLevelEntryBytes + 8 > ilen) throw fail("corrupt level table");
    int max_level = -1;
    for (std::uint32_t i = 0; i < nl; ++i, pos += kLevelEntryBytes) {
      level_entry l{static_cast<int>(get32(&idx[pos])), get64(&idx[pos + 8]), get64(&idx[pos + 16]),
                    get64(&idx[pos + 24])};
      if (l.level < 0 || l.level > 1'000'000) throw fail("corrupt level table");
      max_level = std::max(max_level, l.level);
      levels_.push_back(l);
    }
    std::uint64_t nb = get64(&idx[pos]);
    pos += 8;
    if (nb > ilen || pos + nb * block_entry_bytes != ilen) throw fail("corrupt block table");
    for (std::uint64_t i = 0; i < nb; ++i, pos += block_entry_bytes) {
      block_entry b{get64(&idx[pos]), get32(&idx[pos + 8]), get32(&idx[pos + 12]), get64(&idx[pos + 16]),
                    version_ == 1 ? 0 : get64(&idx[pos + 24])};
      if (b.offset < 32 + hlen || b.offset > ioff || b.compressed_size > ioff - b.offset)
        throw fail("corrupt block table");
      if (!keyed_ && b.first_key != 0) throw fail("corrupt block table (first key in a file without keys)");
      blocks_.push_back(b);
      first_keys_.push_back(b.first_key);
    }
    level_slot_.assign(static_cast<std::size_t>(max_level + 1), -1);
    std::uint64_t next_block = 0;
    for (std::size_t i = 0; i < levels_.size(); ++i) {
      const auto& l = levels_[i];
      std::uint64_t be = header_.block_entries;
      if (l.first_block != next_block || l.first_block + l.blocks > nb || l.blocks != (l.positions + be - 1) / be ||
          level_slot_[static_cast<std::size_t>(l.level)] != -1)
        throw fail("corrupt level table");
      level_slot_[static_cast<std::size_t>(l.level)] = static_cast<int>(i);
      // A full block holds `be` increasing keys: the next block's first key is
      // at least `be` above its own.
      for (std::uint64_t b = l.first_block + 1; keyed_ && b < l.first_block + l.blocks; ++b)
        if (first_keys_[b] <= first_keys_[b - 1] || first_keys_[b] - first_keys_[b - 1] < be)
          throw fail("corrupt block table (first keys of level " + std::to_string(l.level) + " not increasing)");
      next_block += l.blocks;
    }
    if (next_block != nb) throw fail("corrupt level table");
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

tablebase::~tablebase() {
  if (fd_ >= 0) ::close(fd_);
}

const level_entry* tablebase::find_level(int level) const {
  if (level < 0 || static_cast<std::size_t>(level) >= level_slot_.size() ||
      level_slot_[static_cast<std::size_t>(level)] < 0)
    return nullptr;
  return &levels_[static_cast<std::size_t>(level_slot_[static_cast<std::size_t>(level)])];
}

std::string tablebase::check_block(std::uint64_t b) const {
  try {
    read_block(b);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

decoded_block tablebase::read_block(std::uint64_t b) const {
  auto fail = [&](const std::string& what) {
    return input_error("'" + path_ + "': block " + std::to_string(b) + ": " + what);
  };
  if (b >= blocks_.size()) throw fail("no such block");
  const block_entry& e = blocks_[b];
  std::vector<char> comp(e.compressed_size);
  if (::pread(fd_, comp.data(), comp.size(), static_cast<off_t>(e.offset)) != static_cast<ssize_t>(comp.size()))
    throw fail("truncated");
  if (XXH64(comp.data(), comp.size(), 0) != e.checksum) throw fail("checksum mismatch (file corrupt)");
  decoded_block d;
  // Locate the block within its level (levels are stored in block order).
  auto it = std::upper_bound(levels_.begin(), levels_.end(), b,
                             [](std::uint64_t x, const level_entry& l) { return x < l.first_block; });
  const level_entry* lv = nullptr;
  if (it != levels_.begin() && b < std::prev(it)->first_block + std::prev(it)->blocks) lv = &*std::prev(it);
  if (!lv) throw fail("belongs to no level");
  const std::uint64_t be = header_.block_entries;
  d.first = (b - lv->first_block) * be;
  d.count = static_cast<std::uint32_t>(std::min<std::uint64_t>(be, lv->positions - d.first));
  const std::size_t nf = header_.fields.size();
  const std::size_t nw = nf + (keyed_ ? 1 : 0);
  // Refuse a raw size no block of `count` entries can have (every plane at
  // its widest), and one the frame itself contradicts, before allocating it.
  const std::uint64_t max_raw = nw + nf * ((std::uint64_t{d.count} * kMaxValueWidth + 7) / 8) +
                                (keyed_ ? (std::uint64_t{d.count} * kMaxKeyWidth + 7) / 8 : 0);
  const unsigned long long frame_size = ZSTD_getFrameContentSize(comp.data(), comp.size());
  if (e.raw_size > max_raw)
    throw fail("raw size " + std::to_string(e.raw_size) + " is more than a block of " + std::to_string(d.count) +
               " entries can hold (file corrupt)");
  if (frame_size != ZSTD_CONTENTSIZE_ERROR && frame_size != ZSTD_CONTENTSIZE_UNKNOWN && frame_size != e.raw_size)
    throw fail("does not decompress (file corrupt)");
  d.bytes.resize(static_cast<std::size_t>(e.raw_size) + kPadding, 0);
  std::size_t got = ZSTD_decompress(d.bytes.data(), e.raw_size, comp.data(), comp.size());
  if (ZSTD_isError(got) || got != e.raw_size) throw fail("does not decompress (file corrupt)");
  if (e.raw_size < nw) throw fail("too short");
  std::uint64_t bit = nw * 8;
  for (std::size_t f = 0; f < nf; ++f) {
    d.widths.push_back(d.bytes[f]);
    d.is_signed.push_back(header_.fields[f].is_signed);
    if (d.bytes[f] > kMaxValueWidth) throw fail("bad field width");
    d.plane_start.push_back(bit);
    bit += (static_cast<std::uint64_t>(d.count) * d.bytes[f] + 7) / 8 * 8;
  }
  const int key_width = keyed_ ? d.bytes[nf] : 0;
  const std::uint64_t key_start = bit;
  if (keyed_) {
    if (key_width > kMaxKeyWidth) throw fail("bad key width");
    bit += (static_cast<std::uint64_t>(d.count) * static_cast<std::uint64_t>(key_width) + 7) / 8 * 8;
  }
  if (bit != static_cast<std::uint64_t>(e.raw_size) * 8) throw fail("size does not match its fields");
  if (keyed_ && d.count > 0) {
    d.keys.resize(d.count);
    std::uint64_t key = e.first_key;
    if (get_bits(d.bytes.data(), key_start, key_width) != 0) throw fail("corrupt key plane (first key delta is not 0)");
    d.keys[0] = key;
    for (std::uint32_t j = 1; j < d.count; ++j) {
      const std::uint64_t delta = get_bits(
          d.bytes.data(), key_start + static_cast<std::uint64_t>(j) * static_cast<std::uint64_t>(key_width), key_width);
      if (delta == 0) throw fail("corrupt key plane (keys not increasing: delta 0 at entry " + std::to_string(j) + ")");
      if (key > std::numeric_limits<std::uint64_t>::max() - delta)
        throw fail("corrupt key plane (key overflows at entry " + std::to_string(j) + ")");
      key += delta;
      d.keys[j] = key;
    }
    if (b + 1 < lv->first_block + lv->blocks && key >= blocks_[b + 1].first_key)
      throw fail("corrupt key plane (last key " + std::to_string(key) + " reaches the next block's first key " +
                 std::to_string(blocks_[b + 1].first_key) + ")");
  }
  return d;
}

const decoded_block& tablebase::cached_block(std::uint64_t b) {
  auto it = cache_.find(b);
  if (it != cache_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.second);
    return it->second.first;
  }
  decoded_block d = read_block(b);
  auto footprint = [](const decoded_block& x) { return x.bytes.size() + x.keys.size() * sizeof(std::uint64_t); };
  std::size_t sz = footprint(d);
  while (!lru_.empty() && cached_ + sz > cache_bytes_) {
    auto victim = cache_.find(lru_.back());
    if (victim->first == last_block_) last_ = nullptr;
    cached_ -= footprint(victim->second.first);
    cache_.erase(victim);
    lru_.pop_back();
  }
  lru_.push_front(b);
  cached_ += sz;
  auto res = cache_.emplace(b, std::make_pair(std::move(d), lru_.begin()));
  return res.first->second.first;
}

const decoded_block& tablebase::use_block(std::uint64_t b) {
  if (b != last_block_ || !last_) {
    last_ = &cached_block(b);
    last_block_ = b;
  }
  return *last_;
}

const level_entry& tablebase::level_or_throw(int level) const {
  const level_entry* l = find_level(level);
  if (!l) throw input_error("'" + path_ + "' holds no level " + std::to_string(level));
  return *l;
}

void tablebase::require_keys() const {
  if (!keyed_) throw input_error("'" + path_ + "' stores no keys (index " + header_.index + ")");
}

const decoded_block& tablebase::block_of(int level, std::uint64_t rank, std::uint32_t& index) {
  const level_entry& l = level_or_throw(level);
  if (rank >= l.positions)
    throw input_error("rank " + std::to_string(rank) + " is past level " + std::to_string(level));
  const std::uint64_t be = header_.block_entries;
  index = static_cast<std::uint32_t>(rank % be);
  return use_block(l.first_block + rank / be);
}

std::int64_t tablebase::stored_rank(int level, std::uint64_t key) {
  const level_entry* le = find_level(level);
  if (!le) return -1;
  if (keyed_) return rank_of_key(level, key);
  return key < le->positions ? static_cast<std::int64_t>(key) : -1;
}

std::int64_t tablebase::rank_of_key(int level, std::uint64_t key) {
  require_keys();
  const level_entry& l = level_or_throw(level);
  const std::uint64_t* fk = first_keys_.data() + l.first_block;
  // The last block of the level whose first key is <= key holds it, if any.
  const std::uint64_t* it = std::upper_bound(fk, fk + l.blocks, key);
  if (it == fk) return -1;
  const decoded_block& d = use_block(l.first_block + static_cast<std::uint64_t>(it - fk - 1));
  auto k = std::lower_bound(d.keys.begin(), d.keys.end(), key);
  if (k == d.keys.end() || *k != key) return -1;
  return static_cast<std::int64_t>(d.first + static_cast<std::uint64_t>(k - d.keys.begin()));
}

std::uint64_t tablebase::key_of(int level, std::uint64_t rank) {
  require_keys();
  std::uint32_t i;
  return block_of(level, rank, i).keys[i];
}

std::int64_t tablebase::value(int level, std::uint64_t rank, int field) {
  if (field < 0 || static_cast<std::size_t>(field) >= header_.fields.size()) throw input_error("no such field");
  std::uint32_t i;
  return block_of(level, rank, i).get(i, field);
}

void tablebase::entry(int level, std::uint64_t rank, std::int64_t* out) {
  std::uint32_t i;
  const decoded_block& d = block_of(level, rank, i);
  for (std::size_t f = 0; f < header_.fields.size(); ++f) out[f] = d.get(i, static_cast<int>(f));
}

}  // namespace cgtb
