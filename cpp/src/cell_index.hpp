// A small open-addressing map from a grid cell to the card on it. Sized by the number of
// cards, never by the bounding box: cities may be far apart and far from the origin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace neweden::detail {

class CellIndex {
 public:
  explicit CellIndex(std::size_t cards) {
    std::size_t slots = 8;
    while (slots < 2 * cards) {
      slots *= 2;
    }
    mask_ = slots - 1;
    keys_.assign(slots, 0);
    cards_.assign(slots, -1);
  }

  // The card on (row, col), or -1.
  [[nodiscard]] std::int32_t find(std::int32_t row, std::int32_t col) const noexcept {
    const std::uint64_t key = pack(row, col);
    for (std::size_t slot = hash(key);; slot = (slot + 1) & mask_) {
      if (cards_[slot] < 0) {
        return -1;
      }
      if (keys_[slot] == key) {
        return cards_[slot];
      }
    }
  }

  // Puts `card` on (row, col) unless the cell is taken; returns the card that holds it.
  std::int32_t insert(std::int32_t row, std::int32_t col, std::int32_t card) noexcept {
    const std::uint64_t key = pack(row, col);
    for (std::size_t slot = hash(key);; slot = (slot + 1) & mask_) {
      if (cards_[slot] < 0) {
        keys_[slot] = key;
        cards_[slot] = card;
        return card;
      }
      if (keys_[slot] == key) {
        return cards_[slot];
      }
    }
  }

 private:
  static std::uint64_t pack(std::int32_t row, std::int32_t col) noexcept {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row)) << 32U) |
           static_cast<std::uint32_t>(col);
  }
  [[nodiscard]] std::size_t hash(std::uint64_t key) const noexcept {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 40U) & mask_;
  }

  std::size_t mask_ = 0;
  std::vector<std::uint64_t> keys_;
  std::vector<std::int32_t> cards_;
};

}  // namespace neweden::detail
