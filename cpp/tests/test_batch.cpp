#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "neweden/batch.hpp"
#include "neweden/city.hpp"

using namespace neweden;

namespace {

// Cities made of lines of labs joined left to right, each line one city; city k has k cards
// and city 3 gets a second card on its first cell.
struct Batch {
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> row, col, style, type;
  std::vector<std::int8_t> facility;
  std::vector<SideMask> sides;
  std::vector<std::uint8_t> flags;

  explicit Batch(int cities) {
    for (int k = 0; k < cities; ++k) {
      for (int i = 0; i < k; ++i) {
        add(k, i, i == 0 ? kRight : kLeft | kRight, i % 2 == 0 ? kShelter : kTower);
      }
      if (k == 3) {
        add(k, 0, kTop, kBase);
      }
      offsets.push_back(static_cast<std::int64_t>(row.size()));
    }
  }
  void add(std::int32_t r, std::int32_t c, SideMask s, Facility f) {
    row.push_back(r);
    col.push_back(c);
    style.push_back(0);
    type.push_back(0);
    facility.push_back(f);
    sides.push_back(s);
    flags.push_back(0);
  }
  BatchView view() const {
    BatchView v;
    v.cities = offsets.size() - 1;
    v.offsets = offsets.data();
    v.cards = CityView{row.size(), row.data(),      col.data(),   style.data(),
                       type.data(), facility.data(), sides.data(), flags.data()};
    return v;
  }
};

struct Figures {
  std::vector<std::uint8_t> legal;
  std::vector<std::int32_t> cards, open, components, project, labs, towers, bases, component,
      overlapped;
  std::vector<std::int64_t> shelters, medical, tower_points;
  explicit Figures(const Batch& b)
      : legal(b.offsets.size() - 1), cards(legal.size()), open(legal.size()),
        components(legal.size()), project(legal.size()), labs(legal.size()),
        towers(legal.size()), bases(legal.size()), component(b.row.size()),
        overlapped(b.row.size()), shelters(legal.size()), medical(legal.size()),
        tower_points(legal.size()) {}
  BatchFigures out() {
    return BatchFigures{legal.data(),    cards.data(),    open.data(),         components.data(),
                        project.data(),  labs.data(),     shelters.data(),     medical.data(),
                        towers.data(),   tower_points.data(), bases.data(),    component.data(),
                        overlapped.data()};
  }
};

}  // namespace

TEST_CASE("a batch gives, city by city, what the per-city analysis gives") {
  const Batch batch(12);
  check_batch(batch.view());
  Figures f(batch);
  analyse_batch(batch.view(), f.out(), 1);
  for (std::size_t k = 0; k < 12; ++k) {
    const auto lo = static_cast<std::size_t>(batch.offsets[k]);
    const CityView city =
        batch.view().cards.slice(lo, static_cast<std::size_t>(batch.offsets[k + 1]));
    const CityAnalysis one = analyse_city(city);
    CHECK(f.legal[k] == (one.legal ? 1 : 0));
    CHECK(f.open[k] == one.open_connections);
    CHECK(f.components[k] == one.components);
    CHECK(f.project[k] == one.project);
    CHECK(f.shelters[k] == one.shelter_points);
    CHECK(f.tower_points[k] == one.tower_span.points);
    CHECK(f.bases[k] == one.bases);
    for (std::size_t i = 0; i < city.n; ++i) {
      CHECK(f.component[lo + i] == one.component[i]);
      CHECK(f.overlapped[lo + i] == one.overlapped_by[i]);
    }
  }
  CHECK(f.legal[3] == 0);  // the second card on a cell
  CHECK(f.overlapped[static_cast<std::size_t>(batch.offsets[3]) + 3] == 0);
  CHECK(f.tower_points[11] == 9);  // towers at the odd columns 1..9 of one row
}

TEST_CASE("two threads and one give the same figures") {
  const Batch batch(40);
  Figures one(batch);
  Figures two(batch);
  analyse_batch(batch.view(), one.out(), 1);
  analyse_batch(batch.view(), two.out(), 2);
  CHECK(one.open == two.open);
  CHECK(one.component == two.component);
  CHECK(one.shelters == two.shelters);
  CHECK(one.legal == two.legal);
}

TEST_CASE("offsets that do not describe the cards are refused") {
  Batch batch(4);
  batch.offsets.back() += 1;
  CHECK_THROWS_AS(check_batch(batch.view()), std::invalid_argument);
  Batch decreasing(4);
  decreasing.offsets[2] = 0;
  decreasing.offsets[1] = 1;
  CHECK_THROWS_AS(check_batch(decreasing.view()), std::invalid_argument);
}
