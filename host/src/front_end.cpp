// Shared by the front ends (cgtb/front_end.hpp).
#include "cgtb/front_end.hpp"

#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cxxopts.hpp>
#include <limits>
#include <vector>

#include "cgtb/error.hpp"

namespace cgtb {

namespace {

/// Length (1-4) of the well-formed UTF-8 character at s[i], or 0 when the
/// bytes there are not one (a stray continuation byte, a truncated or
/// overlong sequence, a surrogate, a code point past U+10FFFF).
std::size_t utf8_length_at(const std::string& s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  std::uint32_t least = 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2, least = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, least = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, least = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  std::uint32_t cp = c & (0x7Fu >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3Fu);
  }
  if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string one_line(const std::string& msg) {
  std::string out;
  for (std::size_t i = 0; i < msg.size();) {
    if (out.size() >= 300) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(msg[i]);
    const std::size_t n = utf8_length_at(msg, i);
    if (n == 0 || c < 0x20 || c == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
      ++i;
    } else {
      out.append(msg, i, n);
      i += n;
    }
  }
  return out;
}

std::string clean_position_text(const std::string& raw) {
  if (raw.find('\0') != std::string::npos) throw input_error("position contains a NUL byte");
  if (raw.size() > kMaxPositionChars)
    throw input_error("position is longer than " + std::to_string(kMaxPositionChars) + " characters");
  const auto a = raw.find_first_not_of(" \t\r\n"), b = raw.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? std::string() : raw.substr(a, b - a + 1);
}

bool read_position_line(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* sb = in.rdbuf();
  bool any = false;
  for (int c; (c = sb->sbumpc()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') return true;
    if (line.size() > kMaxPositionChars) {  // too long already: skip the rest, keeping nothing
      in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
      return true;
    }
    line.push_back(static_cast<char>(c));
  }
  in.setstate(std::ios::eofbit);
  if (!any) in.setstate(std::ios::failbit);
  return any;
}

std::string default_file_name(const std::string& game, const std::string& params) {
  std::string name = game + "-" + params;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != ',') c = '_';
  return name + ".cgtb";
}

std::size_t parse_bytes(const std::string& text, const std::string& option) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  double unit = 1;
  const std::string suffix = end ? std::string(end) : std::string();
  if (suffix == "K" || suffix == "KB")
    unit = 1e3;
  else if (suffix == "M" || suffix == "MB")
    unit = 1e6;
  else if (suffix == "G" || suffix == "GB")
    unit = 1e9;
  else if (suffix == "T" || suffix == "TB")
    unit = 1e12;
  else if (!suffix.empty())
    throw input_error(option + " '" + text + "' is not a size (e.g. 12G, 800M)");
  if (!(v > 0) || v * unit > 1e18) throw input_error(option + " '" + text + "' is not a positive size");
  return static_cast<std::size_t>(v * unit);
}

std::string cxxopts_message(std::string what) {
  for (const char* q : {"\u2018", "\u2019"})
    for (std::size_t i; (i = what.find(q)) != std::string::npos;) what.replace(i, std::string(q).size(), "'");
  if (!what.empty() && std::isupper(static_cast<unsigned char>(what[0])))
    what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  return what;
}

std::string cxxopts_option_name(const std::string& what) {
  const std::string open = "\u2018", close = "\u2019";
  const std::size_t a = what.find(open), b = a == std::string::npos ? a : what.find(close, a + open.size());
  return b == std::string::npos ? std::string() : what.substr(a + open.size(), b - a - open.size());
}

std::string unknown_option_text(const std::string& name, const std::string& help) {
  return "unknown option '" + name + "' ('" + help + " --help' lists the options)";
}

void refuse_repeated_options(const cxxopts::ParseResult& r) {
  std::vector<std::string> seen;
  for (const auto& kv : r.arguments()) {
    if (std::find(seen.begin(), seen.end(), kv.key()) != seen.end())
      throw input_error("option --" + kv.key() + " is given more than once");
    seen.push_back(kv.key());
  }
}

void add_build_options(cxxopts::Options& o, const game_entry& game) {
  for (const game_option& g : game.options) {
    std::shared_ptr<cxxopts::Value> v;
    if (g.kind == game_option::integer)
      v = cxxopts::value<int>();
    else if (g.kind == game_option::wide_integer)
      v = cxxopts::value<long long>();
    else
      v = cxxopts::value<std::string>();
    if (!g.default_value.empty()) v->default_value(g.default_value);
    o.add_options(game.name)(g.name, g.help, v);
  }
  o.add_options("build")("values",
                         "value kinds, comma-separated: normal, misere, genus (impartial games); normal, misere "
                         "(partizan games); all = every kind the game has",
                         cxxopts::value<std::string>()->default_value("all"))(
      "backend", "cpu or cuda", cxxopts::value<std::string>()->default_value("cpu"))(
      "o,output", "output file (default GAME-PARAMS.cgtb)", cxxopts::value<std::string>())(
      "threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))(
      "max-memory", "refuse a build that needs more memory than this (e.g. 12G; default: the memory available)",
      cxxopts::value<std::string>())("stats",
                                     "print per-level figures: positions, options, time, positions/s, peak memory")(
      "resume",
      "checkpoint every finished level (FILE.partial-HASH and FILE.partial-HASH.ckpt, HASH naming the build; "
      "reachable boards also save the forward pass level by level in FILE.partial-HASH.keys) and continue a killed "
      "build of the same file and parameters from its last finished level")(
      "force", "replace the output file if it exists (without it, an existing file is refused)")(
      "q,quiet", "no progress lines")("block-entries", "positions per compressed block",
                                      cxxopts::value<std::uint32_t>()->default_value("4096"))(
      "zstd-level", "zstd compression level (1-19)", cxxopts::value<int>()->default_value("9"))(
      "split-from",
      "builds across MPI ranks (mpirun -np P cgtb build ...): split a level across the ranks when each would own at "
      "least this many stored classes; smaller levels are solved on rank 0",
      cxxopts::value<std::uint64_t>()->default_value("4096"))(
      "forward-parts",
      "reachable boards: find each level of the forward pass in this many parts (0: as many as keep a part's hash "
      "set within a quarter of the memory; across MPI ranks each part goes to its owners as soon as it is found)",
      cxxopts::value<std::uint64_t>()->default_value("0"))(
      "chunk-options",
      "builds across MPI ranks: solve a rank's part of a level in chunks of about this many distinct options each "
      "(0: chunks as large as --max-memory allows, the whole part where it fits)",
      cxxopts::value<std::uint64_t>()->default_value("0"));
}

std::unique_ptr<game_driver> build_request_from(const cxxopts::ParseResult& r, const game_entry& game,
                                                build_request& req) {
  if (!r.unmatched().empty()) throw input_error("unexpected argument '" + r.unmatched()[0] + "'");
  std::unique_ptr<game_driver> drv = game.from_options(r);
  req.values = r["values"].as<std::string>();
  req.output = r.count("output") ? r["output"].as<std::string>() : default_file_name(game.name, drv->params());
  req.solve.backend = parse_backend(r["backend"].as<std::string>());
  req.solve.threads = r["threads"].as<int>();
  if (req.solve.threads < 0 || req.solve.threads > 1024) throw input_error("--threads must be between 0 and 1024");
  if (req.values.empty()) throw input_error("--values is empty (give normal, misere, genus or all)");
  if (req.output.empty()) throw input_error("--output is empty");
  if (req.solve.threads > 0) omp_set_num_threads(req.solve.threads);
  if (r.count("max-memory")) req.solve.max_memory = parse_bytes(r["max-memory"].as<std::string>());
  req.solve.count_options = r.count("stats") > 0;
  req.stats = r.count("stats") > 0;
  req.progress = r.count("quiet") == 0;
  req.resume = r.count("resume") > 0;
  req.force = r.count("force") > 0;
  req.block_entries = r["block-entries"].as<std::uint32_t>();
  if (req.block_entries < 64 || req.block_entries > (1u << 20))
    throw input_error("--block-entries must be between 64 and 1048576");
  req.split_from = r["split-from"].as<std::uint64_t>();
  req.solve.chunk_options = r["chunk-options"].as<std::uint64_t>();
  req.solve.forward_parts = r["forward-parts"].as<std::uint64_t>();
  if (req.solve.forward_parts > 4096) throw input_error("--forward-parts must be at most 4096");
  req.zstd_level = r["zstd-level"].as<int>();
  if (req.zstd_level < 1 || req.zstd_level > 19) throw input_error("--zstd-level must be between 1 and 19");
  return drv;
}

}  // namespace cgtb
