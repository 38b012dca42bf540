// The rich per-city analysis: the kernel's figures, with the details listed.
#include <algorithm>

#include "kernel.hpp"
#include "neweden/city.hpp"

namespace neweden {

CityAnalysis analyse_city(const CityView& city) {
  detail::check_city(city);
  detail::Workspace ws;
  const detail::CitySummary s = detail::analyse_into(city, ws);
  const std::size_t n = city.n;

  CityAnalysis out;
  const auto end = static_cast<std::ptrdiff_t>(n);
  out.overlapped_by.assign(ws.overlapped_by.begin(), ws.overlapped_by.begin() + end);
  out.component.assign(ws.component.begin(), ws.component.begin() + end);
  out.included.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.included[i] = out.component[i] >= 0 ? 1 : 0;
    // Each connection once, from the card that sees its partner to the right or below.
    for (const std::size_t d : {std::size_t{1}, std::size_t{2}}) {
      if ((ws.linked[i] & (1U << d)) != 0) {
        const std::int32_t j = ws.neighbours[i][d];
        const auto me = static_cast<std::int32_t>(i);
        out.connections.push_back({std::min(me, j), std::max(me, j)});
      }
    }
    if (ws.next_to_medical[i] != 0) {
      out.medical_cards.push_back(static_cast<std::int32_t>(i));
    }
    const std::int32_t g = ws.shelter_group[i];
    if (g >= 0) {
      if (static_cast<std::size_t>(g) >= out.shelter_groups.size()) {
        out.shelter_groups.resize(static_cast<std::size_t>(g) + 1);
      }
      out.shelter_groups[static_cast<std::size_t>(g)].push_back(static_cast<std::int32_t>(i));
    }
  }
  std::sort(out.connections.begin(), out.connections.end(),
            [](const Connection& x, const Connection& y) {
              return x.a != y.a ? x.a < y.a : x.b < y.b;
            });
  out.components = s.components;
  out.project = s.project;
  out.legal = s.legal;
  out.open_connections = s.open_connections;
  out.labs = s.labs;
  out.shelter_points = s.shelter_points;
  out.medical_points = s.medical_points;
  out.tower_span = s.tower_span;
  out.bases = s.bases;
  return out;
}

}  // namespace neweden
