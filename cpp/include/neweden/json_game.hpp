// The cities of a game read straight from its JSON text (issues 18 and 19): the rows of the
// score table without a Python object per card. The rest of the game (names, epiphanies,
// bonuses, the requirements) is decoded by msgspec with each city left as raw JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "neweden/names.hpp"

namespace neweden {

// The limits of the game format (neweden.format.model) that a city's JSON must keep to.
struct CityLimits {
  std::int32_t max_cards = 77;
  std::int32_t max_coordinate = 1000;
  std::int32_t max_points = 1000;
  std::int32_t max_stars = 3;
  std::size_t max_string = 100;
};

// A card of a catalog as a city names it by id: the fields an inline card would give (a wild
// card: its points and stars only), or `withheld`: a card the reader refuses (the caller
// decodes that game the exact way). `facility` indexes FormatNames::facilities; `sides`
// holds one bit a side, as FormatNames::sides numbers them.
struct CatalogCard {
  bool wild = false;
  std::string style, type;
  std::int32_t facility = -1, points = 0, stars = 0;
  std::uint8_t sides = 0;
  bool withheld = false;  // a card of the catalog a game could not give inline: refused
};

// A catalog's cards by id.
using CatalogCards = std::unordered_map<std::string, CatalogCard>;

// Packs the cities of games given as JSON documents, game after game, into one score table
// (nine ints a card, as neweden.geometry.compact.pack_games packs the same games: styles
// and types numbered in order of appearance across the games added).
//
// A strict reader of the usual form of a city. It refuses (and then adds nothing, forgets
// nothing) anything it does not read exactly as the exact path does, so that the caller
// decodes that game the exact way: a card given by an id when no catalog was handed over
// (set_catalog), or by the id of a card the catalog withheld, or by a string that is no id,
// a key given twice or spelled
// with an escape, a field unknown or missing, a value of another kind or out of the
// format's ranges, a string with an escape or a byte outside printable ASCII (in a card's
// style, type or name: outside printable ASCII and well-formed UTF-8), a number that is not
// a plain integer. Style and type names are taken as written ("Praça", "Área Verde"): the
// caller reads each distinct one as the decoder does (folded, RULES §1). The values outside the cities are only
// skipped: msgspec reads them, in head() (the document with each city given as `[]`).
// Never reads outside the buffer, whatever the bytes.
class JsonGamePacker {
 public:
  // `names` must outlive the packer.
  JsonGamePacker(const FormatNames& names, const CityLimits& limits)
      : names_(names), limits_(limits) {}

  // The cards a city may name by id (none until set; `cards` must outlive the packer): a
  // card given by one of these ids is packed as the catalog card, and its id kept; a card
  // given by an id the catalog does not hold (an id as the format reads it) is packed as an
  // unresolved row (-1, -1, -1, no side, kUnresolved, 0 stars, 0 points: the core leaves
  // it out), its id kept and its game marked (unresolved()).
  void set_catalog(const CatalogCards* cards) noexcept { catalog_ = cards; }

  // Adds the cities of the game `data` (one JSON document); false (nothing added) when the
  // reader refuses it.
  bool add(const std::uint8_t* data, std::size_t size);
  // The document `data` of the game added last (the same bytes add() read) with each of its
  // cities given as `[]`: the rest of the game, for msgspec to read (the reader has read the
  // cities). Only after add() returned true.
  std::string head(const std::uint8_t* data, std::size_t size) const;
  // head()'s size, and head() written to `out` (that many bytes): a caller's own buffer.
  std::size_t head_size(std::size_t size) const noexcept;
  void head_into(const std::uint8_t* data, std::size_t size, char* out) const noexcept;
  // Forgets the game added last (the caller refuses it after all: a name that is none);
  // nothing when the last add() was refused or a game was dropped already.
  void drop_last();
  // Forgets every game added: the packer as new, its buffers kept for the next game (a
  // game scored alone reuses one packer).
  void clear();
  // The style and type names the game added last numbered first (from these indices on).
  std::size_t last_styles() const noexcept { return last_.styles; }
  std::size_t last_types() const noexcept { return last_.types; }

  const std::vector<std::int32_t>& cells() const noexcept { return cells_; }
  // Per city, the index of its first card; one more entry at the end.
  const std::vector<std::int64_t>& offsets() const noexcept { return offsets_; }
  // The table row (a card's index in cells() / 9) of each rotated card, ascending.
  const std::vector<std::int64_t>& rotated() const noexcept { return rotated_; }
  // Per game added, the index of its first city; one more entry at the end.
  const std::vector<std::int64_t>& first_city() const noexcept { return first_city_; }
  // The ids of the cards given by catalog id, game after game, in city and card order, and
  // per game added the index of its first; one more entry at the end.
  const std::vector<std::string>& ids() const noexcept { return ids_; }
  const std::vector<std::int64_t>& first_id() const noexcept { return first_id_; }
  // The table row of each card given by catalog id, in the order of ids().
  const std::vector<std::int64_t>& id_rows() const noexcept { return id_rows_; }
  // Per game added, whether one of its cards is given by an id the catalog does not hold.
  const std::vector<std::uint8_t>& unresolved() const noexcept { return unresolved_; }
  const NameTable& styles() const noexcept { return styles_; }
  const NameTable& types() const noexcept { return types_; }

 private:
  bool read(const std::uint8_t* data, std::size_t size);

  // The sizes of everything before a game was added.
  struct Sizes {
    std::size_t cells = 0, offsets = 1, rotated = 0, styles = 0, types = 0, games = 1, ids = 0;
  };
  Sizes sizes() const noexcept;
  void restore(const Sizes& sizes);

  const FormatNames& names_;
  CityLimits limits_;
  const CatalogCards* catalog_ = nullptr;
  NameTable styles_;
  NameTable types_;
  std::vector<std::int32_t> cells_;
  std::vector<std::int64_t> offsets_{0};
  std::vector<std::int64_t> rotated_;
  std::vector<std::int64_t> first_city_{0};
  std::vector<std::string> ids_;
  std::vector<std::int64_t> id_rows_;
  std::vector<std::int64_t> first_id_{0};
  std::vector<std::uint8_t> unresolved_;
  bool reading_unresolved_ = false;  // a card of the game being read is unresolved
  Sizes last_;  // before the game added last
  std::vector<std::size_t> spans_;  // [start, end) of each city of the game read last
};

}  // namespace neweden
