#include "cgtb/build.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <iomanip>
#include <string>

#include "cgtb/error.hpp"
#include "cgtb/rank_shares.hpp"
#include "cgtb/text.hpp"

namespace cgtb {

tablebase_header build_header(const std::string& ruleset, const std::string& params, const value_choice& values,
                              const build_request& req) {
  tablebase_header h;
  h.ruleset = ruleset;
  h.params = params;
  h.family = values.family;
  h.values = values.text();
  h.fields = values.fields();
  h.block_entries = req.block_entries;
  h.zstd_level = req.zstd_level;
  return h;
}

void check_build_output(const build_request& req) {
  tablebase_writer::check_output_path(req.output);
  struct stat st;
  if (req.force || ::stat(req.output.c_str(), &st) != 0) return;
  std::string what = "is not a cgtb tablebase";
  try {
    const tablebase tb(req.output, 0);
    what = "is a cgtb tablebase of " + tb.header().ruleset + " " + tb.header().params;
  } catch (const std::exception&) {
  }
  throw input_error("output '" + req.output + "' exists and " + what + " (--force replaces it)");
}

namespace {
/// A rank's compressed blocks as one message: block count, last key, the
/// blocks' entries (offsets into the bytes), then the bytes.
std::string blocks_message(const compressed_blocks& run) {
  std::string m;
  const std::uint64_t head[2] = {run.blocks.size(), run.last_key};
  m.append(reinterpret_cast<const char*>(head), sizeof head);
  m.append(reinterpret_cast<const char*>(run.blocks.data()), run.blocks.size() * sizeof(block_entry));
  m += run.bytes;
  return m;
}
compressed_blocks blocks_of_message(const std::string& m) {
  compressed_blocks run;
  std::uint64_t head[2] = {0, 0};
  if (m.size() < sizeof head) throw internal_error("a rank's blocks came short of their count");
  std::memcpy(head, m.data(), sizeof head);
  const std::uint64_t table = head[0] * sizeof(block_entry);
  if (m.size() < sizeof head + table) throw internal_error("a rank's blocks came short of their entries");
  run.blocks.resize(head[0]);
  if (table) std::memcpy(run.blocks.data(), m.data() + sizeof head, table);
  run.last_key = head[1];
  run.bytes = m.substr(sizeof head + table);
  return run;
}
}  // namespace

std::uint64_t write_level_parts(level_exchange& x, tablebase_writer* w, const tablebase_header& h, int level,
                                std::uint64_t n, const tablebase_writer::block_filler& fill,
                                const tablebase_writer::key_filler& keys) {
  const std::vector<rank_blocks> plan = blocks_per_rank(x.counts(n), h.block_entries);
  const rank_blocks& mine = plan[static_cast<std::size_t>(x.rank())];
  const std::size_t nf = h.fields.size();
  const std::size_t words = nf + (keys ? 1 : 0);  // an entry sent: its fields, then its key
  // This rank's first entries that an earlier rank's block holds go to that
  // rank, each as its field values and key.
  int to = -1;
  std::string lent;
  if (mine.lent) {
    const std::uint64_t block = mine.first_rank / h.block_entries;
    for (int r = x.rank() - 1; r >= 0 && to < 0; --r)
      if (plan[r].blocks && plan[r].first_block <= block && block < plan[r].first_block + plan[r].blocks) to = r;
    std::vector<std::int64_t> v(mine.lent * nf);
    std::vector<std::uint64_t> k(keys ? mine.lent : 0);
    fill(0, mine.lent, v.data());
    if (keys) keys(0, mine.lent, k.data());
    std::vector<std::uint64_t> entries(mine.lent * words);
    for (std::uint64_t j = 0; j < mine.lent; ++j) {
      for (std::size_t f = 0; f < nf; ++f) entries[j * words + f] = static_cast<std::uint64_t>(v[f * mine.lent + j]);
      if (keys) entries[j * words + nf] = k[j];
    }
    lent.assign(reinterpret_cast<const char*>(entries.data()), entries.size() * 8);
  }
  const std::string got = x.send_one(to, lent);
  if (got.size() != mine.borrowed * words * 8)
    throw internal_error("rank " + std::to_string(x.rank()) + " got " + std::to_string(got.size() / 8 / words) +
                         " entries of level " + std::to_string(level) + " for its last block, not " +
                         std::to_string(mine.borrowed));
  std::vector<std::uint64_t> borrowed(got.size() / 8);
  if (!got.empty()) std::memcpy(borrowed.data(), got.data(), got.size());
  // The run this rank's blocks hold: its entries from the first that starts
  // a block, then those borrowed.
  compressed_blocks run;
  if (mine.blocks) {
    const std::uint64_t own = n - mine.lent, total = own + mine.borrowed;
    const auto run_fill = [&](std::uint64_t first, std::uint64_t count, std::int64_t* v) {
      const std::uint64_t here = first < own ? std::min(count, own - first) : 0;
      if (here == count) return fill(mine.lent + first, count, v);
      std::vector<std::int64_t> part(here * nf);
      if (here) fill(mine.lent + first, here, part.data());
      for (std::size_t f = 0; f < nf; ++f)
        for (std::uint64_t j = 0; j < count; ++j)
          v[f * count + j] =
              j < here ? part[f * here + j] : static_cast<std::int64_t>(borrowed[(first + j - own) * words + f]);
    };
    tablebase_writer::key_filler run_keys;
    if (keys)
      run_keys = [&](std::uint64_t first, std::uint64_t count, std::uint64_t* out) {
        const std::uint64_t here = first < own ? std::min(count, own - first) : 0;
        if (here) keys(mine.lent + first, here, out);
        for (std::uint64_t j = here; j < count; ++j) out[j] = borrowed[(first + j - own) * words + nf];
      };
    run = tablebase_writer::compress_blocks(h, total, run_fill, run_keys);
  }
  std::uint64_t positions = 0;
  for (const rank_blocks& b : plan) positions += b.count;
  if (w) w->begin_level(level, positions);
  x.gather_in_order(blocks_message(run), [&](const std::string& m) { w->append_blocks(blocks_of_message(m)); });
  if (w) w->end_level();
  return positions;
}

std::size_t peak_rss_bytes() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::size_t>(ru.ru_maxrss) * 1024;
}

build_progress::build_progress(progress_sink* sink, std::size_t levels, std::uint64_t positions)
    : sink_(sink),
      tty_(sink && sink->rewrites()),
      levels_(levels),
      total_(positions),
      t0_(std::chrono::steady_clock::now()),
      last_(t0_) {}

void build_progress::solved_before(std::size_t levels, std::uint64_t positions) {
  levels_before_ = levels;
  done_before_ = positions;
  done_levels_ += levels;
  done_ += positions;
}

void build_progress::level_done(const level_report& r) {
  ++done_levels_;
  done_ += r.positions;
  if (!sink_) return;
  sink_->advance(done_, total_);
  const auto now = std::chrono::steady_clock::now();
  // The solve starts when the first level's kernels do: a reachable build's
  // forward pass before it counts in the elapsed time, not in the rate.
  if (done_levels_ == levels_before_ + 1)
    solve0_ = now - std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(std::max(0.0, r.seconds)));
  const double since = std::chrono::duration<double>(now - last_).count();
  const bool last_level = done_levels_ == levels_;
  if (tty_ ? (since >= 0.1 || last_level) : (levels_ <= 200 || since >= 5.0 || last_level)) {
    last_ = now;
    print_line(r, r.keys != nullptr);
  }
}

void build_progress::print_line(const level_report& r, bool stored) {
  const auto now = std::chrono::steady_clock::now();
  const double el = std::chrono::duration<double>(now - t0_).count(),
               solving = std::chrono::duration<double>(now - solve0_).count();
  const double rate = solving > 0 ? static_cast<double>(done_ - done_before_) / solving : 0.0;
  std::string share, left;
  if (total_ > 0) {
    share = " (" + std::to_string(static_cast<int>(100.0 * static_cast<double>(done_) / static_cast<double>(total_))) +
            " %)";
    // No estimate from the first second of solving: the small levels that
    // come first say little of the rate of the large ones.
    if (rate > 0 && done_ < total_ && solving >= 1.0)
      left = ", about " + duration_text(static_cast<double>(total_ - done_) / rate) + " left";
  } else if (done_levels_ < levels_ && done_levels_ > levels_before_ && solving >= 1.0) {
    left = ", about " +
           duration_text(solving / static_cast<double>(done_levels_ - levels_before_) *
                         static_cast<double>(levels_ - done_levels_)) +
           " left";
  }
  char head[96];
  std::snprintf(head, sizeof head, "[cgtb] level %3d solved (%zu of %zu levels), ", r.level, done_levels_, levels_);
  const std::string line = std::string(head) + count_text(done_, stored ? "stored position" : "position") + " so far" +
                           share + " in " + duration_text(el) + ", " +
                           std::to_string(static_cast<unsigned long long>(rate)) + "/s" + left;
  sink_->status(line);  // a line where the sink does not rewrite lines
}

void build_progress::finish(bool stored) {
  if (!sink_) return;
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const std::string before =
      levels_before_ ? " (after the " + count_text(levels_before_, "level") + " of the build it resumed)" : "";
  progress_line(sink_, "[cgtb] %s, %s solved in %s%s", count_text(done_levels_ - levels_before_, "level").c_str(),
                count_text(done_ - done_before_, stored ? "stored position" : "position").c_str(),
                duration_text(el).c_str(), before.c_str());
}

std::string wrote_line(const std::string& game, const std::string& params, const build_request& req) {
  return "[cgtb] wrote " + req.output + " (" + game + " " + params + ", " + tablebase(req.output, 0).header().values +
         ", " + backend_name(req.solve.backend) + " backend)";
}

void print_build_stats(std::ostream& out, const std::vector<level_report>& levels, double total_seconds,
                       const std::string& file, std::uint64_t file_bytes, bool stored, std::uint64_t file_positions) {
  std::uint64_t pos = 0, opt = 0;
  double ksec = 0;
  for (const auto& r : levels) {
    pos += r.positions;
    opt += r.options;
    ksec += r.seconds;
  }
  // Columns wide enough for the totals, with two spaces between columns.
  const int wp = std::max<int>(15, static_cast<int>(std::to_string(pos).size()) + 2),
            wo = std::max<int>(15, static_cast<int>(std::to_string(opt).size()) + 2);
  out << std::setw(6) << "level" << std::setw(wp) << (stored ? "stored" : "positions") << std::setw(wo) << "options"
      << std::setw(11) << "seconds" << std::setw(14) << "positions/s"
      << "\n";
  auto row = [&](const std::string& name, std::uint64_t p, std::uint64_t o, double s) {
    out << std::setw(6) << name << std::setw(wp) << p << std::setw(wo) << o << std::setw(11) << std::fixed
        << std::setprecision(4) << s << std::setw(14) << std::setprecision(0) << (s > 0 ? p / s : 0.0) << "\n";
  };
  for (const auto& r : levels) row(std::to_string(r.level), r.positions, r.options, r.seconds);
  row("solve", pos, opt, ksec);
  out << std::setprecision(3);
  out << "total wall time (solve + pack + compress + write): " << total_seconds << " s\n";
  const char* what = stored ? "stored positions" : "positions";
  out << what << " per second (whole build): " << std::setprecision(0) << (pos / total_seconds) << "\n";
  out << std::setprecision(1) << "peak memory (RSS): " << peak_rss_bytes() / 1e6 << " MB\n";
  if (!levels.empty() && levels.back().dictionary_entries) {
    std::vector<int> grown;  // levels during which the dictionary grew
    int times = 0;
    for (const auto& r : levels)
      if (r.dictionary_growths) {
        grown.push_back(r.level);
        times += r.dictionary_growths;
      }
    out << "record dictionary: " << levels.back().dictionary_entries
        << " entries (each position holds a 4-byte id of its record)";
    if (times) {
      out << ", grown " << times << (times == 1 ? " time" : " times") << " (while solving level"
          << (grown.size() == 1 ? "" : "s");
      for (std::size_t i = 0; i < grown.size(); ++i) out << (i ? ", " : " ") << grown[i];
      out << ")";
    }
    out << "\n";
  }
  const std::uint64_t held = std::max(file_positions, pos);
  out << std::setprecision(3) << "file: " << file << ", " << file_bytes << " bytes, "
      << (held ? 8.0 * static_cast<double>(file_bytes) / static_cast<double>(held) : 0.0) << " bits per "
      << (stored ? "stored position" : "position") << "\n";
}

}  // namespace cgtb
