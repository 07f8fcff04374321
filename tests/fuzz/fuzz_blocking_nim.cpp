// Fuzz target: Blocking Nim's position parser. The first input byte picks the
// sequences c_i, m_i, M_i and the largest pile, the rest is fed to the
// driver's parse. A position that parses must format (its level and rank) to
// text that parses back to the same level and rank, and so must its options
// (at most 64 checked). Inputs are bounded to 4 KiB.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto drivers = [] {
    cgtb_fuzz::init_once();
    std::vector<std::unique_ptr<cgtb::game_driver>> d;
    d.push_back(cgtb_fuzz::make_driver("blocking-nim", "c=1;m=1;M=2;N=12"));
    d.push_back(cgtb_fuzz::make_driver("blocking-nim", "c=0;m=1;M=2;N=100"));
    d.push_back(cgtb_fuzz::make_driver("blocking-nim", "c=1,3,3;m=1;M=5,7,7;N=40"));
    d.push_back(cgtb_fuzz::make_driver("blocking-nim", "c=0;m=cycle:1,2;M=cycle:4,5;N=30"));
    return d;
  }();
  cgtb_fuzz::fuzz_positions(drivers, data, size);
  return 0;
}
