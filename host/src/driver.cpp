// Default methods of game_driver (cgtb/driver.hpp).
#include "cgtb/driver.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cgtb/classify.hpp"
#include "cgtb/error.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

void require_analysis(const game_driver& d, const std::string& name, const std::string& path) {
  const auto has = d.analyses();
  if (std::find(has.begin(), has.end(), name) != has.end()) return;
  std::string msg = name + " is not available for '" + path + "' (" + d.ruleset() + " " + d.params() + ")";
  const std::string hint = d.analysis_hint(name);
  if (!hint.empty()) msg += ": " + hint;
  std::string list;
  for (const auto& a : has) list += (list.empty() ? "cgtb " : ", cgtb ") + a;
  msg += "; " + (list.empty() ? std::string("no analysis command reads these tables")
                              : "the analysis commands for tables of this kind: " + list);
  throw input_error(msg);
}

std::unique_ptr<game_driver> driver_for_analysis(const tablebase& tb, const std::string& name) {
  auto d = driver_for_header(tb.header());
  require_analysis(*d, name, tb.path());
  return d;
}

census_report game_driver::census(tablebase& tb) const {
  require_analysis(*this, "census", tb.path());
  throw input_error("census: not implemented for " + ruleset());  // a driver listing it overrides census
}

classify_report game_driver::classify(tablebase& tb) const {
  require_analysis(*this, "classify", tb.path());
  throw input_error("classify: not implemented for " + ruleset());
}

int game_driver::period(tablebase& tb, const period_request&, std::ostream&) const {
  require_analysis(*this, "period", tb.path());
  throw input_error("period: not implemented for " + ruleset());
}

void game_driver::list_options(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const {
  const auto& h = tb.header();
  const int fg = h.field_index(cgtb::field_name::grundy), fm = h.field_index(cgtb::field_name::misere);
  const bool genus_fields = has_genus_fields(h);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string text = p.text + "\n";
  std::vector<std::int64_t> v(h.fields.size());
  for (const auto& c : components(p))
    if (!tb.find_level(c.level))
      throw input_error("position '" + p.text + "' is on level " + std::to_string(c.level) +
                        ", which this tablebase does not hold");
  const std::vector<option_ref> all = options(p);
  const std::size_t listed = std::min(max_moves(), all.size());
  for (std::size_t i = 0; i < listed; ++i) {
    const option_ref& o = all[i];
    const std::string after = o.after.text.empty() ? format(o.after.level, o.after.rank) : o.after.text;
    nlohmann::ordered_json j;
    j["move"] = o.move;
    j["position"] = after;
    std::string values;
    const std::vector<position_ref> parts = components(o.after);
    if (parts.size() == 1) {
      const position_ref& c = parts[0];
      const std::int64_t rank = tb.stored_rank(c.level, c.rank);
      if (rank < 0) throw input_error("option '" + after + "' of '" + p.text + "' is not in this tablebase");
      tb.entry(c.level, static_cast<std::uint64_t>(rank), v.data());
      for (std::size_t f = 0; f < h.fields.size(); ++f) {
        j[h.fields[f].name] = v[f];
        const bool genus_field = genus_fields && static_cast<int>(f) > fm;
        if (!genus_field) values += (values.empty() ? "" : ", ") + h.fields[f].name + " " + std::to_string(v[f]);
      }
      if (genus_fields) {
        const genus gn = genus_of([&](int f) { return v[static_cast<std::size_t>(f)]; }, fg, fm);
        j["genus"] = gn.symbol();
        j["tame"] = gn.tame();
        values += ", genus " + gn.symbol() + (gn.tame() ? " (tame)" : " (wild)");
      }
    } else if (fg >= 0) {
      std::int64_t x = 0;  // Sprague-Grundy: a sum is worth the XOR of its parts
      for (const auto& c : parts) {
        const std::int64_t rank = tb.stored_rank(c.level, c.rank);  // keyed tables: the part's file key
        if (rank < 0) throw input_error("part '" + c.text + "' of option '" + after + "' is not in this tablebase");
        x ^= tb.value(c.level, static_cast<std::uint64_t>(rank), fg);
      }
      j["grundy"] = x;
      values = "grundy " + std::to_string(x);
    }
    list.push_back(j);
    text += "  " + o.move + " -> " + after + (values.empty() ? "" : "  (" + values + ")") + "\n";
  }
  const std::size_t left_out = all.size() - listed;
  if (json) {
    nlohmann::ordered_json top;
    top["position"] = p.text;
    top["options"] = list;
    if (left_out) top["options_left_out"] = left_out;
    out << json_text(top) << "\n";
  } else {
    if (left_out) text += "  (" + std::to_string(left_out) + (listed ? " more" : "") + " not listed)\n";
    out << text;
  }
}

}  // namespace cgtb
