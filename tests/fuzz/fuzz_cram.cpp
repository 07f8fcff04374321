// Fuzz target: Cram's position parser. The first input byte picks a board and
// index (reachable tables with symmetry, without, and every region, on
// rectangles up to 8x8); the rest is fed to the driver's parse. A position
// that parses must format (its level and rank) to text that parses back to
// the same level and rank, and so must its options (at most 64 checked).
// Inputs are bounded to 4 KiB.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto drivers = [] {
    cgtb_fuzz::init_once();
    std::vector<std::unique_ptr<cgtb::game_driver>> d;
    d.push_back(cgtb_fuzz::make_driver("cram", "2x3", true, "rectangle"));
    d.push_back(cgtb_fuzz::make_driver("cram", "3x3"));
    d.push_back(cgtb_fuzz::make_driver("cram", "4x4", true, "square"));
    d.push_back(cgtb_fuzz::make_driver("cram", "4x5", true, "none"));
    d.push_back(cgtb_fuzz::make_driver("cram", "1x7"));
    d.push_back(cgtb_fuzz::make_driver("cram", "8x8"));
    d.push_back(cgtb_fuzz::make_driver("cram", "7x9", true, "rectangle"));
    return d;
  }();
  cgtb_fuzz::fuzz_positions(drivers, data, size);
  return 0;
}
