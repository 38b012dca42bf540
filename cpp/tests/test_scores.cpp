#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "neweden/scores.hpp"

using namespace neweden;

namespace {

// One city built card by card, with its stars and points.
struct City {
  std::vector<std::int32_t> row, col, style, type, stars, points;
  std::vector<std::int8_t> facility;
  std::vector<SideMask> sides;
  std::vector<std::uint8_t> flags;
  std::vector<std::int64_t> offsets{0, 0};

  void add(std::int32_t r, std::int32_t c, std::int32_t s, std::int32_t st, std::int32_t pts,
           std::uint8_t flag = 0) {
    row.push_back(r);
    col.push_back(c);
    style.push_back(flag == 0 ? s : -1);
    type.push_back(flag == 0 ? 0 : -1);
    facility.push_back(flag == 0 ? kLab : kNoFacility);
    sides.push_back(flag == kUnresolved ? 0 : kAllSides);
    flags.push_back(flag);
    stars.push_back(st);
    points.push_back(pts);
    offsets[1] = static_cast<std::int64_t>(row.size());
  }
  BatchView view() const {
    BatchView v;
    v.cities = 1;
    v.offsets = offsets.data();
    v.cards = CityView{row.size(), row.data(),      col.data(),   style.data(),
                       type.data(), facility.data(), sides.data(), flags.data()};
    return v;
  }
  ScoreFigures score() const {
    const BatchView v = view();
    check_batch(v);
    const CardValues values{stars.data(), points.data()};
    check_values(v, values);
    ScoreFigures out;
    score_batch(v, values, &out, 1);
    return out;
  }
};

}  // namespace

TEST_CASE("the tallies count only the cards kept in the geometry") {
  City city;
  city.add(0, 0, 0, 2, 5);
  city.add(0, 1, 0, 0, 3);
  city.add(0, 2, 1, 3, 4);
  city.add(1, 0, 0, 1, 9, kWild);
  city.add(0, 1, 0, 1, 7);           // on a taken cell: left out
  city.add(5, 5, 0, 9, -4, kUnresolved);  // unresolved: its values are never read
  const ScoreFigures f = city.score();
  CHECK(f.cards == 4);
  CHECK(f.cards_by_stars == std::array<std::int32_t, 4>{1, 1, 1, 1});
  CHECK(f.points_by_stars == std::array<std::int64_t, 4>{3, 9, 5, 4});
  CHECK(f.row_cards == 3);     // row 0: three kept cards
  CHECK(f.column_cards == 2);  // column 0: two
  CHECK(f.styles == 2);        // the wild card has none
  // Labs of one type with all icons: (0,0)-(0,1)-(0,2) and (0,0)-(1,0) are complete.
  CHECK(f.complete_connections == 3);
  CHECK_FALSE(f.legal);
}

TEST_CASE("an empty city scores zeros") {
  City city;
  const ScoreFigures f = city.score();
  CHECK(f.cards == 0);
  CHECK(f.row_cards == 0);
  CHECK(f.styles == 0);
  CHECK(f.legal);
}

TEST_CASE("stars outside 0-3 or negative points are refused") {
  City city;
  city.add(0, 0, 0, 4, 1);
  CHECK_THROWS_AS(city.score(), std::invalid_argument);
  City other;
  other.add(0, 0, 0, 1, -1);
  CHECK_THROWS_AS(other.score(), std::invalid_argument);
}

TEST_CASE("styles_over: the styles more than the limit of a game's common cards show") {
  City city;  // one city as a group of one: style 0 three times, style 1 twice
  city.add(0, 0, 0, 0, 1);
  city.add(0, 1, 0, 0, 1);
  city.add(0, 2, 1, 0, 1);
  city.add(0, 3, 0, 0, 1);
  city.add(0, 4, 1, 0, 1);
  city.add(0, 5, 0, 0, 1, kWild);  // a wild card has no style
  city.add(0, 5, 0, 0, 1);         // on a taken cell: still a card the game shows
  const BatchView v = city.view();
  const std::vector<std::int64_t> groups{0, 1};
  const std::vector<StyleCount> over = styles_over(v, groups.data(), groups.size(), 2);
  REQUIRE(over.size() == 1);
  CHECK(over[0].group == 0);
  CHECK(over[0].style == 0);
  CHECK(over[0].count == 4);
  CHECK(styles_over(v, groups.data(), groups.size(), 4).empty());
}

TEST_CASE("score_batch lists the details of the cities asked, as analyse_city gives them") {
  City city;  // one illegal city: a card on a taken cell
  city.add(0, 0, 0, 0, 1);
  city.add(0, 1, 0, 0, 2);
  city.add(0, 1, 0, 0, 3);
  const BatchView v = city.view();
  check_batch(v);
  const CardValues values{city.stars.data(), city.points.data()};
  const CityAnalysis alone = analyse_city(v.cards);
  for (const Details asked : {Details::kNone, Details::kIllegal, Details::kAll}) {
    ScoreFigures out;
    CityAnalysis listed;
    score_batch(v, values, &out, 1, asked, &listed);
    CHECK_FALSE(out.legal);
    if (asked == Details::kNone) {
      CHECK(listed.included.empty());
    } else {
      CHECK(listed.included == alone.included);
      CHECK(listed.overlapped_by == alone.overlapped_by);
      CHECK(listed.component == alone.component);
      CHECK(listed.connections.size() == alone.connections.size());
      CHECK(listed.open_connections == alone.open_connections);
      CHECK(listed.legal == alone.legal);
    }
  }
  City legal;  // a legal city is listed only when all are asked
  legal.add(0, 0, 0, 0, 1);
  const BatchView w = legal.view();
  const CardValues more{legal.stars.data(), legal.points.data()};
  ScoreFigures out;
  CityAnalysis listed;
  score_batch(w, more, &out, 1, Details::kIllegal, &listed);
  CHECK(listed.included.empty());
  score_batch(w, more, &out, 1, Details::kAll, &listed);
  CHECK(listed.included.size() == 1);
}
