// One placement's fields as the strict reader of cities reads them (internal to the core),
// and its row of the score table as the Python packer makes it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "neweden/city.hpp"
#include "neweden/names.hpp"
#include "neweden/sides.hpp"

namespace neweden::detail {

// One placement's fields as read; a card field absent stays unset.
struct Placed {
  bool has_row = false, has_col = false, has_card = false;
  std::int32_t row = 0, col = 0;
  bool rotated = false;
  bool wild = false, has_style = false, has_type = false, has_facility = false;
  bool has_points = false, has_stars = false, has_sides = false;
  bool unresolved = false;  // given by an id the catalog does not hold
  std::string_view style, type;
  std::int32_t facility = -1, points = 0, stars = 0;
  SideMask sides = 0;
};

// Appends the card's row (nine ints: row, col, style, type, facility, sides as placed,
// flags, stars, points) as neweden.geometry.compact.pack_games packs it: a wild card
// (-1, -1, -1, all sides, wild, stars, points), an unresolved one (-1, -1, -1, no side,
// unresolved, 0, 0), a common card's names numbered in `styles` and `types`. False for a
// common card missing a field (the caller refuses the input).
inline bool append_placed(const Placed& card, NameTable& styles, NameTable& types,
                          std::vector<std::int32_t>& cells) {
  if (card.unresolved) {  // no side: the same turned
    cells.insert(cells.end(), {card.row, card.col, -1, -1, -1, 0, kUnresolved, 0, 0});
    return true;
  }
  if (card.wild) {  // all sides, the same turned
    cells.insert(cells.end(),
                 {card.row, card.col, -1, -1, -1, kAllSides, kWild, card.stars, card.points});
    return true;
  }
  if (!(card.has_style && card.has_type && card.has_facility && card.has_points &&
        card.has_stars && card.has_sides)) {
    return false;
  }
  cells.insert(cells.end(), {card.row, card.col, styles.intern(card.style),
                             types.intern(card.type), card.facility,
                             rotate_sides(card.sides, card.rotated), 0, card.stars, card.points});
  return true;
}

}  // namespace neweden::detail
