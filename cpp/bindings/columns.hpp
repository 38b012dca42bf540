// The compact card columns (neweden.geometry.compact) as the bindings take them from NumPy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

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

// The compact table as rows (row, col, style, type, facility, sides, flags, then any
// further int32 columns), split into the core's columns. Codes out of range are refused
// here, the rest by the core's checks.
class RowTable {
 public:
  RowTable(const Column<std::int32_t>& table, std::size_t width) {
    if (table.ndim() != 2 || static_cast<std::size_t>(table.shape(1)) != width) {
      throw pybind11::value_error("the table must have shape (cards, " + std::to_string(width) +
                                  ")");
    }
    split(table.data(), static_cast<std::size_t>(table.shape(0)), width);
  }
  // n rows of `width` int32 each, one after the other.
  RowTable(const std::int32_t* cells, std::size_t n, std::size_t width) {
    split(cells, n, width);
  }
  [[nodiscard]] CityView cards() const noexcept {
    return CityView{n_,           row_.data(),      col_.data(),   style_.data(),
                    type_.data(), facility_.data(), sides_.data(), flags_.data()};
  }
  // Column 7 + c, one entry per card.
  [[nodiscard]] const std::int32_t* extra(std::size_t c) const noexcept {
    return extra_.data() + c * n_;
  }

 private:
  void split(const std::int32_t* cell, std::size_t n, std::size_t width) {
    n_ = n;
    row_.resize(n_);
    col_.resize(n_);
    style_.resize(n_);
    type_.resize(n_);
    facility_.resize(n_);
    sides_.resize(n_);
    flags_.resize(n_);
    extra_.resize((width - 7) * n_);
    for (std::size_t i = 0; i < n_; ++i, cell += width) {
      if (cell[4] < -1 || cell[4] > 4 || cell[5] < 0 || cell[5] > 15 || cell[6] < 0 ||
          cell[6] > 3) {
        throw pybind11::value_error("card " + std::to_string(i) + ": a code out of range");
      }
      row_[i] = cell[0];
      col_[i] = cell[1];
      style_[i] = cell[2];
      type_[i] = cell[3];
      facility_[i] = static_cast<std::int8_t>(cell[4]);
      sides_[i] = static_cast<SideMask>(cell[5]);
      flags_[i] = static_cast<std::uint8_t>(cell[6]);
      for (std::size_t c = 7; c < width; ++c) {
        extra_[(c - 7) * n_ + i] = cell[c];
      }
    }
  }

  std::size_t n_ = 0;
  std::vector<std::int32_t> row_, col_, style_, type_;
  std::vector<std::int8_t> facility_;
  std::vector<SideMask> sides_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::int32_t> extra_;
};

// Offsets of the cities of `cards`: checked to start at 0, end at the number of cards and
// never decrease.
inline const std::int64_t* offsets_of(const Column<std::int64_t>& offsets, std::size_t cards,
                                      std::size_t* cities) {
  if (offsets.ndim() != 1 || offsets.shape(0) < 1) {
    throw pybind11::value_error("offsets must be one-dimensional with at least one entry");
  }
  const std::int64_t* at = offsets.data();
  *cities = static_cast<std::size_t>(offsets.shape(0) - 1);
  if (at[0] != 0 || static_cast<std::size_t>(at[*cities]) != cards) {
    throw pybind11::value_error("offsets must start at 0 and end at the number of cards");
  }
  for (std::size_t k = 0; k < *cities; ++k) {
    if (at[k + 1] < at[k]) {
      throw pybind11::value_error("offsets must not decrease");
    }
  }
  return at;
}

}  // namespace neweden::bindings
