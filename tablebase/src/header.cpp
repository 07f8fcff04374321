// The canonical text header of a .cgtb file (docs/format.md, "Header").
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <sstream>

#include "cgtb/error.hpp"
#include "cgtb/tablebase_format.hpp"

namespace cgtb {

namespace {

std::string trim(const std::string& s) {
  auto a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

/// The header lines whose value is free text, read into their member as it
/// stands.
struct text_line {
  const char* key;
  std::string tablebase_header::*member;
};
const text_line kTextLines[] = {{"ruleset", &tablebase_header::ruleset},     {"params", &tablebase_header::params},
                                {"family", &tablebase_header::family},       {"values", &tablebase_header::values},
                                {"index", &tablebase_header::index},         {"symmetry", &tablebase_header::symmetry},
                                {"positions", &tablebase_header::positions}, {"builder", &tablebase_header::builder}};

}  // namespace

std::string tablebase_header::to_text() const {
  std::ostringstream o;
  o << "ruleset: " << ruleset << "\n";
  o << "params: " << params << "\n";
  o << "family: " << family << "\n";
  o << "values: " << values << "\n";
  o << "fields:";
  for (std::size_t i = 0; i < fields.size(); ++i)
    o << (i ? "," : " ") << fields[i].name << (fields[i].is_signed ? ":i" : ":u");
  o << "\n";
  o << "index: " << index << "\n";
  o << "symmetry: " << symmetry << "\n";
  o << "positions: " << positions << "\n";
  o << "meaningful: all\n";
  o << "block-entries: " << block_entries << "\n";
  o << "codec: zstd\n";
  o << "zstd-level: " << zstd_level << "\n";
  o << "checksum: xxh64\n";
  o << "builder: " << builder << "\n";
  return o.str();
}

tablebase_header tablebase_header::from_text(const std::string& text) {
  tablebase_header h;
  std::istringstream in(text);
  std::string line;
  bool seen_fields = false, seen_ruleset = false, seen_entries = false;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) throw input_error("header line '" + line + "' has no ':'");
    std::string key = line.substr(0, colon), val = trim(line.substr(colon + 1));
    const auto free_text =
        std::find_if(std::begin(kTextLines), std::end(kTextLines), [&](const text_line& t) { return key == t.key; });
    if (free_text != std::end(kTextLines)) {
      h.*(free_text->member) = val;
      seen_ruleset = seen_ruleset || key == "ruleset";
    } else if (key == "fields") {
      seen_fields = true;
      std::istringstream fs(val);
      std::string item;
      while (std::getline(fs, item, ',')) {
        auto c = item.rfind(':');
        if (c == std::string::npos || (item.substr(c + 1) != "u" && item.substr(c + 1) != "i"))
          throw input_error("header field '" + item + "' is not NAME:u or NAME:i");
        h.fields.push_back({item.substr(0, c), item.substr(c + 1) == "i"});
      }
    } else if (key == "block-entries") {
      h.block_entries = static_cast<std::uint32_t>(std::strtoul(val.c_str(), nullptr, 10));
      seen_entries = true;
    } else if (key == "codec") {
      if (val != "zstd") throw input_error("unsupported codec '" + val + "'");
    } else if (key == "zstd-level") {
      h.zstd_level = std::atoi(val.c_str());
    } else if (key == "checksum") {
      if (val != "xxh64") throw input_error("unsupported checksum '" + val + "'");
    }
    // "meaningful" and unknown keys: informational, ignored.
  }
  if (h.fields.size() > kMaxFields) throw input_error("header lists more than 64 fields");
  if (!seen_ruleset || !seen_fields || !seen_entries || h.fields.empty() || h.block_entries == 0 ||
      h.block_entries > (1u << 24))
    throw input_error("header lacks ruleset, fields or a valid block-entries line");
  return h;
}

bool known_index_scheme(const std::string& scheme) { return scheme == kIndexRuleset || scheme == kIndexKeys; }

int tablebase_header::field_index(const std::string& name) const {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace cgtb
