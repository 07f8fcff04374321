// Fuzz target: Cricket Pitch's position parser ([1,0,2,1,R,2,3] or 1021R23).
// The first input byte picks a length and largest bump, the rest is fed to
// the driver's parse. A position that parses must format (its level and rank)
// to text that parses back to the same level and rank, and so must each
// player's options (at most 64 checked). Inputs are bounded to 4 KiB.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto drivers = [] {
    cgtb_fuzz::init_once();
    std::vector<std::unique_ptr<cgtb::game_driver>> d;
    d.push_back(cgtb_fuzz::make_driver("cricket-pitch", "L5-h2"));
    d.push_back(cgtb_fuzz::make_driver("cricket-pitch", "L7-h3"));
    d.push_back(cgtb_fuzz::make_driver("cricket-pitch", "L10-h5"));
    d.push_back(cgtb_fuzz::make_driver("cricket-pitch", "L2-h1"));
    return d;
  }();
  cgtb_fuzz::fuzz_positions(drivers, data, size);
  return 0;
}
