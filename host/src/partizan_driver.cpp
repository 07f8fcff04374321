#include "cgtb/partizan_driver.hpp"

#include <cstdio>
#include <fstream>

namespace cgtb {

partizan_kinds partizan_kinds::parse(const std::string& text) {
  partizan_kinds k;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "normal")
      k.normal = true;
    else if (item == "misere")
      k.misere = true;
    else if (item == "all")
      k.normal = k.misere = true;
    else
      throw input_error("unknown value kind '" + item + "' for a partizan game (expected normal, misere or all)");
  }
  if (!k.normal && !k.misere) throw input_error("no value kind given (expected normal, misere or all)");
  return k;
}

std::string partizan_kinds::text() const {
  std::string s;
  if (normal) s += "normal";
  if (misere) s += std::string(s.empty() ? "" : ",") + "misere";
  return s;
}

std::vector<field_spec> partizan_kinds::fields() const {
  std::vector<field_spec> f;
  if (normal) f.push_back({"normal_class", false});
  if (misere) f.push_back({"misere_class", false});
  return f;
}

namespace {

std::size_t mem_available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::size_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::string gb(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  return buf;
}

}  // namespace

void check_build_memory(const std::string& what, const std::vector<int>& levels,
                        const std::function<std::uint64_t(int)>& level_size, int span, std::size_t bytes_per_position,
                        backend_kind backend) {
  if (backend != backend_kind::cpu) return;
  const std::size_t avail = mem_available_bytes();
  if (avail == 0) return;
  double peak = 0;
  int peak_lo = 0, peak_hi = 0;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    double need = 0;
    int lo = levels[i];
    for (std::size_t j = 0; j <= i; ++j)
      if (span == 0 || levels[j] >= levels[i] - span) {
        need += static_cast<double>(level_size(levels[j])) * static_cast<double>(bytes_per_position);
        lo = std::min(lo, levels[j]);
      }
    if (need > peak) {
      peak = need;
      peak_lo = lo;
      peak_hi = levels[i];
    }
  }
  if (peak > static_cast<double>(avail))
    throw resource_error(what + " needs " + gb(peak) + " of host memory at its peak (levels " +
                         std::to_string(peak_lo) + " to " + std::to_string(peak_hi) + " resident) but only " +
                         gb(static_cast<double>(avail)) + " is available");
}

}  // namespace cgtb
