// D1 labs, D2 shelter groups, D3 medical centers, D4 tower span, and the count of bases (D5
// is a majority across players and is scored in Python).
#include "military.hpp"

#include <algorithm>

namespace neweden::detail {

void score_military(const CityView& city, CityAnalysis& out,
                    const std::vector<std::array<std::int32_t, 4>>& neighbours) {
  const std::size_t n = city.n;
  std::vector<std::uint8_t> next_to_medical(n, 0);
  std::vector<std::uint8_t> grouped(n, 0);
  std::vector<std::int32_t> stack;
  TowerSpan& span = out.tower_span;

  for (std::size_t i = 0; i < n; ++i) {
    if (out.included[i] == 0) {
      continue;
    }
    switch (city.facility[i]) {
      case kLab:
        ++out.labs;
        break;
      case kBase:
        ++out.bases;
        break;
      case kMedical:
        for (const std::int32_t j : neighbours[i]) {
          if (j >= 0) {
            next_to_medical[static_cast<std::size_t>(j)] = 1;
          }
        }
        break;
      case kTower:
        if (span.towers == 0) {
          span.min_row = span.max_row = city.row[i];
          span.min_col = span.max_col = city.col[i];
        }
        ++span.towers;
        span.min_row = std::min(span.min_row, city.row[i]);
        span.max_row = std::max(span.max_row, city.row[i]);
        span.min_col = std::min(span.min_col, city.col[i]);
        span.max_col = std::max(span.max_col, city.col[i]);
        break;
      case kShelter: {
        if (grouped[i] != 0) {
          break;
        }
        // A group is a component of shelters under orthogonal adjacency (RULES D2).
        std::vector<std::int32_t> group;
        grouped[i] = 1;
        stack.assign(1, static_cast<std::int32_t>(i));
        while (!stack.empty()) {
          const std::int32_t k = stack.back();
          stack.pop_back();
          group.push_back(k);
          for (const std::int32_t j : neighbours[static_cast<std::size_t>(k)]) {
            const auto uj = static_cast<std::size_t>(j);
            if (j >= 0 && grouped[uj] == 0 && city.facility[uj] == kShelter) {
              grouped[uj] = 1;
              stack.push_back(j);
            }
          }
        }
        std::sort(group.begin(), group.end());
        const auto k = static_cast<std::int64_t>(group.size());
        out.shelter_points += k * std::min<std::int64_t>(k, 4);
        out.shelter_groups.push_back(std::move(group));
        break;
      }
      default:
        break;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (next_to_medical[i] != 0) {
      out.medical_cards.push_back(static_cast<std::int32_t>(i));
    }
  }
  out.medical_points = 2 * static_cast<std::int64_t>(out.medical_cards.size());
  if (span.towers >= 2) {
    span.points = static_cast<std::int64_t>(span.max_col - span.min_col + 1) *
                  static_cast<std::int64_t>(span.max_row - span.min_row + 1);
  }
}

}  // namespace neweden::detail
