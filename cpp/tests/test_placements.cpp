#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "neweden/placements.hpp"

namespace {

struct Cells {
  std::vector<std::int32_t> row, col, style, type;
  std::vector<std::int8_t> facility;
  std::vector<neweden::SideMask> sides;
  std::vector<std::uint8_t> flags;

  void add(std::int32_t r, std::int32_t c, neweden::SideMask s = neweden::kAllSides) {
    row.push_back(r);
    col.push_back(c);
    style.push_back(0);
    type.push_back(0);
    facility.push_back(0);
    sides.push_back(s);
    flags.push_back(0);
  }
  neweden::CityView view() const {
    return neweden::CityView{row.size(),  row.data(),      col.data(),   style.data(),
                             type.data(), facility.data(), sides.data(), flags.data()};
  }
};

}  // namespace

TEST_CASE("the candidates of a one-card city are its four neighbours, in reading order") {
  Cells city;
  city.add(0, 0);
  const auto found = neweden::candidates(city.view(), neweden::kTop | neweden::kBottom);
  REQUIRE(found.size() == 4);  // top+bottom turned is top+bottom: listed upright only
  CHECK((found[0].row == -1 && found[0].col == 0));
  CHECK((found[1].row == 0 && found[1].col == -1));
  CHECK((found[2].row == 0 && found[2].col == 1));
  CHECK((found[3].row == 1 && found[3].col == 0));
  for (const auto& c : found) {
    CHECK_FALSE(c.rotated);
  }
}

TEST_CASE("a card whose icons change when turned is listed upright, then rotated") {
  Cells city;
  city.add(0, 0);
  city.add(0, 1);
  const auto found = neweden::candidates(city.view(), neweden::kTop);
  REQUIRE(found.size() == 12);  // six empty neighbours, twice each
  CHECK((found[0].row == -1 && found[0].col == 0 && !found[0].rotated));
  CHECK((found[1].row == -1 && found[1].col == 0 && found[1].rotated));
}

TEST_CASE("taken cells are never candidates, and an empty city has none") {
  Cells city;
  city.add(0, 0);
  city.add(0, 0);  // a card again on a taken cell: still one taken cell
  city.add(1, 0);
  const auto found = neweden::candidates(city.view(), neweden::kAllSides);
  CHECK(found.size() == 6);
  for (const auto& c : found) {
    CHECK_FALSE(((c.row == 0 && c.col == 0) || (c.row == 1 && c.col == 0)));
  }
  CHECK(neweden::candidates(Cells{}.view(), neweden::kTop).empty());
}

TEST_CASE("the legal candidates are those after which the kernel finds the city legal") {
  // A line of bridges with a gap: (0, 0) (0, 1) . (0, 3), a card apart (illegal as it is);
  // only the gap joins it, and a bridge is the same turned, so it is listed once.
  const neweden::SideMask bridge = neweden::kLeft | neweden::kRight;
  Cells city;
  for (const std::int32_t c : {0, 1, 3}) {
    city.add(0, c, bridge);
  }
  Cells card;
  card.add(7, 7, bridge);  // its cell is ignored
  const auto legal = neweden::legal_candidates(city.view(), card.view());
  REQUIRE(legal.size() == 1);
  CHECK((legal[0].row == 0 && legal[0].col == 2 && !legal[0].rotated));
  // a card that shows only its top joins nothing: no legal placement, whatever the turn
  Cells top;
  top.add(0, 0, neweden::kTop);
  CHECK(neweden::legal_candidates(city.view(), top.view()).empty());
  CHECK_THROWS_AS(neweden::legal_candidates(city.view(), city.view()), std::invalid_argument);
}

TEST_CASE("beside a legal city, a placement is legal when the card joins a neighbour") {
  // One card at (0, 0), style 1 type 1, icons right and bottom. The card placed: style 2,
  // icons left only (rotated: right only). Upright at (0, 1) its left faces the city's right
  // icon, but the styles and types differ: not joined; with the same type, or wild, it is.
  Cells city;
  city.add(0, 0, neweden::kRight | neweden::kBottom);
  city.style[0] = 1;
  city.type[0] = 1;
  Cells card;
  card.add(9, 9, neweden::kLeft);
  card.style[0] = 2;
  card.type[0] = 2;
  CHECK(neweden::legal_candidates(city.view(), card.view()).empty());
  card.type[0] = 1;  // the same type: compatible
  auto legal = neweden::legal_candidates(city.view(), card.view());
  REQUIRE(legal.size() == 1);
  CHECK((legal[0].row == 0 && legal[0].col == 1 && !legal[0].rotated));
  card.type[0] = 2;
  card.flags[0] = neweden::kWild;  // a wild card joins any facing icon
  legal = neweden::legal_candidates(city.view(), card.view());
  REQUIRE(legal.size() == 1);
  // below the city the card needs an icon on top: none upright, none turned (right only)
  card.sides[0] = neweden::kRight;  // turned: left; at (0, 1) it faces the city's right
  card.flags[0] = 0;
  card.type[0] = 1;
  legal = neweden::legal_candidates(city.view(), card.view());
  REQUIRE(legal.size() == 1);
  CHECK((legal[0].row == 0 && legal[0].col == 1 && legal[0].rotated));
  card.flags[0] = neweden::kUnresolved;  // an unknown card is never legal
  CHECK(neweden::legal_candidates(city.view(), card.view()).empty());
}

TEST_CASE("a city too wide for the grid is searched cell by cell, with the same answer") {
  // 70 bridges in a row (wider than the kernel's 64-cell grid): a bridge joins at either end
  // only; the cells above and below face no icon.
  const neweden::SideMask bridge = neweden::kLeft | neweden::kRight;
  Cells city;
  for (std::int32_t c = 0; c < 70; ++c) {
    city.add(0, c, bridge);
  }
  Cells card;
  card.add(0, 0, bridge);
  const auto legal = neweden::legal_candidates(city.view(), card.view());
  REQUIRE(legal.size() == 2);
  CHECK((legal[0].row == 0 && legal[0].col == -1));
  CHECK((legal[1].row == 0 && legal[1].col == 70));
}

TEST_CASE("cities at the ends of int32 have no cell beyond them and no overflow") {
  // A line of bridges ending on the last column an int32 holds, and one starting on the
  // first: the only legal placement is the free end (run under UBSan in CI).
  const neweden::SideMask bridge = neweden::kLeft | neweden::kRight;
  Cells card;
  card.add(0, 0, bridge);
  for (const std::int32_t first : {INT32_MAX - 2, INT32_MIN}) {
    Cells city;
    for (std::int32_t c = 0; c < 3; ++c) {
      city.add(INT32_MAX, first + c, bridge);
    }
    const auto legal = neweden::legal_candidates(city.view(), card.view());
    REQUIRE(legal.size() == 1);
    CHECK(legal[0].row == INT32_MAX);
    CHECK(legal[0].col == (first == INT32_MIN ? INT32_MIN + 3 : INT32_MAX - 3));
  }
}
