// Fuzz target: the octal games' position parser (heap lists). The first
// input byte picks a code and table (several heaps with --max-total, single
// heaps with --max-heap); the rest is fed to the driver's parse. A position
// that parses must format (its level and rank) to text that parses back to
// the same level and rank, and so must its options (at most 64 checked).
// Inputs are bounded to 4 KiB.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto drivers = [] {
    cgtb_fuzz::init_once();
    std::vector<std::unique_ptr<cgtb::game_driver>> d;
    d.push_back(cgtb_fuzz::make_driver("octal", "0.07-total8"));
    d.push_back(cgtb_fuzz::make_driver("octal", "0.137-total20"));
    d.push_back(cgtb_fuzz::make_driver("octal", "4.7-total12"));
    d.push_back(cgtb_fuzz::make_driver("octal", "0.77-total63"));
    d.push_back(cgtb_fuzz::make_driver("octal", "0.07-heap100"));
    return d;
  }();
  cgtb_fuzz::fuzz_positions(drivers, data, size);
  return 0;
}
