// The table of cgtb subcommands (tools/commands.hpp).
#include "commands.hpp"

#include "cgtb/error.hpp"

namespace cgtb::tools {

const std::vector<command>& command_table() {
  static const std::vector<command> table = {
      {"build", "GAME", "solve every position of a game and write a tablebase",
       "Solve every position of a game by retrograde analysis and write a tablebase.", cmd_build},
      {"plan", "GAME", "what a build would take: positions, memory, file size and time per level",
       "What a build would take, per level and in total: positions, memory, file size and time. Plans are made "
       "for reachable Cram and Domineering tables (the default index; --positions all is not planned: its levels "
       "are binomial coefficients, and cgtb build refuses before it starts a table whose levels do not fit).",
       cmd_plan},
      {"query", "FILE", "look positions up (arguments, or one per line on stdin)", "Look positions up in a tablebase.",
       cmd_query},
      {"info", "FILE", "header, levels, sizes, and a check of every checksum",
       "Header, levels, sizes and checksums of a tablebase.", cmd_info},
      {"verify", "FILE", "re-derive every stored value from its options, independently of the solver",
       "Re-derives every stored value of a tablebase (or a random sample per level) from the\n"
       "position's options, with a value rule written apart from the solver's, and checks the header\n"
       "against the ruleset. Prints how many positions agree and exits 0, or prints the first\n"
       "inconsistent position with its stored and derived values and exits 1. Unreadable or\n"
       "corrupt files exit 2.",
       cmd_verify},
      {"export", "FILE", "every stored position with its values, as CSV or JSON lines",
       "Every stored position of a tablebase with its values, one row per position in rank order:\n"
       "level, rank, position, the orbit size (symmetry-reduced tables: each row stands for a\n"
       "class of that many positions), then every field. CSV with a header row, or JSON lines.",
       cmd_export},
#ifdef CGTB_HAVE_SERVE
      {"serve", "FILE...", "web explorer and JSON API over tablebases (docs/api.md)",
       "A web explorer and a JSON API over tablebases (docs/api.md).", cmd_serve},
#endif
      {"sum", "TERM...",
       "outcome and winning moves of a disjunctive sum (FILE:POSITION, *n) under normal and misere play",
       "The outcome of a disjunctive sum under normal and misere play, and its winning moves.\n"
       "A TERM is FILE:POSITION (a position of an impartial tablebase; files may be mixed), *n\n"
       "(a Nim heap), cram:POSITION (a Cram position with no table) or octal:CODE:HEAPS (heaps of\n"
       "an octal game with no table, e.g. octal:0.77:3,5). With no TERM, reads one\n"
       "sum per line from stdin, terms separated by spaces (a lone '+' between terms is allowed;\n"
       "blank lines and lines starting '%' are skipped; write a heap list as 3,5 there).\n"
       "Normal play is the nim-sum of the Grundy values; misere play is a search over the sum\n"
       "with a memo, shortened by the theorems docs/misere.md lists.",
       cmd_sum},
      {"search", "cram", "the Grundy value of one Cram position past the tables (boards up to 128 cells), by search",
       "The Grundy value of one Cram position, empty board or any position of at most 128 cells\n"
       "(sides up to 26 columns and 31 rows), by a depth-first search over its connected regions:\n"
       "a region's value is found value by value (G = v when an option has each value below v and\n"
       "none has v; Lemoine and Viennot), options fall apart into parts whose values XOR, equal\n"
       "parts cancel, regions of a component table (cgtb build cram-components) are read from it,\n"
       "and every region searched is kept in a bounded transposition table. Exit status 0 with the\n"
       "value; 4 when the time limit or Ctrl-C stopped it first, with what it had found.",
       cmd_search},
      {"quotient", "octal|cram",
       "misere quotient of an octal game's heaps, or the misere classes of small Cram regions",
       "Misere quotients (Plambeck and Siegel; docs/misere.md).\n"
       "  cgtb quotient octal --code C --max-heap N   the misere quotient of the sums of heaps 1..N of\n"
       "      the octal game C: order, generators and relations, P-portion, each heap's element;\n"
       "      found and proven (exit status 4 when the proof's finite check is too large).\n"
       "  cgtb quotient cram --max-cells N            how many misere-distinguishable classes the Cram\n"
       "      regions of at most N empty cells form (connected regions up to translation, rotation\n"
       "      and reflection, and the empty region): two regions are in one class when every misere\n"
       "      sum of either with up to K further regions of the set has the same outcome. The count\n"
       "      is a lower bound on the number of misere quotient elements the regions take.",
       cmd_quotient},
      {"census", "FILE", "reachable positions from the start, and how many are wild",
       "Positions reachable from the start by legal play (the start included), how many are wild,\n"
       "and the smallest wild one. Needs a tablebase built with --values genus.",
       cmd_census},
      {"table", "FILE", "G_s of a scoring tablebase as a table (rows m, columns n), or --csv",
       "G_s of a scoring tablebase as a table like those of Stewart's thesis: rows are heap m of the\n"
       "right-hand game, columns heap n of the left-hand game (one row G_s(n) for one game).",
       cmd_table},
      {"period", "FILE", "the proven period of an octal sequence; periods of G_s in a scoring tablebase",
       "Octal sequences (cgtb build octal --max-heap N): the smallest period p and preperiod n0 that\n"
       "the octal periodicity theorem proves (Winning Ways, ch. 4: G(n + p) = G(n) for n0 <= n <\n"
       "2 n0 + p + t, t the most beans a move takes), or the best candidate and how far the sequence\n"
       "must go to prove it (exit status 4); and the sparse space of the values (mask, rare heaps).\n"
       "Scoring tablebases: preperiod and period of G_s(n) (one game) or of each row G_s(n * m), m\n"
       "fixed, n = 0..N (two-heap sums), with the last exception and how far it was checked\n"
       "(exit status 4 when a sequence shows no period).",
       cmd_period},
      {"sequence", "FILE", "the values G(n) of an octal sequence (--from, --to, --csv)",
       "The values G(n) of the Grundy sequence an octal --max-heap file holds, twenty per line\n"
       "from heap --from on, or CSV (n,grundy) to compare with OEIS and Flammenkamp's tables.",
       cmd_sequence},
      {"conjectures", "subtraction|codes|selective",
       "check a conjecture of Stewart's scoring-play thesis over a family of scoring games",
       "Check a conjecture of Stewart's scoring-play thesis over a whole family of scoring games, one work item per "
       "game:\n"
       "  subtraction  Conjecture 3.1.1 and Lemma 3.1.1, every subtraction set with max <= k\n"
       "  codes        Conjecture 3.1.2, every taking-no-breaking code of length <= k (p_i = i), m < --rows\n"
       "  selective    Conjecture 4.2.3, subtraction sets with max <= k, rows m < --rows",
       cmd_conjectures},
      {"classify", "FILE", "CGH classification (forced, miserable, pet) of an impartial tablebase",
       "Conway-Gurvich-Ho classification of the game restricted to the positions of an impartial\n"
       "tablebase: forced, miserable, pet (the Row Impartial Terminus paper, section 2B), with a witness for each\n"
       "property that fails, and the number of positions with each Conway pair (G, G-).\n"
       "Needs normal and misere values (build with --values all).",
       cmd_classify},
      {"intervals", "FILE", "safe pile sizes at move 1 of a blocking-nim tablebase, as intervals",
       "Safe pile sizes (lost for the player to move) at move 1 of a blocking-nim tablebase, as\n"
       "maximal intervals [A,B]. An interval that reaches the table's largest pile N may go on.",
       cmd_intervals},
      {"shares", "FILE", "how evenly each level of a keyed table splits among the ranks of a distributed build",
       "How evenly the classes of each level of a keyed table (reachable Cram or Domineering) would be\n"
       "shared among P ranks of a distributed build: the largest rank's share over the mean, when a class\n"
       "belongs to the rank its key hashes to, and when ranks own ranges of keys between splitters drawn\n"
       "from a random sample of the level (docs/distributed.md). Levels too small to split are marked '-'.",
       cmd_shares},
  };
  return table;
}

const command& find_command(const std::string& name) {
  for (const command& c : command_table())
    if (name == c.name) return c;
  throw input_error("unknown command '" + name + "' (run 'cgtb --help' for the list of commands)");
}

cxxopts::Options command_options(const std::string& name) {
  const command& c = find_command(name);
  return cxxopts::Options(std::string("cgtb ") + c.name, c.description);
}

std::string command_list() {
  std::string s;
  for (const command& c : command_table()) {
    const std::string head = std::string(c.name) + " " + c.arguments;
    // Long heads take a line of their own, the summary under the others'.
    s += "  " + head + (head.size() < 15 ? std::string(15 - head.size(), ' ') : "\n" + std::string(17, ' ')) +
         c.summary + "\n";
  }
  return s;
}

}  // namespace cgtb::tools
