#include "neweden/sides.hpp"

namespace neweden {

SideMask rotate_sides(SideMask sides, bool rotated) noexcept {
  if (!rotated) {
    return sides;
  }
  // top(0)<->bottom(2), right(1)<->left(3): a shift by two within four bits.
  const unsigned m = sides & kAllSides;
  return static_cast<SideMask>(((m << 2U) | (m >> 2U)) & kAllSides);
}

}  // namespace neweden
