// The rich per-city analysis: the kernel's figures, with the details listed.
#include "kernel.hpp"
#include "neweden/city.hpp"

namespace neweden {

CityAnalysis analyse_city(const CityView& city) {
  detail::check_city(city);
  detail::Workspace ws;
  const CitySummary s = detail::analyse_into(city, ws);
  return detail::listed(city, ws, s);
}

namespace detail {

CityAnalysis listed(const CityView& city, const Workspace& ws, const CitySummary& s) {
  const std::size_t n = city.n;
  CityAnalysis out;
  static_cast<CitySummary&>(out) = s;
  const auto end = static_cast<std::ptrdiff_t>(n);
  out.overlapped_by.assign(ws.overlapped_by.begin(), ws.overlapped_by.begin() + end);
  out.component.assign(ws.component.begin(), ws.component.begin() + end);
  out.included.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.included[i] = out.component[i] >= 0 ? 1 : 0;
  }
  const auto cards = [](detail::Bits128 set) {
    std::vector<std::int32_t> listed;
    detail::for_each_card(set,
                          [&](std::size_t i) { listed.push_back(static_cast<std::int32_t>(i)); });
    return listed;
  };
  out.medical_cards = cards(ws.next_to_medical);
  for (const detail::Bits128 group : ws.shelter_groups) {
    out.shelter_groups.push_back(cards(group));
  }
  detail::list_connections(ws, n, out.connections);
  return out;
}

}  // namespace detail

}  // namespace neweden
