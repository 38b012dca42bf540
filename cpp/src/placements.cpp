// The candidate placements of a card next to a city.
#include "neweden/placements.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <utility>

namespace neweden {

std::vector<Candidate> candidates(const CityView& city, SideMask sides) {
  std::set<std::pair<std::int32_t, std::int32_t>> taken;
  for (std::size_t i = 0; i < city.n; ++i) {
    taken.emplace(city.row[i], city.col[i]);
  }
  constexpr std::array<std::pair<std::int32_t, std::int32_t>, 4> kSteps{
      {{-1, 0}, {0, 1}, {1, 0}, {0, -1}}};
  std::set<std::pair<std::int32_t, std::int32_t>> cells;
  for (const auto& [row, col] : taken) {
    for (const auto& [dr, dc] : kSteps) {
      const std::pair<std::int32_t, std::int32_t> cell{row + dr, col + dc};
      if (taken.count(cell) == 0) {
        cells.insert(cell);
      }
    }
  }
  const bool turns = rotate_sides(sides, true) != sides;
  std::vector<Candidate> out;
  out.reserve(cells.size() * (turns ? 2 : 1));
  for (const auto& [row, col] : cells) {  // ordered by row, then column
    out.push_back(Candidate{row, col, false});
    if (turns) {
      out.push_back(Candidate{row, col, true});
    }
  }
  return out;
}

}  // namespace neweden
