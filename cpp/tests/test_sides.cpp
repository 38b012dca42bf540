#include <doctest/doctest.h>

#include "neweden/sides.hpp"

using namespace neweden;

TEST_CASE("rotation swaps top with bottom and left with right") {
  CHECK(rotate_sides(kTop, true) == kBottom);
  CHECK(rotate_sides(kBottom, true) == kTop);
  CHECK(rotate_sides(kLeft, true) == kRight);
  CHECK(rotate_sides(kRight, true) == kLeft);
  CHECK(rotate_sides(kTop | kRight, true) == (kBottom | kLeft));
  CHECK(rotate_sides(kAllSides, true) == kAllSides);
}

TEST_CASE("an upright card keeps its icons and two turns are the identity") {
  for (unsigned m = 0; m < 16U; ++m) {
    const auto s = static_cast<SideMask>(m);
    CHECK(rotate_sides(s, false) == s);
    CHECK(rotate_sides(rotate_sides(s, true), true) == s);
  }
}
