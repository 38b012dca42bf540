// The candidate placements of a card next to a city.
#include "neweden/placements.hpp"

#include <algorithm>
#include <array>
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
  constexpr std::array<Cell, 4> kSteps{{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}};
  std::vector<Cell> cells;
  cells.reserve(taken.size() * kSteps.size());
  for (const auto& [row, col] : taken) {
    for (const auto& [dr, dc] : kSteps) {
      const Cell cell{row + dr, col + dc};
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

std::vector<Candidate> legal_candidates(const CityView& city, const CityView& card) {
  if (card.n != 1) {
    throw std::invalid_argument("one card is placed at a time");
  }
  const SideMask sides = card.sides[0];
  const std::vector<Candidate> found = candidates(city, sides);
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
  detail::Workspace ws;
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
