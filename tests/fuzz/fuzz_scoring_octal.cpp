// Fuzz target: the scoring octal games' position parser (a heap, or a heap
// list in multiset tables). The first input byte picks a game and table, the
// rest is fed to the driver's parse. A position that parses must format (its
// level and rank) to text that parses back to the same level and rank, and so
// must its options (at most 64 checked). Inputs are bounded to 4 KiB.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto drivers = [] {
    cgtb_fuzz::init_once();
    std::vector<std::unique_ptr<cgtb::game_driver>> d;
    d.push_back(cgtb_fuzz::make_driver("scoring-octal", "00033:1,2,3,4,5 max=12 positions=heaps"));
    d.push_back(cgtb_fuzz::make_driver("scoring-octal", "0033:1,2,3,4 max=8 positions=multisets"));
    d.push_back(cgtb_fuzz::make_driver("scoring-octal", "123:1,-2,10 max=20 positions=heaps"));
    d.push_back(cgtb_fuzz::make_driver("scoring-octal", "0033:1,2,3,4 max=30 positions=multisets"));
    return d;
  }();
  cgtb_fuzz::fuzz_positions(drivers, data, size);
  return 0;
}
