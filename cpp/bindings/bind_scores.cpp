#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "columns.hpp"
#include "figures.hpp"
#include "neweden/scores.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

// The names of the fields of neweden.figures.ScoreFigures, in the order fields() gives them
// (the module exports them: neweden.geometry refuses to load a core they do not match).
constexpr std::array<const char*, 22> kScoreFields{
    "legal",          "cards",          "open_connections", "complete_connections",
    "components",     "labs",           "shelter_points",   "medical_points",
    "towers",         "tower_points",   "bases",            "cards_0_stars",
    "cards_1_star",   "cards_2_stars",  "cards_3_stars",    "points_0_stars",
    "points_1_star",  "points_2_stars", "points_3_stars",   "row_cards",
    "column_cards",   "styles"};

// The fields of neweden.figures.ScoreFigures, in their order.
py::tuple fields(const ScoreFigures& f) {
  return py::make_tuple(
      f.legal, f.cards, f.open_connections, f.complete_connections, f.components, f.labs,
      f.shelter_points, f.medical_points, f.tower_span.towers, f.tower_span.points, f.bases,
      f.cards_by_stars[0], f.cards_by_stars[1], f.cards_by_stars[2], f.cards_by_stars[3],
      f.points_by_stars[0], f.points_by_stars[1], f.points_by_stars[2], f.points_by_stars[3],
      f.row_cards, f.column_cards, f.styles);
}

// A Python list of ints as T values: ValueError for anything but ints, OverflowError for
// one beyond T (packing leaves points too big for the int32 table in place: see
// neweden.compact.clamp_points).
template <typename T>
std::vector<T> ints(const py::list& list, const char* name) {
  std::vector<T> out(list.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    PyObject* item = PyList_GET_ITEM(list.ptr(), static_cast<py::ssize_t>(i));
    if (!PyLong_Check(item)) {
      throw py::value_error(std::string("the list '") + name + "' must hold ints");
    }
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow != 0 || value < std::numeric_limits<T>::min() ||
        value > std::numeric_limits<T>::max()) {
      throw std::overflow_error(std::string("the list '") + name + "' holds a value out of range");
    }
    out[i] = static_cast<T>(value);
  }
  return out;
}

// The score figures of every city of a batch, as ScoreFigures fields tuples: checked with
// the GIL held (std::invalid_argument becomes ValueError), scored without it. With
// `details`, the CityFigures fields of the cities asked, by city index, in `listed`.
py::list scored(BatchView& batch, const RowTable& rows, unsigned threads,
                Details details = Details::kNone, py::dict* listed = nullptr) {
  check_batch(batch);
  const CardValues values{rows.extra(0), rows.extra(1)};
  check_values(batch, values);
  std::vector<ScoreFigures> out(batch.cities);
  std::vector<CityAnalysis> analyses(details == Details::kNone ? 0 : batch.cities);
  {
    py::gil_scoped_release released;
    score_batch(batch, values, out.data(), threads == 0 ? 1U : threads, details,
                analyses.empty() ? nullptr : analyses.data());
  }
  py::list answer(out.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    answer[k] = fields(out[k]);
    if (details == Details::kAll || (details == Details::kIllegal && !out[k].legal)) {
      (*listed)[py::int_(k)] = figures(analyses[k]);
    }
  }
  return answer;
}

Details details_of(int details) {
  if (details < 0 || details > 2) {
    throw py::value_error("details is 0 (none), 1 (the illegal cities) or 2 (all)");
  }
  return static_cast<Details>(details);
}

// (group, style, count) for every style more than `limit` common cards of a game show.
py::list styles_over(const BatchView& batch, const std::vector<std::int64_t>& groups,
                     std::int32_t limit) {
  py::list out;
  for (const StyleCount& c : neweden::styles_over(batch, groups.data(), groups.size(), limit)) {
    out.append(py::make_tuple(c.group, c.style, c.count));
  }
  return out;
}

}  // namespace

void bind_scores(py::module_& m) {
  m.attr("SCORE_FIELDS") = names(kScoreFields);
  m.attr("CITY_FIELDS") = names(kCityFields);
  m.def(
      "score_rows",
      [](const Column<std::int32_t>& table, const Column<std::int64_t>& offsets,
         unsigned threads, int details) {
        // Nine int32 columns: the seven of the compact table, then stars and points.
        const RowTable rows(table, 9);
        BatchView batch;
        batch.cards = rows.cards();
        batch.offsets = offsets_of(offsets, batch.cards.n, &batch.cities);
        py::dict listed;
        py::list score_fields = scored(batch, rows, threads, details_of(details), &listed);
        return py::make_tuple(score_fields, listed);
      },
      py::arg("table"), py::arg("offsets"), py::arg("threads") = 1, py::arg("details") = 0,
      "The score figures of every city of a compact table (cards x 9 int32: the seven\n"
      "columns of neweden.compact, then stars and points), as ScoreFigures fields tuples,\n"
      "and {city: CityFigures fields} for the cities whose details were asked (details 0\n"
      "none, 1 the illegal ones, 2 all). See neweden.geometry.");

  m.def(
      "score_games",
      [](const py::list& flat, const py::list& offsets, const py::list& groups,
         std::int32_t style_limit, int details) {
        // The same as score_rows, from the lists packing builds (no array in between), and
        // per group of cities (a game) the styles shown more than style_limit times.
        const std::vector<std::int32_t> cells = ints<std::int32_t>(flat, "flat");
        if (cells.size() % 9 != 0) {
          throw py::value_error("the flat table must hold nine ints per card");
        }
        const RowTable rows(cells.data(), cells.size() / 9, 9);
        const std::vector<std::int64_t> at = ints<std::int64_t>(offsets, "offsets");
        const std::vector<std::int64_t> games = ints<std::int64_t>(groups, "groups");
        if (at.empty()) {
          throw py::value_error("offsets must have at least one entry");
        }
        BatchView batch;
        batch.cards = rows.cards();
        batch.cities = at.size() - 1;
        batch.offsets = at.data();  // the rest of their checks: check_batch
        if (games.empty() || games.front() != 0 ||
            static_cast<std::size_t>(games.back()) != batch.cities ||
            !std::is_sorted(games.begin(), games.end())) {
          throw py::value_error("groups must run from 0 to the number of cities, in order");
        }
        py::dict listed;
        py::list score_fields = scored(batch, rows, 1, details_of(details), &listed);
        return py::make_tuple(score_fields, styles_over(batch, games, style_limit), listed);
      },
      py::arg("flat"), py::arg("offsets"), py::arg("groups"), py::arg("style_limit"),
      py::arg("details") = 0,
      "The score figures of every city of a flat table (a list of nine ints per card, as\n"
      "score_rows's rows); (group, style, count) for the styles more than style_limit\n"
      "common cards of a group of cities show; and {city: CityFigures fields} for the\n"
      "cities whose details were asked in the same pass: details 0 none, 1 the illegal\n"
      "ones, 2 all. See neweden.compact.pack_games.");
}

}  // namespace neweden::bindings
