// Many cities in one call: the compact columns of a whole batch, city k being rows
// [offsets[k], offsets[k + 1]), and one output array per figure.
#pragma once

#include <cstddef>
#include <cstdint>

#include "neweden/city.hpp"

namespace neweden {

struct BatchView {
  std::size_t cities = 0;
  const std::int64_t* offsets = nullptr;  // cities + 1 entries, from 0, non-decreasing
  CityView cards;                         // all cards of all cities (cards.n in total)
};

// Output arrays, owned by the caller: one entry per city, except the last two (per card).
struct BatchFigures {
  std::uint8_t* legal;
  std::int32_t* cards;  // cards kept in the geometry
  std::int32_t* open_connections;
  std::int32_t* components;
  std::int32_t* project;  // component id of the project, -1 for a city of no card
  std::int32_t* labs;
  std::int64_t* shelter_points;
  std::int64_t* medical_points;
  std::int32_t* towers;
  std::int64_t* tower_points;
  std::int32_t* bases;
  std::int32_t* component;      // per card: component id within its city, -1 when left out
  std::int32_t* overlapped_by;  // per card: index (within its city) of the card on its cell
};

// Throws std::invalid_argument when the offsets or any card cannot come from decoded cities.
void check_batch(const BatchView& batch);

// Analyses every city of a checked batch, on `threads` threads (1 = the calling thread).
// Touches no Python object: callers may release the GIL around it.
void analyse_batch(const BatchView& batch, const BatchFigures& out, unsigned threads);

}  // namespace neweden
