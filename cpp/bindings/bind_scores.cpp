#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "columns.hpp"
#include "figures.hpp"
#include "neweden/json_game.hpp"
#include "neweden/names.hpp"
#include "neweden/placements.hpp"
#include "neweden/scores.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

// A Python list of ints as T values: ValueError for anything but ints, OverflowError for
// one beyond T (the format bounds points by MAX_POINTS, so a decoded game's fit int32).
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

// {city: CityFigures fields} of the cities whose details were asked (as instances of
// `type`, or plain tuples).
py::dict listed_of(const Scored& s, PyTypeObject* type = nullptr) {
  py::dict listed;
  for (std::size_t k = 0; k < s.figures.size(); ++k) {
    if (s.listed(k)) {
      listed[py::int_(k)] = figures(s.analyses[k], type);
    }
  }
  return listed;
}

// `f` as an instance of `type` (the caller's ScoreFigures, a named tuple: instance_of), or
// as a plain tuple: its fields in their order, `legal` a bool.
py::object score_instance(PyTypeObject* type, const ScoreFigures& f) {
  const ScoreRow row = score_row(f);
  return instance_of(type, row.size(), [&](std::size_t i) {
    return i == 0 ? new_bool(f.legal) : new_int(row[i]);
  });
}

// Every city's ScoreFigures as score_instance makes it (one is made for every city scored).
py::list as_tuples(const Scored& s, PyTypeObject* type = nullptr) {
  PyObject* answer = PyList_New(static_cast<Py_ssize_t>(s.figures.size()));
  if (answer == nullptr) {
    throw py::error_already_set();
  }
  auto owned = py::reinterpret_steal<py::list>(answer);
  for (std::size_t k = 0; k < s.figures.size(); ++k) {
    PyList_SET_ITEM(answer, static_cast<Py_ssize_t>(k),
                    score_instance(type, s.figures[k]).release().ptr());
  }
  return owned;
}

// Every city's ScoreFigures fields as a row of a (cities x fields) int64 array (the
// columnar path reads them as columns; `legal` is 0 or 1).
py::array_t<std::int64_t> as_array(const Scored& s) {
  const auto n = static_cast<py::ssize_t>(s.figures.size());
  py::array_t<std::int64_t> out({n, static_cast<py::ssize_t>(kScoreFields.size())});
  auto at = out.mutable_unchecked<2>();
  for (py::ssize_t k = 0; k < n; ++k) {
    const ScoreRow row = score_row(s.figures[static_cast<std::size_t>(k)]);
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

// `f` as an instance of `figures` (a tuple type whose fields are kScoreFields: the caller's
// named tuple), made as tuple.__new__(figures, fields) makes it, without a Python call.
py::object figures_of(PyTypeObject* figures, const ScoreFigures& f) {
  return score_instance(figures, f);
}

// The legal placements of a card next to city `seat` of a game, from packing's rows (nine
// ints a card, `offsets` where each city starts): the game's cities, then the card as a city
// of one (its row and column ignored, its sides as printed). The kernel alone decides which
// candidates leave the city legal (legal_candidates); then one pass gives the score figures
// of the game's cities and of the city after each legal candidate. Returns (before, bases,
// figures, found): city `seat`'s figures as it is; each city's bases (all D5 reads of the
// others); the distinct figures the legal candidates leave; and (row, col, rotated, k) of
// each legal candidate, in the candidates' order, figures[k] the city's after it. Figures as instances of `figures`. Only what the caller reads: no array to
// slice, no row of an illegal city to convert, no figures twice.
py::tuple placed(const std::vector<std::int32_t>& cells, const std::vector<std::int64_t>& at,
                 std::size_t seat, const py::type& figures);

py::tuple placements(const py::list& flat, const py::list& offsets, std::size_t seat,
                     const py::type& figures) {
  return placed(ints<std::int32_t>(flat, "flat"), ints<std::int64_t>(offsets, "offsets"), seat,
                figures);
}

// A Python list of ints, made with the C API (pybind11's item assignment costs more than
// the packing itself on a table of a few hundred ints).
template <class T>
py::list list_of(const std::vector<T>& values) {
  PyObject* out = PyList_New(static_cast<py::ssize_t>(values.size()));
  if (out == nullptr) {
    throw py::error_already_set();
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    PyObject* item = PyLong_FromLongLong(static_cast<long long>(values[i]));
    if (item == nullptr) {
      Py_DECREF(out);
      throw py::error_already_set();
    }
    PyList_SET_ITEM(out, static_cast<py::ssize_t>(i), item);
  }
  return py::reinterpret_steal<py::list>(out);
}

// The names the format spells, from Python's tables (the core keeps none of its own): made
// once for the tables a caller hands over (module constants), again if others come.
const FormatNames& format_names(const py::tuple& facilities, const py::tuple& sides) {
  static PyObject* last_facilities = nullptr;
  static PyObject* last_sides = nullptr;
  static FormatNames names;
  if (facilities.ptr() != last_facilities || sides.ptr() != last_sides) {
    FormatNames made;  // whole before it replaces the table (a cast may throw)
    for (const auto& name : facilities) {
      made.facilities.intern(py::cast<std::string>(name));
    }
    for (const auto& name : sides) {
      made.sides.intern(py::cast<std::string>(name));
    }
    names = std::move(made);
    Py_XDECREF(last_facilities);  // the tables are kept alive while they are the ones read
    Py_XDECREF(last_sides);
    last_facilities = facilities.inc_ref().ptr();
    last_sides = sides.inc_ref().ptr();
  }
  return names;
}

// score_games of a table already in vectors: the ScoreFigures of every city as tuples, the
// styles each game shows more than style_limit times, the per-card figures of the cities
// `details` asks for, and with `columns` the figures again as an array.
py::tuple score_table(const std::vector<std::int32_t>& cells, const std::vector<std::int64_t>& at,
                      const std::vector<std::int64_t>& games, std::int32_t style_limit,
                      int details, bool columns, const py::object& figures_type,
                      const py::object& city_type) {
  PyTypeObject* const score_as = tuple_type(figures_type);
  PyTypeObject* const city_as = tuple_type(city_type);
  if (cells.size() % 9 != 0) {
    throw py::value_error("the flat table must hold nine ints per card");
  }
  const RowTable rows(cells.data(), cells.size() / 9, 9);
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
  return py::make_tuple(as_tuples(found, score_as), styles_over(batch, games, style_limit),
                        listed_of(found, city_as),
                        columns ? py::object(as_array(found)) : py::object(py::none()));
}

// A catalog's cards as the strict reader packs them from an id: (id, wild, style, type,
// facility, points, stars, sides) each, the facility by name and the sides as a bit mask
// (as the reader numbers them), and the ids of its other cards (withheld: refused); made
// once a catalog, shared by the packers that read it.
struct ReaderCatalog {
  std::shared_ptr<const CatalogCards> cards;

  ReaderCatalog(const py::list& entries, const py::list& withheld, const FormatNames& names) {
    auto made = std::make_shared<CatalogCards>();
    for (const py::handle id : withheld) {
      (*made)[id.cast<std::string>()].withheld = true;
    }
    for (const py::handle item : entries) {
      const auto card = item.cast<py::tuple>();
      CatalogCard found;
      found.wild = card[1].cast<bool>();
      found.style = card[2].cast<std::string>();
      found.type = card[3].cast<std::string>();
      const auto facility = card[4].cast<std::string>();
      found.facility = found.wild ? -1 : names.facilities.find(facility);
      if (!found.wild && found.facility < 0) {
        throw py::value_error("not a facility: " + facility);
      }
      found.points = card[5].cast<std::int32_t>();
      found.stars = card[6].cast<std::int32_t>();
      found.sides = card[7].cast<std::uint8_t>();
      (*made)[card[0].cast<std::string>()] = std::move(found);
    }
    cards = std::move(made);
  }
};

// A JsonGamePacker with the names it reads by, copied from Python's tables: its own copy, as
// the table format_names keeps is replaced when another call hands other tables over.
class JsonPacker {
 public:
  JsonPacker(const py::tuple& facilities, const py::tuple& sides, const CityLimits& limits)
      : names_(format_names(facilities, sides)), packer_(names_, limits) {}
  JsonPacker(const JsonPacker&) = delete;
  JsonPacker& operator=(const JsonPacker&) = delete;

  // How many style and type names the game numbered first, or -1 when it is refused.
  long add(const py::bytes& game) {
    const std::string_view data = game;
    if (!packer_.add(reinterpret_cast<const std::uint8_t*>(data.data()), data.size())) {
      return -1;
    }
    return static_cast<long>(packer_.styles().size() - packer_.last_styles() +
                             packer_.types().size() - packer_.last_types());
  }

  void drop_last() { packer_.drop_last(); }

  // The cards a city may name by id (a catalog made once, shared by every packer).
  void set_catalog(const ReaderCatalog& catalog) {
    catalog_ = catalog.cards;
    packer_.set_catalog(catalog_.get());
  }

  // Each game's cards given by catalog id, in city and card order: a list of ids a game.
  py::list ids() const {
    const auto& first = packer_.first_id();
    const auto& ids = packer_.ids();
    py::list out(first.empty() ? 0 : first.size() - 1);
    for (std::size_t g = 0; g + 1 < first.size(); ++g) {
      py::list game;
      for (auto k = first[g]; k < first[g + 1]; ++k) {
        game.append(py::str(ids[static_cast<std::size_t>(k)]));
      }
      out[g] = std::move(game);
    }
    return out;
  }

  // Each game's cards given by catalog id, (player, index in the city, row, col), in the
  // order of ids().
  py::list id_places() const { return places_by_game(packer_.id_rows()); }

  // Per game, whether one of its cards is given by an id the catalog does not hold.
  py::list unresolved() const {
    py::list out;
    for (const auto one : packer_.unresolved()) {
      out.append(py::bool_(one != 0));
    }
    return out;
  }

  // The game added last (the same bytes) with each city given as `[]`.
  py::bytes head(const py::bytes& game) const {
    const std::string_view data = game;
    return py::bytes(packer_.head(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));
  }

  // The games of `games` from `start` read in turn, as add(), head() and then `decode`
  // (the head's reader: None drops the game) do one by one: what `decode` made of each
  // appended to `out`, None for a game refused (not bytes, under `min_size` bytes, or
  // refused by the strict reader or by `decode`). Stops after a game that numbered new
  // style or type names (the caller checks them: it may drop that game): (the index of
  // the next game, whether it stopped so).
  py::tuple read_many(const py::list& games, std::size_t start, std::size_t min_size,
                      const py::object& decode, py::list& out) {
    for (std::size_t i = start; i < games.size(); ++i) {  // (decode may change the list)
      const py::object game = games[i];  // held while decode runs
      const auto size = PyBytes_Check(game.ptr())
                            ? static_cast<std::size_t>(PyBytes_GET_SIZE(game.ptr()))
                            : std::size_t{0};
      if (size == 0 || size < min_size) {  // (0: not bytes, or no document)
        out.append(py::none());
        continue;
      }
      const auto* data = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(game.ptr()));
      if (!packer_.add(data, size)) {
        out.append(py::none());
        continue;
      }
      const auto read = py::reinterpret_steal<py::object>(decoded(decode, data, size));
      if (!read) {
        packer_.drop_last();  // (as if it had never been read)
        throw py::error_already_set();
      }
      if (read.is_none()) {
        packer_.drop_last();
        out.append(py::none());
        continue;
      }
      out.append(read);
      if (packer_.styles().size() != packer_.last_styles() ||
          packer_.types().size() != packer_.last_types()) {
        return py::make_tuple(i + 1, true);
      }
    }
    return py::make_tuple(games.size(), false);
  }

  // read_many() of one game into a cleared packer (a game scored alone): what `decode`
  // made of its head, or None, nothing kept, when the reader or `decode` refuses it. Every
  // name it shows is numbered first (added_names() gives them to check).
  py::object read_alone(const py::bytes& game, const py::object& decode) {
    packer_.clear();
    const std::string_view data = game;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data());
    if (data.empty() || !packer_.add(bytes, data.size())) {
      return py::none();
    }
    auto read = py::reinterpret_steal<py::object>(decoded(decode, bytes, data.size()));
    if (!read) {
      packer_.clear();
      throw py::error_already_set();
    }
    if (read.is_none()) {
      packer_.clear();
    }
    return read;
  }

  // table(), ids(), unresolved(), id_places() and score() in one call (a game alone):
  // (table, ids, unresolved, id_places, score).
  py::tuple scored_table(std::int32_t style_limit, int details, bool columns,
                         const py::object& figures_type, const py::object& city_type) const {
    return py::make_tuple(table(), ids(), unresolved(), id_places(),
                          score(style_limit, details, columns, figures_type, city_type));
  }

  // The style and type names that the game added last numbered first.
  py::tuple added_names() const {
    return py::make_tuple(names_from(packer_.styles(), packer_.last_styles()),
                          names_from(packer_.types(), packer_.last_types()));
  }

  // score_games of the games added, from the packer's own table (no list in between).
  py::tuple score(std::int32_t style_limit, int details, bool columns,
                  const py::object& figures_type, const py::object& city_type) const {
    return score_table(packer_.cells(), packer_.offsets(), packer_.first_city(), style_limit,
                       details, columns, figures_type, city_type);
  }

  // placements() of the games added, from the packer's own table: the game's cities, then
  // the card as the one city of the game added last.
  py::tuple placements(std::size_t seat, const py::type& figures) const {
    return placed(packer_.cells(), packer_.offsets(), seat, figures);
  }

  // The number of cards of city `city` of the table (counting every game's cities).
  std::int64_t cards(std::size_t city) const {
    const auto& offsets = packer_.offsets();
    if (city + 1 >= offsets.size()) {
      throw py::index_error("no such city");
    }
    return offsets[city + 1] - offsets[city];
  }

  // (flat, offsets, first_city, rotated, styles, types) of the games added: flat as the
  // bytes of its int32s (Python reads them as an array, one copy, no object per int);
  // rotated, a list a game of its rotated cards as (player, index in the city, row, col);
  // the rest as lists.
  py::tuple table() const {
    const auto& cells = packer_.cells();
    const py::bytes flat(reinterpret_cast<const char*>(cells.data()),
                         cells.size() * sizeof(std::int32_t));
    return py::make_tuple(flat, list_of(packer_.offsets()),
                          list_of(packer_.first_city()), places_by_game(packer_.rotated()),
                          names_from(packer_.styles(), 0), names_from(packer_.types(), 0));
  }

 private:
  // Some cards of each game (the rotated ones, those given by id), (player, index in the
  // city, row, col), found from their `rows` of the table (ascending, as the packer read them).
  py::list places_by_game(const std::vector<std::int64_t>& rows) const {
    const auto& offsets = packer_.offsets();
    const auto& cells = packer_.cells();
    const auto& first_city = packer_.first_city();
    const std::size_t games = first_city.empty() ? 0 : first_city.size() - 1;
    py::list out(games);
    auto row = rows.begin();
    const auto last = rows.end();
    for (std::size_t g = 0; g < games; ++g) {
      py::list cards;
      const auto first = static_cast<std::size_t>(first_city[g]);
      const std::int64_t stop = offsets[static_cast<std::size_t>(first_city[g + 1])];
      for (std::size_t city = first; row != last && *row < stop; ++row) {
        while (offsets[city + 1] <= *row) {
          ++city;
        }
        const auto at = static_cast<std::size_t>(*row) * 9;  // its row: 9 ints a card
        cards.append(py::make_tuple(city - first, *row - offsets[city], cells[at], cells[at + 1]));
      }
      out[g] = std::move(cards);
    }
    return out;
  }

  // decode(head of the game added last), a new reference; nullptr with the error set.
  PyObject* decoded(const py::object& decode, const std::uint8_t* data, std::size_t size) const {
    const auto head = py::reinterpret_steal<py::object>(PyBytes_FromStringAndSize(
        nullptr, static_cast<Py_ssize_t>(packer_.head_size(size))));
    if (!head) {
      return nullptr;
    }
    packer_.head_into(data, size, PyBytes_AS_STRING(head.ptr()));
    return PyObject_CallOneArg(decode.ptr(), head.ptr());
  }

  static py::list names_from(const NameTable& table, std::size_t first) {
    py::list out;
    const auto& names = table.names();
    for (std::size_t i = first; i < names.size(); ++i) {
      out.append(py::str(names[i]));  // ASCII: the reader takes no other byte
    }
    return out;
  }

  FormatNames names_;
  std::shared_ptr<const CatalogCards> catalog_;  // kept while the packer reads from it
  JsonGamePacker packer_;
};

py::tuple placed(const std::vector<std::int32_t>& cells, const std::vector<std::int64_t>& at,
                 std::size_t seat, const py::type& figures) {
  if (cells.size() % 9 != 0 || at.size() < 3 || seat + 2 >= at.size() || at.front() != 0 ||
      static_cast<std::size_t>(at.back()) != cells.size() / 9 ||
      !std::is_sorted(at.begin(), at.end()) || at[at.size() - 2] + 1 != at.back()) {
    throw py::value_error(
        "flat and offsets must hold the game's cities (nine ints a card), seat among them, "
        "then the card as a city of one");
  }
  PyTypeObject* const type = tuple_type(figures);  // (None: plain tuples)
  const std::size_t cities = at.size() - 2;
  const auto lo = static_cast<std::size_t>(at[seat]) * 9;
  const auto hi = static_cast<std::size_t>(at[seat + 1]) * 9;
  const std::size_t game = cells.size() - 9;  // the game's cells; the card's nine follow
  const RowTable city(cells.data() + lo, (hi - lo) / 9, 9);
  const RowTable one(cells.data() + game, 1, 9);  // checks the card's codes
  const auto sides = static_cast<SideMask>(cells[game + 5]);
  const std::vector<Candidate> found = legal_candidates(city.cards(), one.cards());
  std::vector<std::int32_t> table(cells.begin(), cells.begin() + static_cast<std::ptrdiff_t>(game));
  std::vector<std::int64_t> starts(at.begin(), at.end() - 1);
  table.reserve(game + found.size() * (hi - lo + 9));
  for (const Candidate& c : found) {  // the game as it is, then each legal candidate city
    table.insert(table.end(), cells.begin() + static_cast<std::ptrdiff_t>(lo),
                 cells.begin() + static_cast<std::ptrdiff_t>(hi));
    const auto put = table.insert(table.end(), cells.begin() + static_cast<std::ptrdiff_t>(game),
                                  cells.end());
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
  // the rules read the player's city as it is whole, of the others only their bases (D5)
  const py::object before = figures_of(type, scored.figures[seat]);
  PyObject* bases = PyList_New(static_cast<py::ssize_t>(cities));
  if (bases == nullptr) {
    throw py::error_already_set();
  }
  const py::list every_bases = py::reinterpret_steal<py::list>(bases);
  for (std::size_t p = 0; p < cities; ++p) {
    PyList_SET_ITEM(bases, static_cast<py::ssize_t>(p), PyLong_FromLong(scored.figures[p].bases));
  }
  // Placements often leave equal figures (about half of them): each is handed over once, and
  // the rules score it once.
  std::vector<ScoreRow> seen;
  py::list distinct;
  py::list legal(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    const ScoreFigures& f = scored.figures[cities + i];
    const ScoreRow row = score_row(f);
    const auto k =
        static_cast<std::size_t>(std::find(seen.begin(), seen.end(), row) - seen.begin());
    if (k == seen.size()) {
      seen.push_back(row);
      distinct.append(figures_of(type, f));
    }
    const Candidate& c = found[i];
    legal[i] = py::make_tuple(c.row, c.col, c.rotated, k);
  }
  return py::make_tuple(before, every_bases, distinct, legal);
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
      "columns of neweden.geometry.compact, then stars and points), as a (cities x SCORE_FIELDS)\n"
      "int64 array (legal 0 or 1), and {city: CityFigures fields} for the cities whose\n"
      "details were asked (details 0 none, 1 the illegal ones, 2 all). See\n"
      "neweden.geometry.");

  m.def("placements", &placements, py::arg("flat"), py::arg("offsets"), py::arg("seat"),
        py::arg("figures"),
        "The legal placements of a card next to city `seat` of a game, from packing's rows\n"
        "(nine ints a card, as score_games's): the game's cities, then the card as a city\n"
        "of one (its row and column ignored). Candidates: every empty cell next to a card of\n"
        "the city, upright and, when that changes its icons, rotated 180 degrees, sorted by\n"
        "row, column, upright first; the kernel keeps those after which the city is legal.\n"
        "Returns (before, bases, figures, found): the score figures of city `seat` as it is;\n"
        "the bases of each city of the game; the distinct figures the legal candidates\n"
        "leave; and (row, col, rotated, k) of each legal candidate, figures[k] those of the\n"
        "city after it. Figures as instances of `figures` (a tuple type with SCORE_FIELDS).");
  py::class_<ReaderCatalog>(m, "ReaderCatalog",
                            "A catalog's cards as the strict reader packs them from an id.")
      .def(py::init([](const py::list& cards, const py::list& withheld,
                       const py::tuple& facilities, const py::tuple& sides) {
             return ReaderCatalog(cards, withheld, format_names(facilities, sides));
           }),
           py::arg("cards"), py::arg("withheld"), py::arg("facilities"), py::arg("sides"),
           "cards: (id, wild, style, type, facility, points, stars, sides mask) each;\n"
           "withheld: the ids of the catalog's other cards (a city naming one is refused).");
  py::class_<JsonPacker>(m, "JsonPacker",
                         "The cities of games read from their JSON text into one score table\n"
                         "(nine ints a card, as pack_games packs them), game after game.")
      .def(py::init([](const py::tuple& facilities, const py::tuple& sides,
                       std::int32_t max_cards, std::int32_t max_coordinate,
                       std::int32_t max_points, std::int32_t max_stars,
                       std::size_t max_string) {
             return std::make_unique<JsonPacker>(
                 facilities, sides,
                 CityLimits{max_cards, max_coordinate, max_points, max_stars, max_string});
           }),
           py::arg("facilities"), py::arg("sides"), py::arg("max_cards"),
           py::arg("max_coordinate"), py::arg("max_points"), py::arg("max_stars"),
           py::arg("max_string"))
      .def("add", &JsonPacker::add, py::arg("game"),
           "Adds the cities of a game (a JSON document; head() gives the rest to read):\n"
           "how many style and type names it numbered first; -1, adding nothing, for\n"
           "anything the strict reader does not read exactly as the exact path (a catalog\n"
           "id, an escape, a repeated key...).")
      .def("read_many", &JsonPacker::read_many, py::arg("games"), py::arg("start"),
           py::arg("min_size"), py::arg("decode"), py::arg("out"),
           "Reads games[start:] in turn as add(), head() and decode(head) do (decode\n"
           "returning None drops the game), appending what decode made of each to out\n"
           "(None: refused, not bytes or under min_size bytes); stops after a game that\n"
           "numbered new names: (next index, whether it stopped so).")
      .def("read_alone", &JsonPacker::read_alone, py::arg("game"), py::arg("decode"),
           "Clears the packer and reads one game as read_many() does: what decode made of\n"
           "its head, or None (nothing kept) when the reader or decode refuses it.")
      .def("scored_table", &JsonPacker::scored_table, py::arg("style_limit"),
           py::arg("details") = 0, py::arg("columns") = false, py::arg("figures") = py::none(),
           py::arg("city_figures") = py::none(),
           "(table(), ids(), unresolved(), id_places(), score(...)) in one call.")
      .def("added_names", &JsonPacker::added_names,
           "(styles, types): the names the game added last numbered first.")
      .def("head", &JsonPacker::head, py::arg("game"),
           "The game added last (give the same bytes) with each city given as [], for\n"
           "msgspec to read the rest: only after add() took it.")
      .def("drop_last", &JsonPacker::drop_last,
           "Forgets the game added last (nothing when the last add() returned -1).")
      .def("set_catalog", &JsonPacker::set_catalog, py::arg("catalog"),
           "The cards a city may name by id (a ReaderCatalog): an id it does not hold is\n"
           "packed unresolved, a withheld card refused; with none set, every id is refused.")
      .def("ids", &JsonPacker::ids,
           "Each game's cards given by catalog id, in city and card order.")
      .def("id_places", &JsonPacker::id_places,
           "Each game's cards given by catalog id, (player, index in the city, row, col), in\n"
           "the order of ids().")
      .def("unresolved", &JsonPacker::unresolved,
           "Per game, whether one of its cards is given by an id the catalog does not hold\n"
           "(packed as an unresolved row: the core leaves it out).")
      .def("score", &JsonPacker::score, py::arg("style_limit"), py::arg("details") = 0,
           py::arg("columns") = false, py::arg("figures") = py::none(),
           py::arg("city_figures") = py::none(),
           "score_games of the games added, read from the packer's own table (as\n"
           "score_games reads table()'s lists, when no name was folded since).")
      .def("placements", &JsonPacker::placements, py::arg("seat"), py::arg("figures"),
           "placements() of the games added, from the packer's own table: the game's\n"
           "cities, then the card as the one city of the game added last.")
      .def("cards", &JsonPacker::cards, py::arg("city"),
           "The number of cards of a city of the table (every game's cities counted).")
      .def("table", &JsonPacker::table,
           "(flat, offsets, first_city, rotated, styles, types) of the games added\n"
           "(flat: the bytes of its int32s, in the machine's order; rotated: the table\n"
           "row of each rotated card, ascending).");
  m.def(
      "score_games",
      [](const py::list& flat, const py::list& offsets, const py::list& groups,
         std::int32_t style_limit, int details, bool columns, const py::object& figures_type,
         const py::object& city_type) {
        // The same as score_rows, from the lists packing builds (no array in between), and
        // per group of cities (a game) the styles shown more than style_limit times.
        const std::vector<std::int32_t> cells = ints<std::int32_t>(flat, "flat");
        const std::vector<std::int64_t> at = ints<std::int64_t>(offsets, "offsets");
        const std::vector<std::int64_t> games = ints<std::int64_t>(groups, "groups");
        return score_table(cells, at, games, style_limit, details, columns, figures_type,
                           city_type);
      },
      py::arg("flat"), py::arg("offsets"), py::arg("groups"), py::arg("style_limit"),
      py::arg("details") = 0, py::arg("columns") = false, py::arg("figures") = py::none(),
      py::arg("city_figures") = py::none(),
      "The score figures of every city of a flat table (a list of nine ints per card, as\n"
      "score_rows's rows); (group, style, count) for the styles more than style_limit\n"
      "common cards of a group of cities show; and {city: CityFigures fields} for the\n"
      "cities whose details were asked in the same pass: details 0 none, 1 the illegal\n"
      "ones, 2 all; with `columns`, the score figures again as score_rows's array (else\n"
      "None); figures and city_figures: the tuple types to make them as (None: tuples).\n"
      "See neweden.geometry.compact.pack_games.");
}

}  // namespace neweden::bindings
