#include "cgtb/domino_plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/memory_model.hpp"
#include "cgtb/rank_shares.hpp"
#include "cgtb/reachable_index.hpp"
#include "cgtb/text.hpp"

namespace cgtb {

namespace {

/// A set of w-bit profiles (w <= 8): bit s of word s / 64.
using profile_set = std::array<std::uint64_t, 4>;

bool has(const profile_set& p, unsigned s) { return (p[s >> 6] >> (s & 63)) & 1; }
void add(profile_set& p, unsigned s) { p[s >> 6] |= 1ull << (s & 63); }
bool none(const profile_set& p) { return !(p[0] | p[1] | p[2] | p[3]); }

}  // namespace

std::vector<std::uint64_t> count_reachable_regions(int rows, int cols) {
  const int w = std::min(rows, cols), h = std::max(rows, cols);
  if (w > 8) throw input_error("cannot count reachable regions of a board whose shorter side exceeds 8");
  const int cells = w * h;
  // counts[S][k]: regions of the cells so far with k empty cells whose
  // possible profiles are exactly S.
  std::map<profile_set, std::vector<std::uint64_t>> cur, next;
  profile_set start{};
  add(start, 0);
  cur[start] = std::vector<std::uint64_t>(static_cast<std::size_t>(cells) + 1, 0);
  cur[start][0] = 1;
  const unsigned top = 1u << (w - 1);
  for (int i = 0; i < cells; ++i) {
    const int r = i / w, c = i % w;
    next.clear();
    for (const auto& [set, counts] : cur) {
      for (int empty = 0; empty < 2; ++empty) {
        profile_set out{};
        for (unsigned s = 0; s < (1u << w); ++s) {
          if (!has(set, s)) continue;
          if (s & 1) {
            // Covered by a domino from above or the left: must be covered.
            if (!empty) add(out, s >> 1);
          } else if (empty) {
            add(out, s >> 1);
          } else {
            if (r + 1 < h) add(out, (s >> 1) | top);             // vertical domino down
            if (c + 1 < w && !(s & 2)) add(out, (s >> 1) | 1u);  // horizontal domino right
          }
        }
        if (none(out)) continue;
        auto& dst = next[out];
        if (dst.empty()) dst.assign(static_cast<std::size_t>(cells) + 1, 0);
        for (int k = 0; k + empty <= cells; ++k)
          dst[static_cast<std::size_t>(k + empty)] += counts[static_cast<std::size_t>(k)];
      }
    }
    cur.swap(next);
  }
  std::vector<std::uint64_t> total(static_cast<std::size_t>(cells) + 1, 0);
  for (const auto& [set, counts] : cur)
    if (has(set, 0))
      for (int k = 0; k <= cells; ++k) total[static_cast<std::size_t>(k)] += counts[static_cast<std::size_t>(k)];
  return total;
}

std::vector<level_plan> plan_reachable_table(int rows, int cols, int symmetries, std::size_t record_bytes,
                                             double available_bytes, double seconds_per_class, double bits_per_class) {
  const std::vector<std::uint64_t> reach = count_reachable_regions(rows, cols);
  const int cells = rows * cols;
  std::vector<level_plan> plan;
  for (int k = cells % 2; k <= cells; k += 2) {
    level_plan p;
    p.level = k;
    p.positions = reach[static_cast<std::size_t>(k)];
    p.classes = std::max<std::uint64_t>(p.positions ? 1 : 0, p.positions / static_cast<std::uint64_t>(symmetries));
    p.value_bytes = static_cast<double>(p.classes) * static_cast<double>(record_bytes);
    p.file_bytes = static_cast<double>(p.classes) * bits_per_class / 8;
    p.seconds = static_cast<double>(p.classes) * seconds_per_class;
    plan.push_back(p);
  }
  // A level's keys: Elias-Fano coded masks below 2^cells.
  const double universe = std::ldexp(1.0, cells);
  auto keys = [&](double n) { return elias_fano_bytes(n, universe); };
  // The rank table (8-byte slots at load 2/3) of the level below, unless the
  // solve would not fit with it (then its ranks go through the keys alone).
  auto table = [](double n) { return memory_model::rank_table_bytes(static_cast<std::uint64_t>(n)); };
  // The keys of the levels found so far stay in memory beside the levels in
  // work while they take under memory_model::kept_keys_limit together (else every level's
  // keys wait in a file): those above level i while the forward pass finds
  // it (found_above[i]), every level's while the levels are solved.
  std::vector<double> found_above(plan.size() + 1, 0);
  for (std::size_t i = plan.size(); i-- > 0;)
    found_above[i] = found_above[i + 1] + (i + 1 < plan.size() ? keys(static_cast<double>(plan[i + 1].classes)) : 0);
  auto kept = [&](double b) { return b < memory_model::kept_keys_limit(available_bytes) ? b : 0.0; };
  const double kept_solving = kept(found_above[0] + (plan.empty() ? 0 : keys(static_cast<double>(plan[0].classes))));
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const double n = static_cast<double>(plan[i].classes);
    const double below = i ? static_cast<double>(plan[i - 1].classes) : 0;
    // Solving level i: keys and records of it and the level below, and the
    // rank table of the level below where it fits.
    const double base = static_cast<double>(record_bytes) * (n + below) + keys(n) + keys(below) + kept_solving;
    const bool tables = base + table(below) <= available_bytes;
    const double solve = base + (tables ? table(below) : 0.0) + kLevelConsumerBytes;
    if (i) plan[i - 1].rank_table = tables;
    // Forward pass into level i from the level above, in the solver's parts
    // (cgtb/memory_model.hpp; the count estimated 30 % high): the keys above,
    // the parts found so far and, per part, the phases insert (set), compact
    // (set and keys found) and sort (keys and the sort's buffer); then the
    // merge of the parts into the level's keys.
    const double above = i + 1 < plan.size() ? static_cast<double>(plan[i + 1].classes) : 0;
    const std::uint64_t part_count = memory_model::forward_parts(1.3 * n, available_bytes);
    const double parts = static_cast<double>(part_count);
    const double part = n / parts,
                 part_set = 8.0 * static_cast<double>(memory_model::forward_set_slots(1.3 * n, part_count));
    const double forward = kept(found_above[i]) + keys(above) +
                           std::max(keys(n) + std::max({part_set + 8 * part, 16 * part}), 2 * keys(n));
    plan[i].peak_bytes = std::max(solve, forward);
    plan[i].forward_peak = forward > solve;
    plan[i].forward_parts = static_cast<int>(parts);
  }
  return plan;
}

double plan_peak_bytes(const std::vector<level_plan>& plan) {
  double m = 0;
  for (const auto& p : plan) m = std::max(m, p.peak_bytes);
  return m;
}

std::vector<rank_level_plan> plan_across_ranks(const std::vector<level_plan>& plan, int rows, int cols, int ranks,
                                               std::size_t record_bytes, std::size_t sent_record_bytes,
                                               std::uint64_t split_from, double bandwidth, double available_bytes) {
  if (ranks < 1) throw input_error("a build needs at least one rank");
  const double P = ranks, cells = rows * cols, rb = static_cast<double>(record_bytes);
  const double edges = static_cast<double>(rows * (cols - 1) + cols * (rows - 1));
  const double universe = std::ldexp(1.0, rows * cols);
  constexpr double kWorstShare = 1.06;  // cgtb shares: every split level within 6 % of the mean
  auto keys = [&](double n, double u) { return n > 0 ? elias_fano_bytes(n, u) : 0.0; };
  auto table = [](double n) { return memory_model::rank_table_bytes(static_cast<std::uint64_t>(n)); };
  auto options_a_class = [&](int level) {
    return cells > 1 ? edges * level * (level - 1) / (cells * (cells - 1)) : 0.0;
  };
  // Each level's largest part and the distinct options it reaches on the
  // level below; the coded keys of both stay in memory beside the levels in
  // work while all levels' take under memory_model::kept_keys_limit (cuda/src/solve_index.hpp).
  std::vector<rank_level_plan> out(plan.size());
  double kept = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    rank_level_plan& r = out[i];
    r.level = plan[i].level;
    r.split = split_across_ranks(plan[i].classes, static_cast<std::uint32_t>(ranks), split_from);
    const double n = static_cast<double>(plan[i].classes);
    const double below = i ? static_cast<double>(plan[i - 1].classes) : 0.0;
    const double part = r.split ? std::min(n, std::ceil(kWorstShare * n / P)) : n;
    r.classes = static_cast<std::uint64_t>(part);
    const double degree = options_a_class(r.level);
    const double in_degree = below > 0 ? degree * n / below : 0.0;
    r.options = r.split ? std::min(part * degree, below * (1.0 - std::exp(-in_degree / P))) : below;
    if (r.split) kept += keys(part, universe / P) + keys(r.options, universe);
  }
  if (kept >= memory_model::kept_keys_limit(available_bytes)) kept = 0;
  // A key sent: the LEB128 varint of its difference from the key before it
  // in an ascending run of n keys (tools/mpi_exchange.cpp).
  auto sent_key = [&](double n) { return std::max(1.0, std::ceil(std::log2(universe / std::max(n, 1.0)) / 7)); };
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const level_plan& l = plan[i];
    rank_level_plan& r = out[i];
    if (!r.split) {
      r.peak_bytes = r.least_bytes = l.peak_bytes;
      r.forward_peak = l.forward_peak;
      r.seconds = l.seconds;
      continue;
    }
    const double part = static_cast<double>(r.classes);
    const double below = i ? static_cast<double>(plan[i - 1].classes) : 0.0;
    const double remote = r.options * (P - 1) / P;  // options another rank owns
    const double part_keys = keys(part, universe / P), option_keys = keys(r.options, universe);
    // The solve (cuda/src/level_loop.hpp, part_bytes): the part of the level
    // and of the level below, which answers the other ranks (with its rank
    // table where it fits), the compressed blocks it writes (its run and
    // message, and rank 0 another's), and the options of a chunk: all the
    // part's where they fit, else as many as fit (at least
    // kMinChunkOptions), found again chunk by chunk.
    const double writing = kCompressedClassBytes * 3 * part;
    const double below_own = i ? (out[i - 1].split ? std::min(below, std::ceil(kWorstShare * below / P)) : below) : 0.0;
    const double whole_bytes = sent_record_bytes > record_bytes ? static_cast<double>(sent_record_bytes) : 0.0;
    const double per_option = memory_model::fetched_option_bytes(whole_bytes, rb);
    auto round = [&](double options) {
      return std::min(std::max(options, below_own), static_cast<double>(kExchangeRoundKeys)) *
             (8.0 + static_cast<double>(sent_record_bytes)) * 2;
    };
    double fixed =
        kept + part * rb + part_keys + below_own * rb + keys(below_own, universe / P) + writing + kLevelConsumerBytes;
    if (fixed + table(below_own) +
            std::min(r.options, static_cast<double>(memory_model::kMinChunkOptions)) * per_option + round(r.options) <=
        available_bytes)
      fixed += table(below_own);
    const double least_options = std::min(r.options, static_cast<double>(memory_model::kMinChunkOptions));
    r.least_bytes = fixed + least_options * per_option + round(least_options);
    double chunk = r.options;
    if (fixed + chunk * per_option + round(chunk) > available_bytes)
      chunk = std::max(least_options, (available_bytes - fixed - round(chunk)) / per_option);
    // (A chunk sized to the memory left uses it all, not a rounding more.)
    const double solve = chunk < r.options && chunk > least_options
                             ? std::min(available_bytes, fixed + chunk * per_option + round(chunk))
                             : fixed + chunk * per_option + round(chunk);
    r.chunks =
        chunk >= r.options
            ? 1.0
            : std::ceil(part / std::max(1.0, memory_model::classes_reaching(
                                                 chunk, memory_model::degree_reaching(r.options, part, below), below)));
    // Forward pass into the level below from this part (solve_index.hpp,
    // reach_across_ranks): its keys; for each part of its options (by class
    // hash, as one process makes them, plan_reachable_table) the hash set
    // (8-byte slots), the keys compacted and sorted, then sent to their
    // owners (decoded, and delta-coded both ways) and this rank's share of
    // them received; the shares of the parts so far and their merge; and,
    // where the options came in one part, their keys kept for the solve.
    const double below_part = std::ceil(kWorstShare * below / P);
    const std::uint64_t part_count = memory_model::forward_parts(1.3 * r.options, available_bytes);
    const double parts_d = static_cast<double>(part_count);
    const double set_part = r.options / parts_d,
                 set = 8.0 * static_cast<double>(memory_model::forward_set_slots(1.3 * r.options, part_count));
    const double exchange = keys(set_part, universe) + 14.0 * set_part + 8.0 * below_part / parts_d;
    const double forward = kept + part_keys + (part_count == 1 ? option_keys : 0.0) +
                           std::max({set + 8 * set_part, 16 * set_part, exchange}) + 2 * keys(below_part, universe / P);
    r.peak_bytes = std::max(solve, forward);
    r.least_bytes = std::max(r.least_bytes, forward);
    r.forward_peak = forward > solve;
    // Sent: the forward pass's keys to their owners, its requests, the
    // records answering the others' (about as many as its own), its blocks.
    r.sent_bytes =
        remote * 2 * sent_key(r.options) + remote * static_cast<double>(sent_record_bytes) + l.file_bytes / P;
    r.seconds = l.seconds * kWorstShare / P + (bandwidth > 0 ? r.sent_bytes / bandwidth : 0.0);
  }
  return out;
}

}  // namespace cgtb

// ------------------------------------------------------------ plan, printed
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <ostream>

#include "cgtb/backend.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/tablebase.hpp"

namespace cgtb {

namespace {

std::uint64_t dominoes(int rows, int cols) { return static_cast<std::uint64_t>(rows * (cols - 1) + cols * (rows - 1)); }

}  // namespace

void print_reachable_plan(const std::string& ruleset, int rows, int cols, int symmetries, std::size_t record_bytes,
                          const build_request& req, std::ostream& out, bool interned, std::size_t sent_record_bytes) {
  if (!sent_record_bytes) sent_record_bytes = record_bytes;
  // Calibration board: the largest r x c inside the board (same orientation)
  // with at most about 300,000 stored positions.
  int cr = 1, cc = 1;
  double best = -1;
  for (int r = 1; r <= rows; ++r)
    for (int c = 1; c <= cols; ++c) {
      if (std::min(r, c) > 8) continue;
      std::uint64_t n = 0;
      for (std::uint64_t x : count_reachable_regions(r, c)) n += x;
      const double classes = static_cast<double>(n) / symmetries;
      if (classes <= 3e5 && classes > best) {
        best = classes;
        cr = r;
        cc = c;
      }
    }
  tablebase_header h;
  h.ruleset = ruleset;
  h.params = std::to_string(cr) + "x" + std::to_string(cc);
  h.index = "keys/1";
  h.positions = "reachable";
  h.symmetry = symmetries > 1 ? "on" : "none";
  auto drv = driver_for_header(h);
  build_request cal = req;
  cal.output = (std::filesystem::temp_directory_path() / ("cgtb-plan-" + std::to_string(getpid()) + ".cgtb")).string();
  cal.progress = false;
  cal.stats = false;
  cal.solve.count_options = false;
  const auto t0 = std::chrono::steady_clock::now();
  drv->build(cal);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t classes = 0, bytes = 0;
  {
    tablebase tb(cal.output, 0);
    for (const auto& l : tb.levels()) classes += l.positions;
    bytes = tb.file_size();
  }
  std::filesystem::remove(cal.output);
  // Time per stored position grows with the options per position: scaled by
  // the dominoes of the two boards.
  const double per_class = secs / static_cast<double>(std::max<std::uint64_t>(classes, 1)) *
                           static_cast<double>(dominoes(rows, cols)) / static_cast<double>(dominoes(cr, cc));
  const double bits = 8.0 * static_cast<double>(bytes) / static_cast<double>(std::max<std::uint64_t>(classes, 1));
  const double avail =
      static_cast<double>(req.solve.max_memory ? req.solve.max_memory : detail::host_available_bytes());
  const auto plan = plan_reachable_table(rows, cols, symmetries, record_bytes, avail, per_class, bits);

  out << ruleset << " " << rows << "x" << cols << ", reachable positions, " << symmetries
      << (symmetries == 1 ? " symmetry (none)" : " symmetries") << ", " << record_bytes
      << (interned ? "-byte record ids (" : "-byte records (") << req.values << ")\n";
  out << "calibration: " << h.params << " built in " << duration_text(secs) << " (" << classes
      << " stored positions)\n";
  double tv = 0, tf = 0, ts = 0;
  std::uint64_t tp = 0, tc = 0;
  for (const auto& p : plan) {
    tp += p.positions;
    tc += p.classes;
    tv += p.value_bytes;
    tf += p.file_bytes;
    ts += p.seconds;
  }
  // Columns wide enough for the totals (the largest figures), two spaces apart.
  auto width = [](std::size_t w, const std::string& widest) {
    return static_cast<int>(std::max(w, widest.size() + 2));
  };
  const int wp = width(16, std::to_string(tp)), wc = width(15, std::to_string(tc)),
            wb = width(12, bytes_text(std::max({tv, tf, plan_peak_bytes(plan)}))), wt = width(11, duration_text(ts));
  out << std::setw(6) << "level" << std::setw(wp) << "positions" << std::setw(wc) << "stored" << std::setw(wb)
      << "values" << std::setw(wb) << "peak mem" << std::setw(wb) << "file" << std::setw(wt) << "time"
      << "\n";
  for (const auto& p : plan)
    out << std::setw(6) << p.level << std::setw(wp) << p.positions << std::setw(wc) << p.classes << std::setw(wb)
        << bytes_text(p.value_bytes) << std::setw(wb) << bytes_text(p.peak_bytes) << std::setw(wb)
        << bytes_text(p.file_bytes) << std::setw(wt) << duration_text(p.seconds) << "\n";
  out << std::setw(6) << "total" << std::setw(wp) << tp << std::setw(wc) << tc << std::setw(wb) << bytes_text(tv)
      << std::setw(wb) << bytes_text(plan_peak_bytes(plan)) << std::setw(wb) << bytes_text(tf) << std::setw(wt)
      << duration_text(ts) << "\n";
  {
    std::string without;
    for (const auto& p : plan)
      if (!p.rank_table) without += (without.empty() ? "" : ", ") + std::to_string(p.level);
    if (!without.empty())
      out << "levels without a rank table (ranked through their coded keys, slower, to fit in memory): " << without
          << "\n";
  }
  if (req.plan_ranks > 1) {
    const auto ranked = plan_across_ranks(plan, rows, cols, req.plan_ranks, record_bytes, sent_record_bytes,
                                          req.split_from, req.plan_bandwidth, avail);
    out << "\nacross " << req.plan_ranks << " ranks (the largest rank of each level; levels under " << req.split_from
        << " stored positions a rank on rank 0; network " << bytes_text(req.plan_bandwidth) << "/s a rank):\n";
    out << std::setw(6) << "level" << std::setw(7) << "split" << std::setw(wc) << "stored/rank" << std::setw(wc)
        << "options/rank" << std::setw(8) << "chunks" << std::setw(wb) << "peak/rank" << std::setw(wb) << "least/rank"
        << std::setw(wb) << "sent/rank" << std::setw(wt) << "time"
        << "\n";
    double peak = 0, least = 0, sent = 0, rank_secs = 0;
    int peak_level = 0;
    for (const auto& r : ranked) {
      out << std::setw(6) << r.level << std::setw(7) << (r.split ? "yes" : "no") << std::setw(wc) << r.classes
          << std::setw(wc) << static_cast<std::uint64_t>(r.options) << std::setw(8)
          << static_cast<std::uint64_t>(r.chunks) << std::setw(wb) << bytes_text(r.peak_bytes) << std::setw(wb)
          << bytes_text(r.least_bytes) << std::setw(wb) << bytes_text(r.sent_bytes) << std::setw(wt)
          << duration_text(r.seconds) << "\n";
      least = std::max(least, r.least_bytes);
      if (r.peak_bytes > peak) {
        peak = r.peak_bytes;
        peak_level = r.level;
      }
      sent += r.sent_bytes;
      rank_secs += r.seconds;
    }
    out << std::setw(6) << "total" << std::setw(7) << "" << std::setw(wc) << "" << std::setw(wc) << "" << std::setw(8)
        << "" << std::setw(wb) << bytes_text(peak) << std::setw(wb) << bytes_text(least) << std::setw(wb)
        << bytes_text(sent) << std::setw(wt) << duration_text(rank_secs) << "\n";
    out << "peak memory a rank: " << bytes_text(peak) << " (level " << peak_level << ")"
        << (peak > avail ? ", more than the memory available to a rank (the build would be refused)" : "") << "\n";
    out << "least memory a rank needs: " << bytes_text(least) << " (parts solved in chunks of "
        << memory_model::kMinChunkOptions << " options, the forward pass in the parts planned for this memory)\n";
  }
  out << "memory available to the build: " << bytes_text(avail)
      << (plan_peak_bytes(plan) > avail
              ? (req.plan_ranks > 1 ? " (one process would be refused)" : " (the build would be refused)")
              : "")
      << "\n";
  out << "stored positions are estimated as positions / symmetries; time and file size are estimates from the "
         "calibration build (solve only, one backend: "
      << backend_name(req.solve.backend) << ")\n";
}

void check_reachable_plan(int rows, int cols, int symmetries, std::size_t record_bytes, std::size_t max_memory) {
  if (std::min(rows, cols) > 8) return;
  const double avail = static_cast<double>(max_memory ? max_memory : detail::host_available_bytes());
  const auto plan = plan_reachable_table(rows, cols, symmetries, record_bytes, avail, 0, 0);
  const auto worst = std::max_element(
      plan.begin(), plan.end(), [](const level_plan& a, const level_plan& b) { return a.peak_bytes < b.peak_bytes; });
  if (worst == plan.end() || worst->peak_bytes <= avail) return;
  const std::string where = worst->forward_peak
                                ? "when the forward pass finds level " + std::to_string(worst->level) + " (about " +
                                      std::to_string(worst->classes) + " stored positions, in " +
                                      std::to_string(worst->forward_parts) + " parts)"
                                : "while level " + std::to_string(worst->level) + " is solved (about " +
                                      std::to_string(worst->classes) + " stored positions there)";
  throw resource_error("the plan of this table needs " + bytes_text(worst->peak_bytes) + " of host memory " + where +
                       ", more than the " + bytes_text(avail) + (max_memory ? " of --max-memory" : " available") +
                       "; see cgtb plan");
}

void check_reachable_plan_across_ranks(int rows, int cols, int symmetries, std::size_t record_bytes,
                                       std::size_t sent_record_bytes, std::size_t max_memory, int ranks,
                                       std::uint64_t split_from, int rank) {
  if (std::min(rows, cols) > 8) return;
  const double avail = static_cast<double>(max_memory ? max_memory : detail::host_available_bytes());
  const auto plan = plan_reachable_table(rows, cols, symmetries, record_bytes, avail, 0, 0);
  const auto ranked = plan_across_ranks(plan, rows, cols, ranks, record_bytes, sent_record_bytes, split_from, 0, avail);
  const rank_level_plan* worst = nullptr;
  for (const rank_level_plan& r : ranked)  // levels solved whole are rank 0's
    if ((r.split || rank == 0) && (!worst || r.peak_bytes > worst->peak_bytes)) worst = &r;
  if (!worst || worst->peak_bytes <= avail) return;
  throw resource_error("level " + std::to_string(worst->level) + " as planned for " + std::to_string(ranks) +
                       " ranks needs about " + bytes_text(worst->peak_bytes) + " on this rank " +
                       (worst->forward_peak ? "when the forward pass finds the level below" : "while it is solved") +
                       " (about " + std::to_string(worst->classes) + " stored positions of it here), more than the " +
                       bytes_text(avail) + (max_memory ? " of --max-memory" : " available") +
                       "; see cgtb plan --ranks " + std::to_string(ranks));
}

}  // namespace cgtb
