#include "cgtb/value_kinds.hpp"

#include <algorithm>
#include <sstream>

#include "cgtb/error.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/rules/partizan.hpp"
#include "cgtb/rules/scoring.hpp"

namespace cgtb {

const std::vector<value_kind>& value_kind_table() {
  static const std::vector<value_kind> table = [] {
    std::vector<value_kind> t;
    t.push_back({"impartial", "normal", {{{field_name::grundy, false}, field_grundy}}, {}});
    t.push_back({"impartial", "misere", {{{field_name::misere, false}, field_misere}}, {}});
    value_kind genus{"impartial", "genus", {}, {"normal", "misere"}};
    for (int k = 1; k <= 7; ++k)  // gamma_k, k = 1..7: the genus's later entries
      genus.fields.push_back({{field_name::genus_prefix + std::to_string(k), false}, field_misere + k});
    t.push_back(genus);
    t.push_back({"partizan", "normal", {{{field_name::normal_class, false}, field_normal_class}}, {}});
    t.push_back({"partizan", "misere", {{{field_name::misere_class, false}, field_misere_class}}, {}});
    t.push_back({"scoring", "scoring", {{{field_name::gs, true}, field_gs}}, {}});
    // Blocking Nim stores both fields whatever is asked (each brings the other).
    t.push_back({"blocking", "safe", {{{field_name::safe, false}, 0}}, {"winning"}});
    t.push_back({"blocking", "winning", {{{field_name::winning, false}, 1}}, {"safe"}});
    return t;
  }();
  return table;
}

value_choice value_choice::parse(const std::string& family, const std::string& text) {
  std::vector<const value_kind*> of_family;
  for (const auto& k : value_kind_table())
    if (k.family == family) of_family.push_back(&k);
  if (of_family.empty()) throw input_error("no value kinds for family '" + family + "'");
  std::string expected;
  for (std::size_t i = 0; i < of_family.size(); ++i) expected += (i ? ", " : "") + of_family[i]->name;
  expected += " or all";
  std::vector<std::string> want;
  std::istringstream in(text.empty() ? "all" : text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item == "all" || (family == "scoring" && item == field_name::gs)) {
      for (const auto* k : of_family) want.push_back(k->name);
      continue;
    }
    const auto it =
        std::find_if(of_family.begin(), of_family.end(), [&](const value_kind* k) { return k->name == item; });
    if (it == of_family.end())
      throw input_error("unknown value kind '" + item + "' for " + (family == "impartial" ? "an " : "a ") + family +
                        " game (expected " + expected + ")");
    want.push_back(item);
  }
  if (want.empty()) throw input_error("no value kind given (expected " + expected + ")");
  for (std::size_t i = 0; i < want.size(); ++i)  // what a kind brings, transitively
    for (const auto* k : of_family)
      if (k->name == want[i])
        for (const auto& b : k->brings)
          if (std::find(want.begin(), want.end(), b) == want.end()) want.push_back(b);
  value_choice c;
  c.family = family;
  for (const auto* k : of_family)
    if (std::find(want.begin(), want.end(), k->name) != want.end()) c.kinds.push_back(k);
  return c;
}

std::string value_choice::text() const {
  std::string s;
  for (const auto* k : kinds) s += (s.empty() ? "" : ",") + k->name;
  return s;
}

std::vector<field_spec> value_choice::fields() const {
  std::vector<field_spec> f;
  for (const auto* k : kinds)
    for (const auto& sf : k->fields) f.push_back(sf.spec);
  return f;
}

std::vector<int> value_choice::rule_fields() const {
  std::vector<int> f;
  for (const auto* k : kinds)
    for (const auto& sf : k->fields) f.push_back(sf.rule_field);
  return f;
}

bool value_choice::has(const std::string& kind) const {
  return std::any_of(kinds.begin(), kinds.end(), [&](const value_kind* k) { return k->name == kind; });
}

}  // namespace cgtb
