// The lean report lines of a chunk of games, written from the chunk's columns (issue 19):
// the bytes msgspec writes for the same neweden.scoring.types.Report, without a Report, a
// PlayerReport or a ProblemItem made first. Python finds the problems and places them
// (neweden.scoring.report._ChunkReports.lines); this only writes. A game with anything this
// writer does not write exactly as msgspec would (a string Python cannot give as UTF-8, a
// value of another type) gets None: Python makes that game's report the usual way.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

// The columns of the numbers array, in this order (report.LINE_COLUMNS says the same).
enum Number : py::ssize_t {
  kCards,
  kOpenConnections,
  kStars,
  kRequirements,
  kEpiphanies,
  kTenCards,
  kBonuses,
  kTotal,
  kPlace,
  kLabs,
  kShelters,
  kMedical,
  kTowers,
  kBases,
  kMilitary,
  kNumbers,
};

// A value this writer does not write (the game is made the usual way).
struct Unwritable {};

template <std::size_t N>
void put(std::string& out, const char (&text)[N]) {
  out.append(text, N - 1);
}

void put_int(std::string& out, long long v) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  if (ec != std::errc()) {
    throw Unwritable{};
  }
  out.append(buffer, end);
}

// Whether one of 8 bytes is a control character, `"` or `\` (exact for the whole word: the
// bit tricks of "Bit Twiddling Hacks", hasless and haszero).
inline bool escapes_in(const char* s) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  std::uint64_t x = 0;
  std::memcpy(&x, s, sizeof x);
  const std::uint64_t quote = x ^ (kOnes * '"');
  const std::uint64_t backslash = x ^ (kOnes * '\\');
  const std::uint64_t found = ((x - kOnes * 0x20) & ~x) | ((quote - kOnes) & ~quote) |
                              ((backslash - kOnes) & ~backslash);
  return (found & kHighs) != 0;
}

// A JSON string as msgspec writes it: `"` and `\` escaped, \b \t \n \f \r as such, the other
// control characters as \u00xx (lower-case hex), everything else (DEL, non-ASCII) as UTF-8.
void put_utf8(std::string& out, const char* s, std::size_t n) {
  static const char* const hex = "0123456789abcdef";
  out += '"';
  std::size_t plain = 0;  // the start of the run not yet copied
  std::size_t i = 0;
  while (i < n) {
    if (i + 8 <= n && !escapes_in(s + i)) {
      i += 8;
      continue;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    out.append(s + plain, i - plain);
    plain = i + 1;
    ++i;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default:
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 0xF];
    }
  }
  out.append(s + plain, n - plain);
  out += '"';
}

// The UTF-8 of a str (kept by it), or Unwritable.
std::string_view utf8(PyObject* value) {
  if (!PyUnicode_CheckExact(value)) {
    throw Unwritable{};
  }
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(value, &n);
  if (s == nullptr) {  // a lone surrogate: msgspec refuses it too
    PyErr_Clear();
    throw Unwritable{};
  }
  return {s, static_cast<std::size_t>(n)};
}

void put_str(std::string& out, PyObject* value) {
  const std::string_view text = utf8(value);
  put_utf8(out, text.data(), text.size());
}

// An int (not a bool) as a long long, or Unwritable.
long long exact_int(PyObject* value) {
  if (!PyLong_CheckExact(value)) {
    throw Unwritable{};
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (overflow != 0 || (v == -1 && PyErr_Occurred() != nullptr)) {
    PyErr_Clear();
    throw Unwritable{};
  }
  return v;
}

// A borrowed item of a tuple or list (anything else is not written).
PyObject* item(PyObject* sequence, Py_ssize_t i) {
  if (PyTuple_CheckExact(sequence)) {
    return PyTuple_GET_ITEM(sequence, i);
  }
  return PyList_GET_ITEM(sequence, i);
}

Py_ssize_t length(PyObject* sequence) {
  if (PyTuple_CheckExact(sequence)) {
    return PyTuple_GET_SIZE(sequence);
  }
  if (PyList_CheckExact(sequence)) {
    return PyList_GET_SIZE(sequence);
  }
  throw Unwritable{};
}

// A new reference to an attribute (interned name), or Unwritable.
py::object attribute(PyObject* object, PyObject* name) {
  PyObject* value = PyObject_GetAttr(object, name);
  if (value == nullptr) {
    PyErr_Clear();
    throw Unwritable{};
  }
  return py::reinterpret_steal<py::object>(value);
}

struct Names {
  PyObject* code = PyUnicode_InternFromString("code");
  PyObject* message = PyUnicode_InternFromString("message");
  PyObject* path = PyUnicode_InternFromString("path");
  PyObject* cells = PyUnicode_InternFromString("cells");
};

const Names& names() {
  static const Names* kept = new Names();  // never freed: no destructor after the interpreter
  return *kept;
}

// A neweden.format.problems.Problem as the ProblemItem it becomes: code, message, path,
// cells as arrays.
void put_problem(std::string& out, PyObject* problem) {
  const Names& n = names();
  put(out, "{\"code\":");
  put_str(out, attribute(problem, n.code).ptr());
  put(out, ",\"message\":");
  put_str(out, attribute(problem, n.message).ptr());
  put(out, ",\"path\":");
  put_str(out, attribute(problem, n.path).ptr());
  put(out, ",\"cells\":[");
  py::object cells = attribute(problem, n.cells);
  const Py_ssize_t count = length(cells.ptr());
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* cell = item(cells.ptr(), i);
    if (length(cell) != 2) {
      throw Unwritable{};
    }
    if (i > 0) {
      out += ',';
    }
    out += '[';
    put_int(out, exact_int(item(cell, 0)));
    out += ',';
    put_int(out, exact_int(item(cell, 1)));
    out += ']';
  }
  put(out, "]}");
}

// A problem and where it goes, as neweden.scoring.report._place tells it: the player its path
// points into (-1: none, the top level) and whether it points into that player's city.
struct Rotation;

struct Placed {
  PyObject* problem;  // borrowed (the list holding it lives through the call); or null for
  const Rotation* rotation;  // a rotated card's warning, written from its numbers
  std::string_view path;
  long long player;
  bool in_city;
};

// A `rotated_without_epiphany` Python did not make a Problem of: player p's card `index`, at
// (row, col) (neweden.rules.warnings.unallowed_rotations), and its path.
struct Rotation {
  long long values[4];  // player, index, row, col
  std::string path;
};

// The sentence of `rotated_without_epiphany` in the run's language
// (neweden.rules.warnings.RotatedForm): its code, and its pieces as JSON string content
// around the card's index, row and column, each gap taking values[1 + order[k]].
struct RotatedForm {
  std::string code;  // as a JSON string
  std::vector<std::string> pieces;
  std::vector<int> order;
};

using Problems = std::vector<Placed>;

bool digits(std::string_view t) {
  if (t.empty()) {
    return false;
  }
  for (char c : t) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

std::string_view without_zeros(std::string_view t) {
  while (t.size() > 1 && t.front() == '0') {
    t.remove_prefix(1);
  }
  return t;
}

// neweden.format.problems.pointer_order(a) < pointer_order(b): the tokens after the first
// `/`, an all-digit one (an index) before any other and compared as a number, the others
// by code point (the order of their UTF-8 bytes).
bool before(std::string_view a, std::string_view b) {
  auto rest = [](std::string_view p) {
    const std::size_t slash = p.find('/');
    return slash == std::string_view::npos ? std::string_view() : p.substr(slash + 1);
  };
  const bool a_none = a.find('/') == std::string_view::npos;
  const bool b_none = b.find('/') == std::string_view::npos;
  if (a_none || b_none) {
    return a_none && !b_none;  // no token: before any token
  }
  a = rest(a);
  b = rest(b);
  while (true) {
    const std::size_t ea = a.find('/');
    const std::size_t eb = b.find('/');
    const std::string_view ta = a.substr(0, ea);
    const std::string_view tb = b.substr(0, eb);
    const bool na = digits(ta);
    const bool nb = digits(tb);
    if (na != nb) {
      return na;
    }
    if (na) {
      const std::string_view va = without_zeros(ta);
      const std::string_view vb = without_zeros(tb);
      if (va.size() != vb.size()) {
        return va.size() < vb.size();
      }
      if (va != vb) {
        return va < vb;
      }
    } else if (ta != tb) {
      return ta < tb;  // bytes compared as unsigned: code point order
    }
    if (ea == std::string_view::npos || eb == std::string_view::npos) {
      return ea == std::string_view::npos && eb != std::string_view::npos;
    }
    a.remove_prefix(ea + 1);
    b.remove_prefix(eb + 1);
  }
}

constexpr std::string_view kPlayers = "/players/";

// Whether `path` (the path of a problem placed under player p) points into p's city.
bool in_city(std::string_view path, long long p) {
  const std::string city = std::string(kPlayers) + std::to_string(p) + "/city";
  return path.substr(0, city.size()) == city;
}

// `rotations` ((player, index, row, col) tuples) read into `kept` (reserved first: the
// Placed entries view their paths) and added to `out`.
void add_rotations(Problems& out, PyObject* rotations, long long players,
                   std::vector<Rotation>& kept) {
  const Py_ssize_t count = length(rotations);
  kept.clear();
  kept.reserve(static_cast<std::size_t>(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* four = item(rotations, i);
    if (length(four) != 4) {
      throw Unwritable{};
    }
    Rotation r{};
    for (Py_ssize_t v = 0; v < 4; ++v) {
      r.values[v] = exact_int(item(four, v));
    }
    if (r.values[0] < 0 || r.values[0] >= players || r.values[1] < 0) {
      throw Unwritable{};
    }
    r.path = std::string(kPlayers) + std::to_string(r.values[0]) + "/city/" +
             std::to_string(r.values[1]) + "/rotated";
    kept.push_back(std::move(r));
  }
  for (const Rotation& r : kept) {
    out.push_back({nullptr, &r, r.path, r.values[0], true});
  }
}

// `problems` (a list of Problem) and `rotations` (rotated cards' warnings not made; null:
// none) in document order, each placed; Unwritable for a path this does not place as
// neweden.scoring.report._place would for certain (a control or non-ASCII byte), or one
// pointing at a player the game does not have. No rotated card's path is another
// problem's: the order of ties (the stable sort's) does not depend on where they were added.
Problems placed(PyObject* problems, long long players, PyObject* rotations,
                std::vector<Rotation>& kept) {
  Problems out;
  const Py_ssize_t count = length(problems);
  const Py_ssize_t rotated = rotations == nullptr ? 0 : length(rotations);
  out.reserve(static_cast<std::size_t>(count + rotated));
  PyObject* path_name = names().path;
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* problem = item(problems, i);
    // The path's str is kept alive by the Problem (immutable), so its UTF-8 is too.
    py::object path_object = attribute(problem, path_name);
    if (Py_REFCNT(path_object.ptr()) < 2) {  // not held by the Problem: its view would dangle
      throw Unwritable{};
    }
    const std::string_view path = utf8(path_object.ptr());
    for (char c : path) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x80) {
        throw Unwritable{};
      }
    }
    Placed at{problem, nullptr, path, -1, false};
    if (path.substr(0, kPlayers.size()) == kPlayers) {
      std::size_t end = kPlayers.size();
      while (end < path.size() && path[end] >= '0' && path[end] <= '9') {
        ++end;
      }
      const std::string_view index = path.substr(kPlayers.size(), end - kPlayers.size());
      if (!index.empty() && (end == path.size() || path[end] == '/')) {
        const std::string_view value = without_zeros(index);
        if (value.size() > 6) {
          throw Unwritable{};
        }
        long long p = 0;
        for (char c : value) {
          p = p * 10 + (c - '0');
        }
        if (p >= players) {
          throw Unwritable{};
        }
        at.player = p;
        at.in_city = in_city(path, p);
      }
    }
    out.push_back(at);
  }
  if (rotations != nullptr) {
    add_rotations(out, rotations, players, kept);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Placed& x, const Placed& y) { return before(x.path, y.path); });
  return out;
}

// JSON string content (no quotes), escaped as msgspec escapes it.
std::string escaped(std::string_view text) {
  std::string out;
  put_utf8(out, text.data(), text.size());
  return out.substr(1, out.size() - 2);
}

void put_rotation(std::string& out, const RotatedForm& form, const Rotation& r) {
  put(out, "{\"code\":");
  out += form.code;
  put(out, ",\"message\":\"");
  out += form.pieces[0];
  for (std::size_t k = 0; k < form.order.size(); ++k) {
    put_int(out, r.values[1 + form.order[k]]);
    out += form.pieces[k + 1];
  }
  put(out, "\",\"path\":\"");
  out += r.path;
  put(out, "\",\"cells\":[[");
  put_int(out, r.values[2]);
  out += ',';
  put_int(out, r.values[3]);
  put(out, "]]}");
}

// The problems placed under `player` (-1: the top level), as an array.
void put_problems(std::string& out, const Problems& problems, long long player,
                  const RotatedForm* form) {
  out += '[';
  bool first = true;
  for (const Placed& at : problems) {
    if (at.player != player) {
      continue;
    }
    if (!first) {
      out += ',';
    }
    first = false;
    if (at.rotation != nullptr) {
      if (form == nullptr) {
        throw Unwritable{};
      }
      put_rotation(out, *form, *at.rotation);
    } else {
      put_problem(out, at.problem);
    }
  }
  out += ']';
}

bool legal(const Problems& errors, long long player) {
  for (const Placed& at : errors) {
    if (at.player == player && at.in_city) {
      return false;
    }
  }
  return true;
}

// What a batch says of a game besides its line: its error codes as it counts them
// (neweden.scoring.results._result: those of the top level, then the players', in document
// order) and the first of those errors (the one its stdout line names), or None.
struct Verdict {
  py::tuple codes;
  py::object first = py::none();
};

Verdict verdict(const Problems& errors) {
  Verdict out;
  py::list found;
  for (const bool top : {true, false}) {
    for (const Placed& at : errors) {
      if ((at.player < 0) == top) {
        if (found.empty()) {
          out.first = py::reinterpret_borrow<py::object>(at.problem);
        }
        found.append(attribute(at.problem, names().code));
      }
    }
  }
  out.codes = py::tuple(found);
  return out;
}

// A number of a report's object, with the text written before it.
struct Keyed {
  std::string_view text;
  Number field;
};

// The Military object of a report entry (neweden.scoring.types.Military), whole...
constexpr Keyed kMilitaryKeys[] = {
    {"{\"labs\":", kLabs},    {",\"shelters\":", kShelters}, {",\"medical\":", kMedical},
    {",\"towers\":", kTowers}, {",\"bases\":", kBases},       {",\"total\":", kMilitary},
};
// ...and the fields of Score after `military`.
constexpr Keyed kScoreKeys[] = {
    {",\"epiphanies\":", kEpiphanies},
    {",\"ten_cards\":", kTenCards},
    {",\"bonuses\":", kBonuses},
    {",\"total\":", kTotal},
};

struct Chunk {
  py::detail::unchecked_reference<std::int64_t, 2> numbers;
  PyObject* names;  // list[str], a city
  PyObject* met;    // list[list[str] | None], a city
  const RotatedForm* rotated;  // null: no rotated card's warning is left to write
};

void put_player(std::string& out, const Chunk& c, Py_ssize_t k, long long p, bool populist,
                bool military, const Problems& errors, const Problems& warnings) {
  auto number = [&](Number field) { put_int(out, static_cast<long long>(c.numbers(k, field))); };
  auto keyed = [&](const auto& keys) {
    for (const Keyed& key : keys) {
      out += key.text;
      number(key.field);
    }
  };
  put(out, "{\"name\":");
  put_str(out, item(c.names, k));
  if (legal(errors, p)) {
    put(out, ",\"legal\":true,\"cards\":");
  } else {
    put(out, ",\"legal\":false,\"cards\":");
  }
  number(kCards);
  put(out, ",\"open_connections\":");
  number(kOpenConnections);
  put(out, ",\"stars\":");
  if (populist) {
    number(kStars);
    put(out, ",\"requirements_met\":[");
    PyObject* met = item(c.met, k);
    if (met != Py_None) {
      const Py_ssize_t count = length(met);
      for (Py_ssize_t i = 0; i < count; ++i) {
        if (i > 0) {
          out += ',';
        }
        put_str(out, item(met, i));
      }
    }
    out += ']';
  } else {
    put(out, "null,\"requirements_met\":null");
  }
  put(out, ",\"score\":{\"requirements\":");
  number(kRequirements);
  put(out, ",\"military\":");
  if (military) {
    keyed(kMilitaryKeys);  // {"labs":...,"total":...
    out += '}';
  } else {
    put(out, "null");
  }
  keyed(kScoreKeys);  // ,"epiphanies":... to ,"total":...
  put(out, "},\"place\":");
  number(kPlace);
  put(out, ",\"errors\":");
  put_problems(out, errors, p, c.rotated);
  put(out, ",\"warnings\":");
  put_problems(out, warnings, p, c.rotated);
  out += '}';
}

// One game: (mode, meta as JSON or None, populist, military, first city, stop, errors,
// warnings, rotated cards' warnings not made); its verdict is set in `said` (when invalid).
void put_game(std::string& out, const std::string& head, const Chunk& c, PyObject* game,
              Verdict& said) {
  if (!PyTuple_CheckExact(game) || PyTuple_GET_SIZE(game) != 9) {
    throw Unwritable{};
  }
  auto field = [game](Py_ssize_t i) { return PyTuple_GET_ITEM(game, i); };
  const bool populist = field(2) == Py_True;
  const bool military = field(3) == Py_True;
  const auto first = static_cast<Py_ssize_t>(exact_int(field(4)));
  const auto stop = static_cast<Py_ssize_t>(exact_int(field(5)));
  if (first < 0 || stop < first || stop > c.numbers.shape(0) ||
      stop > PyList_GET_SIZE(c.names) || stop > PyList_GET_SIZE(c.met)) {
    throw Unwritable{};
  }
  const auto players = static_cast<long long>(stop - first);
  std::vector<Rotation> no_rotations, rotations;
  const Problems errors = placed(field(6), players, nullptr, no_rotations);
  const Problems warnings = placed(field(7), players, field(8), rotations);
  out += head;
  if (errors.empty()) {
    put(out, "true,\"mode\":");
  } else {
    put(out, "false,\"mode\":");
  }
  put_str(out, field(0));
  put(out, ",\"meta\":");
  PyObject* meta = field(1);
  if (meta == Py_None) {
    put(out, "null");
  } else if (PyBytes_CheckExact(meta)) {
    out.append(PyBytes_AS_STRING(meta), static_cast<std::size_t>(PyBytes_GET_SIZE(meta)));
  } else {
    throw Unwritable{};
  }
  put(out, ",\"players\":[");
  for (Py_ssize_t k = first; k < stop; ++k) {
    if (k > first) {
      out += ',';
    }
    put_player(out, c, k, static_cast<long long>(k - first), populist, military, errors,
               warnings);
  }
  put(out, "],\"errors\":");
  put_problems(out, errors, -1, c.rotated);
  put(out, ",\"warnings\":");
  put_problems(out, warnings, -1, c.rotated);
  out += '}';
  if (!errors.empty()) {
    said = verdict(errors);
  }
}

// The rotated sentence given as a RotatedForm (code, pieces, order), or none.
std::optional<RotatedForm> rotated_form(const py::object& given) {
  if (given.is_none()) {
    return std::nullopt;
  }
  auto parts = given.cast<std::tuple<std::string, std::vector<std::string>, std::vector<int>>>();
  RotatedForm form;
  form.code = "\"" + escaped(std::get<0>(parts)) + "\"";
  for (const std::string& piece : std::get<1>(parts)) {
    form.pieces.push_back(escaped(piece));
  }
  form.order = std::get<2>(parts);
  if (form.pieces.size() != form.order.size() + 1) {
    throw py::value_error("a rotated form needs one piece more than its fields");
  }
  for (int k : form.order) {
    if (k < 0 || k > 2) {
      throw py::value_error("a rotated form's fields are the card's index, row and column");
    }
  }
  return form;
}

py::tuple report_lines(const std::string& head, const py::list& games,
                       const py::array_t<std::int64_t, py::array::c_style>& numbers,
                       const py::list& names, const py::list& met, const py::object& rotated) {
  if (numbers.ndim() != 2 || numbers.shape(1) != kNumbers) {
    throw py::value_error("numbers must be an array of cities x " + std::to_string(kNumbers));
  }
  const std::optional<RotatedForm> form = rotated_form(rotated);
  const Chunk c{numbers.unchecked<2>(), names.ptr(), met.ptr(), form ? &*form : nullptr};
  py::list lines(games.size());
  py::list all_codes(games.size());
  py::list firsts(games.size());
  std::string line;
  line.reserve(8192);
  for (std::size_t g = 0; g < games.size(); ++g) {
    line.clear();
    PyObject* written = nullptr;
    Verdict said;
    try {
      put_game(line, head, c, games[g].ptr(), said);
      written = PyBytes_FromStringAndSize(line.data(), static_cast<Py_ssize_t>(line.size()));
      if (written == nullptr) {
        throw py::error_already_set();
      }
    } catch (const Unwritable&) {
      written = Py_NewRef(Py_None);
      said = Verdict();
    }
    PyList_SET_ITEM(lines.ptr(), static_cast<Py_ssize_t>(g), written);
    all_codes[g] = said.codes;
    firsts[g] = said.first;
  }
  return py::make_tuple(lines, all_codes, firsts);
}

}  // namespace

void bind_lines(py::module_& m) {
  m.def("report_lines", &report_lines, py::arg("head"), py::arg("games"), py::arg("numbers"),
        py::arg("names"), py::arg("met"), py::arg("rotated") = py::none(),
        "The lean report line of each game of a chunk (None: a game to write the usual way), "
        "its error codes and its first error; see neweden.scoring.report._ChunkReports.lines.");
}

}  // namespace neweden::bindings
