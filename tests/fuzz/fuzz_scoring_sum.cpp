// Fuzz target: the scoring sums' position parser ('n+m', 'n^m', 'n v m',
// 'n>m'). The first input byte picks the operation and the two games, the
// rest is fed to the driver's parse. A position that parses must format (its
// level and rank) to text that parses back to the same level and rank, and so
// must its options (at most 64 checked). Inputs are bounded to 4 KiB.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto drivers = [] {
    cgtb_fuzz::init_once();
    std::vector<std::unique_ptr<cgtb::game_driver>> d;
    d.push_back(cgtb_fuzz::make_driver("scoring-sum", "op=disjunctive left=123:1,2,3 right=33:1,2 max=5"));
    d.push_back(cgtb_fuzz::make_driver("scoring-sum", "op=conjunctive left=123:1,2,3 right=33:1,2 max=8"));
    d.push_back(cgtb_fuzz::make_driver("scoring-sum", "op=selective left=123:1,2,3 right=33:1,2 max=5"));
    d.push_back(cgtb_fuzz::make_driver("scoring-sum", "op=sequential left=0033:1,2,3,4 right=123:1,2,3 max=10"));
    return d;
  }();
  cgtb_fuzz::fuzz_positions(drivers, data, size);
  return 0;
}
