#include "cgtb/partizan_driver.hpp"

#include <cstdio>
#include <fstream>

namespace cgtb {

partizan_kinds partizan_kinds::parse(const std::string& text) {
  partizan_kinds k;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "normal")
      k.normal = true;
    else if (item == "misere")
      k.misere = true;
    else if (item == "all")
      k.normal = k.misere = true;
    else
      throw input_error("unknown value kind '" + item + "' for a partizan game (expected normal, misere or all)");
  }
  if (!k.normal && !k.misere) throw input_error("no value kind given (expected normal, misere or all)");
  return k;
}

std::string partizan_kinds::text() const {
  std::string s;
  if (normal) s += "normal";
  if (misere) s += std::string(s.empty() ? "" : ",") + "misere";
  return s;
}

std::vector<field_spec> partizan_kinds::fields() const {
  std::vector<field_spec> f;
  if (normal) f.push_back({"normal_class", false});
  if (misere) f.push_back({"misere_class", false});
  return f;
}

}  // namespace cgtb
