// Sets of cards as bit masks: a uint64_t for cities of up to 64 cards, Bits128 up to 128.
// The kernel is written once over either (flood fills, counts); FORMAT caps a city at 77.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace neweden::detail {

struct Bits128 {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
};

inline Bits128 operator|(Bits128 a, Bits128 b) noexcept { return {a.lo | b.lo, a.hi | b.hi}; }
inline Bits128 operator&(Bits128 a, Bits128 b) noexcept { return {a.lo & b.lo, a.hi & b.hi}; }
inline Bits128 operator~(Bits128 a) noexcept { return {~a.lo, ~a.hi}; }
inline Bits128& operator|=(Bits128& a, Bits128 b) noexcept { return a = a | b; }
inline Bits128& operator&=(Bits128& a, Bits128 b) noexcept { return a = a & b; }

inline bool any(std::uint64_t m) noexcept { return m != 0; }
inline bool any(Bits128 m) noexcept { return (m.lo | m.hi) != 0; }

// Population count without a library call (no -mpopcnt in portable builds).
inline std::int32_t count(std::uint64_t m) noexcept {
  m -= (m >> 1U) & 0x5555555555555555ULL;
  m = (m & 0x3333333333333333ULL) + ((m >> 2U) & 0x3333333333333333ULL);
  m = (m + (m >> 4U)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<std::int32_t>((m * 0x0101010101010101ULL) >> 56U);
}
inline std::int32_t count(Bits128 m) noexcept { return count(m.lo) + count(m.hi); }

// The lowest card of a non-empty set.
inline std::size_t lowest(std::uint64_t m) noexcept {
  return static_cast<std::size_t>(__builtin_ctzll(m));
}
inline std::size_t lowest(Bits128 m) noexcept {
  return m.lo != 0 ? lowest(m.lo) : 64 + lowest(m.hi);
}

inline std::uint64_t without_lowest(std::uint64_t m) noexcept { return m & (m - 1); }
inline Bits128 without_lowest(Bits128 m) noexcept {
  return m.lo != 0 ? Bits128{m.lo & (m.lo - 1), m.hi} : Bits128{0, m.hi & (m.hi - 1)};
}

template <class Mask>
Mask single(std::size_t i) noexcept;
template <>
inline std::uint64_t single<std::uint64_t>(std::size_t i) noexcept {
  return std::uint64_t{1} << i;
}
template <>
inline Bits128 single<Bits128>(std::size_t i) noexcept {
  return i < 64 ? Bits128{std::uint64_t{1} << i, 0} : Bits128{0, std::uint64_t{1} << (i - 64)};
}

// `m` when `keep`, else the empty set, without a branch.
inline std::uint64_t keep_if(std::uint64_t m, bool keep) noexcept {
  return m & (std::uint64_t{0} - static_cast<std::uint64_t>(keep));
}
inline Bits128 keep_if(Bits128 m, bool keep) noexcept {
  return {keep_if(m.lo, keep), keep_if(m.hi, keep)};
}

inline Bits128 widen(std::uint64_t m) noexcept { return {m, 0}; }
inline Bits128 widen(Bits128 m) noexcept { return m; }

// The one-card set of each card number; kNoCard-like numbers (>= 128) give the empty set.
template <class Mask>
const Mask* card_sets() noexcept {
  static const auto table = [] {
    std::array<Mask, 256> t{};
    for (std::size_t i = 0; i < 8 * sizeof(Mask); ++i) {
      t[i] = single<Mask>(i);
    }
    return t;
  }();
  return table.data();
}

// The set reached from `seed` through `links` (links[i]: the cards joined to card i).
template <class Mask>
Mask flood(Mask seed, const Mask* links, Mask within) noexcept {
  Mask reached = seed;
  Mask frontier = seed;
  while (any(frontier)) {
    const std::size_t card = lowest(frontier);
    frontier = without_lowest(frontier);
    const Mask fresh = links[card] & within & ~reached;
    reached |= fresh;
    frontier |= fresh;
  }
  return reached;
}

// Calls f(card) for every card of the set, lowest first.
template <class Mask, class F>
void for_each_card(Mask m, F&& f) {
  while (any(m)) {
    f(lowest(m));
    m = without_lowest(m);
  }
}

}  // namespace neweden::detail
