#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "columns.hpp"
#include "figures.hpp"
#include "neweden/city.hpp"

namespace py = pybind11;

namespace neweden::bindings {

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
