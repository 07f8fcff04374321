#include "cgtb/impartial_driver.hpp"

#include <iomanip>
#include <iostream>

namespace cgtb {

impartial_kinds impartial_kinds::parse(const std::string& text) {
  impartial_kinds k;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "normal")
      k.normal = true;
    else if (item == "misere")
      k.misere = true;
    else if (item == "genus")
      k.genus = true;
    else if (item == "all")
      k.normal = k.misere = k.genus = true;
    else
      throw input_error("unknown value kind '" + item + "' (expected normal, misere, genus or all)");
  }
  if (k.genus) k.normal = k.misere = true;
  if (!k.normal && !k.misere) throw input_error("no value kind given (expected normal, misere, genus or all)");
  return k;
}

std::string impartial_kinds::text() const {
  std::string s;
  if (normal) s += "normal";
  if (misere) s += std::string(s.empty() ? "" : ",") + "misere";
  if (genus) s += ",genus";
  return s;
}

std::vector<field_spec> impartial_kinds::fields() const {
  std::vector<field_spec> f;
  if (normal) f.push_back({"grundy", false});
  if (misere) f.push_back({"misere", false});
  if (genus)
    for (int k = 1; k <= 7; ++k) f.push_back({"genus" + std::to_string(k), false});
  return f;
}

}  // namespace cgtb
