#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "columns.hpp"
#include "neweden/city.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

template <typename T>
py::tuple ints(const std::vector<T>& v) {
  py::tuple out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out[i] = py::int_(v[i]);
  }
  return out;
}

// The fields of neweden.figures.CityFigures, in their order.
py::tuple figures(const CityAnalysis& a) {
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
    groups[i] = ints(a.shelter_groups[i]);
  }
  const TowerSpan& s = a.tower_span;
  py::object span = py::none();
  if (s.towers > 0) {
    span = py::make_tuple(s.min_row, s.min_col, s.max_row, s.max_col);
  }
  return py::make_tuple(included, ints(a.overlapped_by), ints(a.component), a.components,
                        a.project, a.legal, connections, a.open_connections, a.labs, groups,
                        a.shelter_points, ints(a.medical_cards), a.medical_points, s.towers,
                        span, s.points, a.bases);
}

}  // namespace

void bind_city(py::module_& m) {
  m.def(
      "analyse_city",
      [](const Column<std::int32_t>& row, const Column<std::int32_t>& col,
         const Column<std::int32_t>& style, const Column<std::int32_t>& type,
         const Column<std::int8_t>& facility, const Column<std::uint8_t>& sides,
         const Column<std::uint8_t>& flags, py::ssize_t start, py::ssize_t stop) {
        const CityView cards = cards_of(row, col, style, type, facility, sides, flags);
        if (start < 0 || stop < start || static_cast<std::size_t>(stop) > cards.n) {
          throw py::index_error("the city's rows [start, stop) are outside the arrays");
        }
        const CityView city =
            cards.slice(static_cast<std::size_t>(start), static_cast<std::size_t>(stop));
        return figures(analyse_city(city));  // std::invalid_argument becomes ValueError
      },
      py::arg("row"), py::arg("col"), py::arg("style"), py::arg("type"), py::arg("facility"),
      py::arg("sides"), py::arg("flags"), py::arg("start"), py::arg("stop"),
      "Analyses the city in rows [start, stop) of the compact columns of neweden.compact.\n"
      "Returns the fields of neweden.figures.CityFigures, in order, as a tuple.");

  m.def(
      "analyse_rows",
      [](const Column<std::int32_t>& table, const Column<std::int64_t>& offsets) {
        // One call for the few cities of a game: the compact table as rows of seven int32
        // (row, col, style, type, facility, sides, flags), split into the core's columns;
        // the score table's nine (stars and points after them) are taken too.
        const bool score_table = table.ndim() == 2 && table.shape(1) == 9;
        const RowTable rows(table, score_table ? 9 : 7);
        const CityView cards = rows.cards();
        std::size_t cities = 0;
        const std::int64_t* at = offsets_of(offsets, cards.n, &cities);
        py::list out(cities);
        for (std::size_t k = 0; k < cities; ++k) {
          out[k] = figures(analyse_city(
              cards.slice(static_cast<std::size_t>(at[k]), static_cast<std::size_t>(at[k + 1]))));
        }
        return out;
      },
      py::arg("table"), py::arg("offsets"),
      "Analyses every city of a compact table (cards x 7 int32, see neweden.compact) in one\n"
      "call; a list of CityFigures fields tuples, one per city.");
}

}  // namespace neweden::bindings
