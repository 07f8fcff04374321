#include "cgtb/build.hpp"

#include <sys/resource.h>

#include <iomanip>

namespace cgtb {

std::size_t peak_rss_bytes() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::size_t>(ru.ru_maxrss) * 1024;
}

void print_progress(const level_report& r, std::size_t index, std::size_t count) {
  std::fprintf(stderr, "[cgtb] level %3d (%zu/%zu): %14llu %s in %8.3f s\n", r.level, index, count,
               static_cast<unsigned long long>(r.positions), r.keys ? "stored positions" : "positions", r.seconds);
}

void print_build_stats(std::ostream& out, const std::vector<level_report>& levels, double total_seconds,
                       const std::string& file, std::uint64_t file_bytes, bool stored) {
  std::uint64_t pos = 0, opt = 0;
  double ksec = 0;
  out << std::setw(6) << "level" << std::setw(15) << (stored ? "stored" : "positions") << std::setw(15) << "options"
      << std::setw(11) << "seconds" << std::setw(14) << "positions/s"
      << "\n";
  auto row = [&](const std::string& name, std::uint64_t p, std::uint64_t o, double s) {
    out << std::setw(6) << name << std::setw(15) << p << std::setw(15) << o << std::setw(11) << std::fixed
        << std::setprecision(4) << s << std::setw(14) << std::setprecision(0) << (s > 0 ? p / s : 0.0) << "\n";
  };
  for (const auto& r : levels) {
    row(std::to_string(r.level), r.positions, r.options, r.seconds);
    pos += r.positions;
    opt += r.options;
    ksec += r.seconds;
  }
  row("solve", pos, opt, ksec);
  out << std::setprecision(3);
  out << "total wall time (solve + pack + compress + write): " << total_seconds << " s\n";
  const char* what = stored ? "stored positions" : "positions";
  out << what << " per second (whole build): " << std::setprecision(0) << (pos / total_seconds) << "\n";
  out << std::setprecision(1) << "peak memory (RSS): " << peak_rss_bytes() / 1e6 << " MB\n";
  out << std::setprecision(3) << "file: " << file << ", " << file_bytes << " bytes, "
      << (pos ? 8.0 * static_cast<double>(file_bytes) / static_cast<double>(pos) : 0.0) << " bits per "
      << (stored ? "stored position" : "position") << "\n";
}

}  // namespace cgtb
