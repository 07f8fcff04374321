// Positions of impartial tablebase files as sum components: terms
// `FILE:POSITION` (component_source.hpp).
#include <map>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/value_kinds.hpp"
#include "component_source.hpp"

namespace cgtb::misere_detail {

namespace {

/// A tablebase file opened for sums.
struct sum_file {
  std::string path;
  std::unique_ptr<tablebase> tb;
  std::unique_ptr<game_driver> drv;
  int grundy = -1, misere = -1;  ///< field indices, -1 when the file lacks them
  bool genus = false;            ///< the file holds the genus fields
  std::vector<std::int64_t> scratch;
};

class table_source;

/// A term `FILE:POSITION`: the position as the user wrote it, moved by its
/// file's driver.
class table_term final : public sum_term {
 public:
  explicit table_term(table_source& src) : src_(src) {}
  unsigned file = 0;
  position_ref ref;
  void for_each_move(const term_move_fn& f) override;

 private:
  table_source& src_;
};

/// Positions of impartial tablebase files (numbers 1..kMaxTableFiles, by
/// path): values as the file stores them (Grundy value, misère value, genus
/// when the file holds it), options from the file's driver, each option's
/// components (a position that splits) as components of the same file.
class table_source final : public component_source {
 public:
  table_source(const sum_settings& set, has_move_fn has_move) : set_(set), has_move_(std::move(has_move)) {}

  bool accepts(const std::string& raw) const override {
    const std::size_t colon = raw.rfind(':');
    return colon != std::string::npos && colon != 0;
  }

  /// Throws input_error for an unreadable or non-impartial file, a file
  /// without the values the conventions need, or a position it does not hold.
  std::unique_ptr<sum_term> parse(const std::string& raw) override {
    auto t = std::make_unique<table_term>(*this);
    t->text = raw;
    const std::size_t colon = raw.rfind(':');
    sum_file& f = open_file(raw.substr(0, colon), t->file);
    t->ref = f.drv->parse(raw.substr(colon + 1));
    for (const position_ref& c : f.drv->components(t->ref)) {
      const component k = pack_ref(t->file, c);
      stored_rank(k, raw.substr(colon + 1));  // refuses a position the file does not hold
      if (has_move_(k)) t->parts.push_back(k);
    }
    return t;
  }

  component_info describe(component c, option_arena& arena) override {
    component_info ci;
    sum_file& f = files_[file_of(c)];
    const std::string text = f.drv->format(level_of(c), key_of(c));
    f.tb->entry(level_of(c), stored_rank(c, text), f.scratch.data());
    if (f.grundy >= 0) ci.grundy = f.scratch[static_cast<std::size_t>(f.grundy)];
    if (f.misere >= 0) ci.misere = static_cast<std::int16_t>(f.scratch[static_cast<std::size_t>(f.misere)]);
    if (f.genus) {
      set_genus(ci, genus_of([&](int k) { return f.scratch[static_cast<std::size_t>(k)]; }, f.grundy, f.misere));
    }
    option_writer w(arena, ci);
    for (const option_ref& o : f.drv->options({level_of(c), key_of(c), text})) {
      w.begin_option();
      for (const position_ref& p : f.drv->components(o.after)) w.add_part(pack_ref(file_of(c), p));
    }
    w.finish();
    return ci;
  }

  /// Calls f for every move of term t (see table_term).
  void for_each_move(const table_term& t, const term_move_fn& f) {
    const sum_file& file = files_[t.file];
    for (const option_ref& o : file.drv->options(t.ref)) {
      std::vector<component> parts;
      for (const position_ref& p : file.drv->components(o.after)) {
        const component k = pack_ref(t.file, p);
        if (has_move_(k)) parts.push_back(k);
      }
      const std::string after = o.after.text.empty() ? file.drv->format(o.after.level, o.after.rank) : o.after.text;
      f(o.move, after, parts);
    }
  }

 private:
  /// The file at `path`, opened once; `number` gets its number.
  sum_file& open_file(const std::string& path, unsigned& number) {
    auto it = file_numbers_.find(path);
    if (it != file_numbers_.end()) {
      number = it->second;
      return files_[number];
    }
    if (files_.empty()) files_.emplace_back();  // number 0 is the Nim heap's
    if (files_.size() > kMaxTableFiles)
      throw input_error("a sum may draw on at most " + std::to_string(kMaxTableFiles) + " tablebase files");
    sum_file f;
    f.path = path;
    f.tb = std::make_unique<tablebase>(path, set_.cache_bytes);
    const auto& h = f.tb->header();
    if (h.family != "impartial")
      throw input_error("'" + path + "' is a " + h.family + " tablebase (" + h.ruleset +
                        "); cgtb sum takes impartial tablebases");
    f.drv = driver_for_header(h);
    f.grundy = h.field_index(cgtb::field_name::grundy);
    f.misere = h.field_index(cgtb::field_name::misere);
    f.genus = has_genus_fields(h);
    f.scratch.resize(h.fields.size());
    if (set_.normal && f.grundy < 0)
      throw input_error("'" + path + "' holds no normal-play Grundy values; build it with --values normal (or all)");
    if (set_.misere && f.misere < 0)
      throw input_error("'" + path + "' holds normal-play values only (" + h.ruleset + " " + h.params +
                        "); misère sums need misère values: build the table with --values misere or all" +
                        (h.ruleset == "octal" ? " and --max-total" : "") + ", or ask for --play normal");
    number = static_cast<unsigned>(files_.size());
    file_numbers_[path] = number;
    files_.push_back(std::move(f));
    return files_.back();
  }

  /// The code of position r of file number `file`; throws input_error when
  /// its level or rank does not fit the code.
  component pack_ref(unsigned file, const position_ref& r) const {
    if (r.level < 0 || r.level > 255 || r.rank > kKeyMask)
      throw input_error("position '" + r.text + "' of '" + files_[file].path +
                        "' is past the sum search's index range");
    return pack(file, r.level, r.rank);
  }

  /// Where the file of component c stores it; throws input_error naming
  /// `text` when it does not.
  std::uint64_t stored_rank(component c, const std::string& text) const {
    const sum_file& f = files_[file_of(c)];
    const std::int64_t r = f.tb->stored_rank(level_of(c), key_of(c));
    if (r < 0) throw input_error("position '" + text + "' is not in '" + f.path + "'");
    return static_cast<std::uint64_t>(r);
  }

  const sum_settings set_;
  has_move_fn has_move_;
  std::vector<sum_file> files_;  // files_[0] unused: number 0 is the Nim heap
  std::map<std::string, unsigned> file_numbers_;
};

void table_term::for_each_move(const term_move_fn& f) { src_.for_each_move(*this, f); }

}  // namespace

std::unique_ptr<component_source> make_table_source(const sum_settings& set, has_move_fn has_move) {
  return std::make_unique<table_source>(set, std::move(has_move));
}

}  // namespace cgtb::misere_detail
