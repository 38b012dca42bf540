// The cities of a game from its JSON text (see neweden/json_game.hpp).
#include "neweden/json_game.hpp"

#include <cstring>
#include <string_view>

#include "packing.hpp"

namespace neweden {
namespace {

using detail::Placed;

constexpr int kMaxDepth = 64;  // nesting skipped past (meta's own limit is 32)

// The keys of an object read so far, one bit each: a key given twice is refused (msgspec
// would check both values where the lean path reads one).
class Keys {
 public:
  // False when `bit` was seen already.
  bool first(unsigned bit) noexcept {
    const bool fresh = (seen_ & (1U << bit)) == 0;
    seen_ |= 1U << bit;
    return fresh;
  }

 private:
  unsigned seen_ = 0;
};

// A bit set (the high bit of its byte) for each byte of `word` (little-endian: the first
// byte lowest) that a plain string does not hold: below 0x20, above 0x7e, `"` or `\`.
// Exact for each byte (no carry crosses bytes: each test is on 7-bit values).
inline std::uint64_t not_plain(std::uint64_t word) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  const std::uint64_t low7 = word & ~kHigh;
  const std::uint64_t below = ~(low7 + kOnes * (0x80 - 0x20)) & kHigh;  // low7 < 0x20
  const std::uint64_t del = ((low7 ^ (kOnes * 0x7f)) + ~kHigh) & kHigh;  // low7 != 0x7f
  const std::uint64_t quote = ((low7 ^ (kOnes * '"')) + ~kHigh) & kHigh;
  const std::uint64_t slash = ((low7 ^ (kOnes * '\\')) + ~kHigh) & kHigh;
  // a byte with its high bit set is above 0x7e; 0x7f, a quote or a backslash are not plain
  return (word & kHigh) | below | (~del & kHigh) | (~quote & kHigh) | (~slash & kHigh);
}

// The length of the UTF-8 sequence at `p` (a byte above 0x7f first) as Python's strict
// decoder and msgspec take it: no overlong form, no surrogate, nothing past U+10FFFF; 0 for
// anything else (the bytes after it are not read past `end`).
inline std::size_t utf8_sequence(const std::uint8_t* p, const std::uint8_t* end) noexcept {
  const unsigned lead = *p;
  std::size_t n = 0;
  unsigned lo = 0x80, hi = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) {
    n = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    n = 3;
    lo = lead == 0xe0 ? 0xa0 : lo;  // not overlong
    hi = lead == 0xed ? 0x9f : hi;  // no surrogate
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    n = 4;
    lo = lead == 0xf0 ? 0x90 : lo;  // not overlong
    hi = lead == 0xf4 ? 0x8f : hi;  // at most U+10FFFF
  } else {
    return 0;
  }
  if (static_cast<std::size_t>(end - p) < n || p[1] < lo || p[1] > hi) {
    return 0;
  }
  for (std::size_t i = 2; i < n; ++i) {
    if (p[i] < 0x80 || p[i] > 0xbf) {
      return 0;
    }
  }
  return n;
}

// JSON read forward, strictly: only the plain forms listed in json_game.hpp are read;
// anything else makes a read fail. Every read checks the bytes left.
class JsonIn {
 public:
  JsonIn(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

  bool done() noexcept {
    space();
    return p_ == end_;
  }

  // Where the next value starts (white space passed).
  const std::uint8_t* next() noexcept {
    space();
    return p_;
  }
  // Where the value just read ends.
  const std::uint8_t* here() const noexcept { return p_; }
  // Whether the next value starts with `c` (white space passed).
  bool starts(char c) noexcept {
    space();
    return p_ != end_ && *p_ == static_cast<std::uint8_t>(c);
  }

  // An object, key by key: `field(key)` reads the key's value (false: refused; the caller
  // refuses a key it reads given twice). Keys are plain strings (str).
  template <class Field>
  bool object(Field&& field) {
    return keyed(true, field);
  }

  // An array, item by item: `item(i)` reads item i (false: refused).
  template <class Item>
  bool array(Item&& item) {
    std::size_t i = 0;
    return delimited('[', ']', [&] { return item(i++); });
  }

  // A string of printable ASCII without escapes.
  bool str(std::string_view& out) noexcept {
    std::size_t characters = 0;
    return string(false, out, characters);
  }

  // A string of printable ASCII and UTF-8 sequences (as Python's strict decoder takes them)
  // without escapes: a name as players write it ("Praça"), `characters` its code points.
  bool text(std::string_view& out, std::size_t& characters) noexcept {
    return string(true, out, characters);
  }

  // A plain integer (-?(0|[1-9][0-9]*), no fraction or exponent) within [lo, hi].
  bool integer(std::int32_t& out, std::int32_t lo, std::int32_t hi) noexcept {
    space();
    const bool negative = eat('-');
    if (p_ == end_ || *p_ < '0' || *p_ > '9') {
      return false;
    }
    if (*p_ == '0' && p_ + 1 != end_ && p_[1] >= '0' && p_[1] <= '9') {
      return false;  // a leading zero (msgspec refuses it)
    }
    std::int64_t value = 0;
    int digits = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      if (++digits > 10) {
        return false;
      }
      value = value * 10 + (*p_ - '0');
      ++p_;
    }
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) {
      return false;
    }
    value = negative ? -value : value;
    if (value < lo || value > hi) {
      return false;
    }
    out = static_cast<std::int32_t>(value);
    return true;
  }

  bool boolean(bool& out) noexcept {
    space();
    if (word("true")) {
      out = true;
      return true;
    }
    if (word("false")) {
      out = false;
      return true;
    }
    return false;
  }

  // Any one JSON value, containers nested at most `depth` deep.
  bool skip(int depth = kMaxDepth) {
    space();
    if (p_ == end_ || depth < 0) {
      return false;
    }
    switch (*p_) {
      case '{':  // keys of a value skipped may be any string (msgspec has read them)
        return keyed(false, [&](std::string_view) { return skip(depth - 1); });
      case '[':
        return array([&](std::size_t) { return skip(depth - 1); });
      case '"':
        return skip_string();
      case 't':
        return word("true");
      case 'f':
        return word("false");
      case 'n':
        return word("null");
      default:
        return skip_number();
    }
  }

 private:
  // str() and text(): `utf8`, whether a byte above 0x7f may start a UTF-8 sequence.
  bool string(bool utf8, std::string_view& out, std::size_t& characters) noexcept {
    space();
    if (!eat('"')) {
      return false;
    }
    const std::uint8_t* start = p_;
    std::size_t continuations = 0;  // bytes after the first of each sequence
    for (;;) {
      plain_run();
      if (p_ == end_) {
        return false;
      }
      if (*p_ == '"') {
        break;
      }
      const std::size_t n = utf8 ? utf8_sequence(p_, end_) : 0;
      if (n == 0) {
        return false;  // an escape, a control byte, 0x7f, or bytes that are no UTF-8
      }
      p_ += n;
      continuations += n - 1;
    }
    out = std::string_view(reinterpret_cast<const char*>(start),
                           static_cast<std::size_t>(p_ - start));
    characters = out.size() - continuations;
    ++p_;
    return true;
  }

  // Past the printable ASCII bytes other than a quote and a backslash, to the first other
  // byte (or the end).
  void plain_run() noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // Eight bytes at a time while eight are left: the first byte that is no plain string
    // byte is found at once.
    while (end_ - p_ >= 8) {
      std::uint64_t word;
      std::memcpy(&word, p_, 8);
      const std::uint64_t odd = not_plain(word);
      if (odd != 0) {
        p_ += __builtin_ctzll(odd) / 8;
        return;
      }
      p_ += 8;
    }
#endif
    while (p_ != end_ && *p_ >= 0x20U && *p_ <= 0x7eU && *p_ != '"' && *p_ != '\\') {
      ++p_;
    }
  }

  void space() noexcept {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) {
      ++p_;
    }
  }
  bool eat(char c) noexcept {
    if (p_ == end_ || *p_ != static_cast<std::uint8_t>(c)) {
      return false;
    }
    ++p_;
    return true;
  }
  template <std::size_t N>
  bool word(const char (&w)[N]) noexcept {
    if (static_cast<std::size_t>(end_ - p_) < N - 1 || std::memcmp(p_, w, N - 1) != 0) {
      return false;
    }
    p_ += N - 1;
    return true;
  }
  // `open`, entries separated by commas, `close`: `entry()` reads each (false: refused).
  template <class Entry>
  bool delimited(char open, char close, Entry&& entry) {
    space();
    if (!eat(open)) {
      return false;
    }
    space();
    if (eat(close)) {
      return true;
    }
    for (;;) {
      if (!entry()) {
        return false;
      }
      space();
      if (eat(',')) {
        continue;
      }
      return eat(close);
    }
  }
  // An object's entries: each key (`plain`: a plain string, else any string, passed on
  // empty), then `field(key)` reads its value.
  template <class Field>
  bool keyed(bool plain, Field&& field) {
    return delimited('{', '}', [&] {
      std::string_view key;
      space();
      const bool read = plain ? str(key) : p_ != end_ && *p_ == '"' && skip_string();
      space();
      return read && eat(':') && field(key);
    });
  }
  bool skip_string() noexcept {
    ++p_;  // the opening quote
    while (p_ != end_ && *p_ != '"') {
      if (*p_ == '\\') {
        if (++p_ == end_) {
          return false;
        }
      }
      ++p_;
    }
    if (p_ == end_) {
      return false;
    }
    ++p_;
    return true;
  }
  bool skip_number() noexcept {
    const std::uint8_t* start = p_;
    while (p_ != end_ && ((*p_ >= '0' && *p_ <= '9') || *p_ == '-' || *p_ == '+' ||
                          *p_ == '.' || *p_ == 'e' || *p_ == 'E')) {
      ++p_;
    }
    return p_ != start;
  }

  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

// Whether a key read is `word` (compared byte by byte: a loop of known length the compiler
// unrolls, where memcmp would be a call for every key tried).
template <std::size_t N>
bool is(std::string_view key, const char (&word)[N]) noexcept {
  if (key.size() != N - 1) {
    return false;
  }
  for (std::size_t i = 0; i + 1 < N; ++i) {
    if (key[i] != word[i]) {
      return false;
    }
  }
  return true;
}

// A name as the format takes it: 1 to max characters (code points, as msgspec counts them),
// as written (the caller reads a style or type name as the decoder does: folded).
bool name(JsonIn& in, std::size_t max, std::string_view& out) {
  std::size_t characters = 0;
  return in.text(out, characters) && characters >= 1 && characters <= max;
}

// An inline card (an object: a catalog id is refused), its fields checked against the
// format: a wild card has no style, type, facility or sides; a common card has them all.
bool read_card(JsonIn& in, const FormatNames& names, const CityLimits& limits, Placed& out) {
  bool has_wild = false;
  Keys keys;
  const bool read = in.object([&](std::string_view key) {
    if (is(key, "wild")) {
      return keys.first(0) && (has_wild = in.boolean(out.wild) && out.wild);  // not false
    }
    if (is(key, "style")) {
      return keys.first(1) && (out.has_style = name(in, limits.max_string, out.style));
    }
    if (is(key, "type")) {
      return keys.first(2) && (out.has_type = name(in, limits.max_string, out.type));
    }
    if (is(key, "facility")) {
      std::string_view facility;
      out.facility = keys.first(3) && in.str(facility) ? names.facilities.find(facility) : -1;
      return out.has_facility = out.facility >= 0;
    }
    if (is(key, "points")) {
      return keys.first(4) && (out.has_points = in.integer(out.points, 0, limits.max_points));
    }
    if (is(key, "stars")) {
      return keys.first(5) && (out.has_stars = in.integer(out.stars, 0, limits.max_stars));
    }
    if (is(key, "sides")) {
      if (!keys.first(6)) {
        return false;
      }
      const bool sides = in.array([&](std::size_t i) {
        std::string_view side;
        const int bit = i < 4 && in.str(side) ? names.sides.find(side) : -1;
        if (bit < 0 || bit > 3 || (out.sides & (1U << static_cast<unsigned>(bit))) != 0) {
          return false;  // not a side, a fifth, or one given twice
        }
        out.sides = static_cast<SideMask>(out.sides | (1U << static_cast<unsigned>(bit)));
        return true;
      });
      return out.has_sides = sides && out.sides != 0;
    }
    if (is(key, "name")) {
      std::string_view card_name;
      return keys.first(7) && name(in, limits.max_string, card_name);
    }
    return false;
  });
  if (!read) {
    return false;
  }
  if (has_wild) {
    return !(out.has_style || out.has_type || out.has_facility || out.has_sides);
  }
  return out.has_style && out.has_type && out.has_facility && out.has_points &&
         out.has_stars && out.has_sides;
}

// Whether `id` is a catalog id as the format reads one (CATALOG_ID_PATTERN of
// neweden.format.model, `[A-Za-z0-9][A-Za-z0-9_-]*`, at most `max` characters).
bool catalog_id(std::string_view id, std::size_t max) noexcept {
  if (id.empty() || id.size() > max) {
    return false;
  }
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '-'))) {
      return false;
    }
  }
  return true;
}

// A card given by id: the catalog's card of that id, or an unresolved card for an id the
// catalog does not hold (false: no catalog, not an id, or a card the catalog withheld).
bool read_catalog_card(JsonIn& in, const CatalogCards* catalog, std::size_t max_id,
                       Placed& out, std::string_view& id) {
  if (catalog == nullptr || !in.str(id)) {
    return false;
  }
  const auto found = catalog->find(std::string(id));
  if (found == catalog->end()) {
    out.unresolved = catalog_id(id, max_id);
    out.has_points = out.has_stars = out.unresolved;
    return out.unresolved;
  }
  const CatalogCard& card = found->second;
  if (card.withheld) {
    return false;
  }
  out.wild = card.wild;
  out.points = card.points;
  out.stars = card.stars;
  if (!card.wild) {
    out.style = card.style;
    out.type = card.type;
    out.facility = card.facility;
    out.sides = card.sides;
    out.has_style = out.has_type = out.has_facility = out.has_sides = true;
  }
  out.has_points = out.has_stars = true;
  return true;
}

bool read_placement(JsonIn& in, const FormatNames& names, const CityLimits& limits,
                    const CatalogCards* catalog, Placed& out, std::string_view& id) {
  const std::int32_t far = limits.max_coordinate;
  Keys keys;
  const bool read = in.object([&](std::string_view key) {
    if (is(key, "row")) {
      return keys.first(0) && (out.has_row = in.integer(out.row, -far, far));
    }
    if (is(key, "col")) {
      return keys.first(1) && (out.has_col = in.integer(out.col, -far, far));
    }
    if (is(key, "rotated")) {
      return keys.first(2) && in.boolean(out.rotated);
    }
    if (is(key, "card")) {
      if (!keys.first(3)) {
        return false;
      }
      out.has_card = in.starts('"') ? read_catalog_card(in, catalog, limits.max_string, out, id)
                                    : read_card(in, names, limits, out);
      return out.has_card;
    }
    return false;
  });
  return read && out.has_row && out.has_col && out.has_card;
}

}  // namespace

JsonGamePacker::Sizes JsonGamePacker::sizes() const noexcept {
  return Sizes{cells_.size(), offsets_.size(), rotated_.size(), styles_.size(),
               types_.size(),  first_city_.size(), ids_.size()};
}

void JsonGamePacker::restore(const Sizes& sizes) {
  cells_.resize(sizes.cells);
  offsets_.resize(sizes.offsets);
  rotated_.resize(sizes.rotated);
  styles_.truncate(sizes.styles);
  types_.truncate(sizes.types);
  first_city_.resize(sizes.games);
  first_id_.resize(sizes.games);
  unresolved_.resize(sizes.games - 1);
  ids_.resize(sizes.ids);
  id_rows_.resize(sizes.ids);
}

bool JsonGamePacker::add(const std::uint8_t* data, std::size_t size) {
  const Sizes before = sizes();
  if (!read(data, size)) {
    restore(before);  // as it was before this game
    last_ = before;   // nothing to drop
    return false;
  }
  first_city_.push_back(static_cast<std::int64_t>(offsets_.size() - 1));
  first_id_.push_back(static_cast<std::int64_t>(ids_.size()));
  unresolved_.push_back(reading_unresolved_ ? 1 : 0);
  last_ = before;
  return true;
}

void JsonGamePacker::drop_last() {
  restore(last_);
  last_ = sizes();
}

void JsonGamePacker::clear() {
  restore(Sizes{});
  last_ = Sizes{};
  spans_.clear();  // no game read: head() has no cities to cut
}

bool JsonGamePacker::read(const std::uint8_t* data, std::size_t size) {
  spans_.clear();
  reading_unresolved_ = false;
  JsonIn in(data, size);
  bool has_players = false;
  const bool read = in.object([&](std::string_view key) {
    if (!is(key, "players")) {
      return in.skip();  // read by msgspec, as the exact decoder reads it
    }
    if (has_players) {
      return false;  // given twice
    }
    has_players = true;
    return in.array([&](std::size_t) {
      bool has_city = false;
      const bool player = in.object([&](std::string_view field) {
        if (!is(field, "city")) {
          return in.skip();
        }
        if (has_city) {
          return false;
        }
        has_city = true;
        const std::uint8_t* start = in.next();
        spans_.push_back(static_cast<std::size_t>(start - data));
        const bool city = in.array([&](std::size_t card) {
          Placed placed;
          std::string_view id;  // a card given by catalog id
          const bool packed = card < static_cast<std::size_t>(limits_.max_cards) &&
                              read_placement(in, names_, limits_, catalog_, placed, id) &&
                              detail::append_placed(placed, styles_, types_, cells_);
          if (packed && placed.rotated) {
            rotated_.push_back(static_cast<std::int64_t>(cells_.size() / 9 - 1));
          }
          if (packed && !id.empty()) {
            ids_.emplace_back(id);
            id_rows_.push_back(static_cast<std::int64_t>(cells_.size() / 9 - 1));
            reading_unresolved_ = reading_unresolved_ || placed.unresolved;
          }
          return packed;
        });
        spans_.push_back(static_cast<std::size_t>(in.here() - data));
        return city;
      });
      offsets_.push_back(static_cast<std::int64_t>(cells_.size() / 9));
      return player && has_city;
    });
  });
  return read && has_players && in.done();
}

std::size_t JsonGamePacker::head_size(std::size_t size) const noexcept {
  for (std::size_t i = 0; i + 1 < spans_.size(); i += 2) {
    size -= spans_[i + 1] - spans_[i];
    size += 2;  // "[]"
  }
  return size;
}

void JsonGamePacker::head_into(const std::uint8_t* data, std::size_t size,
                               char* out) const noexcept {
  std::size_t from = 0;
  for (std::size_t i = 0; i + 1 < spans_.size(); i += 2) {
    std::memcpy(out, data + from, spans_[i] - from);
    out += spans_[i] - from;
    *out++ = '[';
    *out++ = ']';
    from = spans_[i + 1];
  }
  std::memcpy(out, data + from, size - from);
}

std::string JsonGamePacker::head(const std::uint8_t* data, std::size_t size) const {
  std::string out(head_size(size), '\0');
  head_into(data, size, out.data());
  return out;
}

}  // namespace neweden
