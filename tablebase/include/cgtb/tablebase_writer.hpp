// Writing a .cgtb tablebase (docs/format.md) level by level, under a name
// that says it is partial until the file is complete; checkpoints that let a
// killed build be resumed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cgtb/tablebase_format.hpp"

namespace cgtb {

/// The name of a build's own files: "PATH.partial-" and the first 16 hex
/// digits of the XXH64 of the header text (docs/format.md, "Partial files
/// and checkpoints"). The same build (same output path, same header) has the
/// same name on any machine and in any process, so a resumed build finds its
/// files by the header alone. Suffixes: none (the partial file), ".ckpt"
/// (the checkpoint), ".keys" (the solver's saved level keys).
std::string build_file_name(const std::string& path, const tablebase_header& header);

/// A run of a level's blocks, packed and compressed but not yet in a file
/// (tablebase_writer::compress_blocks): each block's entry, its `offset`
/// being where its bytes start in `bytes`, and the blocks' bytes one after
/// another.
struct compressed_blocks {
  std::vector<block_entry> blocks;
  std::string bytes;
  std::uint64_t last_key = 0;  ///< keyed files: the key of the run's last entry
};

/// Writes a tablebase level by level to its build file name (PATH.partial-HASH,
/// build_file_name()) and renames it to PATH in finish(); a writer destroyed
/// before finish() removes its partial file, and a killed build leaves only
/// a file whose name says it is partial. The writer holds an exclusive lock
/// (flock) on its partial file while open: a second build of the same file
/// and header is refused while the first runs, and the lock goes with the
/// process however it ends.
/// @note While a writer is open, SIGINT, SIGTERM and SIGHUP remove its partial
/// file (a resumable writer's stays, with its checkpoint) and say so in one
/// line on stderr ("[cgtb] interrupted: ...") before taking their default
/// action (one writer at a time).
class tablebase_writer {
 public:
  /// Opens the partial file and writes the preamble; throws input_error if
  /// the file cannot be created, when a build of the same file and header is
  /// running, or when a resumable build of it left a checkpoint or saved keys
  /// (continue it with a resumable writer, or remove its files);
  /// std::logic_error if header.index is not a known scheme or a header value
  /// holds a line break.
  tablebase_writer(const std::string& path, tablebase_header header);
  /// Resumable writer (cgtb build --resume). If the folder of `path` holds the
  /// partial file and checkpoint (PATH.partial-HASH and PATH.partial-HASH.ckpt)
  /// of an earlier build of the same header, the writer continues after the
  /// last checkpointed level (resumed() is true); otherwise it starts afresh,
  /// keeping saved level keys (saved_keys_path()) that an earlier build of the
  /// same header left. A resumable writer keeps its partial file and
  /// checkpoint when it is destroyed unfinished or the build is interrupted
  /// by a signal, so that the build can be resumed. Throws input_error when a
  /// build of the same file is still running, or a checkpoint is unreadable.
  tablebase_writer(const std::string& path, tablebase_header header, bool resumable);
  ~tablebase_writer();
  /// Throws input_error when `path` cannot be a writer's output: empty, a
  /// symbolic link (dangling or not; links among its folders are followed), a
  /// folder or another file that is not regular, or in a folder this process
  /// may not write. The constructor and finish() check it; callers may check
  /// early, before any work.
  static void check_output_path(const std::string& path);
  tablebase_writer(const tablebase_writer&) = delete;
  tablebase_writer& operator=(const tablebase_writer&) = delete;

  /// Appends a level of n positions; get(i, f) returns field f of rank i as a
  /// signed 64-bit value (unsigned fields must be >= 0). Blocks are packed and
  /// compressed in parallel on the host. `keys` is as for add_level_blocks().
  void add_level(int level, std::uint64_t n, const std::function<std::int64_t(std::uint64_t, int)>& get,
                 const std::uint64_t* keys = nullptr);

  /// Fills values[f * count + j] with field f of ranks first..first+count-1.
  using block_filler = std::function<void(std::uint64_t first, std::uint64_t count, std::int64_t* values)>;
  /// Appends a level from a packer (faster than add_level for large levels).
  /// `keys` holds the level's n keys, strictly increasing (rank i has key
  /// keys[i]); it is required when the header's index is kIndexKeys and must
  /// be null otherwise. Throws std::logic_error on a missing, unexpected or
  /// non-increasing key list (before writing anything of the level).
  void add_level_blocks(int level, std::uint64_t n, const block_filler& fill, const std::uint64_t* keys = nullptr);
  /// Writes keys[j] = key of rank first + j, for j < count (ascending).
  using key_filler = std::function<void(std::uint64_t first, std::uint64_t count, std::uint64_t* keys)>;
  /// As above, with the keys made block by block (a level's keys need not
  /// all be in memory at once). Throws std::logic_error on keys that are not
  /// strictly increasing, when the block that shows it is made (the build
  /// then fails, and its partial file is removed).
  void add_level_blocks(int level, std::uint64_t n, const block_filler& fill, const key_filler& keys);

  /// Packs and compresses a run of n entries of a level as blocks of
  /// header.block_entries entries from the run's first (the last block
  /// shorter when n is not a multiple), in parallel on the host's threads:
  /// what add_level_blocks() writes of a level, for a run that starts a
  /// block, without a file. fill and keys take run-relative ranks; keys is
  /// required for keyed headers and must be empty otherwise. Throws
  /// std::logic_error on keys that are not strictly increasing or a missing
  /// or unexpected key list, resource_error when a block cannot be packed.
  static compressed_blocks compress_blocks(const tablebase_header& header, std::uint64_t n, const block_filler& fill,
                                           const key_filler& keys);
  /// Begins level `level` of n positions, whose blocks come in order from
  /// append_blocks() (e.g. from the ranks of a distributed build, each having
  /// compressed its own with compress_blocks()); end_level() ends it.
  void begin_level(int level, std::uint64_t n);
  /// Writes the next blocks of the level begun. Throws std::logic_error when
  /// no level is begun, when the blocks are more than the level has, or, for
  /// keyed files, when their keys do not follow the level's earlier blocks'.
  void append_blocks(const compressed_blocks& run);
  /// Ends the level begun; throws std::logic_error unless it holds exactly
  /// its ceil(n / block_entries) blocks.
  void end_level();

  /// Writes the index and trailer, flushes, and renames into place.
  void finish();

  std::uint64_t bytes_written() const { return offset_; }

  /// True when this writer continues a checkpointed build.
  bool resumed() const { return resumed_; }
  /// Levels already written (after a resume: those of the checkpoint).
  const std::vector<level_entry>& levels() const { return levels_; }
  /// Payload of the checkpoint resumed from (empty when not resumed, or
  /// after release_resumed_payload()).
  const std::string& resumed_payload() const { return payload_; }
  /// Frees the resumed payload once the builder has read it (it can be as
  /// large as a level's records).
  void release_resumed_payload() { std::string().swap(payload_); }
  /// A run of bytes of a checkpoint's payload, read in place.
  struct payload_piece {
    const void* data;
    std::size_t size;
  };
  /// Flushes the levels written so far to disk and replaces the checkpoint
  /// PATH.partial-HASH.ckpt (written to a temporary name and renamed) with the
  /// writer's state and the payload made of `pieces` in order (opaque bytes
  /// the builder needs to go on, e.g. the solver's records of the last
  /// level). The pieces are written where they lie, never copied, so a
  /// checkpoint costs no memory beside them. Resumable writers only; throws
  /// resource_error when the checkpoint cannot be written.
  void checkpoint(const std::vector<payload_piece>& pieces);
  /// PATH.partial-HASH.keys: where a resumable build keeps the keys its
  /// solver's forward pass finds before the first level (read again by a
  /// resumed build of the same header, with or without a checkpoint; removed
  /// when the file is finished).
  std::string saved_keys_path() const { return tmp_ + ".keys"; }

 private:
  void write(const void* p, std::size_t n);
  /// The file's first bytes: magic, version, header text and its XXH64
  /// (docs/format.md).
  std::string preamble() const;
  void write_preamble();
  /// The level and block tables, as the file's index holds them.
  std::string index_bytes() const;
  /// Opens (creating) the partial file and takes its lock; does not truncate.
  void open_partial();
  /// Closes the partial file when the constructor fails, removing it only
  /// where this writer created it.
  void close_partial_on_failure();
  /// Continues from the checkpoint of this build, if there is one.
  bool take_over_checkpoint();
  std::string ckpt_path() const { return tmp_ + ".ckpt"; }
  std::string path_, tmp_;
  tablebase_header header_;
  std::FILE* f_ = nullptr;
  std::uint64_t offset_ = 0;
  std::vector<level_entry> levels_;
  std::vector<block_entry> blocks_;
  /// The level begun (begin_level), while its blocks come.
  struct open_level {
    level_entry entry;
    std::uint64_t last_key = 0;  ///< keyed files: the last key of the blocks appended so far
    bool open = false;
  } open_;
  bool done_ = false;
  bool resumable_ = false, resumed_ = false;
  bool created_ = false;  ///< the partial file did not exist before this writer
  std::string payload_;
};
/// A resumable build split across MPI ranks (docs/distributed.md,
/// "Resuming"): where rank `rank` of `ranks` keeps what it needs to go on
/// after level `level`, beside the build's partial file:
/// build_file_name(path, header) + ".rank-R-of-P.L". The rank count is in
/// the name, so that a job of another size finds none.
std::string rank_checkpoint_path(const std::string& path, const tablebase_header& header, int rank, int ranks,
                                 int level);
/// Writes `pieces` (in order) to `file` as a rank checkpoint: magic
/// A file of `magic` (8 bytes), u64 payload length, the payload made of
/// `pieces` in order, and the XXH64 of what comes before; written to
/// FILE.tmp, flushed and renamed (a file is whole or absent). Throws
/// resource_error when it cannot be written.
void write_checksummed_file(const std::string& file, const char* magic,
                            const std::vector<tablebase_writer::payload_piece>& pieces);
/// The payload of a file write_checksummed_file wrote with `magic`; throws
/// corrupt_file_error, naming the file as a `what` ("rank checkpoint",
/// "transposition table file"), when it cannot be read, has another magic,
/// is truncated or fails its checksum.
std::string read_checksummed_file(const std::string& file, const char* magic, const std::string& what);
/// "CGTBRCK1", u64 payload length, the payload, XXH64 of what comes before;
/// to FILE.tmp, flushed and renamed. Throws resource_error when it cannot.
void write_rank_checkpoint(const std::string& file, const std::vector<tablebase_writer::payload_piece>& pieces);
/// The payload of a rank checkpoint; throws corrupt_file_error (naming the
/// file) when it is missing, truncated or fails its checksum: a damaged
/// checkpoint is never read as valid.
std::string read_rank_checkpoint(const std::string& file);
}  // namespace cgtb
