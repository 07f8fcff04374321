// cgtb.Tablebase: an open tablebase, its queries and its levels as NumPy
// arrays (docs/python.md), bound by bind_tablebase for the module _cgtb
// (module.cpp).
#include "tablebase_object.hpp"

#include <omp.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <cxxopts.hpp>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cgtb/build.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/front_end.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/misere_quotient.hpp"
#include "cgtb/misere_sum.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/value_kinds.hpp"

namespace py = pybind11;

namespace cgtb::python {
namespace {

/// An open tablebase with its driver. cgtb::tablebase caches blocks and is
/// not thread-safe: every call holds `mu` (taken after the GIL is released
/// where the call releases it), so Python threads sharing a handle take turns.
class py_tablebase {
 public:
  py_tablebase(const std::string& path, std::size_t cache_mb) : path_(path) {
    tb_ = std::make_unique<tablebase>(path, cache_mb << 20);  // corrupt_file_error: cgtb.CorruptFileError
    drv_ = driver_for_header(tb_->header());
    const auto& h = tb_->header();
    fg_ = h.field_index(cgtb::field_name::grundy);
    fm_ = h.field_index(cgtb::field_name::misere);
    genus_ = has_genus_fields(h);
    orbit_ = tb_->keyed() && h.symmetry != "none";
  }

  void close() {
    std::lock_guard<std::mutex> g(mu_);
    tb_.reset();
  }
  bool closed() const { return !tb_; }

  tablebase& tb() {
    if (!tb_) throw input_error("tablebase '" + path_ + "' is closed");
    return *tb_;
  }
  const game_driver& drv() const { return *drv_; }
  std::mutex& mu() { return mu_; }
  const std::string& path() const { return path_; }
  bool has_genus() const { return genus_; }
  bool orbit() const { return orbit_; }
  std::size_t nfields() const { return tb_ ? tb_->header().fields.size() : 0; }

  /// Sorted levels of the file.
  std::vector<level_entry> levels() {
    std::vector<level_entry> l = tb().levels();
    std::sort(l.begin(), l.end(), [](const level_entry& a, const level_entry& b) { return a.level < b.level; });
    return l;
  }

  /// Name of a ref in messages.
  std::string name(const position_ref& r) const {
    if (!r.text.empty()) return "'" + r.text + "'";
    try {
      return "'" + drv_->format(r.level, r.rank) + "'";
    } catch (const std::exception&) {
      return "of level " + std::to_string(r.level);
    }
  }

  /// The rank at which the file stores r (a level >= 0 ref), or false with
  /// `why` said.
  bool locate(const position_ref& r, std::uint64_t& rank, std::string& why) {
    tablebase& t = tb();
    const level_entry* le = t.find_level(r.level);
    if (!le) {
      why = "position " + name(r) + " is on level " + std::to_string(r.level) + ", which this tablebase does not hold";
      return false;
    }
    if (t.keyed()) {
      const std::int64_t s = t.rank_of_key(r.level, r.rank);
      if (s < 0) {
        why = "position " + name(r) +
              " cannot arise from the empty board (its covered cells cannot be tiled by dominoes), and this table "
              "holds reachable positions only; build with --positions all to hold it";
        return false;
      }
      rank = static_cast<std::uint64_t>(s);
    } else {
      rank = r.rank;
    }
    if (rank >= le->positions) {
      why = "position " + name(r) + " is outside this tablebase (" + t.header().params + ")";
      return false;
    }
    return true;
  }

  /// Every field of r into out[]; false with `why` when the file lacks it.
  /// Sums of stored positions (refs of level -1, e.g. heap lists of a single-
  /// heap sequence) get the XOR of their components' Grundy values.
  bool values(const position_ref& r, std::int64_t* out, std::string& why) {
    std::uint64_t rank = 0;
    if (r.level >= 0) {
      if (!locate(r, rank, why)) return false;
      tb().entry(r.level, rank, out);
      return true;
    }
    const auto& fields = tb().header().fields;
    if (fields.size() != 1 || fields[0].name != "grundy") {
      why = "position " + name(r) + " is a sum of stored positions, which has a Grundy value only";
      return false;
    }
    std::int64_t x = 0, v[kMaxFields];
    for (const auto& c : drv_->components(r)) {
      if (c.level < 0 || !locate(c, rank, why)) return false;
      tb().entry(c.level, rank, v);
      x ^= v[0];
    }
    out[0] = x;
    return true;
  }

  /// Tame (genus::tame) from an entry's fields; genus tables only.
  bool tame(const std::int64_t* v, genus& scratch) const {
    scratch.g = static_cast<unsigned>(v[fg_]);
    scratch.run.resize(8);
    for (int k = 0; k <= 7; ++k) scratch.run[static_cast<std::size_t>(k)] = static_cast<unsigned>(v[fm_ + k]);
    return scratch.tame();
  }

 private:
  std::string path_;
  std::unique_ptr<tablebase> tb_;
  std::unique_ptr<game_driver> drv_;
  std::mutex mu_;
  int fg_ = -1, fm_ = -1;
  bool genus_ = false, orbit_ = false;
};

/// Fields of the header, in storage order.
std::vector<std::string> field_names(py_tablebase& t) {
  std::vector<std::string> n;
  for (const auto& f : t.tb().header().fields) n.push_back(f.name);
  return n;
}

py::dict header_dict(py_tablebase& t) {
  const auto& h = t.tb().header();
  py::dict d;
  d["ruleset"] = h.ruleset;
  d["params"] = h.params;
  d["family"] = h.family;
  d["values"] = h.values;
  d["fields"] = field_names(t);
  d["index"] = h.index;
  d["positions"] = h.positions;
  d["symmetry"] = h.symmetry;
  d["block_entries"] = h.block_entries;
  d["zstd_level"] = h.zstd_level;
  d["builder"] = h.builder;
  d["format_version"] = t.tb().format_version();
  d["file_size"] = t.tb().file_size();
  return d;
}

py::object query(py_tablebase& t, const std::string& raw) {
  std::lock_guard<std::mutex> g(t.mu());
  tablebase& tb = t.tb();
  const position_ref p = t.drv().parse(clean_position_text(raw));
  std::ostringstream out;
  t.drv().query(tb, p, true, out);
  return json_loads(out.str());
}

py::list options(py_tablebase& t, const std::string& raw) {
  std::lock_guard<std::mutex> g(t.mu());
  tablebase& tb = t.tb();
  const auto& h = tb.header();
  const position_ref p = t.drv().parse(clean_position_text(raw));
  if (p.level >= 0) {
    std::uint64_t rank = 0;
    std::string why;
    if (!t.locate(p, rank, why)) throw input_error(why);
  }
  py::list out;
  std::int64_t v[kMaxFields];
  for (const auto& o : t.drv().options(p)) {
    py::dict d;
    d["move"] = o.move;
    if (o.by != mover::either) d["player"] = o.by == mover::left ? "left" : "right";
    if (h.family == "scoring") d["points"] = o.points;
    d["position"] = o.after.text.empty() ? t.drv().format(o.after.level, o.after.rank) : o.after.text;
    if (o.after.level >= 0) d["level"] = o.after.level;
    std::string why;
    if (!t.values(o.after, v, why)) throw input_error(why);
    py::dict vals;
    for (std::size_t f = 0; f < h.fields.size(); ++f) vals[py::str(h.fields[f].name)] = v[f];
    if (t.has_genus()) {
      genus scratch;
      vals["tame"] = t.tame(v, scratch);
    }
    d["values"] = vals;
    out.append(d);
  }
  return out;
}

/// Imports NumPy for `what` (a function that returns arrays): pybind11 would
/// raise a bare ModuleNotFoundError where it is missing; this raises an
/// ImportError saying what to install.
void require_numpy(const std::string& what) {
  try {
    py::module_::import("numpy");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    throw py::import_error(what + " needs NumPy, which is not installed (apt-get install python3-numpy, or pip " +
                           "install numpy)");
  }
}

/// Output columns of query_many and level: one int64 array per field, then
/// `tame` (genus tables), then `found` (query_many with on_missing="mask").
struct columns {
  std::vector<py::array_t<std::int64_t>> fields;
  std::vector<std::int64_t*> ptr;
  py::array_t<bool> tame, found;
  bool* tame_ptr = nullptr;
  bool* found_ptr = nullptr;

  columns(py_tablebase& t, std::size_t n, bool with_found) {
    for (std::size_t f = 0; f < t.nfields(); ++f) {
      fields.emplace_back(static_cast<py::ssize_t>(n));
      ptr.push_back(fields.back().mutable_data());
    }
    if (t.has_genus()) {
      tame = py::array_t<bool>(static_cast<py::ssize_t>(n));
      tame_ptr = tame.mutable_data();
    }
    if (with_found) {
      found = py::array_t<bool>(static_cast<py::ssize_t>(n));
      found_ptr = found.mutable_data();
    }
  }
  void put(py_tablebase& t, std::size_t i, const std::int64_t* v, genus& scratch) {
    for (std::size_t f = 0; f < ptr.size(); ++f) ptr[f][i] = v[f];
    if (tame_ptr) tame_ptr[i] = t.tame(v, scratch);
    if (found_ptr) found_ptr[i] = true;
  }
  void missing(std::size_t i) {
    for (auto* p : ptr) p[i] = -1;
    if (tame_ptr) tame_ptr[i] = false;
    found_ptr[i] = false;
  }
  py::dict dict(py_tablebase& t) {
    py::dict d;
    const auto names = field_names(t);
    for (std::size_t f = 0; f < fields.size(); ++f) d[py::str(names[f])] = fields[f];
    if (tame_ptr) d["tame"] = tame;
    if (found_ptr) d["found"] = found;
    return d;
  }
};

py::dict query_many(py_tablebase& t, const py::object& positions, const std::string& on_missing) {
  require_numpy("Tablebase.query_many()");
  if (on_missing != "raise" && on_missing != "mask")
    throw input_error("on_missing must be 'raise' or 'mask', not '" + on_missing + "'");
  const bool mask = on_missing == "mask";
  enum class kind { text, code, pair } k;
  std::vector<std::string> texts;
  py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast> codes;
  py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> pairs;
  std::size_t n = 0;
  if (py::isinstance<py::array>(positions)) {
    py::array a = positions.cast<py::array>();
    if (a.dtype().kind() != 'i' && a.dtype().kind() != 'u')
      throw input_error("query_many: an array of positions must hold integers (codes, or (level, rank) pairs)");
    if (a.ndim() == 1) {
      k = kind::code;
      codes = a.cast<decltype(codes)>();
      n = static_cast<std::size_t>(codes.shape(0));
    } else if (a.ndim() == 2 && a.shape(1) == 2) {
      k = kind::pair;
      pairs = a.cast<decltype(pairs)>();
      n = static_cast<std::size_t>(pairs.shape(0));
    } else {
      throw input_error("query_many: an array of positions must have shape (N,) (codes) or (N, 2) (level, rank)");
    }
  } else if (py::isinstance<py::str>(positions)) {
    throw input_error("query_many takes a list of positions; use query() for one");
  } else {
    k = kind::text;
    for (const auto& item : positions) {
      if (!py::isinstance<py::str>(item)) throw input_error("query_many: positions must be strings");
      texts.push_back(item.cast<std::string>());
    }
    n = texts.size();
  }
  columns out(t, n, mask);
  const std::uint64_t* cp = k == kind::code ? codes.data() : nullptr;
  const std::int64_t* pp = k == kind::pair ? pairs.data() : nullptr;
  {
    py::gil_scoped_release nogil;
    std::lock_guard<std::mutex> g(t.mu());
    tablebase& tb = t.tb();
    const game_driver& drv = t.drv();
    std::int64_t v[kMaxFields];
    genus scratch;
    std::string why;
    for (std::size_t i = 0; i < n; ++i) {
      bool ok = false;
      try {
        if (k == kind::pair) {
          const std::int64_t level = pp[2 * i], rank = pp[2 * i + 1];
          const level_entry* le = level >= 0 && level <= 1'000'000 ? tb.find_level(static_cast<int>(level)) : nullptr;
          if (!le)
            why = "level " + std::to_string(level) + " is not in this tablebase";
          else if (rank < 0 || static_cast<std::uint64_t>(rank) >= le->positions)
            why = "level " + std::to_string(level) + " has no rank " + std::to_string(rank) + " (it holds " +
                  std::to_string(le->positions) + " positions)";
          else {
            tb.entry(static_cast<int>(level), static_cast<std::uint64_t>(rank), v);
            ok = true;
          }
        } else {
          const position_ref r = k == kind::code ? drv.from_code(cp[i]) : drv.parse(clean_position_text(texts[i]));
          ok = t.values(r, v, why);
        }
      } catch (const input_error& e) {
        why = e.what();
      }
      if (ok)
        out.put(t, i, v, scratch);
      else if (mask)
        out.missing(i);
      else
        throw input_error("positions[" + std::to_string(i) + "]: " + why);
    }
  }
  return out.dict(t);
}

const level_entry& level_of(py_tablebase& t, int level) {
  const level_entry* le = t.tb().find_level(level);
  if (!le) throw input_error("'" + t.path() + "' holds no level " + std::to_string(level));
  return *le;
}

/// Calls f(decoded block) for every block of a level, in parallel
/// (cgtb::for_each_block).
template <class F>
void for_each_block(py_tablebase& t, const level_entry& le, F f) {
  cgtb::for_each_block(t.tb(), le, [&f](std::uint64_t, const decoded_block& d) { f(d); });
}

py::dict level_values(py_tablebase& t, int level) {
  require_numpy("Tablebase.level()");
  std::lock_guard<std::mutex> g(t.mu());
  const level_entry le = level_of(t, level);
  const std::size_t n = le.positions;
  columns out(t, n, false);
  py::array_t<std::uint64_t> orbit;
  std::uint64_t* op = nullptr;
  if (t.orbit()) {
    orbit = py::array_t<std::uint64_t>(static_cast<py::ssize_t>(n));
    op = orbit.mutable_data();
  }
  {
    py::gil_scoped_release nogil;
    const game_driver& drv = t.drv();
    const std::size_t nf = t.nfields();
    for_each_block(t, le, [&](const decoded_block& d) {
      std::int64_t v[kMaxFields];
      genus scratch;
      if (d.first + d.count > n) throw input_error("'" + t.path() + "': block past the end of its level");
      for (std::uint32_t i = 0; i < d.count; ++i) {
        for (std::size_t f = 0; f < nf; ++f) v[f] = d.get(i, static_cast<int>(f));
        out.put(t, d.first + i, v, scratch);
        if (op) op[d.first + i] = drv.orbit_size(level, d.keys.at(i));
      }
    });
  }
  py::dict d = out.dict(t);
  if (op) d["orbit"] = orbit;
  return d;
}

py::list level_positions(py_tablebase& t, int level) {
  std::lock_guard<std::mutex> g(t.mu());
  const level_entry le = level_of(t, level);
  std::vector<std::string> texts(le.positions);
  {
    py::gil_scoped_release nogil;
    const game_driver& drv = t.drv();
    const bool keyed = t.tb().keyed();
    for_each_block(t, le, [&](const decoded_block& d) {
      if (d.first + d.count > texts.size()) throw input_error("'" + t.path() + "': block past the end of its level");
      for (std::uint32_t i = 0; i < d.count; ++i)
        texts[d.first + i] = drv.format(level, keyed ? d.keys.at(i) : d.first + i);
    });
  }
  py::list out;
  for (auto& s : texts) out.append(py::str(s));
  return out;
}

py::array_t<std::uint64_t> level_orbits(py_tablebase& t, int level) {
  require_numpy("Tablebase.orbits()");
  std::lock_guard<std::mutex> g(t.mu());
  const level_entry le = level_of(t, level);
  py::array_t<std::uint64_t> orbit(static_cast<py::ssize_t>(le.positions));
  std::uint64_t* op = orbit.mutable_data();
  std::fill(op, op + le.positions, 1);
  if (t.orbit()) {
    py::gil_scoped_release nogil;
    const game_driver& drv = t.drv();
    for_each_block(t, le, [&](const decoded_block& d) {
      if (d.first + d.count > le.positions) throw input_error("'" + t.path() + "': block past the end of its level");
      for (std::uint32_t i = 0; i < d.count; ++i) op[d.first + i] = drv.orbit_size(level, d.keys.at(i));
    });
  }
  return orbit;
}

}  // namespace

void bind_tablebase(py::module_& m) {
  py::class_<py_tablebase>(m, "Tablebase",
                           "An open .cgtb tablebase (cgtb.open). Usable as a context manager; close() releases the "
                           "file.\n\nNot meant to be shared by threads at once: calls on one handle take turns (a "
                           "lock), so give each thread its own handle for parallel lookups.")
      .def(py::init<const std::string&, std::size_t>(), py::arg("path"), py::arg("cache_mb") = 1024)
      .def_property_readonly(
          "path", [](py_tablebase& t) { return t.path(); }, "The file's path, as given to open().")
      .def_property_readonly(
          "game", [](py_tablebase& t) { return t.tb().header().ruleset; },
          "The ruleset, e.g. 'cram' (the header's ruleset line; the name `cgtb build` takes).")
      .def_property_readonly(
          "params", [](py_tablebase& t) { return t.tb().header().params; },
          "Canonical parameter text, e.g. '4x5' (the header's params line).")
      .def_property_readonly(
          "family", [](py_tablebase& t) { return t.tb().header().family; },
          "Value family: 'impartial', 'partizan' or 'scoring'.")
      .def_property_readonly(
          "value_kinds",
          [](py_tablebase& t) {
            std::vector<std::string> k;
            std::istringstream in(t.tb().header().values);
            for (std::string s; std::getline(in, s, ',');) k.push_back(s);
            return k;
          },
          "Value kinds the table was built with, e.g. ['normal', 'misere', 'genus'].")
      .def_property_readonly(
          "fields", [](py_tablebase& t) { return field_names(t); },
          "Names of the stored per-position fields, in storage order (the int64 arrays of query_many/level).")
      .def_property_readonly(
          "levels",
          [](py_tablebase& t) {
            std::vector<int> l;
            for (const auto& e : t.levels()) l.push_back(e.level);
            return l;
          },
          "Level numbers the file holds, ascending (for domino games: empty-cell counts).")
      .def_property_readonly(
          "level_sizes",
          [](py_tablebase& t) {
            py::dict d;
            for (const auto& e : t.levels()) d[py::int_(e.level)] = e.positions;
            return d;
          },
          "dict level -> number of positions stored on it (symmetry classes for symmetry-reduced tables).")
      .def_property_readonly(
          "symmetry_reduced", [](py_tablebase& t) { return t.orbit(); },
          "True when the table stores one position per symmetry class (orbits() gives each class's size).")
      .def_property_readonly("header", &header_dict,
                             "The file header as a dict (ruleset, params, family, values, fields, index, positions, "
                             "symmetry, block_entries, zstd_level, builder, format_version, file_size).")
      .def_property_readonly("closed", &py_tablebase::closed, "True once close() was called.")
      .def(
          "__len__",
          [](py_tablebase& t) {
            std::uint64_t n = 0;
            for (const auto& e : t.tb().levels()) n += e.positions;
            return n;
          },
          "Number of stored positions, all levels together (symmetry classes for symmetry-reduced tables).")
      .def("query", &query, py::arg("position"),
           "query(position: str) -> dict\n\nThe answer of `cgtb query --json FILE POSITION`, as a dict with the same "
           "keys (e.g. position, level, grundy, normal_outcome, normal_winning_moves, misere, ..., genus, tame for "
           "impartial tables). Raises InputError with the CLI's message for a malformed position or one the table "
           "does not hold.")
      .def("options", &options, py::arg("position"),
           "options(position: str) -> list[dict]\n\nEvery move from the position: {'move': name, 'position': text of "
           "the position it leads to, 'level': its level, 'values': {field: int, ... (and 'tame' for genus "
           "tables)}}, plus 'player' ('left'/'right') in partizan games and 'points' in scoring games. Moves in "
           "the order and with the names of `cgtb query --options`. Raises InputError like query().")
      .def("query_many", &query_many, py::arg("positions"), py::arg("on_missing") = "raise",
           "query_many(positions, on_missing='raise') -> dict[str, numpy.ndarray]\n\n"
           "The stored fields of many positions, computed with the GIL released: one int64 array of shape (N,) per "
           "field (Tablebase.fields), plus a bool array 'tame' for genus tables.\n\n"
           "positions is one of\n"
           "  * a sequence of N position strings (as query() takes them);\n"
           "  * a 1-D integer array of N codes: for Cram and Domineering the set of empty cells as a bitmask, cell "
           "(r, c) at bit r*cols + c (cgtb.encode_cells), in any orientation;\n"
           "  * an (N, 2) integer array of (level, rank) pairs, rank the position's place in its level (as "
           "level()/positions()/`cgtb export` number them).\n\n"
           "A position the table does not hold (or a malformed one) raises InputError naming its index "
           "('positions[17]: ...') when on_missing='raise'; with on_missing='mask' its fields are -1, its 'tame' "
           "False, and a bool array 'found' marks the positions that were found.")
      .def("level", &level_values, py::arg("level"),
           "level(level: int) -> dict[str, numpy.ndarray]\n\nEvery stored position of a level, in rank order: one "
           "int64 array of shape (level_sizes[level],) per field, 'tame' (bool) for genus tables, and 'orbit' "
           "(uint64: positions each stored class stands for) for symmetry-reduced tables. Row i is the position "
           "positions(level)[i], as `cgtb export --level L` lists it. Raises InputError for a level the file "
           "lacks, CorruptFileError for a corrupt block.")
      .def("positions", &level_positions, py::arg("level"),
           "positions(level: int) -> list[str]\n\nText of every stored position of a level, in rank order (the "
           "canonical image of each class for symmetry-reduced tables). Raises like level().")
      .def("orbits", &level_orbits, py::arg("level"),
           "orbits(level: int) -> numpy.ndarray\n\nuint64 array: how many positions each stored position of the "
           "level stands for (its symmetry class's size; all 1 unless symmetry_reduced).")
      .def("close", &py_tablebase::close, "close() -> None\n\nReleases the file; later calls raise InputError.")
      .def(
          "__enter__", [](py::object self) { return self; }, "Context manager: returns the tablebase.")
      .def(
          "__exit__",
          [](py_tablebase& t, const py::object&, const py::object&, const py::object&) {
            t.close();
            return false;
          },
          "Context manager: closes the tablebase.")
      .def("__repr__", [](py_tablebase& t) {
        if (t.closed()) return "<cgtb.Tablebase '" + t.path() + "' (closed)>";
        const auto& h = t.tb().header();
        return "<cgtb.Tablebase '" + t.path() + "': " + h.ruleset + " " + h.params + ", " + h.values + ">";
      });
}

}  // namespace cgtb::python
