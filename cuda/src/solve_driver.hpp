// Level-by-level driver shared by both backends. `Backend` supplies memory,
// transfers and the Thrust execution policy; everything else is common.
// Included only by backend_cpu.cpp and backend_cuda.cu.
#pragma once

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"
#include "cgtb/level_solver.hpp"

namespace cgtb::detail {

inline std::string format_bytes(double b) {
  char buf[64];
  if (b >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  return buf;
}

/// Overflow bound of a rule's max_value: Rule::value_limit where the rule
/// declares one, else 64 (the 64-bit mex masks of the impartial rules).
template <class Rule, class = void>
struct rule_value_limit {
  static constexpr unsigned value = 64;
};
template <class Rule>
struct rule_value_limit<Rule, std::void_t<decltype(Rule::value_limit)>> {
  static constexpr unsigned value = Rule::value_limit;
};

template <class Backend, class Game, class Rule>
void solve_with(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume) {
  using record = typename Rule::record;
  using view_type = typename Game::view_type;
  using clock = std::chrono::steady_clock;

  Backend be(opts);
  auto table = be.template upload<std::uint64_t>(game.table());
  view_type view = game.view(table.data());
  std::vector<int> levels = game.levels();
  const int top = levels.empty() ? 0 : levels.back();
  const int span = game.option_level_span();

  // by_level[L] points to level L's records while L is resident.
  std::vector<const record*> by_level_host(static_cast<std::size_t>(top) + 1, nullptr);
  auto by_level = be.template allocate<const record*>(by_level_host.size());
  // Before solving anything: the largest working set (a level plus the levels
  // its options reach) must fit in the memory the backend has now.
  {
    double peak = 0;
    int peak_level = 0;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      double need = 0;
      for (std::size_t j = 0; j <= i; ++j)
        if (j == i || span == 0 || levels[j] >= levels[i] - span)
          need += static_cast<double>(view.level_size(levels[j])) * sizeof(record);
      if (need > peak) {
        peak = need;
        peak_level = levels[i];
      }
    }
    const double avail = static_cast<double>(be.available_bytes());
    if (peak > avail)
      throw resource_error("level " + std::to_string(peak_level) + " with the levels its options reach needs " +
                           format_bytes(peak) + " of " + be.memory_name() + " memory, but only " + format_bytes(avail) +
                           " is available");
  }
  std::map<int, typename Backend::template buffer<record>> resident;
  std::vector<record> staging;
  // Entries of by_level_host changed since the last copy to the device: only
  // those are copied (games with many levels, e.g. one per heap size).
  std::size_t dirty_lo = 0, dirty_hi = by_level_host.size();
  auto mark = [&](int l) {
    const std::size_t i = static_cast<std::size_t>(l);
    if (dirty_lo >= dirty_hi) {
      dirty_lo = i;
      dirty_hi = i + 1;
    } else {
      dirty_lo = std::min(dirty_lo, i);
      dirty_hi = std::max(dirty_hi, i + 1);
    }
  };

  for (int level : levels) {
    // Drop levels no option of this level (or any later one) can reach.
    if (span > 0) {
      for (auto it = resident.begin(); it != resident.end();) {
        if (it->first < level - span) {
          by_level_host[static_cast<std::size_t>(it->first)] = nullptr;
          mark(it->first);
          it = resident.erase(it);
        } else {
          ++it;
        }
      }
    }
    const std::uint64_t n = view.level_size(level);
    const double need = static_cast<double>(n) * sizeof(record);
    if (need > static_cast<double>(be.available_bytes()))
      throw resource_error("level " + std::to_string(level) + " has " + std::to_string(n) + " positions and needs " +
                           format_bytes(need) + " but only " + format_bytes(static_cast<double>(be.available_bytes())) +
                           " of " + be.memory_name() + " memory is available");
    auto out = be.template allocate<record>(n);
    if (dirty_lo < dirty_hi)
      be.copy_to_device(by_level.data() + dirty_lo, by_level_host.data() + dirty_lo, dirty_hi - dirty_lo);
    dirty_lo = dirty_hi = 0;

    auto t0 = clock::now();
    const std::uint64_t chunk = Backend::chunk_size;
    level_kernel<view_type, Rule> kernel{view, level, n, chunk, by_level.data(), out.data()};
    const std::uint64_t items = (n + chunk - 1) / chunk;
    level_report rep;
    rep.level = level;
    rep.positions = n;
    // The backend picks the execution policy for a level of n positions.
    be.with_policy(n, [&](auto policy) {
      thrust::for_each(policy, thrust::counting_iterator<std::uint64_t>(0),
                       thrust::counting_iterator<std::uint64_t>(items), kernel);
      rep.max_value = thrust::transform_reduce(policy, out.data(), out.data() + n, max_value_kernel<Rule>{}, 0u,
                                               thrust::maximum<unsigned>());
      be.check("level kernel");
      if (opts.count_options) {
        rep.options = thrust::transform_reduce(
            policy, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n),
            option_count_kernel<view_type>{view, level}, std::uint64_t{0}, thrust::plus<std::uint64_t>());
        be.check("option count");
      }
    });
    const record* host = be.to_host(out, n, staging);
    rep.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (rep.max_value >= rule_value_limit<Rule>::value)
      throw resource_error("level " + std::to_string(level) + ": a value reached " +
                           std::to_string(rule_value_limit<Rule>::value) + ", more than the value record holds");
    consume(rep, host);
    by_level_host[static_cast<std::size_t>(level)] = out.data();
    mark(level);
    resident.emplace(level, std::move(out));
  }
}

}  // namespace cgtb::detail
