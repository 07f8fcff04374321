// Disjunctive sums under normal and misère play (cgtb/misere_sum.hpp).
#include "cgtb/misere_sum.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "cgtb/cram_region.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/games/octal.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

namespace {

/// A component position packed in 64 bits: its file's number (0 = a Nim
/// heap) in the top 8 bits, its level in the next 8, its index key (the rank,
/// or the file key of keyed tables; a heap's size) in the low 48.
using component = std::uint64_t;
constexpr int kKeyBits = 48;
constexpr std::uint64_t kKeyMask = (std::uint64_t{1} << kKeyBits) - 1;

constexpr component pack(unsigned file, int level, std::uint64_t key) {
  return (std::uint64_t{file} << 56) | (static_cast<std::uint64_t>(level & 0xff) << kKeyBits) | key;
}
/// File number of Cram regions given as `cram:POSITION` (no table): the
/// low 56 bits are the region's cram_region_key.
constexpr unsigned kRegionFile = 255;
constexpr component region_component(const cram_region& r) {
  return (std::uint64_t{kRegionFile} << 56) | (static_cast<std::uint64_t>(r.rows) << 52) |
         (static_cast<std::uint64_t>(r.cols) << 48) | r.mask;
}
/// File number of octal heaps given as `octal:CODE:HEAPS` (no table): the
/// level byte is the code's number in the solver, the key the heap's size.
constexpr unsigned kOctalFile = 254;
/// Largest heap of an `octal:` term (a heap of n has up to about n^2/4
/// options, made once per heap size).
constexpr int kMaxOctalHeap = 4096;
constexpr unsigned file_of(component c) { return static_cast<unsigned>(c >> 56); }
constexpr int level_of(component c) { return static_cast<int>((c >> kKeyBits) & 0xff); }
constexpr std::uint64_t key_of(component c) { return c & kKeyMask; }

/// Genus shape of a component: what the tame sum rule needs.
enum class shape : std::uint8_t { unknown, wild, fickle, firm };
/// Hereditary tameness, found on demand.
enum class heredity : std::uint8_t { unknown, in_progress, tame, not_tame };

/// What the solver knows of one component position.
struct component_info {
  std::uint32_t first_option = 0;  ///< offset of its options in the option arena
  std::uint32_t options = 0;       ///< number of options
  std::int64_t grundy = -1;        ///< -1 when the file has no normal values
  std::int16_t misere = -1;        ///< -1 when the file has no misère values
  shape kind = shape::unknown;
  heredity hereditary = heredity::unknown;
  std::uint8_t run[8] = {};  ///< gamma_0..gamma_7 when the file holds the genus
  bool has_run = false;
  bool genus_tried = false;  ///< components with no table: searched_genus has run
};

/// A tablebase file opened for sums.
struct sum_file {
  std::string path;
  std::unique_ptr<tablebase> tb;
  std::unique_ptr<game_driver> drv;
  int grundy = -1, misere = -1;
  bool genus = false;
  std::vector<std::int64_t> scratch;
};

/// Sums already decided: each a sorted list of components with its outcome,
/// in one arena, found by open addressing over full keys (no false match).
class sum_memo {
 public:
  /// 1 = the player to move wins, 0 = loses, -1 = not in the memo.
  int find(const component* s, std::size_t n) const {
    if (slots_.empty()) return -1;
    const std::uint64_t h = hash(s, n);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const std::uint64_t e = slots_[i];
      if (!e) return -1;
      const std::uint64_t off = (e & kOffsetMask) - 1;
      if ((e >> 40) == (h >> 40) && same(off, s, n)) return static_cast<int>(arena_[off] & 1);
    }
  }
  void insert(const component* s, std::size_t n, bool win) {
    if ((entries_ + 1) * 2 > slots_.size()) grow();
    const std::uint64_t h = hash(s, n);
    const std::uint64_t off = arena_.size();
    arena_.push_back((static_cast<std::uint64_t>(n) << 1) | (win ? 1 : 0));
    arena_.insert(arena_.end(), s, s + n);
    std::size_t i = h & mask_;
    while (slots_[i]) i = (i + 1) & mask_;
    slots_[i] = (h >> 40 << 40) | (off + 1);
    ++entries_;
  }
  void clear() {
    std::vector<std::uint64_t>().swap(slots_);
    std::vector<std::uint64_t>().swap(arena_);
    entries_ = 0;
    mask_ = 0;
  }
  std::size_t entries() const { return entries_; }
  std::size_t bytes() const { return (slots_.capacity() + arena_.capacity()) * sizeof(std::uint64_t); }

 private:
  static constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << 40) - 1;
  static std::uint64_t hash(const component* s, std::size_t n) {
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (std::size_t i = 0; i < n; ++i) {
      h ^= s[i];
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
  }
  bool same(std::uint64_t off, const component* s, std::size_t n) const {
    if ((arena_[off] >> 1) != n) return false;
    return std::equal(s, s + n, arena_.begin() + static_cast<std::ptrdiff_t>(off + 1));
  }
  void grow() {
    const std::size_t size = slots_.empty() ? 1024 : slots_.size() * 2;
    std::vector<std::uint64_t> old(size, 0);
    old.swap(slots_);
    mask_ = size - 1;
    for (std::uint64_t e : old) {
      if (!e) continue;
      const std::uint64_t off = (e & kOffsetMask) - 1;
      std::size_t i = hash(&arena_[off + 1], arena_[off] >> 1) & mask_;
      while (slots_[i]) i = (i + 1) & mask_;
      slots_[i] = e;
    }
  }
  std::vector<std::uint64_t> slots_;  // (hash tag << 40) | (arena offset + 1); 0 = empty
  std::vector<std::uint64_t> arena_;
  std::size_t entries_ = 0, mask_ = 0;
};

/// Largest Nim heap a term may be (a heap of n has n options).
constexpr std::uint64_t kMaxHeap = 1000000;

/// Misère Grundy value of a Nim heap of n (misère Nim, Winning Ways ch. 13).
std::int64_t misere_heap(std::uint64_t n) { return n == 0 ? 1 : n == 1 ? 0 : static_cast<std::int64_t>(n); }

}  // namespace

std::string sum_answer_json(const sum_answer& a) {
  auto moves_json = [](const std::vector<sum_move>& ms) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& m : ms) list.push_back({{"term", m.term}, {"move", m.move}, {"after", m.after}});
    return list;
  };
  nlohmann::ordered_json j;
  j["sum"] = a.text;
  if (a.normal) {
    j["grundy"] = a.grundy;
    j["normal_outcome"] = std::string(1, a.normal_outcome);
    if (a.moves_listed) j["normal_winning_moves"] = moves_json(a.normal_winning);
  }
  if (a.misere) {
    j["misere_outcome"] = std::string(1, a.misere_outcome);
    if (a.moves_listed) j["misere_winning_moves"] = moves_json(a.misere_winning);
  }
  j["searched"] = a.searched;
  return json_text(j);
}

std::vector<std::string> split_sum_terms(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i && line.compare(i, j - i, "+") != 0) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

struct sum_solver::impl {
  explicit impl(sum_settings s) : set(s) {}

  /// A term as given: its parts (components; a heap list of a sequence
  /// table splits), and how to list its moves.
  struct term {
    std::string text;
    unsigned file = 0;  ///< 0 = a Nim heap
    std::uint64_t heap = 0;
    position_ref ref;         ///< the position as the user wrote it (file terms)
    int rows = 0, cols = 0;   ///< region terms (file kRegionFile): the board as written
    std::uint64_t cells = 0;  ///< and its empty cells
    unsigned code = 0;        ///< octal terms (file kOctalFile): the code's number
    std::vector<int> heaps;   ///< and the heaps as written
    std::vector<component> parts;
  };

  sum_settings set;
  std::vector<sum_file> files;        // files[0] unused: number 0 is the Nim heap
  std::map<int, cram> region_boards;  // rows * 64 + cols -> the Cram ruleset on that board
  std::map<std::string, unsigned> file_numbers;
  std::vector<take_break> octal_codes;                     // octal terms: the codes met, by number
  std::unordered_map<component, std::uint32_t> q_element;  // shortcut (4): a proven quotient
  std::vector<std::uint32_t> q_table;
  std::vector<char> q_p;
  std::uint32_t q_order = 0;
  std::unordered_map<component, component_info> info;
  std::vector<component> option_arena;  // per option: count, then its parts
  sum_memo memo;
  sum_stats st;

  // ------------------------------------------------------------ the terms

  sum_file& open_file(const std::string& path, unsigned& number) {
    auto it = file_numbers.find(path);
    if (it != file_numbers.end()) {
      number = it->second;
      return files[number];
    }
    if (files.empty()) files.emplace_back();
    if (files.size() >= kOctalFile) throw input_error("a sum may draw on at most 253 tablebase files");
    sum_file f;
    f.path = path;
    f.tb = std::make_unique<tablebase>(path, set.cache_bytes);
    const auto& h = f.tb->header();
    if (h.family != "impartial")
      throw input_error("'" + path + "' is a " + h.family + " tablebase (" + h.ruleset +
                        "); cgtb sum takes impartial tablebases");
    f.drv = driver_for_header(h);
    f.grundy = h.field_index(cgtb::field_name::grundy);
    f.misere = h.field_index(cgtb::field_name::misere);
    f.genus = has_genus_fields(h);
    f.scratch.resize(h.fields.size());
    if (set.normal && f.grundy < 0)
      throw input_error("'" + path + "' holds no normal-play Grundy values; build it with --values normal (or all)");
    if (set.misere && f.misere < 0)
      throw input_error("'" + path + "' holds normal-play values only (" + h.ruleset + " " + h.params +
                        "); misère sums need misère values: build the table with --values misere or all" +
                        (h.ruleset == "octal" ? " and --max-total" : "") + ", or ask for --play normal");
    number = static_cast<unsigned>(files.size());
    file_numbers[path] = number;
    files.push_back(std::move(f));
    return files.back();
  }

  component pack_ref(unsigned file, const position_ref& r) {
    if (r.level < 0 || r.level > 255 || r.rank > kKeyMask)
      throw input_error("position '" + r.text + "' of '" + files[file].path + "' is past the sum search's index range");
    return pack(file, r.level, r.rank);
  }

  term parse_term(const std::string& raw) {
    term t;
    t.text = raw;
    if (!raw.empty() && raw[0] == '*') {
      const std::string digits = raw.substr(1);
      if (digits.empty() || digits.size() > 7 ||
          !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }) ||
          std::stoull(digits) > kMaxHeap)
        throw input_error("heap '" + raw + "' is not *n with n a number from 0 to " + std::to_string(kMaxHeap));
      t.heap = std::stoull(digits);
      if (t.heap) t.parts.push_back(pack(0, 0, t.heap));
      return t;
    }
    if (raw.rfind("cram:", 0) == 0) {
      const std::string text = raw.substr(5);
      t.file = kRegionFile;
      t.cols = static_cast<int>(text.find('/') == std::string::npos ? text.size() : text.find('/'));
      t.rows = static_cast<int>(std::count(text.begin(), text.end(), '/')) + 1;
      if (t.cols < 1 || t.rows * t.cols > 64)
        throw input_error("Cram region '" + text + "': write 1 to 64 cells, rows of equal length joined by '/'");
      t.cells = board(t.rows, t.cols).parse(text);
      for (const cram_region& r : region_parts(t.rows, t.cols, t.cells))
        if (r.cells() >= 2) t.parts.push_back(region_component(r));
      return t;
    }
    if (raw.rfind("octal:", 0) == 0) return parse_octal_term(raw);
    const std::size_t colon = raw.rfind(':');
    if (colon == std::string::npos || colon == 0)
      throw input_error("term '" + raw + "' is neither FILE:POSITION nor a Nim heap *n");
    sum_file& f = open_file(raw.substr(0, colon), t.file);
    t.ref = f.drv->parse(raw.substr(colon + 1));
    for (const position_ref& c : f.drv->components(t.ref)) {
      const component k = pack_ref(t.file, c);
      stored_rank(k, raw.substr(colon + 1));  // refuses a position the file does not hold
      if (options_of(k).second) t.parts.push_back(k);
    }
    return t;
  }

  /// `octal:CODE:HEAPS`: heaps of an octal game with no table, HEAPS one
  /// heap size or several joined by ','.
  term parse_octal_term(const std::string& raw) {
    term t;
    t.text = raw;
    t.file = kOctalFile;
    const std::size_t colon = raw.find(':', 6);
    if (colon == std::string::npos)
      throw input_error("octal term '" + raw + "' is not octal:CODE:HEAPS (e.g. octal:0.07:5 or octal:0.77:3,4)");
    const take_break code = take_break::parse_octal(raw.substr(6, colon - 6));
    t.code = octal_number(code);
    const std::string list = raw.substr(colon + 1);
    std::size_t i = 0;
    do {
      const std::size_t j = std::min(list.find(',', i), list.size());
      const std::string h = list.substr(i, j - i);
      if (h.empty() || h.size() > 4 ||
          !std::all_of(h.begin(), h.end(), [](unsigned char c) { return std::isdigit(c); }) ||
          std::stoi(h) > kMaxOctalHeap)
        throw input_error("octal term '" + raw + "': '" + h + "' is not a heap size from 0 to " +
                          std::to_string(kMaxOctalHeap));
      t.heaps.push_back(std::stoi(h));
      i = j + 1;
    } while (i <= list.size());
    for (int h : t.heaps) {
      const component k = pack(kOctalFile, static_cast<int>(t.code), static_cast<std::uint64_t>(h));
      if (h && options_of(k).second) t.parts.push_back(k);
    }
    return t;
  }

  /// The number of an octal code in this solver (given one the first time it is met).
  unsigned octal_number(const take_break& code) {
    for (std::size_t i = 0; i < octal_codes.size(); ++i)
      if (octal_codes[i].octal_text() == code.octal_text()) return static_cast<unsigned>(i);
    if (octal_codes.size() >= 256) throw input_error("a sum may use at most 256 octal codes");
    octal_codes.push_back(code);
    return static_cast<unsigned>(octal_codes.size() - 1);
  }

  /// The heaps an octal heap component a leaves by move (b, c) (see
  /// take_break::for_each_move), as components.
  static void octal_parts(component a, int b, int c, std::vector<component>& out) {
    const unsigned code = static_cast<unsigned>(level_of(a));
    if (b) out.push_back(pack(kOctalFile, static_cast<int>(code), static_cast<std::uint64_t>(b)));
    if (c) out.push_back(pack(kOctalFile, static_cast<int>(code), static_cast<std::uint64_t>(c)));
  }

  /// The Cram ruleset on a rows x cols board (made once).
  const cram& board(int rows, int cols) {
    auto it = region_boards.find(rows * 64 + cols);
    if (it == region_boards.end()) it = region_boards.emplace(rows * 64 + cols, cram(rows, cols)).first;
    return it->second;
  }

  /// Where the file of component c stores it; throws input_error naming
  /// `text` when it does not.
  std::uint64_t stored_rank(component c, const std::string& text) {
    sum_file& f = files[file_of(c)];
    const std::int64_t r = f.tb->stored_rank(level_of(c), key_of(c));
    if (r < 0) throw input_error("position '" + text + "' is not in '" + f.path + "'");
    return static_cast<std::uint64_t>(r);
  }

  // ------------------------------------------------------- the components

  component_info& info_of(component c) {
    auto it = info.find(c);
    if (it != info.end()) return it->second;
    component_info ci;
    if (file_of(c) == 0) {
      const std::uint64_t n = key_of(c);
      ci.grundy = static_cast<std::int64_t>(n);
      ci.misere = static_cast<std::int16_t>(std::min<std::int64_t>(misere_heap(n), 32767));
      ci.kind = n >= 2 ? shape::firm : shape::fickle;
      ci.hereditary = heredity::tame;
      ci.options = static_cast<std::uint32_t>(n);  // *n -> *m, m < n: made on the fly (for_each_child)
    } else if (file_of(c) == kRegionFile) {
      // No stored values: Grundy value on demand (grundy_of), no misère value or genus.
      const cram_region r = cram_region_of_key(c & ((std::uint64_t{1} << 56) - 1));
      ci.first_option = static_cast<std::uint32_t>(option_arena.size());
      for (const domino_move& m : board(r.rows, r.cols).moves(r.mask)) {
        const std::size_t head = option_arena.size();
        option_arena.push_back(0);
        for (const cram_region& p : region_parts(r.rows, r.cols, m.after))
          if (p.cells() >= 2) {  // a single cell has no move: the game 0
            option_arena.push_back(region_component(p));
            ++option_arena[head];
          }
        ++ci.options;
      }
    } else if (file_of(c) == kOctalFile) {
      // No stored values, as for regions: Grundy value and genus on demand.
      ci.first_option = static_cast<std::uint32_t>(option_arena.size());
      std::vector<component> parts;
      octal_codes[static_cast<std::size_t>(level_of(c))].for_each_move(
          static_cast<int>(key_of(c)), [&](int b, int d, std::int32_t) {
            parts.clear();
            octal_parts(c, b, d, parts);
            option_arena.push_back(parts.size());
            option_arena.insert(option_arena.end(), parts.begin(), parts.end());
            ++ci.options;
          });
      if (option_arena.size() > 0xffffffffu) throw resource_error("the sum search's option cache is full");
    } else {
      sum_file& f = files[file_of(c)];
      const std::string text = f.drv->format(level_of(c), key_of(c));
      f.tb->entry(level_of(c), stored_rank(c, text), f.scratch.data());
      if (f.grundy >= 0) ci.grundy = f.scratch[static_cast<std::size_t>(f.grundy)];
      if (f.misere >= 0) ci.misere = static_cast<std::int16_t>(f.scratch[static_cast<std::size_t>(f.misere)]);
      if (f.genus) {
        const genus gn = genus_of([&](int k) { return f.scratch[static_cast<std::size_t>(k)]; }, f.grundy, f.misere);
        for (int k = 0; k < 8; ++k) ci.run[k] = static_cast<std::uint8_t>(gn.run[static_cast<std::size_t>(k)]);
        ci.has_run = true;
        ci.kind = !gn.tame() ? shape::wild : gn.settle_index() == 0 ? shape::firm : shape::fickle;
      }
      ci.first_option = static_cast<std::uint32_t>(option_arena.size());
      for (const option_ref& o : f.drv->options({level_of(c), key_of(c), text})) {
        const std::size_t head = option_arena.size();
        option_arena.push_back(0);
        for (const position_ref& p : f.drv->components(o.after)) {
          option_arena.push_back(pack_ref(file_of(c), p));
          ++option_arena[head];
        }
        ++ci.options;
      }
      if (option_arena.size() > 0xffffffffu) throw resource_error("the sum search's option cache is full");
    }
    ++st.components;
    return info.emplace(c, ci).first->second;
  }

  /// (first option offset, option count) of c.
  std::pair<std::uint32_t, std::uint32_t> options_of(component c) {
    const component_info& ci = info_of(c);
    return {ci.first_option, ci.options};
  }

  /// Cram regions of up to this many cells, and octal heaps of up to
  /// kHeapGenusBeans, get their genus the first time a shortcut asks
  /// (misère value searches of the component beside 0..7 heaps of *2, every
  /// option searched); larger ones are searched without it.
  static constexpr int kRegionGenusCells = 12;
  static constexpr std::uint64_t kHeapGenusBeans = 24;

  /// Genus of the sum s: its nim-sum and gamma_k = G-(s + k*2), k = 0..7
  /// (Winning Ways ch. 13), every value searched.
  genus genus_of_sum(std::vector<component> s) {
    genus gn;
    gn.g = static_cast<unsigned>(nim_sum(s));
    std::sort(s.begin(), s.end());
    for (int k = 0; k <= 7; ++k) {
      gn.run.push_back(misere_value(s));
      s.insert(s.begin(), pack(0, 0, 2));  // heaps sort first
    }
    return gn;
  }

  /// Fills in the genus of a component with no table (a Cram region or an
  /// octal heap; no-op for others).
  void searched_genus(component c) {
    if (file_of(c) != kRegionFile && file_of(c) != kOctalFile) return;
    component_info& ci = info_of(c);
    if (ci.genus_tried) return;
    ci.genus_tried = true;
    if (file_of(c) == kRegionFile ? cram_region_of_key(c & ((std::uint64_t{1} << 56) - 1)).cells() > kRegionGenusCells
                                  : key_of(c) > kHeapGenusBeans)
      return;
    const genus gn = genus_of_sum({c});
    component_info& done = info_of(c);
    for (int k = 0; k < 8; ++k) done.run[k] = static_cast<std::uint8_t>(gn.run[static_cast<std::size_t>(k)]);
    done.has_run = true;
    done.misere = static_cast<std::int16_t>(gn.run[0]);
    done.kind = !gn.tame() ? shape::wild : gn.settle_index() == 0 ? shape::firm : shape::fickle;
  }

  /// True when c and every position it can reach are tame.
  bool hereditarily_tame(component c) {
    searched_genus(c);
    component_info& ci = info_of(c);
    if (ci.hereditary == heredity::tame) return true;
    if (ci.hereditary != heredity::unknown) return false;
    if (ci.kind != shape::fickle && ci.kind != shape::firm) {
      ci.hereditary = heredity::not_tame;
      return false;
    }
    ci.hereditary = heredity::in_progress;
    const std::uint32_t first = ci.first_option, n = ci.options;
    bool tame = true;
    std::uint32_t at = first;
    for (std::uint32_t i = 0; i < n && tame; ++i) {
      const std::uint64_t parts = option_arena[at++];
      for (std::uint64_t j = 0; j < parts && tame; ++j) tame = hereditarily_tame(option_arena[at + j]);
      at += static_cast<std::uint32_t>(parts);
    }
    info_of(c).hereditary = tame ? heredity::tame : heredity::not_tame;
    return tame;
  }

  // ------------------------------------------------------------ the search

  /// The theorems of sum_solver's docstring: 1 = the mover wins, 0 = loses,
  /// -1 = no shortcut applies. `s` is sorted, without terminal components.
  int shortcut(const component* s, std::size_t n) {
    if (q_order) {
      std::uint32_t x = 0;
      std::size_t i = 0;
      for (; i < n; ++i) {
        const auto it = q_element.find(s[i]);
        if (it == q_element.end()) break;
        x = q_table[static_cast<std::size_t>(x) * q_order + it->second];
      }
      if (i == n) {
        ++st.by_quotient;
        return q_p[x] ? 0 : 1;
      }
    }
    for (std::size_t i = 0; i < n; ++i) searched_genus(s[i]);
    if (n == 1 && info_of(s[0]).misere >= 0) {
      ++st.by_value;
      return info_of(s[0]).misere != 0;
    }
    // X beside k heaps of *2 (the sort puts heaps, file 0, first).
    std::size_t twos = 0;
    while (twos < n && s[twos] == pack(0, 0, 2)) ++twos;
    if (twos == n - 1 && twos <= 7 && file_of(s[n - 1]) != 0) {
      const component_info& ci = info_of(s[n - 1]);
      if (ci.has_run) {
        ++st.by_genus_run;
        return ci.run[twos] != 0;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      const shape k = info_of(s[i]).kind;
      if (k != shape::fickle && k != shape::firm) return -1;
    }
    std::uint64_t x = 0;
    bool firm = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!hereditarily_tame(s[i])) return -1;
      const component_info& ci = info_of(s[i]);
      x ^= static_cast<std::uint64_t>(ci.grundy);
      firm = firm || ci.kind == shape::firm;
    }
    ++st.by_tame;
    const bool p_position = firm ? x == 0 : x == 1;
    return p_position ? 0 : 1;
  }

  /// Calls f(next) for every sum one move from s (sorted, terminal
  /// components dropped; equal components moved once) until f returns true;
  /// returns whether it did. A heap's moves are made here, not stored.
  template <class F>
  bool for_each_child(const std::vector<component>& s, F&& f) {
    std::vector<component> next;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i > 0 && s[i] == s[i - 1]) continue;  // equal components have the same moves
      if (file_of(s[i]) == 0) {
        for (std::uint64_t m = 0; m < key_of(s[i]); ++m) {  // *n -> *m
          next.clear();
          for (std::size_t j = 0; j < s.size(); ++j)
            if (j != i) next.push_back(s[j]);
          if (m) next.push_back(pack(0, 0, m));
          std::sort(next.begin(), next.end());
          if (f(next)) return true;
        }
        continue;
      }
      const auto [first, count] = options_of(s[i]);
      std::uint32_t at = first;
      for (std::uint32_t k = 0; k < count; ++k) {
        next.clear();
        for (std::size_t j = 0; j < s.size(); ++j)
          if (j != i) next.push_back(s[j]);
        const std::uint64_t parts = option_arena[at];
        for (std::uint64_t j = 0; j < parts; ++j) {
          const component p = option_arena[at + 1 + j];
          if (options_of(p).second) next.push_back(p);
        }
        std::sort(next.begin(), next.end());
        if (f(next)) return true;
        at += 1 + static_cast<std::uint32_t>(option_arena[at]);
      }
    }
    return false;
  }

  /// True when the player to move wins the misère sum s (sorted, without
  /// terminal components).
  bool win(const std::vector<component>& s) {
    if (s.empty()) return true;  // no move: the player to move wins misère play
    if (set.shortcuts) {
      const int r = shortcut(s.data(), s.size());
      if (r >= 0) return r == 1;
    }
    const int m = memo.find(s.data(), s.size());
    if (m >= 0) {
      ++st.memo_hits;
      return m == 1;
    }
    ++st.expanded;
    const bool result = for_each_child(s, [&](const std::vector<component>& next) { return !win(next); });
    if (memo.bytes() > set.memo_bytes) {
      memo.clear();
      ++st.memo_clears;
    }
    memo.insert(s.data(), s.size(), result);
    return result;
  }

  // --------------------------------------------------------------- a sum

  std::vector<term> parse_terms(const std::vector<std::string>& terms) {
    if (terms.empty()) throw input_error("a sum needs at least one term (FILE:POSITION or *n)");
    std::vector<term> out;
    for (const auto& t : terms) out.push_back(parse_term(t));
    return out;
  }

  static std::vector<component> all_parts(const std::vector<term>& ts, std::size_t skip) {
    std::vector<component> s;
    for (std::size_t i = 0; i < ts.size(); ++i)
      if (i != skip) s.insert(s.end(), ts[i].parts.begin(), ts[i].parts.end());
    return s;
  }

  /// Normal-play Grundy value of c: stored, a heap's size, or for a Cram
  /// region the mex of its options' nim-sums (computed once).
  std::uint64_t grundy_of(component c) {
    if (file_of(c) == 0) return key_of(c);
    component_info& ci = info_of(c);
    if (ci.grundy >= 0) return static_cast<std::uint64_t>(ci.grundy);
    std::vector<bool> seen(ci.options + 1, false);
    std::uint32_t at = ci.first_option;
    for (std::uint32_t k = 0; k < ci.options; ++k) {
      std::uint64_t x = 0;
      const std::uint64_t parts = option_arena[at];
      for (std::uint64_t j = 0; j < parts; ++j) x ^= grundy_of(option_arena[at + 1 + j]);
      if (x < seen.size()) seen[x] = true;
      at += 1 + static_cast<std::uint32_t>(parts);
    }
    std::uint64_t g = 0;
    while (seen[g]) ++g;
    info_of(c).grundy = static_cast<std::int64_t>(g);
    return g;
  }

  std::uint64_t nim_sum(const std::vector<component>& s) {
    std::uint64_t x = 0;
    for (component c : s) x ^= grundy_of(c);
    return x;
  }

  bool misere_win_of(std::vector<component> s) {
    std::sort(s.begin(), s.end());
    return win(s);
  }

  struct parts_hash {
    std::size_t operator()(const std::vector<component>& k) const {
      std::uint64_t h = k.size();
      for (component x : k) {
        h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
      }
      return static_cast<std::size_t>(h ^ (h >> 31));
    }
  };
  std::unordered_map<std::vector<component>, std::uint8_t, parts_hash> value_memo;

  /// Misère Grundy value of the sum s (sorted, without terminal components).
  unsigned misere_value(const std::vector<component>& s) {
    if (s.empty()) return 1;
    auto it = value_memo.find(s);
    if (it != value_memo.end()) return it->second;
    std::vector<bool> seen(256, false);
    for_each_child(s, [&](const std::vector<component>& next) {
      const unsigned v = misere_value(next);
      if (v < 256) seen[v] = true;
      return false;
    });
    unsigned v = 0;
    while (v < 256 && seen[v]) ++v;
    if (v > 255) throw resource_error("a misère Grundy value past 255");
    value_memo.emplace(s, static_cast<std::uint8_t>(v));
    return v;
  }

  sum_answer solve(const std::vector<std::string>& raw) {
    const std::uint64_t expanded0 = st.expanded;
    const std::vector<term> ts = parse_terms(raw);
    sum_answer a;
    for (const auto& t : ts) a.text += (a.text.empty() ? "" : " + ") + t.text;
    a.normal = set.normal;
    a.misere = set.misere;
    a.moves_listed = set.winning_moves;
    const std::vector<component> whole = all_parts(ts, ts.size());
    if (set.normal) {
      a.grundy = nim_sum(whole);
      a.normal_outcome = a.grundy ? 'N' : 'P';
    }
    if (set.misere) a.misere_outcome = misere_win_of(whole) ? 'N' : 'P';
    const bool moves_wanted =
        set.winning_moves && ((set.normal && a.normal_outcome == 'N') || (set.misere && a.misere_outcome == 'N'));
    for (std::size_t i = 0; i < ts.size() && moves_wanted; ++i) {
      const term& t = ts[i];
      const std::vector<component> rest = all_parts(ts, i);
      auto consider = [&](const std::string& move, const std::string& after, std::vector<component> s) {
        if (set.normal && a.normal_outcome == 'N' && nim_sum(s) == 0) a.normal_winning.push_back({i + 1, move, after});
        if (set.misere && a.misere_outcome == 'N' && !misere_win_of(s))
          a.misere_winning.push_back({i + 1, move, after});
      };
      if (t.file == 0) {
        for (std::uint64_t m = 0; m < t.heap; ++m) {
          std::vector<component> s = rest;
          if (m) s.push_back(pack(0, 0, m));
          consider(t.text + "->*" + std::to_string(m), "*" + std::to_string(m), s);
        }
        continue;
      }
      if (t.file == kRegionFile) {
        const cram& b = board(t.rows, t.cols);
        for (const domino_move& m : b.moves(t.cells)) {
          std::vector<component> s = rest;
          for (const cram_region& r : region_parts(t.rows, t.cols, m.after))
            if (r.cells() >= 2) s.push_back(region_component(r));
          consider(b.move_name(m), b.format(m.after), s);
        }
        continue;
      }
      if (t.file == kOctalFile) {
        const take_break& code = octal_codes[t.code];
        for (std::size_t h = 0; h < t.heaps.size(); ++h) {
          if (std::find(t.heaps.begin(), t.heaps.begin() + static_cast<std::ptrdiff_t>(h), t.heaps[h]) !=
              t.heaps.begin() + static_cast<std::ptrdiff_t>(h))
            continue;  // equal heaps have the same moves
          code.for_each_move(t.heaps[h], [&](int b, int c, std::int32_t) {
            std::vector<component> s = rest;
            std::vector<int> left;
            for (std::size_t j = 0; j < t.heaps.size(); ++j)
              if (j != h) left.push_back(t.heaps[j]);
            if (b) left.push_back(b);
            if (c) left.push_back(c);
            std::string after;
            for (int x : left) {
              after += (after.empty() ? "" : ",") + std::to_string(x);
              const component k = pack(kOctalFile, static_cast<int>(t.code), static_cast<std::uint64_t>(x));
              if (x && options_of(k).second) s.push_back(k);
            }
            consider(octal_move_text(t.heaps[h], b, c), after.empty() ? "0" : after, s);
          });
        }
        continue;
      }
      const sum_file& f = files[t.file];
      for (const option_ref& o : f.drv->options(t.ref)) {
        std::vector<component> s = rest;
        for (const position_ref& p : f.drv->components(o.after)) {
          const component k = pack_ref(t.file, p);
          if (options_of(k).second) s.push_back(k);
        }
        const std::string after = o.after.text.empty() ? f.drv->format(o.after.level, o.after.rank) : o.after.text;
        consider(o.move, after, s);
      }
    }
    a.searched = st.expanded - expanded0;
    return a;
  }
};

sum_solver::sum_solver(sum_settings s) : impl_(std::make_unique<impl>(s)) {}
sum_solver::~sum_solver() = default;

sum_answer sum_solver::solve(const std::vector<std::string>& terms) { return impl_->solve(terms); }

bool sum_solver::misere_win(const std::vector<std::string>& terms) {
  if (!impl_->set.misere) throw input_error("this solver was made for normal play only");
  return impl_->misere_win_of(impl_->all_parts(impl_->parse_terms(terms), terms.size()));
}

std::vector<std::uint64_t> sum_solver::components_of(const std::string& term) { return impl_->parse_term(term).parts; }

bool sum_solver::misere_win_of(std::vector<std::uint64_t> components) {
  return impl_->misere_win_of(std::move(components));
}

unsigned sum_solver::misere_value_of(std::vector<std::uint64_t> components) {
  std::sort(components.begin(), components.end());
  return impl_->misere_value(components);
}

void sum_solver::use_quotient(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& element,
                              std::vector<std::uint32_t> table, std::vector<char> p_portion) {
  if (table.size() != p_portion.size() * p_portion.size())
    throw std::invalid_argument("use_quotient: the table is not order x order");
  impl_->q_element.clear();
  for (const auto& [c, x] : element) {
    if (x >= p_portion.size()) throw std::invalid_argument("use_quotient: an element past the order");
    impl_->q_element[c] = x;
  }
  impl_->q_table = std::move(table);
  impl_->q_p = std::move(p_portion);
  impl_->q_order = static_cast<std::uint32_t>(impl_->q_p.size());
}

std::vector<std::vector<std::uint64_t>> sum_solver::options(std::uint64_t component) {
  std::vector<std::vector<std::uint64_t>> out;
  impl_->for_each_child({component}, [&](const std::vector<std::uint64_t>& next) {
    out.push_back(next);
    return false;
  });
  return out;
}

bool sum_solver::hereditarily_tame(std::uint64_t component) { return impl_->hereditarily_tame(component); }

genus sum_solver::sum_genus(const std::vector<std::uint64_t>& components) { return impl_->genus_of_sum(components); }

std::uint64_t sum_solver::grundy_of(const std::vector<std::uint64_t>& components) { return impl_->nim_sum(components); }

sum_stats sum_solver::stats() const {
  sum_stats s = impl_->st;
  s.memo_entries = impl_->memo.entries();
  return s;
}

std::size_t sum_solver::memory_bytes() const {
  return impl_->memo.bytes() + impl_->option_arena.capacity() * sizeof(component) + impl_->value_memo.size() * 64 +
         impl_->info.size() * (sizeof(component_info) + 3 * sizeof(void*));
}

}  // namespace cgtb
