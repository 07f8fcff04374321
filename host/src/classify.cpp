#include "cgtb/classify.hpp"

#include <nlohmann/json.hpp>

#include "cgtb/driver.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

std::vector<std::vector<std::uint16_t>> load_conway_pairs(tablebase& tb) {
  const auto& h = tb.header();
  const int fg = h.field_index(cgtb::field_name::grundy), fm = h.field_index(cgtb::field_name::misere);
  if (fg < 0 || fm < 0)
    throw input_error("'" + tb.path() + "' has no " + (fg < 0 ? "grundy" : "misere") +
                      " values; classify needs both (build with --values all)");
  int top = -1;
  for (const auto& l : tb.levels()) top = std::max(top, l.level);
  std::vector<std::vector<std::uint16_t>> out(static_cast<std::size_t>(top + 1));
  for (const auto& l : tb.levels()) {
    auto& v = out[static_cast<std::size_t>(l.level)];
    v.assign(l.positions, 0);
    for_each_block(tb, l, [&](std::uint64_t, const decoded_block& d) {
      for (std::uint32_t i = 0; i < d.count; ++i) {
        const auto g = d.get(i, fg), m = d.get(i, fm);
        if (g < 0 || g > 255 || m < 0 || m > 255) throw input_error("Grundy value out of range in '" + tb.path() + "'");
        v[d.first + i] = static_cast<std::uint16_t>(g << 8 | m);
      }
    });
  }
  return out;
}

void classify_report::print(std::ostream& out) const {
  auto line = [&](const char* name, const cgh_property& p) {
    out << name << (p.holds ? "yes" : "no");
    if (!p.holds) out << " (witness: " << p.witness << ")";
    out << "\n";
  };
  out << ruleset << " " << params << ": " << positions << " positions\n";
  line("forced:    ", forced);
  line("miserable: ", miserable);
  line("pet:       ", pet);
  out << "Conway pairs (G, G-):\n";
  for (const auto& [k, n] : pairs) out << "  (" << k.first << "," << k.second << ") " << n << "\n";
}

std::string classify_report::json() const {
  nlohmann::ordered_json j;
  j["ruleset"] = ruleset;
  j["params"] = params;
  j["positions"] = positions;
  auto prop = [](const cgh_property& p) {
    nlohmann::ordered_json o;
    o["holds"] = p.holds;
    if (!p.holds) o["witness"] = p.witness;
    return o;
  };
  j["forced"] = prop(forced);
  j["miserable"] = prop(miserable);
  j["pet"] = prop(pet);
  nlohmann::ordered_json pj = nlohmann::ordered_json::array();
  for (const auto& [k, n] : pairs) pj.push_back({{"g", k.first}, {"misere", k.second}, {"count", n}});
  j["pairs"] = pj;
  return json_text(j);
}

}  // namespace cgtb
