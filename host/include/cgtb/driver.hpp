// Type-erased games for the command-line tool: every ruleset registers a
// driver that builds its tablebases, parses and prints its positions, lists
// its moves, and runs the analyses its value family supports.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"

namespace cxxopts {
class Options;
class ParseResult;
}  // namespace cxxopts

namespace cgtb {

class tablebase;
struct classify_report;

/// A position by its place in the index, with its canonical text.
struct position_ref {
  int level = 0;
  std::uint64_t rank = 0;
  std::string text;
};

/// Who may make a move: either player (impartial games), or one of them.
enum class mover : std::uint8_t { either, left, right };

/// A move and the position it leads to.
struct option_ref {
  std::string move;
  position_ref after;
  mover by = mover::either;  ///< partizan games: the player who makes the move
  std::int32_t points = 0;   ///< scoring games: what the mover scores with it
};

/// One option as cgtb verify's fast path reads it (game_driver::option_keys):
/// the level and index key of the stored position it leads to, no text.
struct option_key {
  int level = 0;
  std::uint64_t key = 0;
  mover by = mover::either;
  std::int32_t points = 0;
};

/// Stored positions of a level whose count only a solve finds (reachable
/// tables), in level_count::positions.
inline constexpr std::uint64_t kCountFoundBySolve = ~std::uint64_t{0};

/// A level of a complete table and how many positions it stores.
struct level_count {
  int level = 0;
  std::uint64_t positions = 0;  ///< or kCountFoundBySolve
};

/// What `cgtb build` asks for.
struct build_request {
  /// The sink progress goes to, or null when progress is off.
  progress_sink* reporter() const { return progress ? (progress_to ? progress_to : &stderr_progress()) : nullptr; }
  std::string values;  ///< comma-separated value kinds, "" = the game's default
  std::string output;  ///< file to write
  solve_options solve;
  bool progress = true;                  ///< progress lines (to progress_to)
  progress_sink* progress_to = nullptr;  ///< where progress goes; null: stderr (stderr_progress())
  bool stats = false;                    ///< per-level figures on stdout
  bool resume = false;  ///< checkpoint every level; continue a killed build of the same file (--resume)
  bool force = false;   ///< replace a file already at `output` (--force); else the build is refused
  std::uint32_t block_entries = 4096;
  /// Builds across MPI ranks: a level is split across the ranks when each
  /// would own at least this many stored classes; smaller levels stay whole
  /// on rank 0 (--split-from).
  std::uint64_t split_from = 4096;
  /// cgtb plan: plan the build across this many MPI ranks too (--ranks; 1:
  /// one process), with a network of this many bytes a second a rank
  /// (--bandwidth).
  int plan_ranks = 1;
  double plan_bandwidth = 10e9;
  int zstd_level = 9;
  /// Fault injection, for tests: called right after level L's checkpoint
  /// (resumable builds), and after the forward pass has stored (and saved)
  /// level L's keys (reachable tables). The library never sets them; the
  /// command-line tool sets them from its test variables (tools/cgtb.cpp).
  std::function<void(int level)> after_checkpoint, after_forward_level;
};

/// Result of `cgtb census`.
struct census_report {
  std::uint64_t reachable = 0;  ///< positions reachable from the start, the start included
  std::uint64_t wild = 0;
  int smallest_wild_level = -1;  ///< -1 when no reachable position is wild
  std::string smallest_wild_example;
  std::string smallest_wild_genus;
  std::vector<std::uint64_t> reachable_by_level, wild_by_level;  ///< indexed by level
};

/// One ruleset with its parameters fixed.
class game_driver {
 public:
  virtual ~game_driver() = default;
  virtual std::string ruleset() const = 0;
  /// Canonical parameter text, as in the file header.
  virtual std::string params() const = 0;
  /// Builds the tablebase; throws input_error for bad value kinds.
  virtual void build(const build_request& req) const = 0;
  /// Parses a position; throws input_error naming the problem.
  virtual position_ref parse(const std::string& text) const = 0;
  /// Text of the position of rank r on level L; throws input_error if the
  /// level or rank is out of range.
  virtual std::string format(int level, std::uint64_t rank) const = 0;
  /// Every move from p with the position it leads to: its level and rank
  /// (the file key for keyed tables), and its text where the driver has it
  /// at hand (empty otherwise: format(level, rank) names it).
  virtual std::vector<option_ref> options(const position_ref& p) const = 0;
  /// options() for cgtb verify's fast path: the options of the position of
  /// `level` and index key `key`, each one stored position (drivers whose
  /// components() splits options are read through options()), into `out`
  /// (cleared first), with no text. The default prints and parses the
  /// position and calls options().
  virtual void option_keys(int level, std::uint64_t key, std::vector<option_key>& out) const {
    out.clear();
    for (const option_ref& o : options(parse(format(level, key))))
      out.push_back({o.after.level, o.after.rank, o.by, o.points});
  }
  /// Levels a complete table of this ruleset holds, ascending, with their
  /// sizes (cgtb verify checks a file's level table against them).
  virtual std::vector<level_count> table_levels() const = 0;
  /// Fields a build with --values VALUES ("" = the game's default) writes, in
  /// storage order; throws input_error for a value kind the game lacks.
  virtual std::vector<field_spec> value_fields(const std::string& values) const = 0;
  /// The positions of the table whose disjunctive sum p is (Sprague-Grundy:
  /// its Grundy value is the XOR of theirs). Most tables store whole
  /// positions and return {p}; single-heap sequences split a list of heaps.
  virtual std::vector<position_ref> components(const position_ref& p) const { return {p}; }
  /// Whether components() ever splits a position (false: it returns {p}).
  virtual bool splits_into_components() const { return false; }
  /// How many positions the stored position of file key `key` on `level`
  /// stands for: its symmetry class's size in symmetry-reduced tables, else 1.
  virtual std::uint64_t orbit_size(int level, std::uint64_t key) const {
    (void)level;
    (void)key;
    return 1;
  }
  /// The position whose encoding is `code`, as parse() gives it but with an
  /// empty text (the Python module's query_many over NumPy arrays). The
  /// domino games (Cram, Domineering) encode a position as its set of empty
  /// cells, cell (r, c) at bit r*cols + c (cell_mask_game); other games have
  /// no such encoding. Throws input_error for a code with bits off the board,
  /// and for games without the encoding.
  virtual position_ref from_code(std::uint64_t code) const {
    (void)code;
    throw input_error(ruleset() + " positions have no bitmask encoding (give them as text, or as (level, rank) pairs)");
  }
  /// Tables of one heap sequence of a take-and-break game (level 0, rank n =
  /// heap n, as octal --max-heap writes them): the most beans a move takes,
  /// t in the octal periodicity theorem, which cgtb verify applies to the
  /// stored values; 0 for every other table.
  virtual int sequence_max_take() const { return 0; }
  /// Blocking games (Muller twist): how many options of p the opponent may
  /// block before the move; 0 for every other game.
  virtual std::uint64_t blocked_options(const position_ref& p) const {
    (void)p;
    return 0;
  }
  /// Prints the answer to a query of p in `tb` (text or JSON lines).
  virtual void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const = 0;
  /// Positions level L of `tb` stands for: its entries, or for tables that
  /// store one position per symmetry class, the sum of the classes' orbit
  /// sizes (reads every block of the level).
  virtual std::uint64_t level_positions(tablebase& tb, int level) const {
    const level_entry* le = tb.find_level(level);
    return le ? le->positions : 0;
  }
  /// Prints what `cgtb build` with `req` would take (cgtb plan); throws
  /// input_error for games without a plan.
  virtual void plan(const build_request& req, std::ostream& out) const {
    (void)req;
    (void)out;
    throw input_error("cgtb plan is available for reachable Cram and Domineering tables (the default index)");
  }
  /// The analyses of stored tables this driver supports, by command name:
  /// "census", "classify" (impartial games), "intervals" (Blocking Nim),
  /// "table" and "period" (scoring games). Commands check them through
  /// require_analysis, the one way an analysis is looked up.
  virtual std::vector<std::string> analyses() const { return {}; }
  /// Why an analysis this driver lacks is not available, and what table
  /// would have it ("" when there is nothing to add).
  virtual std::string analysis_hint(const std::string& analysis) const {
    (void)analysis;
    return "";
  }
  /// Census of the positions reachable from the start (analysis "census");
  /// throws input_error if the file's values do not support it, and, where
  /// the driver lacks the analysis, require_analysis's error.
  virtual census_report census(tablebase& tb) const;
  /// Conway-Gurvich-Ho classification of the table (analysis "classify";
  /// cgtb/classify.hpp); throws as census does.
  virtual classify_report classify(tablebase& tb) const;
  /// What `cgtb period` asks of a table: the full periods that must follow
  /// a scoring table's preperiod, and the rows m = A..B of a two-heap table.
  struct period_request {
    int repeats = 2;
    std::string rows = "0..12";
  };
  /// Prints the period of the table's values (analysis "period": octal
  /// sequences, by the octal periodicity theorem; scoring tables, by
  /// find_period) and returns the command's exit status (0; 4 when an octal
  /// period is not proven). Throws input_error for a malformed request, and
  /// as census does.
  virtual int period(tablebase& tb, const period_request& req, std::ostream& out) const;
  /// Prints the options of p (cgtb query --options): by default one line
  /// "MOVE -> POSITION  VALUES" per option with the option's stored values
  /// (an option that is a sum of components: the XOR of their Grundy
  /// values), or with json one object {"position", "options": [{"move",
  /// "position", FIELD: value, ...}]}; tables with the genus give its symbol
  /// and "tame". Partizan games list each player's. Throws input_error for an
  /// option the file does not store (host/src/driver.cpp).
  virtual void list_options(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const;

  /// Makes query() and list_options() name at most `n` moves in each list
  /// (winning moves; options), saying how many they leave out (cgtb query
  /// --max-moves N; --no-moves is 0). Default: every move.
  void set_max_moves(std::size_t n) { max_moves_ = n; }
  /// The limit of set_max_moves.
  std::size_t max_moves() const { return max_moves_; }

 private:
  std::size_t max_moves_ = static_cast<std::size_t>(-1);
};

/// A registered game: its CLI name, options, and constructors.
/// A parameter of `cgtb build GAME` and `cgtb plan GAME`: --NAME VALUE.
struct game_option {
  std::string name;  ///< without the dashes
  std::string help;
  std::string default_value;  ///< "" = none: the option may be absent
  /// How from_options reads it: as a std::string, an int or a long long.
  enum kind_t { text, integer, wide_integer } kind = text;
};

/// A game's registry entry: everything the command line knows of it.
struct game_entry {
  std::string name;
  std::string summary;
  /// How the game's positions (and moves) are written, for `cgtb query --help`.
  std::string position_syntax;
  /// The game's parameters, in `cgtb build NAME --help` order.
  std::vector<game_option> options;
  /// Makes the driver from parsed options; throws input_error.
  std::function<std::unique_ptr<game_driver>(const cxxopts::ParseResult&)> from_options;
  /// Makes the driver from a file header's canonical params; throws input_error.
  std::function<std::unique_ptr<game_driver>(const std::string&)> from_params;
  /// Optional: makes the driver from a whole file header (games whose index
  /// lines choose the driver, e.g. reachable domino tables); throws
  /// input_error. Games without it get from_params(header.params).
  std::function<std::unique_ptr<game_driver>(const tablebase_header&)> from_header = nullptr;
};

/// The base of a driver that holds its ruleset's owner `Game`: the ruleset
/// name and canonical params come from it.
template <class Game>
class owner_driver : public game_driver {
 public:
  explicit owner_driver(Game g) : game_(std::move(g)) {}
  const Game& game() const { return game_; }
  std::string ruleset() const override { return Game::ruleset_name; }
  std::string params() const override { return game_.params(); }

 protected:
  Game game_;
};

/// A from_options or from_params of a game whose driver is `Driver`, made
/// from the game's owner: `make` maps the options (or the params text) to
/// the owner. The one way an entry wraps its owner in its driver.
template <class Driver, class Make>
auto driver_from(Make make) {
  return [make](const auto& in) -> std::unique_ptr<game_driver> { return std::make_unique<Driver>(make(in)); };
}

/// The driver of a file: its ruleset's from_header, else from_params; throws
/// input_error for an unknown ruleset or parameters.
std::unique_ptr<game_driver> driver_for_header(const tablebase_header& h);

/// Throws input_error unless `d` (the driver of the file `path`) supports the
/// analysis `name` (game_driver::analyses): one line naming the table's game,
/// the analyses it has, and the driver's hint.
void require_analysis(const game_driver& d, const std::string& name, const std::string& path);
/// The driver of `tb`'s file, checked by require_analysis for `name`.
std::unique_ptr<game_driver> driver_for_analysis(const tablebase& tb, const std::string& name);

/// Text of the position of rank r on level L of a ruleset owner `game`
/// (docs/architecture.md); throws input_error if the game has no such level or
/// the level no such rank. Shared by the drivers' format().
template <class Game>
std::string format_by_rank(const Game& game, int level, std::uint64_t rank) {
  if constexpr (keyed_game<Game>::value) {
    auto levels = game.levels();
    if (std::find(levels.begin(), levels.end(), level) == levels.end())
      throw input_error("no level " + std::to_string(level));
    return game.format(game.from_file_key(level, rank));
  } else {
    auto view = game.host_view();
    auto levels = game.levels();
    if (std::find(levels.begin(), levels.end(), level) == levels.end() || rank >= view.level_size(level))
      throw input_error("no position of rank " + std::to_string(rank) + " on level " + std::to_string(level));
    return game.format(view.unrank(level, rank));
  }
}

/// How a driver finds positions of `Game` in its files. For games whose
/// index is the ruleset's own (index scheme ruleset/1), a position_ref's rank
/// is the position's rank and the file is read at it. For keyed games
/// (reachable domino tables, index scheme keys/1) a position_ref's `rank`
/// holds the file key of the position's canonical image, and the file is
/// read at the rank the file gives that key.
template <class Game, bool Keyed = keyed_game<Game>::value>
struct position_locator {
  using position = typename Game::position;
  /// The index key of p (its rank).
  static std::uint64_t key(const Game& g, const position& p) { return g.host_view().rank(g.level_of(p), p); }
  /// key(g, q) for the options q of p (option_keys).
  static auto option_keyer(const Game& g, const position&) {
    return [&g](const position& q) { return key(g, q); };
  }
  /// The position a ref stands for.
  static position at(const Game& g, const position_ref& r) { return g.host_view().unrank(r.level, r.rank); }
  /// The rank at which `tb` stores the position of a ref.
  static std::uint64_t stored_rank(tablebase&, const position_ref& r) { return r.rank; }
  /// Fills the index lines of a header.
  static void describe(const Game&, tablebase_header& h) {
    h.index = "ruleset/1";
    h.positions = "all";
    h.symmetry = "none";
  }
};

template <class Game>
struct position_locator<Game, true> {
  using position = typename Game::position;
  static std::uint64_t key(const Game& g, const position& p) { return g.file_key(g.canonical(p)); }
  /// key(g, q) for the options q of p, with p's images found once
  /// (option_keys).
  static auto option_keyer(const Game& g, const position& p) {
    return [&g, p, of_p = g.images(p)](const position& q) { return g.file_key(g.canonical_within(of_p, p, q)); };
  }
  /// The canonical image the key stands for (refs keep the user's
  /// orientation in their text; drivers parse it where orientation matters).
  static position at(const Game& g, const position_ref& r) {
    return r.text.empty() ? g.from_file_key(r.level, r.rank) : g.parse(r.text);
  }
  /// Throws input_error when the file does not store the position.
  static std::uint64_t stored_rank(tablebase& tb, const position_ref& r) {
    if (!tb.find_level(r.level))
      throw input_error("position '" + r.text + "' is on level " + std::to_string(r.level) +
                        ", which this tablebase does not hold");
    const std::int64_t s = tb.rank_of_key(r.level, r.rank);
    if (s < 0)
      throw input_error("position '" + r.text +
                        "' cannot arise from the empty board (its covered cells cannot be tiled by dominoes), and "
                        "this table holds reachable positions only; build with --positions all to hold it");
    return static_cast<std::uint64_t>(s);
  }
  static void describe(const Game& g, tablebase_header& h) {
    h.index = "keys/1";
    h.positions = "reachable";
    h.symmetry = g.symmetry().name;
  }
};

/// True for ruleset owners whose position is the set of empty cells of a
/// board as a bitmask, Game::start() the full board (Cram, Domineering).
template <class Game, class = void>
struct cell_mask_game : std::false_type {};
template <class Game>
struct cell_mask_game<Game, std::void_t<decltype(Game::cell_mask_positions)>>
    : std::bool_constant<Game::cell_mask_positions> {};

/// The owner of the game over every region that a ruleset owner `Game`
/// extends (Game::plain_game: the reachable domino tables' Cram or
/// Domineering), else Game.
template <class Game, class = void>
struct plain_game_of {
  using type = Game;
};
template <class Game>
struct plain_game_of<Game, std::void_t<typename Game::plain_game>> {
  using type = typename Game::plain_game;
};

/// Positions of a domino game (cell_mask_game) written in the transposed
/// orientation of a non-square board: a 5x4 picture asked of a 4x5 table.
/// Such text is read on the cols x rows board game(), whose moves and move
/// names answer it as written, and is looked up as its transpose. A Cram
/// position and its transpose are the same game (the board turned a quarter
/// and reflected); a Domineering position's transpose exchanges Left and
/// Right, so the partizan driver refuses such text (partizan_driver::parse).
/// Games that are not domino games never hold transposed text.
template <class Game, bool = cell_mask_game<Game>::value>
class transposed_frame {
 public:
  explicit transposed_frame(const Game&) {}
  bool holds(const std::string&) const { return false; }
};

template <class Game>
class transposed_frame<Game, true> {
 public:
  using plain = typename plain_game_of<Game>::type;

  /// No frame on a square board, nor where the transposed board cannot be
  /// written (more than 26 columns).
  explicit transposed_frame(const Game& table) : cols_(table.cols()) {
    if (table.rows() == table.cols()) return;
    try {
      t_ = std::make_shared<plain>(table.cols(), table.rows());
    } catch (const input_error&) {
    }
  }
  /// True when `text` (not empty) has as many rows ('/'-separated) as the
  /// table's board has columns, on a non-square board, and its first row is
  /// not as long as the table's rows (text that starts as the table's board
  /// is read, and its faults named, on the table's board: a trailing '/' is
  /// an empty row).
  bool holds(const std::string& text) const {
    return t_ && !text.empty() && static_cast<int>(std::count(text.begin(), text.end(), '/')) + 1 == cols_ &&
           static_cast<int>(text.find('/')) != cols_;
  }
  /// The cols x rows board the text is written on.
  const plain& game() const { return *t_; }
  /// A position of game() from text; throws game()'s input_error, saying
  /// the text was read on the transposed board, when it is malformed.
  std::uint64_t parse(const std::string& text) const {
    try {
      return t_->parse(text);
    } catch (const input_error& e) {
      throw input_error(std::string(e.what()) + " (read on the " + t_->params() +
                        " board, this table's turned a quarter, as it has " + std::to_string(cols_) + " rows)");
    }
  }
  /// The ref of q, a position of game(), in `table`: the index key of q's
  /// transpose on the table's board, and q's own text.
  position_ref ref(const Game& table, std::uint64_t q) const {
    const std::uint64_t p = t_->transpose(q);
    return {table.level_of(p), position_locator<Game>::key(table, p), t_->format(q)};
  }

 private:
  int cols_;
  std::shared_ptr<const plain> t_;
};

/// game_driver::from_code for a ruleset owner `Game`: the ref of the
/// position of bitmask `code` (its index key in `rank`, empty text).
template <class Game>
position_ref ref_of_code(const Game& game, std::uint64_t code) {
  if constexpr (cell_mask_game<Game>::value) {
    if (code & ~game.start())
      throw input_error("code " + std::to_string(code) + " has bits outside the " + game.params() + " board");
    return {game.level_of(code), position_locator<Game>::key(game, code), std::string()};
  } else {
    (void)game;
    throw input_error(std::string(Game::ruleset_name) +
                      " positions have no bitmask encoding (give them as text, or as (level, rank) pairs)");
  }
}

/// game_driver::orbit_size for a ruleset owner `Game`: the orbit of the
/// position of file key `key` on `level` for keyed games, else 1.
template <class Game>
std::uint64_t orbit_of(const Game& game, int level, std::uint64_t key) {
  if constexpr (keyed_game<Game>::value) {
    return static_cast<std::uint64_t>(game.orbit_size(game.from_file_key(level, key)));
  } else {
    (void)game;
    (void)level;
    (void)key;
    return 1;
  }
}

/// game_driver::level_positions for a ruleset owner `Game`: keyed games
/// weigh each stored class with its orbit size (Game::orbit_size).
template <class Game>
std::uint64_t positions_of_level(const Game& game, tablebase& tb, int level) {
  const level_entry* le = tb.find_level(level);
  if (!le) return 0;
  if constexpr (!keyed_game<Game>::value) {
    (void)game;
    return le->positions;
  } else {
    std::vector<std::uint64_t> per_block(static_cast<std::size_t>(le->blocks), 0);
    for_each_block(tb, *le, [&](std::uint64_t b, const decoded_block& d) {
      std::uint64_t n = 0;
      for (std::uint64_t k : d.keys) n += orbit_of(game, level, k);
      per_block[static_cast<std::size_t>(b)] = n;
    });
    std::uint64_t n = 0;
    for (std::uint64_t x : per_block) n += x;
    return n;
  }
}

/// game_driver::table_levels for a ruleset owner `Game`: its levels, with the
/// view's level sizes (kCountFoundBySolve for keyed games).
template <class Game>
std::vector<level_count> levels_of(const Game& game) {
  std::vector<level_count> out;
  for (int l : game.levels()) {
    if constexpr (keyed_game<Game>::value)
      out.push_back({l, kCountFoundBySolve});
    else
      out.push_back({l, game.host_view().level_size(l)});
  }
  return out;
}

/// JSON text of `j` (an nlohmann json value) on one line. Bytes of strings
/// that are not valid UTF-8 (positions or parameters read from a damaged
/// file) become U+FFFD instead of making the dump throw.
template <class Json>
std::string json_text(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// A list of moves in a JSON answer, as move_list_text (cgtb/text.hpp) in
/// text: j[key] holds the first `limit` of `moves`, and where some are left
/// out, j[key + "_left_out"] says how many.
template <class Json>
void put_move_list(Json& j, const std::string& key, const std::vector<std::string>& moves, std::size_t limit) {
  const std::size_t n = std::min(limit, moves.size());
  j[key] = std::vector<std::string>(moves.begin(), moves.begin() + static_cast<std::ptrdiff_t>(n));
  if (n < moves.size()) j[key + "_left_out"] = moves.size() - n;
}

/// Every game cgtb knows, in the order `cgtb build --help` lists them.
const std::vector<game_entry>& game_registry();
/// Looks a game up by name; throws input_error listing the known ones.
const game_entry& find_game(const std::string& name);

}  // namespace cgtb
