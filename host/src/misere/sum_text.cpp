// The text of sums: `cgtb sum`'s JSON answer and its input lines
// (cgtb/misere_sum.hpp).
#include <cctype>
#include <nlohmann/json.hpp>

#include "cgtb/driver.hpp"
#include "cgtb/misere_sum.hpp"

namespace cgtb {

std::string sum_answer_json(const sum_answer& a) {
  auto moves_json = [](const std::vector<sum_move>& ms) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& m : ms) list.push_back({{"term", m.term}, {"move", m.move}, {"after", m.after}});
    return list;
  };
  nlohmann::ordered_json j;
  j["sum"] = a.text;
  if (a.normal) {
    j["grundy"] = a.grundy;
    j["normal_outcome"] = std::string(1, a.normal_outcome);
    if (a.moves_listed) j["normal_winning_moves"] = moves_json(a.normal_winning);
  }
  if (a.misere) {
    j["misere_outcome"] = std::string(1, a.misere_outcome);
    if (a.moves_listed) j["misere_winning_moves"] = moves_json(a.misere_winning);
  }
  j["searched"] = a.searched;
  return json_text(j);
}

std::vector<std::string> split_sum_terms(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i && line.compare(i, j - i, "+") != 0) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace cgtb
