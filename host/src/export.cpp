// cgtb export (cgtb/export.hpp).
#include "cgtb/export.hpp"

#include <nlohmann/json.hpp>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"

namespace cgtb {

export_format parse_export_format(const std::string& text) {
  if (text == "csv") return export_format::csv;
  if (text == "jsonl") return export_format::jsonl;
  throw input_error("--format " + text + ": expected csv or jsonl");
}

namespace {

/// A CSV field: quoted (quotes doubled) when it holds a comma, quote or line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::uint64_t export_table(tablebase& tb, const game_driver& drv, int level, export_format fmt, std::ostream& out) {
  const auto& h = tb.header();
  if (level >= 0 && !tb.find_level(level))
    throw input_error("'" + tb.path() + "' holds no level " + std::to_string(level));
  const bool orbit = tb.keyed() && h.symmetry != "none";
  if (fmt == export_format::csv) {
    std::string head = "level,rank,position";
    if (orbit) head += ",orbit";
    for (const auto& f : h.fields) head += "," + f.name;
    out << head << "\n";
  }
  std::vector<level_entry> levels = tb.levels();
  std::sort(levels.begin(), levels.end(), [](const level_entry& a, const level_entry& b) { return a.level < b.level; });
  std::uint64_t rows = 0;
  std::string buf;
  for (const auto& le : levels) {
    if (level >= 0 && le.level != level) continue;
    for (std::uint64_t b = le.first_block; b < le.first_block + le.blocks; ++b) {
      const decoded_block d = tb.read_block(b);
      buf.clear();
      for (std::uint32_t i = 0; i < d.count; ++i) {
        const std::uint64_t rank = d.first + i;
        const std::uint64_t key = tb.keyed() ? d.keys.at(i) : rank;
        const std::string text = drv.format(le.level, key);
        if (fmt == export_format::csv) {
          buf += std::to_string(le.level) + "," + std::to_string(rank) + "," + csv_field(text);
          if (orbit) buf += "," + std::to_string(drv.orbit_size(le.level, key));
          for (std::size_t f = 0; f < h.fields.size(); ++f) buf += "," + std::to_string(d.get(i, static_cast<int>(f)));
          buf += "\n";
        } else {
          nlohmann::ordered_json j;
          j["level"] = le.level;
          j["rank"] = rank;
          j["position"] = text;
          if (orbit) j["orbit"] = drv.orbit_size(le.level, key);
          for (std::size_t f = 0; f < h.fields.size(); ++f) j[h.fields[f].name] = d.get(i, static_cast<int>(f));
          buf += json_text(j) + "\n";
        }
        ++rows;
      }
      out << buf;
      if (!out) throw input_error("writing the export failed");
    }
  }
  return rows;
}

}  // namespace cgtb
