// The Military figures D1-D4 of one city, over the cards kept in the geometry.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "neweden/city.hpp"

namespace neweden::detail {

// `neighbours[i]` holds the card above, right, below and left of card i (or -1).
void score_military(const CityView& city, CityAnalysis& out,
                    const std::vector<std::array<std::int32_t, 4>>& neighbours);

}  // namespace neweden::detail
