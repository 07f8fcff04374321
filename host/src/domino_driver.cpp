#include "cgtb/domino_driver.hpp"

namespace cgtb {

std::vector<game_option> domino_index_options(std::vector<game_option> board) {
  board.push_back(
      {"positions",
       "which positions to store: reachable (regions whose covered cells can be tiled by dominoes, "
       "i.e. that can arise from the empty board) or all (every region: in Cram those with the board's parity, "
       "in Domineering every set of empty cells)",
       "reachable"});
  board.push_back(
      {"symmetry",
       "on (the default with --positions reachable): store one position per class of the board's symmetries; "
       "off (implied by --positions all): every position",
       ""});
  return board;
}

domino_index_choice domino_index_choice::from_options(const cxxopts::ParseResult& r) {
  domino_index_choice c;
  const std::string pos = r["positions"].as<std::string>();
  if (pos == "all")
    c.reachable = false;
  else if (pos != "reachable")
    throw input_error("--positions must be reachable or all, not '" + pos + "'");
  if (r.count("symmetry")) {
    const std::string s = r["symmetry"].as<std::string>();
    if (s == "off")
      c.symmetry = false;
    else if (s != "on")
      throw input_error("--symmetry must be on or off, not '" + s + "'");
    else if (!c.reachable)
      throw input_error(
          "--positions all stores every region in the plain subset index, without symmetry: use --symmetry off "
          "with it, or --positions reachable");
  }
  if (!c.reachable) c.symmetry = false;
  return c;
}

domino_index_choice domino_index_choice::from_header(const tablebase_header& h) {
  domino_index_choice c;
  c.reachable = h.index == "keys/1";
  c.symmetry = c.reachable && h.symmetry != "none";
  if (c.reachable && h.positions != "reachable")
    throw input_error("index keys/1 with positions '" + h.positions + "' is not a table this cgtb writes");
  return c;
}

}  // namespace cgtb
