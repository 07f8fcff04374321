// Writing a .cgtb tablebase: the partial file under its build's name, the
// levels' blocks packed and compressed in parallel, the index and trailer,
// and the rename that makes the file complete. Checkpoints: checkpoint.cpp.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "block_codec.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase_writer.hpp"
#include "file_bytes.hpp"
#include "index_table.hpp"

namespace cgtb {

using namespace file_detail;

namespace {

// The partial file of the writer in progress, for the signal handler: a
// SIGINT, SIGTERM or SIGHUP during a build removes it (a resumable build
// keeps it), says so in one line on stderr, then takes the signal's default
// action. (SIGKILL cannot be caught: the partial file stays, and its name
// says it is partial.) The line is made when the handler is armed, so the
// handler only calls unlink, write and raise (async-signal-safe).
char g_partial_path[4096];
char g_interrupted_line[9000];
std::size_t g_interrupted_length = 0;
bool g_remove_partial = false;
struct sigaction g_previous[3];
constexpr int kCleanupSignals[3] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_partial_and_reraise(int sig) {
  if (g_remove_partial && g_partial_path[0]) ::unlink(g_partial_path);
  if (g_interrupted_length) {
    const ssize_t written = ::write(STDERR_FILENO, g_interrupted_line, g_interrupted_length);
    (void)written;
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

/// Arms the handler for the partial file `tmp` of the build of `path`:
/// `remove` it (a build that cannot be resumed), else keep it for --resume.
void arm_cleanup(const std::string& tmp, const std::string& path, bool remove) {
  if (tmp.size() >= sizeof g_partial_path) return;
  // After a progress line rewritten in place on a terminal, on a line of its own.
  const std::string line = std::string(::isatty(STDERR_FILENO) ? "\n" : "") +
                           (remove ? "[cgtb] interrupted: removed the partial file '" + tmp + "'\n"
                                   : "[cgtb] interrupted: the partial file '" + tmp +
                                         "' and its checkpoint are kept; run the same command (with --resume) "
                                         "to continue the build of '" +
                                         path + "'\n");
  g_interrupted_length = line.size() < sizeof g_interrupted_line ? line.size() : 0;
  std::memcpy(g_interrupted_line, line.data(), g_interrupted_length);
  std::memcpy(g_partial_path, tmp.c_str(), tmp.size() + 1);
  g_remove_partial = remove;
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
    : path_(path), header_(std::move(header)), resumable_(resumable) {
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
  tmp_ = build_file_name(path_, header_);
  open_partial();
  try {
    if (resumable_ && take_over_checkpoint()) {
      arm_cleanup(tmp_, path_, false);
      return;
    }
    if (!resumable_)
      for (const std::string& left : {ckpt_path(), saved_keys_path()})
        if (::access(left.c_str(), F_OK) == 0)
          throw input_error("a resumable build of '" + path_ + "' with these parameters left '" + left +
                            "': continue it with --resume, or remove '" + tmp_ + "' and the files named '" + tmp_ +
                            ".*' to build afresh");
    if (::ftruncate(fileno(f_), 0) != 0 || std::fseek(f_, 0, SEEK_SET) != 0)
      throw input_error("cannot write '" + tmp_ + "': " + std::strerror(errno));
    arm_cleanup(tmp_, path_, !resumable_);
    write_preamble();
    // A resumable build's partial file names its build from the start.
    if (resumable_ && std::fflush(f_) != 0)
      throw resource_error("writing '" + tmp_ + "' failed: " + std::strerror(errno));
  } catch (...) {
    close_partial_on_failure();
    throw;
  }
}

void tablebase_writer::open_partial() {
  // O_NOFOLLOW: a symbolic link planted under the partial name is not
  // written through. The file is not truncated before its lock is held.
  int fd = ::open(tmp_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  created_ = fd >= 0;
  if (fd < 0 && errno == EEXIST) fd = ::open(tmp_.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw input_error("cannot write '" + path_ + "': " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      throw input_error("a build of '" + path_ + "' with these parameters is still running (it holds '" + tmp_ + "')");
    throw input_error("cannot lock '" + tmp_ + "': " + std::strerror(err));
  }
  f_ = ::fdopen(fd, "r+b");
  if (!f_) {
    const int err = errno;
    ::close(fd);
    throw input_error("cannot write '" + path_ + "': " + std::strerror(err));
  }
}

void tablebase_writer::close_partial_on_failure() {
  if (!f_) return;
  // A partial file this writer made and never wrote goes; one an earlier
  // build left stays as it was.
  if (created_) ::unlink(tmp_.c_str());
  std::fclose(f_);
  f_ = nullptr;
  disarm_cleanup();
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

compressed_blocks tablebase_writer::compress_blocks(const tablebase_header& header, std::uint64_t n,
                                                    const block_filler& fill, const key_filler& keys) {
  if (header.keyed() && !keys && n > 0)
    throw std::logic_error("tablebase_writer: index " + header.index + " needs the level's keys");
  if (!header.keyed() && keys)
    throw std::logic_error("tablebase_writer: keys given but the index is " + header.index + ", not " + kIndexKeys);
  const std::uint64_t be = header.block_entries;
  const std::uint64_t nblocks = (n + be - 1) / be;
  const std::size_t nf = header.fields.size();
  compressed_blocks run;
  run.blocks.resize(nblocks);
  std::vector<std::string> out(nblocks);
  std::vector<std::uint64_t> last_keys(nblocks);
  std::string err;
  bool misordered = false;
#pragma omp parallel
  {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    std::vector<std::int64_t> values;
    std::vector<std::uint64_t> block_keys;
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(nblocks); ++i) {
      try {
        const std::uint64_t first = static_cast<std::uint64_t>(i) * be;
        const std::uint64_t count = std::min(be, n - first);
        block_entry& b = run.blocks[static_cast<std::size_t>(i)];
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
          b.first_key = block_keys.front();
          last_keys[static_cast<std::size_t>(i)] = block_keys.back();
        }
        const std::string raw = pack_block(header.fields, count, values.data(), keys ? block_keys.data() : nullptr);
        if (raw.size() > std::numeric_limits<std::uint32_t>::max())
          throw resource_error("a block of " + std::to_string(count) + " entries packs to more than 4 GiB");
        b.raw_size = static_cast<std::uint32_t>(raw.size());
        std::string& c = out[static_cast<std::size_t>(i)];
        c.resize(ZSTD_compressBound(raw.size()));
        const std::size_t cs = ZSTD_compressCCtx(cctx, c.data(), c.size(), raw.data(), raw.size(), header.zstd_level);
        if (ZSTD_isError(cs)) throw resource_error(std::string("zstd: ") + ZSTD_getErrorName(cs));
        c.resize(cs);
        b.compressed_size = static_cast<std::uint32_t>(cs);
        b.checksum = XXH64(c.data(), c.size(), 0);
      } catch (const std::exception& e) {
#pragma omp critical
        err = e.what();
      }
    }
    ZSTD_freeCCtx(cctx);
  }
  for (std::uint64_t i = 1; keys && i < nblocks && !misordered; ++i)
    misordered = run.blocks[i].first_key <= last_keys[i - 1];
  if (misordered)
    throw std::logic_error("tablebase_writer: keys are not strictly increasing in a run of " + std::to_string(n) +
                           " entries");
  if (!err.empty()) throw resource_error(err);
  std::size_t total = 0;
  for (const std::string& c : out) total += c.size();
  run.bytes.reserve(total);
  for (std::uint64_t i = 0; i < nblocks; ++i) {
    run.blocks[i].offset = run.bytes.size();
    run.bytes += out[i];
  }
  if (nblocks) run.last_key = last_keys.back();
  return run;
}

void tablebase_writer::begin_level(int level, std::uint64_t n) {
  if (open_.open) throw std::logic_error("tablebase_writer: level " + std::to_string(level) + " begun in another");
  const std::uint64_t be = header_.block_entries;
  open_ = open_level{level_entry{level, n, blocks_.size(), (n + be - 1) / be}, 0, true};
}

void tablebase_writer::append_blocks(const compressed_blocks& run) {
  const std::string where = "tablebase_writer: level " + std::to_string(open_.entry.level) + ": ";
  if (!open_.open) throw std::logic_error("tablebase_writer: blocks appended outside a level");
  if (run.blocks.empty()) return;
  const std::uint64_t had = blocks_.size() - open_.entry.first_block;
  if (had + run.blocks.size() > open_.entry.blocks)
    throw std::logic_error(where + std::to_string(had + run.blocks.size()) + " blocks, more than its " +
                           std::to_string(open_.entry.blocks));
  if (header_.keyed() && had > 0 && run.blocks.front().first_key <= open_.last_key)
    throw std::logic_error(where + "keys are not strictly increasing at block " + std::to_string(had));
  const std::uint64_t at = offset_;
  write(run.bytes.data(), run.bytes.size());
  for (block_entry b : run.blocks) {
    b.offset += at;
    blocks_.push_back(b);
  }
  open_.last_key = run.last_key;
}

void tablebase_writer::end_level() {
  if (!open_.open) throw std::logic_error("tablebase_writer: a level ended that was not begun");
  const std::uint64_t had = blocks_.size() - open_.entry.first_block;
  if (had != open_.entry.blocks)
    throw std::logic_error("tablebase_writer: level " + std::to_string(open_.entry.level) + " ended with " +
                           std::to_string(had) + " of its " + std::to_string(open_.entry.blocks) + " blocks");
  levels_.push_back(open_.entry);
  open_.open = false;
}

void tablebase_writer::add_level_blocks(int level, std::uint64_t n, const block_filler& fill, const key_filler& keys) {
  const std::string where = "tablebase_writer: level " + std::to_string(level) + ": ";
  if (header_.keyed() && !keys && n > 0)
    throw std::logic_error(where + "index " + header_.index + " needs the level's keys");
  if (!header_.keyed() && keys)
    throw std::logic_error(where + "keys given but the index is " + header_.index + ", not " + kIndexKeys);
  // A batch of blocks compressed in parallel at a time, then written in order.
  const std::uint64_t batch = 256 * std::uint64_t{header_.block_entries};
  begin_level(level, n);
  try {
    for (std::uint64_t first = 0; first < n; first += batch) {
      const std::uint64_t count = std::min(batch, n - first);
      key_filler batch_keys;
      if (keys) batch_keys = [&](std::uint64_t f, std::uint64_t c, std::uint64_t* out) { keys(first + f, c, out); };
      append_blocks(compress_blocks(
          header_, count, [&](std::uint64_t f, std::uint64_t c, std::int64_t* v) { fill(first + f, c, v); },
          batch_keys));
    }
  } catch (...) {
    // The level is left out of the index (its blocks written so far stay
    // in the file unreferenced).
    blocks_.resize(open_.entry.first_block);
    open_.open = false;
    throw;
  }
  end_level();
}

std::string tablebase_writer::index_bytes() const { return encode_index(levels_, blocks_); }

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
  check_output_path(path_);  // again: a link may have appeared under the name while solving
  // Renamed while the lock is held, so that no other build of the same file
  // can take the partial file over between the last write and the rename.
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw resource_error("renaming '" + tmp_ + "' to '" + path_ + "' failed: " + std::strerror(errno));
  std::fclose(f_);
  f_ = nullptr;
  done_ = true;
}

}  // namespace cgtb
