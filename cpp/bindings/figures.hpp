// The rich per-city analysis as Python sees it: the fields of neweden.figures.CityFigures.
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>
#include <vector>

#include "neweden/city.hpp"

namespace neweden::bindings {

namespace py = pybind11;

template <typename T>
py::tuple int_tuple(const std::vector<T>& v) {
  py::tuple out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out[i] = py::int_(v[i]);
  }
  return out;
}

// The names of the fields of neweden.figures.CityFigures, in the order figures() gives them.
constexpr std::array<const char*, 17> kCityFields{
    "included",       "overlapped_by", "component",      "components",   "project",
    "legal",          "connections",   "open_connections", "labs",       "shelter_groups",
    "shelter_points", "medical_cards", "medical_points", "towers",       "tower_span",
    "tower_points",   "bases"};

template <std::size_t N>
py::tuple names(const std::array<const char*, N>& fields) {
  py::tuple out(N);
  for (std::size_t i = 0; i < N; ++i) {
    out[i] = py::str(fields[i]);
  }
  return out;
}

// The fields of neweden.figures.CityFigures, in their order.
inline py::tuple figures(const CityAnalysis& a) {
  py::tuple included(a.included.size());
  for (std::size_t i = 0; i < a.included.size(); ++i) {
    included[i] = py::bool_(a.included[i] != 0);
  }
  py::tuple connections(a.connections.size());
  for (std::size_t i = 0; i < a.connections.size(); ++i) {
    connections[i] = py::make_tuple(a.connections[i].a, a.connections[i].b);
  }
  py::tuple groups(a.shelter_groups.size());
  for (std::size_t i = 0; i < a.shelter_groups.size(); ++i) {
    groups[i] = int_tuple(a.shelter_groups[i]);
  }
  const TowerSpan& s = a.tower_span;
  py::object span = py::none();
  if (s.towers > 0) {
    span = py::make_tuple(s.min_row, s.min_col, s.max_row, s.max_col);
  }
  return py::make_tuple(included, int_tuple(a.overlapped_by), int_tuple(a.component),
                        a.components, a.project, a.legal, connections, a.open_connections,
                        a.labs, groups, a.shelter_points, int_tuple(a.medical_cards),
                        a.medical_points, s.towers, span, s.points, a.bases);
}

}  // namespace neweden::bindings
