// The sources of the components of a sum (private to host/src/misere/): the
// one interface the sum search (sum_search.cpp) asks about a component,
// whatever its kind, one implementation per kind (a Nim heap, a position of
// a tablebase file, a Cram region with no table, an octal heap with no
// table), and the one lookup from a component's code to its source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cgtb/genus.hpp"
#include "cgtb/misere_sum.hpp"

namespace cgtb::misere_detail {

/// A component position packed in 64 bits: its file's number in the top 8
/// bits (kHeapFile, a tablebase file 1..kMaxTableFiles, kOctalFile or
/// kRegionFile), its level in the next 8, its index key (the rank, or the
/// file key of keyed tables; a heap's size) in the low 48. Codes are stored
/// in memos and handed to callers of sum_solver, so the format is fixed.
using component = std::uint64_t;
constexpr int kKeyBits = 48;
constexpr std::uint64_t kKeyMask = (std::uint64_t{1} << kKeyBits) - 1;
/// File number of Nim heaps (level 0, the key the heap's size).
constexpr unsigned kHeapFile = 0;
/// Tablebase files take the numbers 1..kMaxTableFiles.
constexpr unsigned kMaxTableFiles = 253;
/// File number of octal heaps given as `octal:CODE:HEAPS` (no table): the
/// level byte is the code's number in the solver, the key the heap's size.
constexpr unsigned kOctalFile = 254;
/// File number of Cram regions given as `cram:POSITION` (no table): the low
/// 56 bits are the region's cram_region_key.
constexpr unsigned kRegionFile = 255;

/// The code of (file, level, key); `key` must fit kKeyBits.
constexpr component pack(unsigned file, int level, std::uint64_t key) {
  return (std::uint64_t{file} << 56) | (static_cast<std::uint64_t>(level & 0xff) << kKeyBits) | key;
}
constexpr unsigned file_of(component c) { return static_cast<unsigned>(c >> 56); }
constexpr int level_of(component c) { return static_cast<int>((c >> kKeyBits) & 0xff); }
constexpr std::uint64_t key_of(component c) { return c & kKeyMask; }
/// The code of a Nim heap of n (n >= 1); heaps sort before every other kind.
constexpr component nim_heap_component(std::uint64_t n) { return pack(kHeapFile, 0, n); }

/// Genus shape of a component: what the tame sum rule needs.
enum class shape : std::uint8_t { unknown, wild, fickle, firm };
/// Hereditary tameness, found on demand.
enum class heredity : std::uint8_t { unknown, in_progress, tame, not_tame };

/// What the search knows of one component position.
struct component_info {
  std::uint32_t first_option = 0;  ///< offset of its options in the option arena
  std::uint32_t options = 0;       ///< number of options
  std::int64_t grundy = -1;        ///< -1 when not known (yet)
  std::int16_t misere = -1;        ///< -1 when not known (yet)
  shape kind = shape::unknown;
  heredity hereditary = heredity::unknown;
  std::uint8_t run[8] = {};  ///< gamma_0..gamma_7 when the genus is known
  bool has_run = false;
  bool genus_tried = false;  ///< components with no table: the genus search has run
};

/// Records a known genus in `ci`: its run gamma_0..gamma_7 and its shape
/// (wild, or tame and firm when its settle index is 0, else fickle; Winning
/// Ways ch. 13). The misère value is left as it is.
void set_genus(component_info& ci, const genus& gn);

/// The option arena of the search: per option, its number of parts, then
/// the parts (components; those with no move are kept here and dropped by
/// the search).
using option_arena = std::vector<component>;

/// Writes one component's options into the option arena.
class option_writer {
 public:
  /// Starts the options of `ci` at the arena's end (sets ci.first_option).
  option_writer(option_arena& arena, component_info& ci);
  /// Starts a new option with no part yet.
  void begin_option();
  /// Adds a part to the option begun last.
  void add_part(component p);
  /// Ends the list. Throws resource_error when the arena has outgrown the
  /// 32-bit offsets of component_info.
  void finish() const;

 private:
  option_arena& arena_;
  component_info& ci_;
  std::size_t head_ = 0;
};

/// The search core's answer to "has this component a move?" (generating its
/// options on the way, once).
using has_move_fn = std::function<bool(component)>;

/// Called once per move of a term: the move's name, the term after it, and
/// the components the term leaves (those with no move left out).
using term_move_fn =
    std::function<void(const std::string& move, const std::string& after, const std::vector<component>& parts)>;

/// A term of a sum as written, read by its source.
class sum_term {
 public:
  virtual ~sum_term() = default;
  std::string text;              ///< the term as given
  std::vector<component> parts;  ///< the components it stands for (those with no move left out)
  /// Calls f for every move of the term, in the order `cgtb sum` lists
  /// winning moves; equal heaps of one term are moved once.
  virtual void for_each_move(const term_move_fn& f) = 0;
};

/// A kind of sum component: reads terms of its syntax and tells the search
/// what it knows of its components.
class component_source {
 public:
  virtual ~component_source() = default;
  /// True when `raw` is written in this source's term syntax.
  virtual bool accepts(const std::string& raw) const = 0;
  /// Reads a term this source accepts. Throws input_error for a malformed
  /// term or a position the source does not hold.
  virtual std::unique_ptr<sum_term> parse(const std::string& raw) = 0;
  /// What is known of component c without a search: its stored values
  /// (Grundy value, misère value, genus), and its options, written to
  /// `arena` (see option_writer), unless generates_options. Throws
  /// resource_error when the arena is full.
  virtual component_info describe(component c, option_arena& arena) = 0;
  /// True when the options of this source's components are made on the fly
  /// (generated_option) instead of stored in the arena: Nim heaps, whose
  /// heap of n has n options.
  virtual bool generates_options() const { return false; }
  /// Number of options of c, when generates_options.
  virtual std::uint64_t generated_options(component c) const;
  /// Appends the parts option k (0-based) of c leaves to `parts`, when
  /// generates_options; every part has a move.
  virtual void generated_option(component c, std::uint64_t k, std::vector<component>& parts) const;
  /// The normal-play Grundy value of c when it is known without describe
  /// (a Nim heap's size), else -1.
  virtual std::int64_t plain_grundy(component c) const;
  /// True when this source stores no genus and the search finds it
  /// (sources with no table).
  virtual bool genus_searched() const { return false; }
  /// True when c is small enough for that genus search.
  virtual bool genus_within_reach(component c) const;
};

/// The Nim heap source: terms `*n` (0 <= n <= 1000000).
std::unique_ptr<component_source> make_nim_heap_source();
/// The tablebase source: terms `FILE:POSITION` of impartial tablebases
/// (files opened with `set`'s cache size and checked for the values `set`'s
/// conventions need).
std::unique_ptr<component_source> make_table_source(const sum_settings& set, has_move_fn has_move);
/// The Cram region source: terms `cram:POSITION` (no table).
std::unique_ptr<component_source> make_cram_region_source();
/// The octal heap source: terms `octal:CODE:HEAPS` (no table).
std::unique_ptr<component_source> make_octal_heap_source(has_move_fn has_move);

/// The sources of one solver.
class component_sources {
 public:
  /// `has_move` is the search core's test (the table and octal sources
  /// leave out parts with no move).
  component_sources(const sum_settings& set, const has_move_fn& has_move);
  /// The source of component c: the one dispatch on its file number.
  component_source& of(component c) const;
  /// Reads a term with the first source that accepts its syntax (a Nim heap,
  /// a Cram region, an octal heap list, else a tablebase position). Throws
  /// as component_source::parse.
  std::unique_ptr<sum_term> parse(const std::string& raw) const;

 private:
  std::unique_ptr<component_source> heap_, region_, octal_, table_;
};

}  // namespace cgtb::misere_detail
