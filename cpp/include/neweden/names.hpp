// Names numbered as a reader meets them: the styles and types of a batch's cities, and the
// format's own names (facilities, sides) the strict reader reads by.
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

// The names the game format spells: facilities by code (FACILITIES in Python, whose table
// the caller hands over) and sides by bit (top, right, bottom, left).
struct FormatNames {
  NameTable facilities;
  NameTable sides;
};

}  // namespace neweden
