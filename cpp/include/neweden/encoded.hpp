// Cities read from their MessagePack encoding, as msgspec encodes a list of decoded players
// (issue 22): the rows of the score table without a Python object walked per card.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace neweden {

// The names the encoding spells: facilities by code (FACILITIES in Python, whose table the
// caller hands over) and sides by bit (top, right, bottom, left).
struct EncodedNames {
  std::vector<std::string> facilities;
  std::vector<std::string> sides;
};

// Packs the cities of encoded players into rows of the score table, nine ints a card (row,
// col, style, type, facility, sides as placed, flags, stars, points), exactly as the Python
// packer (neweden.geometry.compact.pack_games) packs the same players: styles and types
// numbered in order of appearance across every call to the same packer, a wild card
// (-1, -1, -1, all sides, wild, stars, points), a rotated card's sides turned.
class EncodedPacker {
 public:
  explicit EncodedPacker(EncodedNames names) : names_(std::move(names)) {}

  // Appends the cities of `data` (a MessagePack array of players, each a map whose "city"
  // is an array of placements) to `cells`, and where each city starts to `offsets` (whose
  // first entry the caller sets). Returns false for anything it does not pack exactly as
  // the Python packer would (the caller then packs in Python): a card given by catalog id
  // (the catalog is Python's), a field missing, of another kind or unknown, an int beyond
  // int32, malformed or trailing bytes. Never reads past `size`.
  bool players(const std::uint8_t* data, std::size_t size, std::vector<std::int32_t>& cells,
               std::vector<std::int64_t>& offsets);

 private:
  std::int32_t code(std::vector<std::string>& seen, std::string_view name);

  EncodedNames names_;
  std::vector<std::string> styles_;
  std::vector<std::string> types_;
};

}  // namespace neweden
