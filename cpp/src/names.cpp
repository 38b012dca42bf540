// NameTable (see neweden/names.hpp).
#include "neweden/names.hpp"

#include <cstring>

namespace neweden {

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

}  // namespace neweden
