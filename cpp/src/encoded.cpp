// Cities read from MessagePack (see neweden/encoded.hpp): a strict reader of the few kinds
// of value msgspec writes for decoded players, refusing whatever else it meets.
#include "neweden/encoded.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "neweden/city.hpp"
#include "neweden/sides.hpp"
#include "packing.hpp"

namespace neweden {
namespace {

using detail::Placed;

// MessagePack values, read forward; every read checks the bytes left.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

  bool done() const noexcept { return p_ == end_; }

  bool map(std::uint32_t& n) noexcept { return header(0x80U, 0xdeU, n); }
  bool array(std::uint32_t& n) noexcept { return header(0x90U, 0xdcU, n); }

  bool str(std::string_view& out) noexcept {
    std::uint8_t b = 0;
    if (!next(b)) {
      return false;
    }
    std::uint64_t n = 0;
    if ((b & 0xe0U) == 0xa0U) {
      n = b & 0x1fU;
    } else if (b < 0xd9U || b > 0xdbU || !big_endian(1U << (b - 0xd9U), n)) {
      return false;
    }
    if (n > static_cast<std::uint64_t>(end_ - p_)) {
      return false;
    }
    out = std::string_view(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
    p_ += n;
    return true;
  }

  bool boolean(bool& out) noexcept {
    std::uint8_t b = 0;
    if (!next(b) || (b != 0xc2U && b != 0xc3U)) {
      return false;
    }
    out = b == 0xc3U;
    return true;
  }

  // An int that fits in int32 (anything else: false).
  bool int32(std::int32_t& out) noexcept {
    std::uint8_t b = 0;
    if (!next(b)) {
      return false;
    }
    std::int64_t v = 0;
    if (b <= 0x7fU) {
      v = b;
    } else if (b >= 0xe0U) {
      v = static_cast<std::int8_t>(b);
    } else if (b >= 0xccU && b <= 0xcfU) {  // uint8 .. uint64
      std::uint64_t u = 0;
      if (!big_endian(1U << (b - 0xccU), u) || u > std::numeric_limits<std::int32_t>::max()) {
        return false;
      }
      v = static_cast<std::int64_t>(u);
    } else if (b >= 0xd0U && b <= 0xd3U) {  // int8 .. int64
      const unsigned bytes = 1U << (b - 0xd0U);
      std::uint64_t u = 0;
      if (!big_endian(bytes, u)) {
        return false;
      }
      const unsigned shift = 64U - 8U * bytes;  // sign-extend
      v = static_cast<std::int64_t>(u << shift) >> shift;
    } else {
      return false;
    }
    if (v < std::numeric_limits<std::int32_t>::min() ||
        v > std::numeric_limits<std::int32_t>::max()) {
      return false;
    }
    out = static_cast<std::int32_t>(v);
    return true;
  }

  // Any one value, containers nested at most `depth` deep.
  bool skip(int depth = 32) noexcept {
    std::uint8_t b = 0;
    if (depth < 0 || !next(b)) {
      return false;
    }
    std::uint64_t n = 0;
    if (b <= 0x7fU || b >= 0xe0U || b == 0xc0U || b == 0xc2U || b == 0xc3U) {
      return true;
    }
    if ((b & 0xf0U) == 0x80U || (b & 0xf0U) == 0x90U || b == 0xdcU || b == 0xddU ||
        b == 0xdeU || b == 0xdfU) {
      const bool is_map = (b & 0xf0U) == 0x80U || b == 0xdeU || b == 0xdfU;
      if ((b & 0xe0U) == 0x80U) {
        n = b & 0x0fU;
      } else if (!big_endian(b == 0xdcU || b == 0xdeU ? 2U : 4U, n)) {
        return false;
      }
      for (std::uint64_t i = 0; i < n * (is_map ? 2U : 1U); ++i) {
        if (!skip(depth - 1)) {
          return false;
        }
      }
      return true;
    }
    if ((b & 0xe0U) == 0xa0U) {
      return bytes(b & 0x1fU);
    }
    switch (b) {
      case 0xcaU: return bytes(4);
      case 0xcbU: return bytes(8);
      case 0xccU: case 0xd0U: return bytes(1);
      case 0xcdU: case 0xd1U: return bytes(2);
      case 0xceU: case 0xd2U: return bytes(4);
      case 0xcfU: case 0xd3U: return bytes(8);
      case 0xd4U: return bytes(2);
      case 0xd5U: return bytes(3);
      case 0xd6U: return bytes(5);
      case 0xd7U: return bytes(9);
      case 0xd8U: return bytes(17);
      case 0xc4U: case 0xd9U: return big_endian(1, n) && bytes(n);
      case 0xc5U: case 0xdaU: return big_endian(2, n) && bytes(n);
      case 0xc6U: case 0xdbU: return big_endian(4, n) && bytes(n);
      case 0xc7U: return big_endian(1, n) && bytes(n + 1);
      case 0xc8U: return big_endian(2, n) && bytes(n + 1);
      case 0xc9U: return big_endian(4, n) && bytes(n + 1);
      default: return false;
    }
  }

  bool is_str() const noexcept {
    return p_ != end_ && ((*p_ & 0xe0U) == 0xa0U || (*p_ >= 0xd9U && *p_ <= 0xdbU));
  }

 private:
  bool next(std::uint8_t& b) noexcept {
    if (p_ == end_) {
      return false;
    }
    b = *p_++;
    return true;
  }
  bool bytes(std::uint64_t n) noexcept {
    if (n > static_cast<std::uint64_t>(end_ - p_)) {
      return false;
    }
    p_ += n;
    return true;
  }
  bool big_endian(unsigned n, std::uint64_t& out) noexcept {
    if (n > static_cast<std::size_t>(end_ - p_)) {
      return false;
    }
    out = 0;
    for (unsigned i = 0; i < n; ++i) {
      out = (out << 8U) | *p_++;
    }
    return true;
  }
  // A map or an array: its fix form (`fix`, 16 entries at most) or its 16- and 32-bit forms
  // (`wide`, `wide + 1`).
  bool header(unsigned fix, unsigned wide, std::uint32_t& n) noexcept {
    std::uint8_t b = 0;
    if (!next(b)) {
      return false;
    }
    std::uint64_t found = 0;
    if ((b & 0xf0U) == fix) {
      found = b & 0x0fU;
    } else if (b == wide || b == wide + 1U) {
      if (!big_endian(b == wide ? 2U : 4U, found)) {
        return false;
      }
    } else {
      return false;
    }
    n = static_cast<std::uint32_t>(found);
    return true;
  }

  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

// Whether a key read is `word` (a literal: the comparison of a known length is inlined).
template <std::size_t N>
bool is(std::string_view key, const char (&word)[N]) noexcept {
  return key.size() == N - 1 && std::memcmp(key.data(), word, N - 1) == 0;
}

// A map read key by key: `field(key)` reads the key's value (false: refused).
template <class Field>
bool each_field(Reader& in, Field&& field) {
  std::uint32_t fields = 0;
  if (!in.map(fields)) {
    return false;
  }
  for (std::uint32_t f = 0; f < fields; ++f) {
    std::string_view key;
    if (!in.str(key) || !field(key)) {
      return false;
    }
  }
  return true;
}

// The card's map (an inline card); false for anything else, a catalog id included.
bool read_card(Reader& in, const EncodedNames& names, Placed& out) {
  return each_field(in, [&](std::string_view key) {
    if (is(key, "wild")) {
      return in.boolean(out.wild);
    }
    if (is(key, "style")) {
      return out.has_style = in.str(out.style);
    }
    if (is(key, "type")) {
      return out.has_type = in.str(out.type);
    }
    if (is(key, "facility")) {
      std::string_view name;
      out.facility = in.str(name) ? names.facilities.find(name) : -1;
      return out.has_facility = out.facility >= 0;
    }
    if (is(key, "points")) {
      return out.has_points = in.int32(out.points);
    }
    if (is(key, "stars")) {
      return out.has_stars = in.int32(out.stars);
    }
    if (is(key, "sides")) {
      std::uint32_t n = 0;
      if (!in.array(n)) {
        return false;
      }
      for (std::uint32_t i = 0; i < n; ++i) {
        std::string_view side;
        const int bit = in.str(side) ? names.sides.find(side) : -1;
        if (bit < 0 || bit > 3 || (out.sides & (1U << static_cast<unsigned>(bit))) != 0) {
          return false;  // a side named twice: the Python packer's (the decoder refuses it)
        }
        out.sides = static_cast<SideMask>(out.sides | (1U << static_cast<unsigned>(bit)));
      }
      return out.has_sides = true;
    }
    if (is(key, "name")) {
      return in.skip();
    }
    return false;  // a field the Python packer would not expect
  });
}

bool read_placement(Reader& in, const EncodedNames& names, Placed& out) {
  const bool read = each_field(in, [&](std::string_view key) {
    if (is(key, "row")) {
      return out.has_row = in.int32(out.row);
    }
    if (is(key, "col")) {
      return out.has_col = in.int32(out.col);
    }
    if (is(key, "rotated")) {
      return in.boolean(out.rotated);
    }
    if (is(key, "card")) {
      return out.has_card = !in.is_str() && read_card(in, names, out);
    }
    return false;
  });
  return read && out.has_row && out.has_col && out.has_card;
}

}  // namespace

std::uint64_t NameTable::head(std::string_view name) noexcept {
  std::uint64_t word = 0;
  if (name.size() >= sizeof word) {  // (its first eight bytes at once)
    std::memcpy(&word, name.data(), sizeof word);
    return word;
  }
  // byte by byte: a shorter name may end its buffer
  const std::size_t n = name.size();
  for (std::size_t i = 0; i < n; ++i) {
    word |= static_cast<std::uint64_t>(static_cast<unsigned char>(name[i])) << (8U * i);
  }
  return word;
}

int NameTable::find(std::string_view name) const {
  if (names_.size() > kScanned) {
    const auto found = index_.find(std::string(name));
    return found == index_.end() ? -1 : found->second;
  }
  const std::uint64_t word = head(name);
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (heads_[i] == word && names_[i].size() == name.size() &&
        (name.size() <= sizeof word ||
         std::memcmp(names_[i].data() + sizeof word, name.data() + sizeof word,
                     name.size() - sizeof word) == 0)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

std::int32_t NameTable::intern(std::string_view name) {
  const int found = find(name);
  if (found >= 0) {
    return found;
  }
  const auto number = static_cast<std::int32_t>(names_.size());
  names_.emplace_back(name);
  heads_.push_back(head(name));
  if (names_.size() > kScanned) {  // indexed from the first name the scan no longer serves
    if (index_.empty()) {
      for (std::size_t i = 0; i + 1 < names_.size(); ++i) {
        index_.emplace(names_[i], static_cast<std::int32_t>(i));
      }
    }
    index_.emplace(names_.back(), number);
  }
  return number;
}

void NameTable::truncate(std::size_t n) {
  while (names_.size() > n) {
    index_.erase(names_.back());
    names_.pop_back();
    heads_.pop_back();
  }
  if (names_.size() <= kScanned) {
    index_.clear();  // scanned again: the index is made anew if the table grows
  }
}

template <class Reader>
bool EncodedPacker::read_players(Reader& in, std::vector<std::int32_t>& cells,
                                 std::vector<std::int64_t>& offsets) {
  std::uint32_t players = 0;
  if (!in.array(players)) {
    return false;
  }
  for (std::uint32_t p = 0; p < players; ++p) {
    bool has_city = false;
    const bool read = each_field(in, [&](std::string_view key) {
      if (!is(key, "city")) {
        return in.skip();  // name, epiphanies, bonuses: not the table's
      }
      std::uint32_t cards = 0;
      if (has_city || !in.array(cards)) {
        return false;
      }
      has_city = true;
      for (std::uint32_t c = 0; c < cards; ++c) {
        Placed card;
        if (!read_placement(in, names_, card)) {
          return false;
        }
        if (!detail::append_placed(card, styles_, types_, cells)) {
          return false;
        }
      }
      return true;
    });
    if (!read) {
      return false;
    }
    if (!has_city) {
      return false;
    }
    offsets.push_back(static_cast<std::int64_t>(cells.size() / 9));
  }
  return true;
}

bool EncodedPacker::players(const std::uint8_t* data, std::size_t size,
                            std::vector<std::int32_t>& cells, std::vector<std::int64_t>& offsets) {
  Reader in(data, size);
  return read_players(in, cells, offsets) && in.done();
}

}  // namespace neweden
