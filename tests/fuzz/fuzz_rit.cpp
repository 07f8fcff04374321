// Fuzz target: Row Impartial Terminus's position parser (partitions in a
// box). The first input byte picks a box, the rest is fed to the driver's
// parse. A position that parses must format (its level and rank) to text
// that parses back to the same level and rank, and so must its options (at
// most 64 checked). Inputs are bounded to 4 KiB.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto drivers = [] {
    cgtb_fuzz::init_once();
    std::vector<std::unique_ptr<cgtb::game_driver>> d;
    d.push_back(cgtb_fuzz::make_driver("rit", "3x3"));
    d.push_back(cgtb_fuzz::make_driver("rit", "5x5"));
    d.push_back(cgtb_fuzz::make_driver("rit", "1x15"));
    d.push_back(cgtb_fuzz::make_driver("rit", "16x1"));
    d.push_back(cgtb_fuzz::make_driver("rit", "8x8"));
    return d;
  }();
  cgtb_fuzz::fuzz_positions(drivers, data, size);
  return 0;
}
