#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "columns.hpp"
#include "neweden/scores.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

// The fields of neweden.figures.ScoreFigures, in their order.
py::tuple fields(const ScoreFigures& f) {
  return py::make_tuple(
      f.legal, f.cards, f.open_connections, f.complete_connections, f.components, f.labs,
      f.shelter_points, f.medical_points, f.towers, f.tower_points, f.bases,
      f.cards_by_stars[0], f.cards_by_stars[1], f.cards_by_stars[2], f.cards_by_stars[3],
      f.points_by_stars[0], f.points_by_stars[1], f.points_by_stars[2], f.points_by_stars[3],
      f.row_cards, f.column_cards, f.styles);
}

// A Python list of ints as int32 values (ValueError for anything else or out of range).
std::vector<std::int32_t> int32_list(const py::list& list, const char* name) {
  std::vector<std::int32_t> out(list.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    PyObject* item = PyList_GET_ITEM(list.ptr(), static_cast<py::ssize_t>(i));
    int overflow = 0;
    const long value = PyLong_Check(item) ? PyLong_AsLongAndOverflow(item, &overflow) : 0;
    if (!PyLong_Check(item)) {
      throw py::value_error(std::string("the list '") + name + "' must hold ints");
    }
    if (overflow != 0 || value < INT32_MIN || value > INT32_MAX) {
      throw std::overflow_error(std::string("the list '") + name + "' holds a value beyond int32");
    }
    out[i] = static_cast<std::int32_t>(value);
  }
  return out;
}

std::vector<std::int64_t> offsets_list(const py::list& list, const char* name) {
  const std::vector<std::int32_t> values = int32_list(list, name);
  return {values.begin(), values.end()};
}

// (group, style, count) for every style that more than `limit` common cards of a group of
// cities show (the groups are games; RULES §1's box holds 14 of each style).
py::list styles_over(const BatchView& batch, const std::vector<std::int64_t>& groups,
                     std::int32_t limit) {
  py::list out;
  std::vector<std::int32_t> count;
  for (std::size_t g = 0; g + 1 < groups.size(); ++g) {
    const auto lo = static_cast<std::size_t>(batch.offsets[groups[g]]);
    const auto hi = static_cast<std::size_t>(batch.offsets[groups[g + 1]]);
    std::fill(count.begin(), count.end(), 0);
    for (std::size_t i = lo; i < hi; ++i) {
      if (batch.cards.flags[i] == 0) {
        const auto style = static_cast<std::size_t>(batch.cards.style[i]);
        if (style >= count.size()) {
          count.resize(style + 1, 0);
        }
        ++count[style];
      }
    }
    for (std::size_t style = 0; style < count.size(); ++style) {
      if (count[style] > limit) {
        out.append(py::make_tuple(g, style, count[style]));
      }
    }
  }
  return out;
}

}  // namespace

void bind_scores(py::module_& m) {
  m.def(
      "score_rows",
      [](const Column<std::int32_t>& table, const Column<std::int64_t>& offsets,
         unsigned threads) {
        // Checked with the GIL held: nine int32 columns (the seven of the compact table,
        // then stars and points)...
        const RowTable rows(table, 9);
        BatchView batch;
        batch.cards = rows.cards();
        batch.offsets = offsets_of(offsets, batch.cards.n, &batch.cities);
        check_batch(batch);  // std::invalid_argument becomes ValueError
        const CardValues values{rows.extra(0), rows.extra(1)};
        check_values(batch, values);
        std::vector<ScoreFigures> out(batch.cities);
        {
          // ...and scored without it.
          py::gil_scoped_release released;
          score_batch(batch, values, out.data(), threads == 0 ? 1U : threads);
        }
        py::list answer(out.size());
        for (std::size_t k = 0; k < out.size(); ++k) {
          answer[k] = fields(out[k]);
        }
        return answer;
      },
      py::arg("table"), py::arg("offsets"), py::arg("threads") = 1,
      "The score figures of every city of a compact table (cards x 9 int32: the seven\n"
      "columns of neweden.compact, then stars and points); a list of ScoreFigures fields\n"
      "tuples, one per city. See neweden.geometry.score_figures.");

  m.def(
      "score_games",
      [](const py::list& flat, const py::list& offsets, const py::list& groups,
         std::int32_t style_limit) {
        // The same as score_rows, from the lists packing builds (no array in between), and
        // per group of cities (a game) the styles shown more than style_limit times.
        const std::vector<std::int32_t> cells = int32_list(flat, "flat");
        if (cells.size() % 9 != 0) {
          throw py::value_error("the flat table must hold nine ints per card");
        }
        const std::size_t n = cells.size() / 9;
        const RowTable rows(cells.data(), n, 9);
        const std::vector<std::int64_t> at = offsets_list(offsets, "offsets");
        const std::vector<std::int64_t> games = offsets_list(groups, "groups");
        BatchView batch;
        batch.cards = rows.cards();
        if (at.empty() || at.front() != 0 || static_cast<std::size_t>(at.back()) != n) {
          throw py::value_error("offsets must start at 0 and end at the number of cards");
        }
        batch.cities = at.size() - 1;
        batch.offsets = at.data();
        check_batch(batch);
        for (std::size_t g = 0; g < games.size(); ++g) {
          if (games[g] < 0 || (g > 0 && games[g] < games[g - 1])) {
            throw py::value_error("groups must not decrease");
          }
        }
        if (games.empty() || games.front() != 0 ||
            static_cast<std::size_t>(games.back()) != batch.cities) {
          throw py::value_error("groups must run from 0 to the number of cities");
        }
        const CardValues values{rows.extra(0), rows.extra(1)};
        check_values(batch, values);
        std::vector<ScoreFigures> out(batch.cities);
        {
          py::gil_scoped_release released;
          score_batch(batch, values, out.data(), 1);
        }
        py::list figures(out.size());
        for (std::size_t k = 0; k < out.size(); ++k) {
          figures[k] = fields(out[k]);
        }
        return py::make_tuple(figures, styles_over(batch, games, style_limit));
      },
      py::arg("flat"), py::arg("offsets"), py::arg("groups"), py::arg("style_limit"),
      "The score figures of every city of a flat table (a list of nine ints per card, as\n"
      "score_rows's rows), and (group, style, count) for the styles more than style_limit\n"
      "common cards of a group of cities show; see neweden.compact.pack_games.");
}

}  // namespace neweden::bindings
