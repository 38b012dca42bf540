// Placement, connections and components of one city (RULES §2-§3); the Military figures
// are in military.hpp.
#include "kernel.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cell_index.hpp"
#include "military.hpp"

namespace neweden::detail {
namespace {

// The number of icons of each 4-bit side mask.
constexpr std::array<std::int32_t, 16> kIcons{0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// The cards around card i on the direct-mapped grid: four loads at fixed offsets.
struct GridLookup {
  const GridCells& grid;
  const std::uint16_t* cell_of;  // each card's cell
  std::array<std::size_t, 4> around(std::size_t i) const noexcept {
    const std::size_t here = cell_of[i];
    constexpr std::size_t kStride = GridCells::kStride;
    return {grid.cell[here - kStride], grid.cell[here + 1], grid.cell[here + kStride],
            grid.cell[here - 1]};
  }
};

// The cards around card i in a hash of cells (cities too spread out for the grid).
struct HashLookup {
  const CellIndex& cells;
  const CityView& city;
  std::array<std::size_t, 4> around(std::size_t i) const noexcept {
    std::array<std::size_t, 4> found{};
    for (std::size_t d = 0; d < 4; ++d) {
      const std::int64_t r = static_cast<std::int64_t>(city.row[i]) + kRowStep[d];
      const std::int64_t c = static_cast<std::int64_t>(city.col[i]) + kColStep[d];
      const bool on_grid = r >= INT32_MIN && r <= INT32_MAX && c >= INT32_MIN && c <= INT32_MAX;
      const std::int32_t card =
          on_grid ? cells.find(static_cast<std::int32_t>(r), static_cast<std::int32_t>(c)) : -1;
      found[d] = card < 0 ? kNoCard : static_cast<std::size_t>(card);
    }
    return found;
  }
};

// Puts the cards on their cells: the first card on a cell stays; later ones and unresolved
// ids are left out, a later one naming the card that holds its cell. `insert(row, col,
// card)` returns the card holding the cell. Returns the set of cards kept.
template <class Mask, class Insert>
Mask place(const CityView& city, Insert&& insert, Workspace& ws, CitySummary& out) {
  Mask kept{};
  const Mask* const sets = card_sets<Mask>();
  for (std::size_t i = 0; i < city.n; ++i) {
    if ((city.flags[i] & kUnresolved) != 0) {
      out.legal = false;
      continue;
    }
    const auto card = static_cast<std::int32_t>(i);
    const std::int32_t holder = insert(city.row[i], city.col[i], card);
    if (holder != card) {
      ws.overlapped_by[i] = holder;
      out.legal = false;
      continue;
    }
    kept |= sets[i];
  }
  return kept;
}

// True (and the grid's origin set) when every card fits in the grid. Unresolved cards
// count too: it keeps the loop free of branches, and costs only a rare fall-back to the hash.
bool fits_grid(const CityView& city, GridCells& grid) noexcept {
  if (city.n == 0) {
    return true;
  }
  const auto [min_row, max_row, min_col, max_col] = bounds_of(city);
  const auto span = [](std::int32_t lo, std::int32_t hi) {
    return static_cast<std::int64_t>(hi) - lo;
  };
  if (span(min_row, max_row) >= GridCells::kSpan || span(min_col, max_col) >= GridCells::kSpan ||
      min_row == INT32_MIN || min_col == INT32_MIN) {  // the grid's border row: one less
    return false;
  }
  grid.set_origin(min_row, min_col);
  return true;
}

// Per card, before anything else: the outputs reset, and what the connection test reads of
// the card gathered (style and type in one word; icons and wildness in one byte). Slot
// kNoCard stays "no icons".
void gather(const CityView& city, Workspace& ws) noexcept {
  for (std::size_t i = 0; i < city.n; ++i) {
    ws.overlapped_by[i] = -1;
    ws.component[i] = -1;
    ws.key[i] = key_of(city.style[i], city.type[i]);
    ws.look[i] = static_cast<std::uint8_t>(look_of(city.sides[i], city.flags[i]));
  }
}

// Connections, components and the Military figures, once the cards are placed.
template <class Mask, class Lookup>
void analyse_placed(const CityView& city, const Lookup& lookup, Mask kept, Mask* joined,
                    Mask* near, Workspace& ws, CitySummary& out) {
  const std::uint64_t* const key = ws.key.data();
  const std::uint8_t* const look = ws.look.data();
  const Mask* const sets = card_sets<Mask>();

  // Connections: a complete one needs facing icons on compatible cards; every other icon
  // of a card kept is an open connection. No branch on the icons (as good as random): an
  // empty cell is card kNoCard, which has no icon and no set.
  std::int32_t open = 0;
  std::int32_t linked_icons = 0;  // each complete connection twice, once from each card
  for_each_card(kept, [&](std::size_t i) {
    const unsigned mine = look[i];
    const std::uint64_t my_key = key[i];
    const std::array<std::size_t, 4> around = lookup.around(i);
    unsigned linked = 0;
    Mask next{};
    Mask joins{};
    for (unsigned d = 0; d < 4; ++d) {
      const std::size_t k = around[d];
      const unsigned complete = complete_connection(mine, my_key, look[k], key[k], d);
      linked |= complete << d;
      next |= sets[k];
      joins |= keep_if(sets[k], complete != 0);
    }
    open += kIcons[mine & ~linked & kAllSides];
    linked_icons += kIcons[linked];
    near[i] = next;
    joined[i] = joins;
  });
  out.open_connections = open;
  out.complete_connections = linked_icons / 2;
  out.cards = count(kept);
  ws.kept = widen(kept);

  // Components, numbered by their first card; the project is the largest, on a tie the
  // earliest (the first found).
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

template <class Mask>
void analyse_sized(const CityView& city, Workspace& ws, Mask* joined, Mask* near,
                   CitySummary& out) {
  GridCells& grid = ws.grid;
  gather(city, ws);
  if (fits_grid(city, grid)) {
    std::uint16_t* const cell_of = ws.cell_of.data();
    for (std::size_t i = 0; i < city.n; ++i) {
      cell_of[i] = static_cast<std::uint16_t>(grid.at(city.row[i], city.col[i]));
    }
    // `row` and `col` are unused here: each card's cell is its index.
    const auto insert = [&grid, cell_of](std::int32_t, std::int32_t, std::int32_t card) {
      auto& slot = grid.cell[cell_of[card]];
      if (slot != kNoCard) {
        return static_cast<std::int32_t>(slot);
      }
      slot = static_cast<std::uint8_t>(card);
      return card;
    };
    const Mask kept = place<Mask>(city, insert, ws, out);
    analyse_placed(city, GridLookup{grid, cell_of}, kept, joined, near, ws, out);
    for (std::size_t i = 0; i < city.n; ++i) {  // leave the grid empty for the next city
      grid.cell[cell_of[i]] = static_cast<std::uint8_t>(kNoCard);
    }
    return;
  }
  CellIndex cells(city.n);
  const auto insert = [&cells](std::int32_t row, std::int32_t col, std::int32_t card) {
    return cells.insert(row, col, card);
  };
  const Mask kept = place<Mask>(city, insert, ws, out);
  analyse_placed(city, HashLookup{cells, city}, kept, joined, near, ws, out);
}

}  // namespace

Bounds bounds_of(const CityView& city) noexcept {
  Bounds b{city.row[0], city.row[0], city.col[0], city.col[0]};
  for (std::size_t i = 1; i < city.n; ++i) {
    b.min_row = std::min(b.min_row, city.row[i]);
    b.max_row = std::max(b.max_row, city.row[i]);
    b.min_col = std::min(b.min_col, city.col[i]);
    b.max_col = std::max(b.max_col, city.col[i]);
  }
  return b;
}

void Workspace::prepare() noexcept {
  look[kNoCard] = 0;
  key[kNoCard] = ~std::uint64_t{0};
  shelter_groups.clear();
  next_to_medical = Bits128{};
}

void check_city(const CityView& city) {
  if (city.n > kMaxCityCards) {
    throw std::invalid_argument("a city of " + std::to_string(city.n) + " cards; at most " +
                                std::to_string(kMaxCityCards) + " are analysed");
  }
  check_cards(city);
}

void check_cards(const CityView& cards) {
  // Accumulate first (a loop without branches); find the card only on failure.
  unsigned bad = 0;
  for (std::size_t i = 0; i < cards.n; ++i) {
    const unsigned flags = cards.flags[i];
    const unsigned common = static_cast<unsigned>(flags == 0);
    bad |= static_cast<unsigned>((flags & ~static_cast<unsigned>(kWild | kUnresolved)) != 0) |
           static_cast<unsigned>((cards.sides[i] & ~kAllSides) != 0) |
           static_cast<unsigned>(cards.facility[i] < kNoFacility) |
           static_cast<unsigned>(cards.facility[i] > kBase) |
           (common & (static_cast<unsigned>(cards.sides[i] == 0) |
                      static_cast<unsigned>(cards.facility[i] == kNoFacility) |
                      static_cast<unsigned>(cards.style[i] < 0) |
                      static_cast<unsigned>(cards.type[i] < 0)));
  }
  if (bad == 0) {
    return;
  }
  for (std::size_t i = 0; i < cards.n; ++i) {
    const auto fail = [i](const char* what) {
      throw std::invalid_argument("card " + std::to_string(i) + ": " + what);
    };
    const std::uint8_t flags = cards.flags[i];
    if ((flags & ~(kWild | kUnresolved)) != 0) {
      fail("unknown flag bits");
    }
    if ((cards.sides[i] & ~kAllSides) != 0) {
      fail("side bits outside the four sides");
    }
    if (cards.facility[i] < kNoFacility || cards.facility[i] > kBase) {
      fail("unknown facility code");
    }
    if (flags == 0 && (cards.sides[i] == 0 || cards.facility[i] == kNoFacility ||
                       cards.style[i] < 0 || cards.type[i] < 0)) {
      fail("a common card needs icons, a facility, a style and a type");
    }
  }
}

CitySummary analyse_into(const CityView& city, Workspace& ws) {
  ws.prepare();
  CitySummary out;
  if (city.n <= 64) {
    analyse_sized(city, ws, ws.joined64.data(), ws.near64.data(), out);
  } else {
    analyse_sized(city, ws, ws.joined128.data(), ws.near128.data(), out);
  }
  return out;
}

void list_connections(const Workspace& ws, std::size_t n, std::vector<Connection>& out) {
  for_each_card(ws.kept, [&](std::size_t i) {
    const Bits128 joined = n <= 64 ? widen(ws.joined64[i]) : ws.joined128[i];
    for_each_card(joined, [&](std::size_t j) {
      if (j > i) {
        out.push_back({static_cast<std::int32_t>(i), static_cast<std::int32_t>(j)});
      }
    });
  });
}

}  // namespace neweden::detail
