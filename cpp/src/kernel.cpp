// Placement, neighbours, connections and components of one city (RULES §2-§3).
#include "kernel.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cell_index.hpp"
#include "military.hpp"

namespace neweden::detail {
namespace {

// The cell offsets of the four sides, in bit order: top, right, bottom, left.
constexpr std::array<std::int32_t, 4> kRowStep{-1, 0, 1, 0};
constexpr std::array<std::int32_t, 4> kColStep{0, 1, 0, -1};

// The number of icons of each 4-bit side mask.
constexpr std::array<std::int32_t, 16> kIcons{0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// Puts the cards on their cells: the first card on a cell stays, later ones and unresolved
// ids are left out (placed 0). Then fills the neighbours of every card kept.
void place_on_grid(const CityView& city, Workspace& ws, CitySummary& out) {
  GridCells& grid = ws.grid;
  for (std::size_t i = 0; i < city.n; ++i) {
    if ((city.flags[i] & kUnresolved) != 0) {
      out.legal = false;
      continue;
    }
    auto& slot = grid.cell[grid.at(city.row[i], city.col[i])];
    if (slot != 0) {
      ws.overlapped_by[i] = slot - 1;
      out.legal = false;
      continue;
    }
    slot = static_cast<std::uint8_t>(i + 1);
    ws.placed[i] = 1;
  }
  constexpr std::array<std::ptrdiff_t, 4> kStep{-GridCells::kStride, 1, GridCells::kStride, -1};
  for (std::size_t i = 0; i < city.n; ++i) {
    if (ws.placed[i] == 0) {
      continue;
    }
    const std::size_t here = grid.at(city.row[i], city.col[i]);
    for (std::size_t d = 0; d < 4; ++d) {
      ws.neighbours[i][d] =
          static_cast<std::int32_t>(grid.cell[static_cast<std::size_t>(
              static_cast<std::ptrdiff_t>(here) + kStep[d])]) -
          1;
    }
  }
  for (std::size_t i = 0; i < city.n; ++i) {  // leave the grid empty for the next city
    if (ws.placed[i] != 0) {
      grid.cell[grid.at(city.row[i], city.col[i])] = 0;
    }
  }
}

// The same for cities too spread out (or too large) for the grid: a hash of cells sized by
// the number of cards, never by the bounding box.
void place_in_hash(const CityView& city, Workspace& ws, CitySummary& out) {
  CellIndex cells(city.n);
  for (std::size_t i = 0; i < city.n; ++i) {
    if ((city.flags[i] & kUnresolved) != 0) {
      out.legal = false;
      continue;
    }
    const auto card = static_cast<std::int32_t>(i);
    const std::int32_t holder = cells.insert(city.row[i], city.col[i], card);
    if (holder != card) {
      ws.overlapped_by[i] = holder;
      out.legal = false;
      continue;
    }
    ws.placed[i] = 1;
  }
  for (std::size_t i = 0; i < city.n; ++i) {
    if (ws.placed[i] == 0) {
      continue;
    }
    for (std::size_t d = 0; d < 4; ++d) {
      const std::int64_t r = static_cast<std::int64_t>(city.row[i]) + kRowStep[d];
      const std::int64_t c = static_cast<std::int64_t>(city.col[i]) + kColStep[d];
      const bool on_grid = r >= INT32_MIN && r <= INT32_MAX && c >= INT32_MIN && c <= INT32_MAX;
      ws.neighbours[i][d] =
          on_grid ? cells.find(static_cast<std::int32_t>(r), static_cast<std::int32_t>(c)) : -1;
    }
  }
}

// True (and the grid's origin set) when every resolved card fits in the grid.
bool fits_grid(const CityView& city, GridCells& grid) noexcept {
  if (city.n >= 255) {
    return false;
  }
  std::int32_t min_row = INT32_MAX;
  std::int32_t max_row = INT32_MIN;
  std::int32_t min_col = INT32_MAX;
  std::int32_t max_col = INT32_MIN;
  for (std::size_t i = 0; i < city.n; ++i) {
    if ((city.flags[i] & kUnresolved) != 0) {
      continue;
    }
    min_row = std::min(min_row, city.row[i]);
    max_row = std::max(max_row, city.row[i]);
    min_col = std::min(min_col, city.col[i]);
    max_col = std::max(max_col, city.col[i]);
  }
  if (min_row > max_row) {
    return true;  // no card to place
  }
  const auto span = [](std::int32_t lo, std::int32_t hi) {
    return static_cast<std::int64_t>(hi) - lo;
  };
  if (span(min_row, max_row) >= GridCells::kSpan || span(min_col, max_col) >= GridCells::kSpan) {
    return false;
  }
  grid.set_origin(min_row, min_col);
  return true;
}

}  // namespace

void Workspace::prepare(std::size_t n) {
  if (neighbours.size() < n) {
    neighbours.resize(n);
    overlapped_by.resize(n);
    placed.resize(n);
    component.resize(n);
    linked.resize(n);
    next_to_medical.resize(n);
    shelter_group.resize(n);
    joined64.resize(n);
    near64.resize(n);
    joined128.resize(n);
    near128.resize(n);
  }
  std::fill_n(overlapped_by.begin(), n, -1);
  std::fill_n(placed.begin(), n, 0);
  std::fill_n(component.begin(), n, -1);
  std::fill_n(linked.begin(), n, 0);
  std::fill_n(next_to_medical.begin(), n, 0);
  std::fill_n(shelter_group.begin(), n, -1);
}

void check_city(const CityView& city) {
  if (city.n > kMaxCityCards) {
    throw std::invalid_argument("a city of " + std::to_string(city.n) + " cards; at most " +
                                std::to_string(kMaxCityCards) + " are analysed");
  }
  // Accumulate first (a loop the compiler can vectorise); find the card only on failure.
  unsigned bad = 0;
  for (std::size_t i = 0; i < city.n; ++i) {
    const unsigned flags = city.flags[i];
    const bool common = flags == 0;
    bad |= static_cast<unsigned>((flags & ~static_cast<unsigned>(kWild | kUnresolved)) != 0) |
           static_cast<unsigned>((city.sides[i] & ~kAllSides) != 0) |
           static_cast<unsigned>(city.facility[i] < kNoFacility || city.facility[i] > kBase) |
           static_cast<unsigned>(common && (city.sides[i] == 0 ||
                                            city.facility[i] == kNoFacility ||
                                            city.style[i] < 0 || city.type[i] < 0));
  }
  if (bad == 0) {
    return;
  }
  for (std::size_t i = 0; i < city.n; ++i) {
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
}

namespace {

// Connections, components and the Military figures, once the cards are placed.
template <class Mask>
void analyse_placed(const CityView& city, Workspace& ws, Mask* joined, Mask* near,
                    CitySummary& out) {
  const std::size_t n = city.n;
  // Local pointers: byte-wide stores could otherwise alias the vectors' data pointers.
  const std::uint8_t* const placed = ws.placed.data();
  const std::array<std::int32_t, 4>* const neighbours = ws.neighbours.data();
  std::uint8_t* const linked_sides = ws.linked.data();
  const SideMask* const icons = city.sides;
  const std::uint8_t* const flags = city.flags;
  const std::int32_t* const styles = city.style;
  const std::int32_t* const types = city.type;

  // Connections: a complete one needs facing icons on compatible cards; every other icon
  // of a card kept is an open connection. Without branches on the icons (they are as good
  // as random): a missing neighbour reads the card itself, masked out.
  Mask kept{};
  std::int32_t open = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (placed[i] == 0) {
      continue;
    }
    kept |= single<Mask>(i);
    const unsigned sides = icons[i];
    const bool wild = (flags[i] & kWild) != 0;
    const std::int32_t style = styles[i];
    const std::int32_t type = types[i];
    unsigned linked = 0;
    Mask next{};
    Mask joins{};
    for (unsigned d = 0; d < 4; ++d) {
      const std::int32_t j = neighbours[i][d];
      const bool present = j >= 0;
      const std::size_t pick = std::size_t{0} - static_cast<std::size_t>(present);
      const std::size_t k = (static_cast<std::size_t>(j) & pick) | (i & ~pick);
      const unsigned facing = (static_cast<unsigned>(icons[k]) >> ((d + 2U) & 3U)) & 1U &
                              (sides >> d) & static_cast<unsigned>(present);
      // Compatible (RULES §2): either card wild, or the same style, or the same type.
      const unsigned compatible = static_cast<unsigned>(wild) |
                                  static_cast<unsigned>((flags[k] & kWild) != 0) |
                                  static_cast<unsigned>(styles[k] == style) |
                                  static_cast<unsigned>(types[k] == type);
      const unsigned complete = facing & compatible;
      linked |= complete << d;
      const Mask there = keep_if(single<Mask>(k), present);
      next |= there;
      joins |= keep_if(there, complete != 0);
    }
    linked_sides[i] = static_cast<std::uint8_t>(linked);
    open += kIcons[sides & ~linked & kAllSides];
    near[i] = next;
    joined[i] = joins;
  }
  out.open_connections = open;
  out.cards = count(kept);

  // Components, numbered by their first card; the project is the largest, on a tie the
  // earliest.
  std::int32_t best = 0;
  Mask left = kept;
  while (any(left)) {
    const Mask part = flood(single<Mask>(lowest(left)), joined, kept);
    left &= ~part;
    const std::int32_t id = out.components++;
    for_each_card(part, [&](std::size_t i) { ws.component[i] = id; });
    const std::int32_t size = count(part);
    if (size > best) {
      best = size;
      out.project = id;
    }
  }
  if (out.components > 1) {
    out.legal = false;
  }
  score_military(city, ws, kept, near, out);
}

}  // namespace

CitySummary analyse_into(const CityView& city, Workspace& ws) {
  const std::size_t n = city.n;
  ws.prepare(n);
  CitySummary out;
  if (fits_grid(city, ws.grid)) {
    place_on_grid(city, ws, out);
  } else {
    place_in_hash(city, ws, out);
  }

  if (n <= 64) {
    analyse_placed(city, ws, ws.joined64.data(), ws.near64.data(), out);
  } else {
    analyse_placed(city, ws, ws.joined128.data(), ws.near128.data(), out);
  }
  return out;
}

}  // namespace neweden::detail
