// D1 labs, D2 shelter groups, D3 medical centers, D4 tower span, and the count of bases (D5
// is a majority across players and is scored in Python). Adjacency here is orthogonal,
// whatever the icons, over the cards kept in the geometry.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "bits.hpp"
#include "kernel.hpp"

namespace neweden::detail {

// `kept`: the cards in the geometry; `near[i]`: the cards orthogonally next to card i.
template <class Mask>
void score_military(const CityView& city, Workspace& ws, Mask kept, const Mask* near,
                    CitySummary& out) {
  // The cards of each facility, as sets (index 0: none).
  std::array<Mask, 6> by_facility{};
  for_each_card(kept, [&](std::size_t i) {
    by_facility[static_cast<std::size_t>(city.facility[i] + 1)] |= single<Mask>(i);
  });
  const auto cards_with = [&](Facility f) { return by_facility[static_cast<std::size_t>(f + 1)]; };

  // D1: labs, 3 points each (scored in Python); D5 needs the bases of every player.
  out.labs = count(cards_with(kLab));
  out.bases = count(cards_with(kBase));

  // D2: a group is a component of shelters under orthogonal adjacency; k shelters score
  // k * min(k, 4). Groups are numbered by their first card.
  const Mask shelters = cards_with(kShelter);
  Mask left = shelters;
  while (any(left)) {
    const Mask group = flood(single<Mask>(lowest(left)), near, shelters);
    left &= ~group;
    const std::int64_t k = count(group);
    out.shelter_points += k * std::min<std::int64_t>(k, 4);
    ws.shelter_groups.push_back(widen(group));
  }

  // D3: 2 points for every distinct card next to at least one medical center.
  Mask next_to_medical{};
  for_each_card(cards_with(kMedical), [&](std::size_t i) { next_to_medical |= near[i]; });
  out.medical_points = 2 * static_cast<std::int64_t>(count(next_to_medical));
  ws.next_to_medical = widen(next_to_medical);

  // D4: columns x rows spanned, end cells included; fewer than two towers score 0.
  TowerSpan& span = out.tower_span;
  const Mask towers = cards_with(kTower);
  span.towers = count(towers);
  if (span.towers > 0) {
    const std::size_t first = lowest(towers);
    span.min_row = span.max_row = city.row[first];
    span.min_col = span.max_col = city.col[first];
    for_each_card(towers, [&](std::size_t i) {
      span.min_row = std::min(span.min_row, city.row[i]);
      span.max_row = std::max(span.max_row, city.row[i]);
      span.min_col = std::min(span.min_col, city.col[i]);
      span.max_col = std::max(span.max_col, city.col[i]);
    });
  }
  if (span.towers >= 2) {
    span.points = (static_cast<std::int64_t>(span.max_col) - span.min_col + 1) *
                  (static_cast<std::int64_t>(span.max_row) - span.min_row + 1);
  }
}

}  // namespace neweden::detail
