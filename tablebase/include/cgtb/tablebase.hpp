// The .cgtb tablebase file, format version 2 (docs/format.md): a checksummed
// preamble with a canonical text header, independently zstd-compressed blocks
// of bit-packed values (and, in keyed files, of the positions' keys), and an
// index (level table and block table) found through a fixed-size trailer at
// the end of the file. Readers also read version 1 files.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace cgtb {

/// Format version that writers write.
inline constexpr std::uint32_t kFormatVersion = 2;
/// Oldest format version that readers still read.
inline constexpr std::uint32_t kOldestFormatVersion = 1;
/// Index scheme: rank = the ruleset's own perfect hash of the position.
inline constexpr const char* kIndexRuleset = "ruleset/1";
/// Index scheme: rank = index of the position's key in the level's sorted
/// list of stored keys, which the file carries (one key plane per block).
inline constexpr const char* kIndexKeys = "keys/1";
/// Most fields a file may hold (readers size per-entry buffers by it).
inline constexpr std::size_t kMaxFields = 64;
/// Version of the program that writes files (goes into the header).
inline constexpr const char* kBuilderVersion = "cgtb 0.1.0";

/// A value field: one number per position, e.g. "grundy" or "genus3".
struct field_spec {
  std::string name;
  bool is_signed = false;  ///< stored zigzag-encoded when true
};

/// What the header says. `family` names the value family ("impartial",
/// "partizan", "scoring"), `values` the value kinds asked for.
struct tablebase_header {
  std::string ruleset;                ///< e.g. "cram"
  std::string params;                 ///< canonical parameter text, e.g. "4x5"
  std::string family;                 ///< value family
  std::string values;                 ///< e.g. "normal,misere,genus"
  std::vector<field_spec> fields;     ///< per-position fields, in storage order
  std::string index = kIndexRuleset;  ///< index scheme NAME/VERSION: kIndexRuleset or kIndexKeys
  std::string symmetry = "none";      ///< free text set by the game driver, e.g. "rectangle-4"
  std::string positions = "all";      ///< free text set by the game driver, e.g. "reachable"
  std::uint32_t block_entries = 4096;
  int zstd_level = 9;
  std::string builder = kBuilderVersion;

  /// Canonical text ("key: value" lines in a fixed order).
  std::string to_text() const;
  /// Parses canonical text; throws input_error naming the bad line.
  static tablebase_header from_text(const std::string& text);
  /// Index of a field by name, or -1.
  int field_index(const std::string& name) const;
  /// True when `index` is kIndexKeys (the file stores each level's keys).
  bool keyed() const { return index == kIndexKeys; }
};

/// True when `scheme` is an index scheme this library reads and writes.
bool known_index_scheme(const std::string& scheme);

/// One level of a file.
struct level_entry {
  int level = 0;
  std::uint64_t positions = 0;
  std::uint64_t first_block = 0;
  std::uint64_t blocks = 0;
};

/// One compressed block of a file.
struct block_entry {
  std::uint64_t offset = 0;
  std::uint32_t compressed_size = 0;
  std::uint32_t raw_size = 0;
  std::uint64_t checksum = 0;   ///< XXH64 (seed 0) of the compressed bytes
  std::uint64_t first_key = 0;  ///< key of the block's first entry (0 unless keyed)
};

/// Writes a tablebase level by level to PATH.partial-PID and renames it to
/// PATH in finish(); a writer destroyed before finish() removes its partial
/// file, and a killed build leaves only a file whose name says it is partial.
/// @note While a writer is open, SIGINT, SIGTERM and SIGHUP remove its partial
/// file before taking their default action (one writer at a time).
class tablebase_writer {
 public:
  /// Opens the temporary file and writes the preamble; throws input_error if
  /// the file cannot be created, std::logic_error if header.index is not a
  /// known scheme or a header value holds a line break.
  tablebase_writer(const std::string& path, tablebase_header header);
  /// Resumable writer (cgtb build --resume). If the folder of `path` holds the
  /// partial file and checkpoint (PATH.partial-PID and PATH.partial-PID.ckpt)
  /// of an earlier build of the same header whose process is gone, the writer
  /// takes both over under this process's PID and continues after the last
  /// checkpointed level (resumed() is true); otherwise it starts afresh. A
  /// resumable writer keeps its partial file and checkpoint when it is
  /// destroyed unfinished or the build is interrupted by a signal, so that the
  /// build can be resumed. Throws input_error when a build of the same file is
  /// still running, or a checkpoint is unreadable.
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
  /// PATH.partial-PID.ckpt (written to a temporary name and renamed) with the
  /// writer's state and the payload made of `pieces` in order (opaque bytes
  /// the builder needs to go on, e.g. the solver's records of the last
  /// level). The pieces are written where they lie, never copied, so a
  /// checkpoint costs no memory beside them. Resumable writers only; throws
  /// resource_error when the checkpoint cannot be written.
  void checkpoint(const std::vector<payload_piece>& pieces);
  /// PATH.partial-PID.keys: where a resumable build keeps the keys its
  /// solver's forward pass finds before the first level (taken over with the
  /// checkpoint, or alone where a build was killed before its first
  /// checkpoint; removed when the file is finished).
  std::string saved_keys_path() const { return tmp_ + ".keys"; }

 private:
  void write(const void* p, std::size_t n);
  /// The file's first bytes: magic, version, header text and its XXH64
  /// (docs/format.md).
  std::string preamble() const;
  void write_preamble();
  /// The level and block tables, as the file's index holds them.
  std::string index_bytes() const;
  void take_over_saved_keys();
  bool take_over_checkpoint();
  std::string ckpt_path() const { return tmp_ + ".ckpt"; }
  std::string path_, tmp_;
  tablebase_header header_;
  std::FILE* f_ = nullptr;
  std::uint64_t offset_ = 0;
  std::vector<level_entry> levels_;
  std::vector<block_entry> blocks_;
  bool done_ = false;
  bool resumable_ = false, resumed_ = false;
  std::string payload_;
};

/// A decompressed block: values of `count` consecutive ranks.
struct decoded_block {
  std::uint64_t first = 0;  ///< rank of its first entry within the level
  std::uint32_t count = 0;
  std::vector<std::uint8_t> widths;        ///< bits per value, per field (the key plane's width not included)
  std::vector<std::uint64_t> plane_start;  ///< bit offset of each field's plane
  std::vector<std::uint8_t> bytes;         ///< raw block, with 16 bytes of padding
  std::vector<bool> is_signed;
  std::vector<std::uint64_t> keys;  ///< absolute key of each entry (keyed files), else empty

  /// Field f of the entry with rank first + i.
  std::int64_t get(std::uint32_t i, int f) const;
};

/// A tablebase opened for reading. Opening checks the magic, version,
/// preamble and index checksums; each block's checksum is checked when it is
/// first read. Every problem is reported as input_error naming the file and
/// what is wrong.
class tablebase {
 public:
  explicit tablebase(const std::string& path, std::size_t cache_bytes = std::size_t{1} << 30);
  ~tablebase();
  tablebase(const tablebase&) = delete;
  tablebase& operator=(const tablebase&) = delete;

  const tablebase_header& header() const { return header_; }
  const std::vector<level_entry>& levels() const { return levels_; }
  const std::vector<block_entry>& blocks() const { return blocks_; }
  std::uint64_t file_size() const { return size_; }
  const std::string& path() const { return path_; }
  /// Format version of the file (1 or 2).
  std::uint32_t format_version() const { return version_; }
  /// True when the file stores keys (index scheme kIndexKeys).
  bool keyed() const { return keyed_; }

  /// The level entry of `level`, or nullptr if the file does not hold it.
  const level_entry* find_level(int level) const;
  /// Field f of the position of rank r on level L; throws input_error if the
  /// file holds no such level or rank.
  std::int64_t value(int level, std::uint64_t rank, int field);
  /// Every field of the position of rank r on level L, in header order, into
  /// out[0 .. fields.size()). One block lookup; throws like value().
  void entry(int level, std::uint64_t rank, std::int64_t* out);
  /// Rank of the position with key `key` on level L, or -1 when the level does
  /// not store that key. Throws input_error if the file holds no such level or
  /// is not keyed. A binary search over the level's block first keys (held in
  /// memory), then over the cached block's decoded keys.
  std::int64_t rank_of_key(int level, std::uint64_t key);
  /// Rank at which the file stores the position of index key `key` on level
  /// L (a position_ref's rank: the rank itself for ruleset-indexed files, the
  /// file key for keyed ones), or -1 when the file holds no such level or
  /// position. Never throws for a missing position.
  std::int64_t stored_rank(int level, std::uint64_t key);
  /// Key of the position of rank r on level L; throws like value(), and
  /// input_error if the file is not keyed.
  std::uint64_t key_of(int level, std::uint64_t rank);
  /// Decompresses and checks block b (uncached).
  decoded_block read_block(std::uint64_t b) const;
  /// Checks block b's checksum and that it decodes; returns an empty string or
  /// the problem.
  std::string check_block(std::uint64_t b) const;

 private:
  const decoded_block& cached_block(std::uint64_t b);
  const decoded_block& block_of(int level, std::uint64_t rank, std::uint32_t& index);
  const decoded_block& use_block(std::uint64_t b);
  const level_entry& level_or_throw(int level) const;
  void require_keys() const;
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint32_t version_ = 0;
  bool keyed_ = false;
  tablebase_header header_;
  std::vector<level_entry> levels_;
  std::vector<block_entry> blocks_;
  std::vector<std::uint64_t> first_keys_;  // blocks_[b].first_key, contiguous for the binary search
  std::vector<int> level_slot_;            // level -> index into levels_, -1 if absent
  std::size_t cache_bytes_, cached_ = 0;
  std::list<std::uint64_t> lru_;
  std::uint64_t last_block_ = ~0ull;  // most recently used block
  const decoded_block* last_ = nullptr;
  std::unordered_map<std::uint64_t, std::pair<decoded_block, std::list<std::uint64_t>::iterator>> cache_;
};

}  // namespace cgtb
