#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "neweden/city.hpp"

using namespace neweden;

namespace {

// A city built card by card, owning its columns.
struct City {
  std::vector<std::int32_t> row, col, style, type;
  std::vector<std::int8_t> facility;
  std::vector<SideMask> sides;
  std::vector<std::uint8_t> flags;

  City& card(std::int32_t r, std::int32_t c, std::int32_t s, std::int32_t t, Facility f,
             SideMask icons) {
    row.push_back(r);
    col.push_back(c);
    style.push_back(s);
    type.push_back(t);
    facility.push_back(f);
    sides.push_back(icons);
    flags.push_back(0);
    return *this;
  }
  City& wild(std::int32_t r, std::int32_t c) {
    card(r, c, -1, -1, kNoFacility, kAllSides);
    flags.back() = kWild;
    return *this;
  }
  City& unresolved(std::int32_t r, std::int32_t c) {
    card(r, c, -1, -1, kNoFacility, 0);
    flags.back() = kUnresolved;
    return *this;
  }
  CityAnalysis analyse() const {
    CityView v;
    v.n = row.size();
    v.row = row.data();
    v.col = col.data();
    v.style = style.data();
    v.type = type.data();
    v.facility = facility.data();
    v.sides = sides.data();
    v.flags = flags.data();
    return analyse_city(v);
  }
};

}  // namespace

TEST_CASE("an empty city is legal with nothing in it") {
  const CityAnalysis a = City{}.analyse();
  CHECK(a.legal);
  CHECK(a.components == 0);
  CHECK(a.project == -1);
  CHECK(a.open_connections == 0);
}

TEST_CASE("facing icons on cards sharing a style join; the far icons stay open") {
  const CityAnalysis a =
      City{}.card(0, 0, 1, 1, kLab, kRight | kTop).card(0, 1, 1, 2, kLab, kLeft).analyse();
  CHECK(a.legal);
  REQUIRE(a.connections.size() == 1);
  CHECK(a.connections[0].a == 0);
  CHECK(a.connections[0].b == 1);
  CHECK(a.open_connections == 1);  // the top icon faces an empty cell
}

TEST_CASE("incompatible cards or a wall do not join, and the icons count as open") {
  const CityAnalysis wall =
      City{}.card(0, 0, 1, 1, kLab, kRight).card(0, 1, 1, 1, kLab, kTop).analyse();
  CHECK_FALSE(wall.legal);
  CHECK(wall.components == 2);
  CHECK(wall.open_connections == 2);
  const CityAnalysis clash =
      City{}.card(0, 0, 1, 1, kLab, kBottom).card(1, 0, 2, 2, kLab, kTop).analyse();
  CHECK(clash.connections.empty());
  CHECK(clash.open_connections == 2);
}

TEST_CASE("a wild card joins any card") {
  const CityAnalysis a = City{}.card(0, 0, 1, 1, kLab, kBottom).wild(1, 0).analyse();
  CHECK(a.legal);
  CHECK(a.connections.size() == 1);
  CHECK(a.open_connections == 3);  // the wild card's other three sides
}

TEST_CASE("a second card on a cell and an unresolved card are left out") {
  const CityAnalysis a = City{}
                             .card(5, 5, 1, 1, kBase, kRight)
                             .card(5, 5, 1, 1, kBase, kRight)
                             .unresolved(5, 6)
                             .analyse();
  CHECK_FALSE(a.legal);
  CHECK(a.included == std::vector<std::uint8_t>{1, 0, 0});
  CHECK(a.overlapped_by == std::vector<std::int32_t>{-1, 0, -1});
  CHECK(a.bases == 1);
  CHECK(a.open_connections == 1);
}

TEST_CASE("the project is the largest component, on a tie the earliest") {
  const CityAnalysis a = City{}
                             .card(0, 0, 1, 1, kLab, kRight)
                             .card(9, 9, 1, 1, kLab, kRight)
                             .card(9, 10, 1, 1, kLab, kLeft)
                             .card(0, 1, 1, 1, kLab, kLeft)
                             .analyse();
  CHECK(a.components == 2);
  CHECK(a.project == 0);
  CHECK(a.component == std::vector<std::int32_t>{0, 1, 1, 0});
}

TEST_CASE("manual: three shelters in a column and a lone one score 10") {
  const CityAnalysis a = City{}
                             .card(0, 0, 1, 1, kShelter, kBottom)
                             .card(1, 0, 1, 1, kShelter, kTop)
                             .card(2, 0, 1, 1, kShelter, kTop)
                             .card(0, 2, 1, 1, kShelter, kTop)
                             .analyse();
  CHECK(a.shelter_points == 10);
  REQUIRE(a.shelter_groups.size() == 2);
  CHECK(a.shelter_groups[0].size() == 3);
}

TEST_CASE("manual: three medical centers score 10 for five distinct neighbours") {
  const CityAnalysis a = City{}
                             .card(1, 0, 1, 1, kMedical, kTop)   // left center: A
                             .card(0, 0, 1, 1, kLab, kBottom)    // A
                             .card(1, 2, 1, 1, kMedical, kTop)   // middle: B, C, D
                             .card(0, 2, 1, 1, kLab, kBottom)    // B
                             .card(1, 3, 1, 1, kLab, kLeft)      // C
                             .card(2, 2, 1, 1, kLab, kTop)       // D
                             .card(3, 2, 1, 1, kMedical, kTop)   // right: D (again) and E
                             .card(3, 3, 1, 1, kLab, kLeft)      // E
                             .analyse();
  CHECK(a.medical_points == 10);
  CHECK(a.medical_cards == std::vector<std::int32_t>{1, 3, 4, 5, 7});
}

TEST_CASE("manual: towers spanning 4 columns and 3 rows score 12; two stacked score 2") {
  const CityAnalysis spread = City{}
                                  .card(0, 0, 1, 1, kTower, kTop)
                                  .card(2, 1, 2, 1, kTower, kTop)
                                  .card(1, 3, 3, 1, kTower, kTop)
                                  .analyse();
  CHECK(spread.tower_span.points == 12);
  CHECK(spread.tower_span.min_col == 0);
  CHECK(spread.tower_span.max_col == 3);
  const CityAnalysis stacked =
      City{}.card(4, 4, 1, 1, kTower, kTop).card(5, 4, 1, 1, kTower, kTop).analyse();
  CHECK(stacked.tower_span.points == 2);
  const CityAnalysis lone = City{}.card(4, 4, 1, 1, kTower, kTop).analyse();
  CHECK(lone.tower_span.points == 0);
}

TEST_CASE("arrays no decoded city gives are refused") {
  City bad;
  bad.card(0, 0, 1, 1, kLab, 0);
  CHECK_THROWS_AS(bad.analyse(), std::invalid_argument);
  City facility;
  facility.card(0, 0, 1, 1, static_cast<Facility>(9), kTop);
  CHECK_THROWS_AS(facility.analyse(), std::invalid_argument);
}

TEST_CASE("cards far apart and far from the origin cost no bounding box") {
  const CityAnalysis a = City{}
                             .card(-2147483647, -2147483647, 1, 1, kLab, kTop)
                             .card(2147483647, 2147483647, 1, 1, kLab, kTop)
                             .analyse();
  CHECK(a.components == 2);
  CHECK(a.open_connections == 2);
}

TEST_CASE("a city of more than 64 cards works on the wide card sets") {
  City line;
  for (std::int32_t c = 0; c < 100; ++c) {
    line.card(0, c, 1, 1, c % 2 == 0 ? kShelter : kMedical,
              c == 0 ? kRight : (c == 99 ? kLeft : kLeft | kRight));
  }
  const CityAnalysis a = line.analyse();
  CHECK(a.legal);
  CHECK(a.components == 1);
  CHECK(a.connections.size() == 99);
  CHECK(a.open_connections == 0);
  CHECK(a.shelter_groups.size() == 50);  // no two shelters touch
  CHECK(a.medical_cards.size() == 50);  // the shelters; no medical center touches another
  CHECK(a.medical_points == 100);
}

TEST_CASE("a city of more than 128 cards is refused") {
  City big;
  for (std::int32_t c = 0; c < 129; ++c) {
    big.card(0, c, 1, 1, kLab, kTop);
  }
  CHECK_THROWS_AS(big.analyse(), std::invalid_argument);
}

TEST_CASE("a spread-out city with an overlap and an unresolved card uses the cell hash") {
  const CityAnalysis a = City{}
                             .card(0, 0, 1, 1, kLab, kRight)
                             .card(0, 1, 1, 1, kTower, kLeft)
                             .card(0, 1, 2, 2, kTower, kLeft)
                             .unresolved(500, 500)
                             .card(900, 900, 1, 1, kTower, kTop)
                             .analyse();
  CHECK_FALSE(a.legal);
  CHECK(a.overlapped_by[2] == 1);
  CHECK(a.components == 2);
  CHECK(a.tower_span.points == 900 * 901);  // columns 1..900, rows 0..900
}

TEST_CASE("each component's first contact: its first card beside another part, first side") {
  // component 0: cards 0 and 1 (a row of two, joined); component 1: card 2, below card 1;
  // component 2: card 3, alone and touching nothing
  const CityAnalysis a = City{}
                             .card(0, 0, 1, 1, kLab, kRight)
                             .card(0, 1, 1, 1, kLab, kLeft | kBottom)
                             .card(1, 1, 2, 2, kLab, kTop)
                             .card(7, 7, 1, 1, kLab, kTop)
                             .analyse();
  REQUIRE(a.components == 3);
  REQUIRE(a.contacts.size() == 3);
  CHECK(a.contacts[0].card == 1);  // card 0 touches no other part; card 1 does, on its bottom
  CHECK(a.contacts[0].side == 2);
  CHECK(a.contacts[0].other == 2);
  CHECK(a.contacts[1].card == 2);  // card 2 meets card 1 on its top
  CHECK(a.contacts[1].side == 0);
  CHECK(a.contacts[1].other == 1);
  CHECK(a.contacts[2].card == -1);
  CHECK(a.contacts[2].side == -1);
  CHECK(a.contacts[2].other == -1);
}

TEST_CASE("a contact on the wide card sets, and none with a card left out") {
  City line;
  for (std::int32_t c = 0; c < 70; ++c) {
    line.card(0, c, 1, 1, kLab, c == 69 ? kLeft : kLeft | kRight);
  }
  line.card(1, 69, 2, 2, kLab, kTop);   // card 70: below card 69, no style or type shared
  line.card(1, 69, 1, 1, kLab, kTop);   // card 71: on card 70's cell, left out
  const CityAnalysis a = line.analyse();
  REQUIRE(a.components == 2);
  CHECK(a.contacts[0].card == 69);
  CHECK(a.contacts[0].side == 2);
  CHECK(a.contacts[0].other == 70);
  CHECK(a.contacts[1].card == 70);
  CHECK(a.contacts[1].side == 0);
  CHECK(a.contacts[1].other == 69);
}
