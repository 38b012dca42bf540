// The compact card columns (neweden.compact) as the bindings take them from NumPy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "neweden/city.hpp"

namespace neweden::bindings {

// A 1-D C-contiguous array of T; other dtypes are converted (a copy), never reinterpreted.
template <typename T>
using Column = pybind11::array_t<T, pybind11::array::c_style | pybind11::array::forcecast>;

template <typename T>
const T* column(const Column<T>& a, std::size_t n, const char* name) {
  if (a.ndim() != 1 || static_cast<std::size_t>(a.shape(0)) != n) {
    throw pybind11::value_error(std::string("the column '") + name +
                                "' must be one-dimensional, one entry per card");
  }
  return a.data();
}

// All cards of the columns, checked to be one entry per card each.
inline CityView cards_of(const Column<std::int32_t>& row, const Column<std::int32_t>& col,
                         const Column<std::int32_t>& style, const Column<std::int32_t>& type,
                         const Column<std::int8_t>& facility, const Column<std::uint8_t>& sides,
                         const Column<std::uint8_t>& flags) {
  CityView cards;
  cards.n = static_cast<std::size_t>(row.ndim() == 1 ? row.shape(0) : 0);
  cards.row = column(row, cards.n, "row");
  cards.col = column(col, cards.n, "col");
  cards.style = column(style, cards.n, "style");
  cards.type = column(type, cards.n, "type");
  cards.facility = column(facility, cards.n, "facility");
  cards.sides = column(sides, cards.n, "sides");
  cards.flags = column(flags, cards.n, "flags");
  return cards;
}

}  // namespace neweden::bindings
