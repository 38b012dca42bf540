// Connection icons of a card as a 4-bit mask, and the 180° rotation of RULES §2.
#pragma once

#include <array>
#include <cstdint>

namespace neweden {

using SideMask = std::uint8_t;

// One bit per side of the upright card; the same numbering is used in Python
// (neweden.geometry.compact) and in the compact city arrays.
inline constexpr SideMask kTop = 1U << 0U;
inline constexpr SideMask kRight = 1U << 1U;
inline constexpr SideMask kBottom = 1U << 2U;
inline constexpr SideMask kLeft = 1U << 3U;
inline constexpr SideMask kAllSides = kTop | kRight | kBottom | kLeft;

// The cell next to a card on each side, in bit order (top, right, bottom, left): row and
// column steps. The side facing side d is (d + 2) mod 4.
inline constexpr std::array<std::int32_t, 4> kRowStep{-1, 0, 1, 0};
inline constexpr std::array<std::int32_t, 4> kColStep{0, 1, 0, -1};

// A card turned 180° shows its top icon at the bottom and its left icon on the right.
SideMask rotate_sides(SideMask sides, bool rotated) noexcept;

}  // namespace neweden
