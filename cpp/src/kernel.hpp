// The one per-city kernel behind both the rich per-city call and the batch: it places the
// cards, finds connections, numbers components and computes the Military figures, in a
// reusable workspace (no allocation per city once the workspace has grown).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bits.hpp"
#include "neweden/city.hpp"

namespace neweden::detail {

// The most cards one city may hold here (FORMAT allows 77).
inline constexpr std::size_t kMaxCityCards = 128;
// The card number that stands for "no card": its icons are none, its set is empty.
inline constexpr std::size_t kNoCard = 255;

// A direct-mapped cell grid for cities whose cards fit in 64 x 64 cells (nearly all):
// a fixed 66 x 66 buffer with a border, so neighbour lookups need no bounds check.
class GridCells {
 public:
  static constexpr std::int32_t kSpan = 64;
  static constexpr std::int32_t kStride = kSpan + 2;

  GridCells() { cell.fill(static_cast<std::uint8_t>(kNoCard)); }
  void set_origin(std::int32_t min_row, std::int32_t min_col) noexcept {
    row0_ = min_row - 1;
    col0_ = min_col - 1;
  }
  [[nodiscard]] std::size_t at(std::int32_t row, std::int32_t col) const noexcept {
    return static_cast<std::size_t>((row - row0_) * kStride + (col - col0_));
  }
  // The card on each cell, kNoCard when empty (and again after every city).
  std::array<std::uint8_t, static_cast<std::size_t>(kStride * kStride)> cell{};

 private:
  std::int32_t row0_ = 0;
  std::int32_t col0_ = 0;
};

// Scratch for one thread. After analyse_into(), the per-card arrays and the sets describe
// that city (sets as Bits128 whatever the city's size).
struct Workspace {
  std::array<std::int32_t, kMaxCityCards> overlapped_by{};  // the card on its cell, or -1
  std::array<std::int32_t, kMaxCityCards> component{};      // -1 when left out
  // What the connection test reads of card k (slot kNoCard: no icons, never a match).
  std::array<std::uint64_t, kNoCard + 1> key{};  // style and type
  std::array<std::uint8_t, kNoCard + 1> look{};  // icons, and bit 4 for a wild card
  std::array<std::uint16_t, kMaxCityCards> cell_of{};  // each card's cell on the grid
  // Per card, as sets of cards: the cards it is joined to, and its orthogonal neighbours.
  std::array<std::uint64_t, kMaxCityCards> joined64{}, near64{};
  std::array<Bits128, kMaxCityCards> joined128{}, near128{};
  // The sets of the last city, for the detailed per-city answer.
  Bits128 kept;
  Bits128 next_to_medical;
  std::vector<Bits128> shelter_groups;  // by first card
  GridCells grid;

  void prepare() noexcept;
};

// What the connection test reads of a card: its icons, and bit 4 for a wild card ...
inline constexpr unsigned kWildLook = 1U << 4U;
inline unsigned look_of(SideMask sides, std::uint8_t flags) noexcept {
  return sides | ((flags & kWild) != 0 ? kWildLook : 0U);
}
// ... and its style and type in one word.
inline std::uint64_t key_of(std::int32_t style, std::int32_t type) noexcept {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(style)) << 32U) |
         static_cast<std::uint32_t>(type);
}

// RULES §2: 1 when a card (`mine`, `my_key`) makes a complete connection on its side d with
// the card next to it there (`theirs`, `their_key`): facing icons, and the two compatible
// (either wild, or the same style, or the same type); else 0. No branch: icons are as good
// as random. An empty cell reads as a card with no icon.
inline unsigned complete_connection(unsigned mine, std::uint64_t my_key, unsigned theirs,
                                    std::uint64_t their_key, unsigned d) noexcept {
  const std::uint64_t differ = their_key ^ my_key;
  const unsigned compatible = ((mine | theirs) >> 4U) |
                              static_cast<unsigned>((differ >> 32U) == 0) |
                              static_cast<unsigned>((differ & 0xFFFFFFFFU) == 0);
  return (theirs >> ((d + 2U) & 3U)) & (mine >> d) & compatible & 1U;
}

// The smallest rectangle holding the cards of a city of at least one card.
struct Bounds {
  std::int32_t min_row, max_row, min_col, max_col;
};
Bounds bounds_of(const CityView& city) noexcept;

// Throws std::invalid_argument for a city or card no decoded city can give.
void check_city(const CityView& city);
// The card checks alone, over any run of cards (a whole batch at once).
void check_cards(const CityView& cards);

// Analyses one city that passed check_city.
CitySummary analyse_into(const CityView& city, Workspace& ws);

// The summary `s` of the city last analysed in `ws`, with every detail listed.
CityAnalysis listed(const CityView& city, const Workspace& ws, const CitySummary& s);

// The complete connections of the city last analysed in `ws` (n cards), as (a, b), a < b,
// sorted.
void list_connections(const Workspace& ws, std::size_t n, std::vector<Connection>& out);

// Each component's first contact with a card of another component (Contact), from the city
// last analysed in `ws` and `out`'s components.
void list_contacts(const CityView& city, const Workspace& ws, CityAnalysis& out);

}  // namespace neweden::detail
