// Cities read from their MessagePack encoding, as msgspec encodes a list of decoded players
// (issue 22): the rows of the score table without a Python object walked per card.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace neweden {

// Names numbered in the order they were added, found fast: in a short table (a game's few
// styles) the length and the first eight bytes as one word settle nearly every mismatch
// without comparing the whole name; a long one (a batch whose games name many styles: any
// identifier is one) is searched through a hash index, so interning stays linear.
class NameTable {
 public:
  // The number of `name`, or -1.
  int find(std::string_view name) const;
  // The number of `name`, added when new.
  std::int32_t intern(std::string_view name);
  const std::vector<std::string>& names() const noexcept { return names_; }
  std::size_t size() const noexcept { return names_.size(); }
  // Forgets the names added after the first `n` (a reader refusing what it began to read).
  void truncate(std::size_t n);

 private:
  static constexpr std::size_t kScanned = 16;  // up to this many names, a scan is faster
  static std::uint64_t head(std::string_view name) noexcept;
  std::vector<std::string> names_;
  std::vector<std::uint64_t> heads_;
  std::unordered_map<std::string, std::int32_t> index_;  // past kScanned names: each one
};

// The names the encoding spells: facilities by code (FACILITIES in Python, whose table the
// caller hands over) and sides by bit (top, right, bottom, left).
struct EncodedNames {
  NameTable facilities;
  NameTable sides;
};

// Packs the cities of encoded players into rows of the score table, nine ints a card (row,
// col, style, type, facility, sides as placed, flags, stars, points), exactly as the Python
// packer (neweden.geometry.compact.pack_games) packs the same players: styles and types
// numbered in order of appearance across every call to the same packer, a wild card
// (-1, -1, -1, all sides, wild, stars, points), a rotated card's sides turned.
class EncodedPacker {
 public:
  // `names` must outlive the packer.
  explicit EncodedPacker(const EncodedNames& names) : names_(names) {}

  // Appends the cities of `data` (a MessagePack array of players, each a map whose "city"
  // is an array of placements) to `cells`, and where each city starts to `offsets` (whose
  // first entry the caller sets). Returns false for anything it does not pack exactly as
  // the Python packer would (the caller then packs in Python): a card given by catalog id
  // (the catalog is Python's), a field missing, of another kind or unknown, an int beyond
  // int32, malformed or trailing bytes. Never reads past `size`.
  bool players(const std::uint8_t* data, std::size_t size, std::vector<std::int32_t>& cells,
               std::vector<std::int64_t>& offsets);

 private:
  template <class Reader>
  bool read_players(Reader& in, std::vector<std::int32_t>& cells,
                    std::vector<std::int64_t>& offsets);

  const EncodedNames& names_;
  NameTable styles_;
  NameTable types_;
};

}  // namespace neweden
