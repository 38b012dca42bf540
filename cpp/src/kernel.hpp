// The one per-city kernel behind both the rich per-city call and the batch: it places the
// cards, finds neighbours and connections, numbers components and computes the Military
// figures, into a reusable workspace (no allocation per city once the workspace is grown).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bits.hpp"
#include "neweden/city.hpp"

namespace neweden::detail {

// What a city comes to, beside the per-card arrays of the workspace.
struct CitySummary {
  bool legal = true;
  std::int32_t cards = 0;  // cards kept in the geometry
  std::int32_t open_connections = 0;
  std::int32_t components = 0;
  std::int32_t project = -1;
  std::int32_t labs = 0;
  std::int64_t shelter_points = 0;
  std::int64_t medical_points = 0;
  TowerSpan tower_span;
  std::int32_t bases = 0;
};

// A direct-mapped cell grid for cities whose cards fit in 64 x 64 cells (nearly all):
// a fixed 66 x 66 buffer with a border, so neighbour lookups need no bounds check.
class GridCells {
 public:
  static constexpr std::int32_t kSpan = 64;
  static constexpr std::int32_t kStride = kSpan + 2;

  void set_origin(std::int32_t min_row, std::int32_t min_col) noexcept {
    row0_ = min_row - 1;
    col0_ = min_col - 1;
  }
  [[nodiscard]] std::size_t at(std::int32_t row, std::int32_t col) const noexcept {
    return static_cast<std::size_t>((row - row0_) * kStride + (col - col0_));
  }
  // Card number + 1 on each cell, 0 when empty.
  std::array<std::uint8_t, static_cast<std::size_t>(kStride * kStride)> cell{};

 private:
  std::int32_t row0_ = 0;
  std::int32_t col0_ = 0;
};

// Scratch for one thread. After analyse_into(), the per-card arrays describe that city.
struct Workspace {
  std::vector<std::array<std::int32_t, 4>> neighbours;  // above, right, below, left, or -1
  std::vector<std::int32_t> overlapped_by;              // the card holding the cell, or -1
  std::vector<std::uint8_t> placed;                     // 1 when kept in the geometry
  std::vector<std::int32_t> component;                  // -1 when left out
  std::vector<std::uint8_t> linked;           // sides with a complete connection
  std::vector<std::uint8_t> next_to_medical;  // 1 when next to a medical center
  std::vector<std::int32_t> shelter_group;    // shelter group number, or -1
  // Per card, as sets of cards: the cards it is joined to, and its orthogonal neighbours.
  std::vector<std::uint64_t> joined64, near64;
  std::vector<Bits128> joined128, near128;
  GridCells grid;

  void prepare(std::size_t n);
};

// The most cards one city may hold here (FORMAT allows 77).
inline constexpr std::size_t kMaxCityCards = 128;

// Throws std::invalid_argument for a city or card no decoded city can give.
void check_city(const CityView& city);

// Analyses one city that passed check_city.
CitySummary analyse_into(const CityView& city, Workspace& ws);

}  // namespace neweden::detail
