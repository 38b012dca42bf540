// The candidate placements of a card next to a city.
#include "neweden/placements.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace neweden {

std::vector<Candidate> candidates(const CityView& city, SideMask sides) {
  // Sorted vectors, not std::set: a city is a few dozen cells, and this runs once a question
  // (a node allocation per cell cost more than the whole search).
  using Cell = std::pair<std::int32_t, std::int32_t>;
  std::vector<Cell> taken(city.n);
  for (std::size_t i = 0; i < city.n; ++i) {
    taken[i] = Cell{city.row[i], city.col[i]};
  }
  std::sort(taken.begin(), taken.end());
  taken.erase(std::unique(taken.begin(), taken.end()), taken.end());
  constexpr std::array<Cell, 4> kSteps{{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}};
  std::vector<Cell> cells;
  cells.reserve(taken.size() * kSteps.size());
  for (const auto& [row, col] : taken) {
    for (const auto& [dr, dc] : kSteps) {
      const Cell cell{row + dr, col + dc};
      if (!std::binary_search(taken.begin(), taken.end(), cell)) {
        cells.push_back(cell);
      }
    }
  }
  std::sort(cells.begin(), cells.end());  // by row, then column
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  const bool turns = rotate_sides(sides, true) != sides;
  std::vector<Candidate> out;
  out.reserve(cells.size() * (turns ? 2 : 1));
  for (const auto& [row, col] : cells) {
    out.push_back(Candidate{row, col, false});
    if (turns) {
      out.push_back(Candidate{row, col, true});
    }
  }
  return out;
}

}  // namespace neweden
