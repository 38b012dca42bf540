// Where a card can go: the candidate placements of one card next to a city.
#pragma once

#include <cstdint>
#include <vector>

#include "neweden/city.hpp"
#include "neweden/sides.hpp"

namespace neweden {

struct Candidate {
  std::int32_t row = 0;
  std::int32_t col = 0;
  bool rotated = false;
};

// Every empty cell orthogonally next to a card of `city` (whatever the card: kept, left out or
// unresolved, it is on the table), once upright and once rotated 180° when that changes the
// card's icons (`sides`, as printed): a card whose icons are symmetric is listed upright only.
// Sorted by row, then column, upright first. A city of no card has no candidate.
std::vector<Candidate> candidates(const CityView& city, SideMask sides);

// The candidates (`candidates(city, card.sides[0])`) after which `city` with `card` added is
// legal (RULES §3, as the kernel's analysis finds it), in the same order. `card` is one card,
// its row and column ignored, its sides as printed. Each candidate city is analysed in one
// reused workspace, without a copy of the city per candidate.
// Throws std::invalid_argument for a city or card no decoded city can give (check_city).
std::vector<Candidate> legal_candidates(const CityView& city, const CityView& card);

}  // namespace neweden
