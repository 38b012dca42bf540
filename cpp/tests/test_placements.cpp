#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "neweden/placements.hpp"

namespace {

struct Cells {
  std::vector<std::int32_t> row, col, style, type;
  std::vector<std::int8_t> facility;
  std::vector<neweden::SideMask> sides;
  std::vector<std::uint8_t> flags;

  void add(std::int32_t r, std::int32_t c) {
    row.push_back(r);
    col.push_back(c);
    style.push_back(0);
    type.push_back(0);
    facility.push_back(0);
    sides.push_back(neweden::kAllSides);
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
