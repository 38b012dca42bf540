// Legality, complete connections, open connections and components (RULES §2-§3).
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cell_index.hpp"
#include "military.hpp"
#include "neweden/city.hpp"

namespace neweden {
namespace {

// The four sides in bit order, with the cell offset each faces and the opposite side.
struct Direction {
  SideMask side;
  SideMask opposite;
  std::int32_t drow;
  std::int32_t dcol;
};
constexpr std::array<Direction, 4> kDirections{{
    {kTop, kBottom, -1, 0},
    {kRight, kLeft, 0, 1},
    {kBottom, kTop, 1, 0},
    {kLeft, kRight, 0, -1},
}};

void check_card(const CityView& city, std::size_t i) {
  const auto fail = [i](const char* what) {
    throw std::invalid_argument("card " + std::to_string(i) + ": " + what);
  };
  const std::uint8_t flags = city.flags[i];
  if ((flags & ~(kWild | kUnresolved)) != 0) {
    fail("unknown flag bits");
  }
  if ((city.sides[i] & ~kAllSides) != 0) {
    fail("side bits outside the four sides");
  }
  if (city.facility[i] < kNoFacility || city.facility[i] > kBase) {
    fail("unknown facility code");
  }
  if (flags == 0 && (city.sides[i] == 0 || city.facility[i] == kNoFacility ||
                     city.style[i] < 0 || city.type[i] < 0)) {
    fail("a common card needs icons, a facility, a style and a type");
  }
}

class Components {
 public:
  explicit Components(std::size_t n) : parent_(n) {
    for (std::size_t i = 0; i < n; ++i) {
      parent_[i] = static_cast<std::int32_t>(i);
    }
  }
  std::int32_t root(std::int32_t i) {
    while (parent_[static_cast<std::size_t>(i)] != i) {
      auto& p = parent_[static_cast<std::size_t>(i)];
      p = parent_[static_cast<std::size_t>(p)];
      i = p;
    }
    return i;
  }
  void join(std::int32_t a, std::int32_t b) {
    a = root(a);
    b = root(b);
    if (a != b) {
      parent_[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    }
  }

 private:
  std::vector<std::int32_t> parent_;
};

// Either card is wild, or they share the style, or they share the location type (RULES §2).
bool compatible(const CityView& city, std::size_t a, std::size_t b) noexcept {
  return ((city.flags[a] | city.flags[b]) & kWild) != 0 || city.style[a] == city.style[b] ||
         city.type[a] == city.type[b];
}

// The card on the cell next to (row, col) in direction `dir`; none past the int32 grid.
std::int32_t neighbour(const detail::CellIndex& cells, std::int32_t row, std::int32_t col,
                       const Direction& dir) noexcept {
  const std::int64_t r = static_cast<std::int64_t>(row) + dir.drow;
  const std::int64_t c = static_cast<std::int64_t>(col) + dir.dcol;
  if (r < INT32_MIN || r > INT32_MAX || c < INT32_MIN || c > INT32_MAX) {
    return -1;
  }
  return cells.find(static_cast<std::int32_t>(r), static_cast<std::int32_t>(c));
}

}  // namespace

CityAnalysis analyse_city(const CityView& city) {
  const std::size_t n = city.n;
  for (std::size_t i = 0; i < n; ++i) {
    check_card(city, i);
  }
  CityAnalysis out;
  out.included.assign(n, 0);
  out.overlapped_by.assign(n, -1);
  out.component.assign(n, -1);

  // Cells: the first card on a cell stays; later ones and unresolved ids are left out.
  detail::CellIndex cells(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto card = static_cast<std::int32_t>(i);
    if ((city.flags[i] & kUnresolved) != 0) {
      out.legal = false;
      continue;
    }
    const std::int32_t holder = cells.insert(city.row[i], city.col[i], card);
    if (holder != card) {
      out.overlapped_by[i] = holder;
      out.legal = false;
    } else {
      out.included[i] = 1;
    }
  }

  // Neighbours and connections. A complete connection needs facing icons on compatible cards.
  std::vector<std::array<std::int32_t, 4>> neighbours(n);
  Components groups(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (out.included[i] == 0) {
      continue;
    }
    for (std::size_t d = 0; d < kDirections.size(); ++d) {
      const Direction& dir = kDirections[d];
      const std::int32_t j = neighbour(cells, city.row[i], city.col[i], dir);
      neighbours[i][d] = j;
      if ((city.sides[i] & dir.side) == 0) {
        continue;
      }
      const auto uj = static_cast<std::size_t>(j);
      const bool complete =
          j >= 0 && (city.sides[uj] & dir.opposite) != 0 && compatible(city, i, uj);
      if (!complete) {
        ++out.open_connections;
      } else if (static_cast<std::size_t>(j) > i) {
        out.connections.push_back({static_cast<std::int32_t>(i), j});
        groups.join(static_cast<std::int32_t>(i), j);
      }
    }
  }
  std::sort(out.connections.begin(), out.connections.end(),
            [](const Connection& x, const Connection& y) {
              return x.a != y.a ? x.a < y.a : x.b < y.b;
            });

  // Components numbered by their first card; the project is the largest, then the earliest.
  std::vector<std::int32_t> id_of_root(n, -1);
  std::vector<std::int32_t> sizes;
  for (std::size_t i = 0; i < n; ++i) {
    if (out.included[i] == 0) {
      continue;
    }
    auto& id = id_of_root[static_cast<std::size_t>(groups.root(static_cast<std::int32_t>(i)))];
    if (id < 0) {
      id = static_cast<std::int32_t>(sizes.size());
      sizes.push_back(0);
    }
    out.component[i] = id;
    ++sizes[static_cast<std::size_t>(id)];
  }
  out.components = static_cast<std::int32_t>(sizes.size());
  if (!sizes.empty()) {
    out.project = static_cast<std::int32_t>(
        std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  }
  if (out.components > 1) {
    out.legal = false;
  }

  detail::score_military(city, out, neighbours);
  return out;
}

}  // namespace neweden
