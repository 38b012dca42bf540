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
  list_contacts(city, ws, out);
  return out;
}

void list_contacts(const CityView& city, const Workspace& ws, CityAnalysis& out) {
  out.contacts.assign(static_cast<std::size_t>(out.components), Contact{});
  if (out.components <= 1) {
    return;  // one part (or none): nothing for it to meet
  }
  const std::size_t n = city.n;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t mine = out.component[i];
    if (mine < 0 || out.contacts[static_cast<std::size_t>(mine)].card >= 0) {
      continue;  // left out, or its component's contact found at an earlier card
    }
    const Bits128 near = n <= 64 ? widen(ws.near64[i]) : ws.near128[i];
    for (std::size_t d = 0; d < 4; ++d) {
      const std::int64_t row = static_cast<std::int64_t>(city.row[i]) + kRowStep[d];
      const std::int64_t col = static_cast<std::int64_t>(city.col[i]) + kColStep[d];
      std::int32_t other = -1;
      for_each_card(near, [&](std::size_t j) {
        if (city.row[j] == row && city.col[j] == col && out.component[j] != mine) {
          other = static_cast<std::int32_t>(j);
        }
      });
      if (other >= 0) {
        out.contacts[static_cast<std::size_t>(mine)] =
            Contact{static_cast<std::int32_t>(i), static_cast<std::int32_t>(d), other};
        break;
      }
    }
  }
}

}  // namespace detail

}  // namespace neweden
