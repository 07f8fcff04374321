// The parts of the module _cgtb in files of their own (module.cpp binds the
// rest).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace cgtb::python {

/// Python's json.loads(text): the module hands the CLI's JSON lines to Python
/// as dicts, so that its answers are the CLI's by construction.
inline pybind11::object json_loads(const std::string& text) {
  return pybind11::module_::import("json").attr("loads")(text);
}

/// Binds cgtb.Tablebase (tablebase_object.cpp) into the module m.
void bind_tablebase(pybind11::module_& m);

}  // namespace cgtb::python
