// cgtb: build and query retrograde tablebases of combinatorial games.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cxxopts.hpp>
#include <functional>
#include <iomanip>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cgtb/build.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/front_end.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/text.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "mpi_exchange.hpp"
#include "mpi_session.hpp"

namespace {

using namespace cgtb;
using cgtb::tools::parse_file_command;
using cgtb::tools::parse_or_help;

const char* kUsageHead =
    "usage: cgtb <command> [options]\n"
    "\n"
    "commands:\n";
const char* kUsageTail =
    "\n"
    "Run 'cgtb <command> --help' for the options of a command; 'cgtb --version' for the version,\n"
    "the backends built in and the file format versions.\n";

/// The games list of the help texts: every game, or only those named in
/// `only` (non-empty).
std::string games_help(const std::vector<std::string>& only = {}) {
  std::string s = "games:\n";
  for (const auto& g : game_registry())
    if (only.empty() || std::find(only.begin(), only.end(), g.name) != only.end())
      s += "  " + g.name + std::string(14 - std::min<std::size_t>(13, g.name.size()), ' ') + g.summary + "\n";
  return s;
}

/// cxxopts reads a negative number such as "-3" as an unknown option named
/// "3"; say what it is instead. Any other unknown option is named as typed.
/// `what` is the exception's text.
std::string unknown_option_message(const std::string& what, int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() < 2 || a[0] != '-' || !std::isdigit(static_cast<unsigned char>(a[1]))) continue;
    if (what.find("\u2018" + a.substr(1, 1)) != std::string::npos ||
        what.find("'" + a.substr(1, 1)) != std::string::npos)
      return "'" + a +
             "' is a negative number, which is not allowed here (heap sizes, levels and counts are 0 or more)";
  }
  // cxxopts writes "Option ‘bord’ does not exist": name the option as it was
  // typed and where the options are listed.
  const std::string name = cxxopts_option_name(what);
  if (name.empty()) return cxxopts_message(what);
  std::string help = "cgtb " + std::string(argv[1]);
  if ((help == "cgtb build" || help == "cgtb plan") && argc > 2 && argv[2][0] != '-')
    help += " " + std::string(argv[2]);
  return unknown_option_text(std::string(name.size() == 1 ? "-" : "--") + name, help);
}

std::unique_ptr<game_driver> driver_for(const tablebase& tb) { return driver_for_header(tb.header()); }

/// The tests' fault injection (tests/test_resume.cpp), for builds run as a
/// process: CGTB_TEST_KILL_AFTER_LEVEL=L raises SIGKILL right after level
/// L's checkpoint, CGTB_TEST_KILL_AFTER_FORWARD_LEVEL=L after the forward
/// pass has saved level L's keys, so that a killed build is made at a
/// known point without timing. Under a launcher, CGTB_TEST_KILL_RANK=R
/// limits them to rank R (tests/test_mpi.cpp). The library takes them as
/// hooks (build_request::after_checkpoint, after_forward_level).
void install_fault_injection(build_request& req) {
  const char* only_rank = std::getenv("CGTB_TEST_KILL_RANK");
  const bool here = !only_rank || std::atoi(only_rank) == cgtb::tools::launched_rank();
  auto kill_at = [here](const char* variable) -> std::function<void(int)> {
    const char* v = std::getenv(variable);
    if (!v || !here) return {};
    return [level = std::atoi(v)](int l) {
      if (l == level) std::raise(SIGKILL);
    };
  };
  req.after_checkpoint = kill_at("CGTB_TEST_KILL_AFTER_LEVEL");
  req.after_forward_level = kill_at("CGTB_TEST_KILL_AFTER_FORWARD_LEVEL");
}

/// `cgtb build GAME ...` and `cgtb plan GAME ...` share the game's options and
/// the build options. Returns 0 with the driver and request filled, or the
/// exit status of a help request.
int parse_build(const std::string& command, int argc, char** argv, std::unique_ptr<game_driver>& drv,
                build_request& req) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::cout << "usage: cgtb " << command << " GAME [options]\n\n"
              << (command == "plan" ? "Plans are made for reachable Cram and Domineering tables.\n\n" +
                                          games_help({"cram", "domineering"})
                                    : games_help())
              << "\nRun 'cgtb " << command << " GAME --help' for the options of a game.\n";
    return argc < 2 ? 2 : 1;
  }
  const game_entry& game = find_game(argv[1]);
  cxxopts::Options o("cgtb " + command + " " + game.name, game.summary);
  add_build_options(o, game);
  if (command == "plan")
    o.add_options("plan")("ranks", "also plan the build across this many MPI ranks (mpirun -np P cgtb build ...)",
                          cxxopts::value<int>()->default_value("1"))(
        "bandwidth", "network bandwidth a rank, for the time of a plan across ranks (e.g. 10G: bytes a second)",
        cxxopts::value<std::string>()->default_value("10G"));
  auto r = parse_or_help(o, argc - 1, argv + 1);
  drv = build_request_from(r, game, req);
  if (command == "plan") {
    req.plan_ranks = r["ranks"].as<int>();
    if (req.plan_ranks < 1 || req.plan_ranks > 1 << 20) throw input_error("--ranks must be between 1 and 1048576");
    req.plan_bandwidth = static_cast<double>(parse_bytes(r["bandwidth"].as<std::string>(), "--bandwidth"));
    if (req.plan_bandwidth <= 0) throw input_error("--bandwidth must be more than 0");
  }
  install_fault_injection(req);
  return 0;
}

}  // namespace

namespace cgtb::tools {

int cmd_build(int argc, char** argv) {
  std::unique_ptr<game_driver> drv;
  build_request req;
  if (int rc = parse_build("build", argc, argv, drv, req)) return rc == 1 ? 0 : rc;
  // Under mpirun with several processes, the ranks split every level; rank
  // 0 reports and writes the file (docs/distributed.md).
  const std::unique_ptr<level_exchange> exchange = make_mpi_exchange(req.split_from);
  req.solve.exchange = exchange.get();
  const bool first = !exchange || exchange->rank() == 0;
  if (!first) req.progress = false;
  if (first) check_build_output(req);  // refused before any work, not after solving
  drv->build(req);
  if (exchange) {
    const exchange_figures f = exchange_totals(*exchange);
    if (first && req.stats) {
      std::cout << "ranks: " << exchange->ranks() << ", " << f.bytes_sent << " bytes sent between them ("
                << f.keys_requested << " option keys asked for); ";
      if (f.worst_share_level < 0)
        std::cout << "no level split\n";
      else
        std::cout << "largest part of a split level: " << std::setprecision(3) << f.worst_share
                  << " of the mean (level " << f.worst_share_level << ")\n";
    }
  }
  if (first && req.progress) std::cerr << wrote_line(argv[1], drv->params(), req) << "\n";
  return 0;
}

int cmd_plan(int argc, char** argv) {
  std::unique_ptr<game_driver> drv;
  build_request req;
  if (int rc = parse_build("plan", argc, argv, drv, req)) return rc == 1 ? 0 : rc;
  drv->plan(req, std::cout);
  return 0;
}

int cmd_query(int argc, char** argv) {
  cxxopts::Options o = command_options("query");
  o.positional_help("FILE [POSITION...]");
  o.add_options()("file", "tablebase", cxxopts::value<std::string>())("json", "one JSON object per position")(
      "options", "list each player's options instead of values")(
      "max-moves", "name at most N moves in each list (winning moves; options), saying how many are left out",
      cxxopts::value<std::size_t>())("no-moves", "name no moves (--max-moves 0)")(
      "keep-going", "answer every good position; report each bad one on stderr and exit non-zero at the end")(
      "flush", "answer each stdin line as soon as it is read (for use through a pipe)")(
      "cache-mb", "decompressed-block cache size in MB", cxxopts::value<std::size_t>()->default_value("1024"));
  // Positions after FILE arrive unmatched, in order: a positional vector would
  // split positions such as [1,0,R,2] or [5,4,2,1] at their commas.
  o.parse_positional({"file"});
  std::string syntax = "\nPositions, as each game writes them:\n";
  for (const auto& g : game_registry()) syntax += "  " + g.name + ": " + g.position_syntax + "\n";
  auto r = parse_or_help(o, argc, argv, syntax);
  if (!r.count("file")) throw input_error("query needs a tablebase file (cgtb query FILE [POSITION...])");
  if (r.count("max-moves") && r.count("no-moves")) throw input_error("give --max-moves or --no-moves, not both");
  tablebase tb(r["file"].as<std::string>(), r["cache-mb"].as<std::size_t>() << 20);
  auto drv = driver_for(tb);
  if (r.count("max-moves")) drv->set_max_moves(r["max-moves"].as<std::size_t>());
  if (r.count("no-moves")) drv->set_max_moves(0);
  const bool json = r.count("json") > 0;
  const bool keep_going = r.count("keep-going") > 0;
  std::ostringstream buf;
  const bool list = r.count("options") > 0;
  auto one = [&](const std::string& raw) {
    const std::string text = clean_position_text(raw);
    if (list)
      drv->list_options(tb, drv->parse(text), json, buf);
    else
      drv->query(tb, drv->parse(text), json, buf);
  };
  // Answers go out every 1 MB, and after every line when stdin is a terminal
  // or --flush is given. When a position fails (a line of stdin, or one of
  // several arguments), the answers before it are printed (each is
  // complete), then the error, naming the line or the position's number, and
  // the exit status says the batch did not finish. With --keep-going each bad
  // position's error is printed where its answer would be, and the batch
  // goes on; the exit status says how many failed.
  const bool each_line = r.count("flush") > 0 || isatty(0);
  auto flush = [&] {
    std::cout << buf.str() << std::flush;
    buf.str("");
  };
  std::uint64_t bad = 0;
  auto fail = [&](const std::string& where, const std::exception& e, bool resource) {
    flush();
    const std::string msg = where.empty() ? e.what() : where + ": " + e.what();
    if (!keep_going) {
      if (resource) throw resource_error(msg);
      throw input_error(msg);
    }
    ++bad;
    std::cerr << "cgtb: error: " << one_line(msg) << std::endl;
  };
  auto one_at = [&](const std::string& raw, const std::string& where) {
    try {
      one(raw);
    } catch (const input_error& e) {
      fail(where, e, false);
    } catch (const resource_error& e) {
      fail(where, e, true);
    } catch (...) {
      flush();
      throw;
    }
  };
  const std::vector<std::string> positions = r.unmatched();
  const bool from_stdin = positions.empty();
  std::uint64_t count = 0;
  if (!from_stdin) {
    for (std::size_t i = 0; i < positions.size(); ++i, ++count)
      one_at(positions[i], positions.size() > 1 ? "position " + std::to_string(i + 1) : "");
  } else {
    std::string line;
    for (std::uint64_t number = 1; read_position_line(std::cin, line); ++number) {
      const std::string where = "line " + std::to_string(number);
      std::string t;
      try {
        t = clean_position_text(line);
      } catch (const input_error& e) {
        fail(where, e, false);
        ++count;
        continue;
      }
      if (t.empty() || t[0] == '%') continue;
      one_at(t, where);
      ++count;
      if (each_line || buf.tellp() > (1 << 20)) flush();
    }
  }
  flush();
  if (bad)
    throw input_error(std::to_string(bad) + " of " + count_text(count, "position") +
                      " could not be answered (each named above)");
  return 0;
}

int cmd_info(int argc, char** argv) {
  cxxopts::Options o = command_options("info");
  o.add_options()("no-verify", "skip the block checksums");
  auto r = parse_file_command(o, argc, argv, "info");

  tablebase tb(r["file"].as<std::string>(), 0);
  const auto& h = tb.header();
  std::cout << "file: " << tb.path() << " (" << tb.file_size() << " bytes, format version " << tb.format_version()
            << ")\n";
  std::cout << h.to_text();
  // Tables of one position per symmetry class: "stored" entries, and the
  // positions they stand for (classes weighted by orbit size).
  bool classes = h.symmetry != "none";
  std::unique_ptr<game_driver> drv;
  if (classes) {
    try {
      drv = driver_for(tb);
    } catch (const input_error&) {
      classes = false;  // a ruleset this cgtb does not know: entries only
    }
  }
  std::uint64_t total = 0, total_stored = 0;
  std::cout << "\n" << std::setw(6) << "level" << std::setw(15) << "positions";
  if (classes) std::cout << std::setw(15) << "stored";
  std::cout << std::setw(9) << "blocks" << std::setw(14) << "bytes" << std::setw(15) << "bits/stored"
            << "\n";
  for (const auto& l : tb.levels()) {
    std::uint64_t bytes = 0;
    for (std::uint64_t b = l.first_block; b < l.first_block + l.blocks; ++b) bytes += tb.blocks()[b].compressed_size;
    const std::uint64_t positions = classes ? drv->level_positions(tb, l.level) : l.positions;
    total += positions;
    total_stored += l.positions;
    std::cout << std::setw(6) << l.level << std::setw(15) << positions;
    if (classes) std::cout << std::setw(15) << l.positions;
    std::cout << std::setw(9) << l.blocks << std::setw(14) << bytes << std::setw(13) << std::fixed
              << std::setprecision(3)
              << (l.positions ? 8.0 * static_cast<double>(bytes) / static_cast<double>(l.positions) : 0.0) << "\n";
  }
  if (classes) std::cout << "stored positions (one per symmetry class): " << total_stored << "\n";
  std::uint64_t raw = 0, comp = 0;
  for (const auto& b : tb.blocks()) {
    raw += b.raw_size;
    comp += b.compressed_size;
  }
  std::cout << "total: " << total << " positions, " << tb.blocks().size() << " blocks, " << comp
            << " compressed bytes (" << std::setprecision(3) << (total ? 8.0 * comp / total : 0.0)
            << " bits/position; packed " << (total ? 8.0 * raw / total : 0.0) << " bits/position before zstd)\n";
  if (r.count("no-verify")) return 0;
  std::vector<std::string> bad(tb.blocks().size());
  const std::int64_t nb = static_cast<std::int64_t>(tb.blocks().size());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t b = 0; b < nb; ++b)
    bad[static_cast<std::size_t>(b)] = tb.check_block(static_cast<std::uint64_t>(b));
  std::size_t nbad = 0;
  for (const auto& e : bad)
    if (!e.empty()) {
      if (nbad++ < 10) std::cout << "  " << e << "\n";
    }
  if (nbad) {
    std::cout << "checksums: " << nbad << " of " << nb << " blocks BAD\n";
    throw corrupt_file_error("'" + tb.path() + "': " + std::to_string(nbad) + " corrupt block(s)");
  }
  std::cout << "checksums: OK (" << nb << " blocks, header and index)\n";
  return 0;
}

int cmd_census(int argc, char** argv) {
  cxxopts::Options o = command_options("census");
  o.add_options()("by-level", "counts per level too");
  auto r = parse_file_command(o, argc, argv, "census");
  tablebase tb(r["file"].as<std::string>(), 0);
  census_report c = driver_for_analysis(tb, "census")->census(tb);
  std::cout << tb.header().ruleset << " " << tb.header().params << "\n";
  std::cout << "reachable positions (start included): " << c.reachable << "\n";
  std::cout << "wild: " << c.wild << "\n";
  if (c.smallest_wild_level >= 0)
    std::cout << "smallest wild level: " << c.smallest_wild_level << ", e.g. " << c.smallest_wild_example << " genus "
              << c.smallest_wild_genus << "\n";
  else
    std::cout << "smallest wild level: none\n";
  if (r.count("by-level"))
    for (std::size_t l = 0; l < c.reachable_by_level.size(); ++l)
      if (c.reachable_by_level[l])
        std::cout << "  level " << l << ": " << c.reachable_by_level[l] << " reachable, " << c.wild_by_level[l]
                  << " wild\n";
  return 0;
}

}  // namespace cgtb::tools

int main(int argc, char** argv) {
  // MPI, where a launcher started this process; several processes are
  // refused by every command but build (one line, from the first rank).
  const cgtb::tools::mpi_session mpi(argc, argv);
  if (const std::string refusal = mpi.one_process_refusal(argc >= 2 ? argv[1] : ""); !refusal.empty()) {
    if (mpi.rank() == 0) std::cerr << "cgtb: error: " << refusal << "\n";
    return 2;
  }
  if (argc >= 2 && (std::string(argv[1]) == "--version" || std::string(argv[1]) == "-V")) {
    std::cout << kBuilderVersion << "\nbackends: cpu (OpenMP)" << (cuda_backend_compiled() ? ", cuda" : "")
              << "\ntablebase format: writes version " << kFormatVersion << ", reads versions " << kOldestFormatVersion
              << " to " << kFormatVersion << "\n";
    return 0;
  }
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::cout << kUsageHead << cgtb::tools::command_list() << kUsageTail << "\n" << games_help();
    return argc < 2 ? 2 : 0;
  }
  std::string cmd = argv[1];
  // One line per error. Under several MPI ranks: the first rank reports
  // errors of the input (every rank meets the same), each rank those of its
  // own work, prefixed with its rank; then the whole job ends
  // (mpi_session::end_job), so that no rank waits for one that failed.
  auto fail = [&mpi](int rc, bool input, const std::string& what, const char* kind = "error") {
    // One write a line: the launcher passes each rank's lines on whole.
    const std::string by = mpi.size() > 1 && !input ? "rank " + std::to_string(mpi.rank()) + ": " : "";
    const std::string line = std::string("cgtb: ") + kind + ": " + by + what + "\n";
    // An error of the input is rank 0's to report and to end the job with;
    // another rank that meets it waits for that (ending the job first
    // could stop rank 0 before its line), and reports and ends the job
    // itself only if rank 0 did not meet it.
    if (input && mpi.size() > 1 && mpi.rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(10));
    std::fwrite(line.data(), 1, line.size(), stderr);
    mpi.end_job(rc);
    return rc;
  };
  try {
    return cgtb::tools::find_command(cmd).run(argc - 1, argv + 1);
  } catch (const input_error& e) {
    return fail(2, true, one_line(e.what()));
  } catch (const resource_error& e) {
    return fail(3, false, one_line(e.what()));
  } catch (const cxxopts::exceptions::no_such_option& e) {
    return fail(2, true, one_line(unknown_option_message(e.what(), argc, argv)));
  } catch (const cxxopts::exceptions::exception& e) {
    return fail(2, true, one_line(cxxopts_message(e.what())));
  } catch (const std::bad_alloc&) {
    return fail(3, false, "out of memory (ask for less: a smaller table, --memo-mb, --max-memory)");
  } catch (const std::exception& e) {  // internal_error (e.g. a failing CUDA call) and anything unexpected
    return fail(1, false, one_line(e.what()), "internal error");
  }
}
