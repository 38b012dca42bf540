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
#include "neweden/placements.hpp"
#include "neweden/scores.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

// The names of the fields of neweden.figures.ScoreFigures, in the order fields() gives them
// (the module exports them: neweden.geometry refuses to load a core they do not match).
constexpr std::array<const char*, 22> kScoreFields{  // as_array's row too
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

// The score figures of every city of a batch, and the details asked: checked with the GIL
// held (std::invalid_argument becomes ValueError), scored without it.
struct Scored {
  std::vector<ScoreFigures> figures;
  std::vector<CityAnalysis> analyses;  // by city, when details were asked
  Details details = Details::kNone;

  bool listed(std::size_t k) const {
    return details == Details::kAll || (details == Details::kIllegal && !figures[k].legal);
  }
};

Scored score_all(BatchView& batch, const RowTable& rows, unsigned threads, Details details) {
  check_batch(batch);
  const CardValues values{rows.extra(0), rows.extra(1)};
  check_values(batch, values);
  Scored out;
  out.figures.resize(batch.cities);
  out.analyses.resize(details == Details::kNone ? 0 : batch.cities);
  out.details = details;
  {
    py::gil_scoped_release released;
    score_batch(batch, values, out.figures.data(), threads == 0 ? 1U : threads, details,
                out.analyses.empty() ? nullptr : out.analyses.data());
  }
  return out;
}

// {city: CityFigures fields} of the cities whose details were asked.
py::dict listed_of(const Scored& s) {
  py::dict listed;
  for (std::size_t k = 0; k < s.figures.size(); ++k) {
    if (s.listed(k)) {
      listed[py::int_(k)] = figures(s.analyses[k]);
    }
  }
  return listed;
}

// Every city's ScoreFigures fields as a tuple (the per-game path reads them as NamedTuples).
py::list as_tuples(const Scored& s) {
  py::list answer(s.figures.size());
  for (std::size_t k = 0; k < s.figures.size(); ++k) {
    answer[k] = fields(s.figures[k]);
  }
  return answer;
}

// Every city's ScoreFigures fields as a row of a (cities x fields) int64 array (the
// columnar path reads them as columns; `legal` is 0 or 1).
py::array_t<std::int64_t> as_array(const Scored& s) {
  const auto n = static_cast<py::ssize_t>(s.figures.size());
  py::array_t<std::int64_t> out({n, static_cast<py::ssize_t>(kScoreFields.size())});
  auto at = out.mutable_unchecked<2>();
  for (py::ssize_t k = 0; k < n; ++k) {
    const ScoreFigures& f = s.figures[static_cast<std::size_t>(k)];
    const std::array<std::int64_t, 22> row{
        f.legal ? 1 : 0,    f.cards,           f.open_connections,
        f.complete_connections, f.components,  f.labs,
        f.shelter_points,   f.medical_points,  f.tower_span.towers,
        f.tower_span.points, f.bases,          f.cards_by_stars[0],
        f.cards_by_stars[1], f.cards_by_stars[2], f.cards_by_stars[3],
        f.points_by_stars[0], f.points_by_stars[1], f.points_by_stars[2],
        f.points_by_stars[3], f.row_cards,     f.column_cards,
        f.styles};
    for (std::size_t c = 0; c < row.size(); ++c) {
      at(k, static_cast<py::ssize_t>(c)) = row[c];
    }
  }
  return out;
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

// Every candidate placement of `card` (nine ints, its row and column ignored, its sides as
// printed) next to city `seat` of a game (nine ints a card, `offsets` where each city
// starts), analysed in one pass with the game's cities as they are: (now, found), `now` the
// ScoreFigures fields of each city of the game, `found` (row, col, rotated, fields) of each
// candidate after which the city is legal, in the candidates' order. Only those: the caller
// scores and lists nothing else, and a tuple of Python ints is what it reads (no array to
// slice, no row of an illegal city to convert).
py::tuple placements(const py::list& game, const py::list& offsets, std::size_t seat,
                     const py::list& card) {
  const std::vector<std::int32_t> cells = ints<std::int32_t>(game, "game");
  const std::vector<std::int64_t> at = ints<std::int64_t>(offsets, "offsets");
  const std::vector<std::int32_t> added = ints<std::int32_t>(card, "card");
  if (cells.size() % 9 != 0 || added.size() != 9) {
    throw py::value_error("the game must hold nine ints a card, and the card nine");
  }
  if (at.size() < 2 || seat + 1 >= at.size() || at.front() != 0 ||
      static_cast<std::size_t>(at.back()) != cells.size() / 9 ||
      !std::is_sorted(at.begin(), at.end())) {
    throw py::value_error("offsets must split the game's cards into cities, seat among them");
  }
  const auto lo = static_cast<std::size_t>(at[seat]) * 9;
  const auto hi = static_cast<std::size_t>(at[seat + 1]) * 9;
  const RowTable city(cells.data() + lo, (hi - lo) / 9, 9);
  const RowTable one(added.data(), 1, 9);  // checks the card's codes
  const auto sides = static_cast<SideMask>(added[5]);
  // Which candidates leave a legal city: the kernel alone, on one city changed in place; then
  // the score figures of the game's cities and of those candidates only.
  const std::vector<Candidate> found = legal_candidates(city.cards(), one.cards());
  std::vector<std::int32_t> table(cells);  // the game as it is, then each legal candidate city
  std::vector<std::int64_t> starts(at);
  table.reserve(cells.size() + found.size() * (hi - lo + 9));
  for (const Candidate& c : found) {
    table.insert(table.end(), cells.begin() + static_cast<std::ptrdiff_t>(lo),
                 cells.begin() + static_cast<std::ptrdiff_t>(hi));
    const auto put = table.insert(table.end(), added.begin(), added.end());
    put[0] = c.row;
    put[1] = c.col;
    put[5] = static_cast<std::int32_t>(rotate_sides(sides, c.rotated));
    starts.push_back(static_cast<std::int64_t>(table.size() / 9));
  }
  const RowTable all(table.data(), table.size() / 9, 9);
  BatchView batch;
  batch.cards = all.cards();
  batch.cities = starts.size() - 1;
  batch.offsets = starts.data();
  const Scored scored = score_all(batch, all, 1, Details::kNone);
  const std::size_t cities = at.size() - 1;
  py::list now(cities);
  for (std::size_t p = 0; p < cities; ++p) {
    now[p] = fields(scored.figures[p]);
  }
  py::list legal(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    const Candidate& c = found[i];
    legal[i] = py::make_tuple(c.row, c.col, c.rotated, fields(scored.figures[cities + i]));
  }
  return py::make_tuple(now, legal);
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
        const Scored found = score_all(batch, rows, threads, details_of(details));
        return py::make_tuple(as_array(found), listed_of(found));
      },
      py::arg("table"), py::arg("offsets"), py::arg("threads") = 1, py::arg("details") = 0,
      "The score figures of every city of a compact table (cards x 9 int32: the seven\n"
      "columns of neweden.compact, then stars and points), as a (cities x SCORE_FIELDS)\n"
      "int64 array (legal 0 or 1), and {city: CityFigures fields} for the cities whose\n"
      "details were asked (details 0 none, 1 the illegal ones, 2 all). See\n"
      "neweden.geometry.");

  m.def("placements", &placements, py::arg("game"), py::arg("offsets"), py::arg("seat"),
        py::arg("card"),
        "The candidate placements of a card next to city `seat` of a game (nine ints a\n"
        "card, as score_games's rows; the card's row and column ignored): every empty cell\n"
        "next to a card of the city, upright and, when that changes its icons, rotated 180\n"
        "degrees, sorted by row, column, upright first; analysed in one pass with the game's\n"
        "cities as they are. Returns (now, found): the ScoreFigures fields of each city of\n"
        "the game, and (row, col, rotated, ScoreFigures fields) of each candidate after\n"
        "which the city is legal, in the candidates' order.");
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
        const Scored found = score_all(batch, rows, 1, details_of(details));
        return py::make_tuple(as_tuples(found), styles_over(batch, games, style_limit),
                              listed_of(found));
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
