// The candidate placements of a card next to a city.
#include "neweden/placements.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "kernel.hpp"

namespace neweden {

std::vector<Candidate> candidates(const CityView& city, SideMask sides) {
  // Sorted vectors, not std::set: a city is a few dozen cells, and this runs once a question
  // (a node allocation per cell cost more than the whole search).
  using Cell = std::pair<std::int32_t, std::int32_t>;
  std::vector<Cell> taken(city.n);
  for (std::size_t i = 0; i < city.n; ++i) {
    taken[i] = Cell{city.row[i], city.col[i]};
  }
  std::sort(taken.begin(), taken.end());
  taken.erase(std::unique(taken.begin(), taken.end()), taken.end());
  std::vector<Cell> cells;
  cells.reserve(taken.size() * 4);
  for (const auto& [row, col] : taken) {
    for (std::size_t d = 0; d < 4; ++d) {
      // in 64 bits: next to a card on the last row an int32 can hold there is no cell
      const std::int64_t r = static_cast<std::int64_t>(row) + kRowStep[d];
      const std::int64_t c = static_cast<std::int64_t>(col) + kColStep[d];
      if (r < INT32_MIN || r > INT32_MAX || c < INT32_MIN || c > INT32_MAX) {
        continue;
      }
      const Cell cell{static_cast<std::int32_t>(r), static_cast<std::int32_t>(c)};
      if (!std::binary_search(taken.begin(), taken.end(), cell)) {
        cells.push_back(cell);
      }
    }
  }
  std::sort(cells.begin(), cells.end());  // by row, then column
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  const bool turns = rotate_sides(sides, true) != sides;
  std::vector<Candidate> out;
  out.reserve(cells.size() * (turns ? 2 : 1));
  for (const auto& [row, col] : cells) {
    out.push_back(Candidate{row, col, false});
    if (turns) {
      out.push_back(Candidate{row, col, true});
    }
  }
  return out;
}

namespace {

// The card on each cell next to a candidate: the workspace's direct-mapped grid when the
// city and its neighbours fit it (nearly always), else a sorted search.
class CardsByCell {
 public:
  CardsByCell(const CityView& city, detail::GridCells& grid) : city_(city), grid_(grid) {
    const auto [min_row, max_row, min_col, max_col] = detail::bounds_of(city);
    // a candidate's neighbour is at most two cells beyond the city: inside the border (and
    // two cells from the ends of int32, so no sum below overflows)
    constexpr std::int64_t kRoom = detail::GridCells::kSpan - 2;
    on_grid_ = static_cast<std::int64_t>(max_row) - min_row < kRoom &&
               static_cast<std::int64_t>(max_col) - min_col < kRoom && inside(min_row) &&
               inside(max_row) && inside(min_col) && inside(max_col);
    if (on_grid_) {
      grid_.set_origin(min_row - 1, min_col - 1);
      for (std::size_t i = 0; i < city.n; ++i) {
        grid_.cell[grid_.at(city.row[i], city.col[i])] = static_cast<std::uint8_t>(i);
      }
      return;
    }
    sorted_.resize(city.n);
    for (std::size_t i = 0; i < city.n; ++i) {
      sorted_[i] = {Cell{city.row[i], city.col[i]}, i};
    }
    std::sort(sorted_.begin(), sorted_.end());
  }
  ~CardsByCell() {
    if (on_grid_) {  // leave the grid empty, as the kernel expects it
      for (std::size_t i = 0; i < city_.n; ++i) {
        grid_.cell[grid_.at(city_.row[i], city_.col[i])] = static_cast<std::uint8_t>(detail::kNoCard);
      }
    }
  }
  CardsByCell(const CardsByCell&) = delete;
  CardsByCell& operator=(const CardsByCell&) = delete;

  // The index of the card on (row, col), or kNoCard (also for a cell beyond int32).
  std::size_t at(std::int64_t row, std::int64_t col) const {
    if (on_grid_) {
      return grid_.cell[grid_.at(static_cast<std::int32_t>(row), static_cast<std::int32_t>(col))];
    }
    if (row < INT32_MIN || row > INT32_MAX || col < INT32_MIN || col > INT32_MAX) {
      return detail::kNoCard;
    }
    const Cell cell{static_cast<std::int32_t>(row), static_cast<std::int32_t>(col)};
    const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(cell, std::size_t{0}));
    return it != sorted_.end() && it->first == cell ? it->second : detail::kNoCard;
  }

 private:
  using Cell = std::pair<std::int32_t, std::int32_t>;
  static bool inside(std::int32_t v) noexcept { return v > INT32_MIN + 2 && v < INT32_MAX - 2; }
  const CityView& city_;
  detail::GridCells& grid_;
  bool on_grid_ = false;
  std::vector<std::pair<Cell, std::size_t>> sorted_;
};

// The candidates after which a legal city stays legal: the card lands on an empty cell (no
// overlap) beside a city of one project, so the city is legal after it exactly when the
// card makes a complete connection with a card next to it (the kernel's own test). One look
// at four cells a candidate instead of an analysis of the whole city.
std::vector<Candidate> joining(const CityView& city, const CityView& card,
                               const std::vector<Candidate>& found, detail::Workspace& ws) {
  const CardsByCell cards(city, ws.grid);
  const std::uint64_t key = detail::key_of(card.style[0], card.type[0]);
  std::vector<Candidate> legal;
  for (const Candidate& c : found) {
    const unsigned mine =
        detail::look_of(rotate_sides(card.sides[0], c.rotated), card.flags[0]);
    unsigned linked = 0;
    for (unsigned d = 0; d < 4; ++d) {
      const std::size_t k = cards.at(static_cast<std::int64_t>(c.row) + kRowStep[d],
                                     static_cast<std::int64_t>(c.col) + kColStep[d]);
      if (k != detail::kNoCard) {
        linked |= detail::complete_connection(
            mine, key, detail::look_of(city.sides[k], city.flags[k]),
            detail::key_of(city.style[k], city.type[k]), d);
      }
    }
    if (linked != 0) {
      legal.push_back(c);
    }
  }
  return legal;
}

}  // namespace

std::vector<Candidate> legal_candidates(const CityView& city, const CityView& card) {
  if (card.n != 1) {
    throw std::invalid_argument("one card is placed at a time");
  }
  const SideMask sides = card.sides[0];
  const std::vector<Candidate> found = candidates(city, sides);
  detail::check_city(city);
  detail::check_cards(card);
  detail::Workspace ws;
  const bool resolved = (card.flags[0] & kUnresolved) == 0;
  if (resolved && city.n > 0 && city.n < detail::kMaxCityCards &&
      detail::analyse_into(city, ws).legal) {
    return joining(city, card, found, ws);  // the common case: a legal city, a card known
  }
  // An illegal city (a placement may join its parts): each candidate city analysed whole.
  // The city's columns once, the card last: each candidate changes only its cell and sides.
  const std::size_t n = city.n + 1;
  std::vector<std::int32_t> row(city.row, city.row + city.n);
  std::vector<std::int32_t> col(city.col, city.col + city.n);
  std::vector<std::int32_t> style(city.style, city.style + city.n);
  std::vector<std::int32_t> type(city.type, city.type + city.n);
  std::vector<std::int8_t> facility(city.facility, city.facility + city.n);
  std::vector<SideMask> side(city.sides, city.sides + city.n);
  std::vector<std::uint8_t> flags(city.flags, city.flags + city.n);
  row.push_back(0);
  col.push_back(0);
  style.push_back(card.style[0]);
  type.push_back(card.type[0]);
  facility.push_back(card.facility[0]);
  side.push_back(sides);
  flags.push_back(card.flags[0]);
  const CityView placed{n,           row.data(),      col.data(),  style.data(),
                        type.data(), facility.data(), side.data(), flags.data()};
  detail::check_city(placed);  // turning the card keeps its sides valid
  std::vector<Candidate> legal;
  for (const Candidate& c : found) {
    row.back() = c.row;
    col.back() = c.col;
    side.back() = rotate_sides(sides, c.rotated);
    if (detail::analyse_into(placed, ws).legal) {
      legal.push_back(c);
    }
  }
  return legal;
}

}  // namespace neweden
