// _cgtb: the extension of the Python module cgtb (docs/python.md). It opens
// tablebases through the reader and the game drivers the command-line tool
// uses, so that answers (and error messages) are the CLI's by construction:
// tb.query() parses the JSON line of game_driver::query, the very line
// `cgtb query --json` prints.
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
#include "tablebase_object.hpp"

namespace py = pybind11;

namespace cgtb::python {
namespace {

PyObject* g_input_error = nullptr;
PyObject* g_corrupt_error = nullptr;
PyObject* g_resource_error = nullptr;

/// A progress sink that calls Python: `line(str)` for each progress line,
/// `advance(done, total)` for a progress bar (either may be None). Called
/// from the solver's threads, which run without the GIL: each call takes it.
/// The first exception a callback raises is kept (later lines are dropped)
/// and rethrown when the build ends.
class python_progress final : public progress_sink {
 public:
  python_progress(py::object line, py::object advance) : line_(std::move(line)), advance_(std::move(advance)) {}
  void line(const std::string& text) override {
    if (line_.is_none()) return;
    call([&] { line_(py::str(text)); });
  }
  void advance(std::uint64_t done, std::uint64_t total) override {
    if (advance_.is_none()) return;
    call([&] { advance_(done, total); });
  }
  /// The first exception a callback raised, if any.
  std::exception_ptr error() const { return error_; }

 private:
  template <class F>
  void call(F&& f) {
    std::lock_guard<std::mutex> g(mu_);
    if (error_) return;
    py::gil_scoped_acquire gil;
    try {
      f();
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  py::object line_, advance_;
  std::mutex mu_;
  std::exception_ptr error_;
};

/// `cgtb build ARGS...` (ARGS[0] is the game): the options of tools/cgtb.cpp
/// parse_build: both take them from add_build_options and
/// build_request_from (cgtb/front_end.hpp). Returns the file written.
std::string build(const std::vector<std::string>& args, const py::object& progress, const py::object& advance) {
  if (args.empty()) throw input_error("build needs a game");
  const game_entry& game = find_game(args[0]);
  cxxopts::Options o("cgtb build " + game.name, game.summary);
  add_build_options(o, game);
  std::vector<std::string> owned(args);
  std::vector<char*> argv;
  for (auto& a : owned) argv.push_back(a.data());
  cxxopts::ParseResult r;
  try {
    r = o.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const cxxopts::exceptions::no_such_option& e) {
    // cgtb.build(game, bord=...) reaches cxxopts as --bord: name the keyword.
    std::string name = cxxopts_option_name(e.what());
    std::replace(name.begin(), name.end(), '-', '_');
    if (name.empty()) throw input_error(cxxopts_message(e.what()));
    throw input_error(unknown_option_text(name, "cgtb build " + game.name));
  }
  refuse_repeated_options(r);
  build_request req;
  std::unique_ptr<game_driver> drv = build_request_from(r, game, req);
  const bool callback = !progress.is_none() && PyCallable_Check(progress.ptr());
  const bool bar = !advance.is_none();
  req.progress = callback || bar || (!progress.is_none() && progress.cast<bool>());
  check_build_output(req);
  if (!callback && !bar) {
    py::gil_scoped_release nogil;
    drv->build(req);
    return req.output;
  }
  python_progress sink(callback ? progress : py::none(), advance);
  req.progress_to = &sink;
  {
    py::gil_scoped_release nogil;
    drv->build(req);
    sink.line(wrote_line(game.name, drv->params(), req));
  }
  if (sink.error()) std::rethrow_exception(sink.error());
  return req.output;
}

void set_error(PyObject* type, const char* what) { PyErr_SetString(type, one_line(what).c_str()); }

}  // namespace
}  // namespace cgtb::python

PYBIND11_MODULE(_cgtb, m) {
  using namespace cgtb;
  using namespace cgtb::python;
  m.doc() = "cgtb's extension: open, query and build tablebases (use the package cgtb; docs/python.md).";

  g_input_error = PyErr_NewExceptionWithDoc(
      "cgtb.InputError",
      "Bad input: a malformed or unknown position, an unknown game or option, a level or rank the file lacks.\n"
      "The message is the CLI's one-line message (what `cgtb` prints after 'cgtb: error: ').",
      PyExc_ValueError, nullptr);
  g_corrupt_error = PyErr_NewExceptionWithDoc(
      "cgtb.CorruptFileError",
      "A file that opens but is not a sound tablebase: bad magic, checksum mismatch, truncation, an unsupported\n"
      "format version. A subclass of InputError (the CLI reports both with exit status 2).",
      g_input_error, nullptr);
  g_resource_error = PyErr_NewExceptionWithDoc(
      "cgtb.ResourceError",
      "A resource limit was hit: a build that needs more memory than allowed, a value that does not fit its field\n"
      "(the CLI's exit status 3).",
      PyExc_RuntimeError, nullptr);
  m.attr("InputError") = py::handle(g_input_error);
  m.attr("CorruptFileError") = py::handle(g_corrupt_error);
  m.attr("ResourceError") = py::handle(g_resource_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const corrupt_file_error& e) {
      set_error(g_corrupt_error, e.what());
    } catch (const input_error& e) {
      set_error(g_input_error, e.what());
    } catch (const resource_error& e) {
      set_error(g_resource_error, e.what());
    } catch (const cxxopts::exceptions::exception& e) {
      set_error(g_input_error, cxxopts_message(e.what()).c_str());
    }
  });

  m.attr("builder_version") = kBuilderVersion;
  m.attr("format_version") = kFormatVersion;

  m.def(
      "games",
      [] {
        std::vector<std::pair<std::string, std::string>> g;
        for (const auto& e : game_registry()) g.emplace_back(e.name, e.summary);
        return g;
      },
      "games() -> list[tuple[str, str]]\n\nEvery game `cgtb build` knows: (name, one-line summary), in the CLI's "
      "order.");

  m.def("_build", &build, py::arg("args"), py::arg("progress"), py::arg("advance") = py::none(),
        "_build(args, progress, advance=None) -> str\n\nInternal: `cgtb build ARGS...` (args[0] is the game); "
        "progress: a bool or a callable given each progress line; advance: None or a callable given (done, total) "
        "positions. Use cgtb.build().");

  m.def(
      "octal_quotient",
      [](const std::string& code, int max_heap, std::uint64_t check, std::uint64_t seed, std::size_t max_order,
         std::uint64_t max_signatures) {
        octal_quotient_options opt;
        opt.code = code;
        opt.max_heap = max_heap;
        opt.check = check;
        opt.seed = seed;
        opt.max_order = max_order;
        opt.max_signatures = max_signatures;
        std::string text;
        {
          py::gil_scoped_release unlocked;
          text = octal_quotient_json(octal_quotient(opt));
        }
        return json_loads(text);
      },
      py::arg("code"), py::arg("max_heap"), py::arg("check") = 10000, py::arg("seed") = 1, py::arg("max_order") = 4096,
      py::arg("max_signatures") = 20000000,
      "octal_quotient(code, max_heap, check=10000, seed=1, max_order=4096, max_signatures=20000000) -> dict\n\nThe "
      "misere quotient of the sums of heaps "
      "1..max_heap of an octal game, as `cgtb quotient octal --json` prints it (docs/misere.md): order, proven, "
      "generators, relations, elements, p_portion, heap_elements (heap 1 first), table (products as element "
      "numbers); proven is False (with why_not) when the proof's finite check went past max_signatures. Raises "
      "InputError for a bad code or max_heap (the message names the CLI's --max-heap), ResourceError past max_order "
      "elements.");

  py::class_<sum_solver>(m, "SumSolver",
                         "Outcomes of disjunctive sums under normal and misere play, as `cgtb sum` computes them "
                         "(docs/misere.md). A term is 'FILE:POSITION', '*n' (a Nim heap), 'cram:POSITION' (a Cram "
                         "position with no table) or 'octal:CODE:HEAPS' (octal heaps with no table). The solver keeps "
                         "its memo and its open files from one sum to the "
                         "next. Not meant to be shared by threads at once.")
      .def(py::init([](const std::string& play, bool winning_moves, bool shortcuts, std::size_t memo_mb) {
             if (play != "normal" && play != "misere" && play != "both")
               throw input_error("play must be 'normal', 'misere' or 'both', not '" + play + "'");
             sum_settings s;
             s.normal = play != "misere";
             s.misere = play != "normal";
             s.winning_moves = winning_moves;
             s.shortcuts = shortcuts;
             s.memo_bytes = memo_mb << 20;
             return std::make_unique<sum_solver>(s);
           }),
           py::arg("play") = "both", py::arg("winning_moves") = true, py::arg("shortcuts") = true,
           py::arg("memo_mb") = 2048)
      .def(
          "solve",
          [](sum_solver& solver, const std::vector<std::string>& terms) {
            std::string text;
            {
              py::gil_scoped_release unlocked;
              text = sum_answer_json(solver.solve(terms));
            }
            return json_loads(text);
          },
          py::arg("terms"),
          "solve(terms: list[str]) -> dict\n\nThe answer of `cgtb sum --json TERM...`: sum, grundy, "
          "normal_outcome, misere_outcome ('N' or 'P'), the winning moves as {'term', 'move', 'after'} dicts, "
          "searched. Raises InputError with the CLI's message for a bad term.")
      .def(
          "misere_win",
          [](sum_solver& solver, const std::vector<std::string>& terms) {
            py::gil_scoped_release unlocked;
            return solver.misere_win(terms);
          },
          py::arg("terms"),
          "misere_win(terms: list[str]) -> bool\n\nTrue when the player to move wins the misere sum (no move "
          "lists).");

  bind_tablebase(m);
}
