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
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "figures.hpp"

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
struct Written;

struct Placed {
  PyObject* problem;  // borrowed (the list holding it lives through the call); or null for
  const Rotation* rotation;  // a rotated card's warning, written from its numbers, or
  const Written* written;    // an illegal city's problem written here (GeometryForms)
  std::string_view path;
  long long player;
  bool in_city;
};

// An `overlap` or `disconnected` written from an illegal city's figures: its path, its JSON
// object and its code (a str, for the verdict).
struct Written {
  long long player;
  std::string path;
  std::string json;
  PyObject* code;  // borrowed: the forms keep it
};

// A `rotated_without_epiphany` Python did not make a Problem of: player p's card `index`, at
// (row, col) (neweden.rules.warnings.unallowed_rotations), and its path.
struct Rotation {
  long long values[4];  // player, index, row, col
  std::string path;
};

// A sentence the writer fills (RotatedForm, neweden.rules.legality.GeometryForms): its
// pieces as JSON string content and, for each gap, the index of the value it takes.
struct Sentence {
  std::vector<std::string> pieces;
  std::vector<int> order;

  void fill(std::string& out, std::initializer_list<std::string_view> values) const {
    out += pieces[0];
    for (std::size_t k = 0; k < order.size(); ++k) {
      out += values.begin()[order[k]];
      out += pieces[k + 1];
    }
  }
};

std::string number_text(long long v) {
  std::string out;
  put_int(out, v);
  return out;
}

// The sentence of `rotated_without_epiphany` in the run's language
// (neweden.rules.warnings.RotatedForm): its code, and its sentence, whose gaps take the
// card's index, row and column.
struct RotatedForm {
  std::string code;  // as a JSON string
  py::object name;   // the code as the str the batch counts
  Sentence sentence;
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

// A rotated card's warning to write: player p's card `index`, at (row, col).
Rotation rotation(long long p, long long index, long long row, long long col, long long players) {
  if (p < 0 || p >= players || index < 0) {
    throw Unwritable{};
  }
  return Rotation{{p, index, row, col},
                  std::string(kPlayers) + std::to_string(p) + "/city/" + std::to_string(index) +
                      "/rotated"};
}

// `rotations` ((player, index, row, col) tuples) read into `kept` after the warnings it
// holds (those found natively), then all added to `out` (`kept` whole first: the Placed
// entries view their paths).
void add_rotations(Problems& out, PyObject* rotations, long long players,
                   std::vector<Rotation>& kept) {
  const Py_ssize_t count = length(rotations);
  kept.reserve(kept.size() + static_cast<std::size_t>(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* four = item(rotations, i);
    if (length(four) != 4) {
      throw Unwritable{};
    }
    long long v[4];
    for (Py_ssize_t k = 0; k < 4; ++k) {
      v[k] = exact_int(item(four, k));
    }
    kept.push_back(rotation(v[0], v[1], v[2], v[3], players));
  }
  for (const Rotation& r : kept) {
    out.push_back({nullptr, &r, nullptr, r.path, r.values[0], true});
  }
}

// `problems` (a list of Problem) and `rotations` (rotated cards' warnings not made; null:
// none) in document order, each placed; Unwritable for a path this does not place as
// neweden.scoring.report._place would for certain (a control or non-ASCII byte), or one
// pointing at a player the game does not have. No rotated card's path is another
// problem's: the order of ties (the stable sort's) does not depend on where they were added.
Problems placed(PyObject* problems, long long players, PyObject* rotations,
                std::vector<Rotation>& kept, const std::vector<Written>* written = nullptr) {
  Problems out;
  const Py_ssize_t count = length(problems);
  const Py_ssize_t rotated = rotations == nullptr ? 0 : length(rotations);
  const std::size_t told = written == nullptr ? 0 : written->size();
  out.reserve(static_cast<std::size_t>(count + rotated) + told);
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
    Placed at{problem, nullptr, nullptr, path, -1, false};
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
  for (std::size_t i = 0; i < told; ++i) {  // their paths are no other problem's (see above)
    const Written& w = (*written)[i];
    out.push_back({nullptr, nullptr, &w, w.path, w.player, true});
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
  form.sentence.fill(out, {number_text(r.values[1]), number_text(r.values[2]),
                           number_text(r.values[3])});
  put(out, "\",\"path\":\"");
  out += r.path;
  put(out, "\",\"cells\":[[");
  put_int(out, r.values[2]);
  out += ',';
  put_int(out, r.values[3]);
  put(out, "]]}");
}

// `overlap` and `disconnected` in the run's language (neweden.rules.legality.GeometryForms,
// whose geometry_problems tells the same in Python), with what writing them reads: the
// packed table's cards (nine int32 a card: row, col, ..., the side mask fifth) and the
// type a natively written first error is given as (neweden.scoring.report.ErrorAt).
struct GeometryForms {
  Sentence overlap;
  std::vector<Sentence> disconnected;
  std::vector<int> plural;  // the form of `disconnected` for n cards
  std::string apart;
  Sentence contact;
  std::string its_side[4], whose_side[4];  // top, right, bottom, left (the bit order)
  Sentence no_share, their_wall, no_icons;
  py::object overlap_code = py::str("overlap");
  py::object disconnected_code = py::str("disconnected");
  PyTypeObject* error_at = nullptr;
  const std::int32_t* flat = nullptr;
  std::size_t flat_size = 0;
  std::vector<std::int64_t> offsets;  // each city's first card in `flat`, one more at the end
  PyObject* rotates = nullptr;        // a bool a city: its player activated a rotate effect
};

constexpr std::size_t kWidth = 9;  // neweden.geometry.compact.WIDTH, its ROW, COL, ICONS
constexpr std::size_t kRow = 0, kCol = 1, kIcons = 5;
constexpr int kStep[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};  // sides.STEP, bit order

// The ints of a tuple of exact ints.
std::vector<long long> ints_of(PyObject* values) {
  if (!PyTuple_Check(values)) {
    throw Unwritable{};
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(values);
  std::vector<long long> out(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    out[static_cast<std::size_t>(i)] = exact_int(PyTuple_GET_ITEM(values, i));
  }
  return out;
}

// One illegal city as neweden.rules.legality.geometry_problems reads it.
class IllegalCity {
 public:
  // `city`: (player, index of its first card in the table, its CityFigures).
  IllegalCity(const GeometryForms& f, PyObject* city) : f_(f) {
    if (!PyTuple_CheckExact(city) || PyTuple_GET_SIZE(city) != 3) {
      throw Unwritable{};
    }
    player_ = exact_int(PyTuple_GET_ITEM(city, 0));
    const long long lo = exact_int(PyTuple_GET_ITEM(city, 1));
    PyObject* figures = PyTuple_GET_ITEM(city, 2);
    if (!PyTuple_Check(figures) || PyTuple_GET_SIZE(figures) < 5) {
      throw Unwritable{};
    }
    overlapped_by_ = ints_of(PyTuple_GET_ITEM(figures, 1));
    component_ = ints_of(PyTuple_GET_ITEM(figures, 2));
    components_ = exact_int(PyTuple_GET_ITEM(figures, 3));
    project_ = exact_int(PyTuple_GET_ITEM(figures, 4));
    const std::size_t n = overlapped_by_.size();
    const std::size_t rows = f.flat_size / kWidth;  // (compared as rows: no product wraps)
    if (player_ < 0 || lo < 0 || component_.size() != n ||
        static_cast<std::size_t>(lo) > rows || n > rows - static_cast<std::size_t>(lo)) {
      throw Unwritable{};
    }
    cards_ = f.flat + static_cast<std::size_t>(lo) * kWidth;
    base_ = std::string(kPlayers) + std::to_string(player_) + "/city/";
  }

  // Its problems, added to `out`: an `overlap` for each card left out on a taken cell, then
  // a `disconnected` for each component but the project.
  void tell(std::vector<Written>& out) const {
    const std::size_t n = overlapped_by_.size();
    const bool overlaps = std::any_of(overlapped_by_.begin(), overlapped_by_.end(),
                                      [](long long holder) { return holder >= 0; });
    if (components_ <= 1 && !overlaps) {
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (overlapped_by_[i] >= 0) {
        std::string message;
        f_.overlap.fill(message, {number_text(static_cast<long long>(i)), number_text(row(i)),
                                  number_text(col(i)), number_text(overlapped_by_[i])});
        add(out, f_.overlap_code.ptr(), i, message, {i});
      }
    }
    if (components_ <= 1) {
      return;
    }
    const auto project_size = std::count(component_.begin(), component_.end(), project_);
    for (long long part = 0; part < components_; ++part) {
      if (part == project_) {
        continue;
      }
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < n; ++i) {
        if (component_[i] == part) {
          members.push_back(i);
        }
      }
      if (members.empty() || members.size() >= f_.plural.size()) {
        throw Unwritable{};  // (Python would not tell this part: no such city is packed)
      }
      std::string where;
      for (std::size_t m = 0; m < members.size(); ++m) {
        if (m > 0) {
          where += ", ";
        }
        where += '(' + number_text(row(members[m])) + ", " + number_text(col(members[m])) + ')';
      }
      const std::string why = why_apart(members);
      std::string message;
      f_.disconnected[static_cast<std::size_t>(f_.plural[members.size()])].fill(
          message, {number_text(static_cast<long long>(members.size())), where,
                    number_text(static_cast<long long>(project_size)), why});
      add(out, f_.disconnected_code.ptr(), members[0], message, members);
    }
  }

 private:
  long long row(std::size_t i) const { return cards_[i * kWidth + kRow]; }
  long long col(std::size_t i) const { return cards_[i * kWidth + kCol]; }
  unsigned icons(std::size_t i) const { return static_cast<unsigned>(cards_[i * kWidth + kIcons]); }

  // The card kept in the geometry on (r, c) (the last one, as a dict keyed by cell keeps).
  std::optional<std::size_t> at(long long r, long long c) const {
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < component_.size(); ++i) {
      if (component_[i] >= 0 && row(i) == r && col(i) == c) {
        found = i;
      }
    }
    return found;
  }

  // legality._why_apart: the first contact of the part with another part, told side by side.
  std::string why_apart(const std::vector<std::size_t>& part) const {
    const long long mine = component_[part[0]];
    for (const std::size_t card : part) {
      for (int side = 0; side < 4; ++side) {
        const std::optional<std::size_t> other =
            at(row(card) + kStep[side][0], col(card) + kStep[side][1]);
        if (!other || component_[*other] == mine) {
          continue;
        }
        const int opposite = (side + 2) % 4;
        const bool mine_icon = (icons(card) & (1U << side)) != 0;
        const bool their_icon = (icons(*other) & (1U << opposite)) != 0;
        std::string where;
        f_.contact.fill(where, {number_text(static_cast<long long>(card)), number_text(row(card)),
                                number_text(col(card)), f_.its_side[side],
                                number_text(static_cast<long long>(*other)),
                                number_text(row(*other)), number_text(col(*other))});
        std::string why;
        if (mine_icon && their_icon) {
          f_.no_share.fill(why, {where});
        } else if (mine_icon) {
          why = where + ", " + f_.whose_side[opposite];
        } else if (their_icon) {
          f_.their_wall.fill(why, {where, number_text(static_cast<long long>(card))});
        } else {
          f_.no_icons.fill(why, {where});
        }
        return why;
      }
    }
    return f_.apart;
  }

  void add(std::vector<Written>& out, PyObject* code, std::size_t first,
           const std::string& message, const std::vector<std::size_t>& cells) const {
    Written w{player_, base_ + std::to_string(first), {}, code};
    w.json = "{\"code\":\"";
    w.json += utf8(code);
    w.json += "\",\"message\":\"";
    w.json += message;
    w.json += "\",\"path\":\"";
    w.json += w.path;
    w.json += "\",\"cells\":[";
    for (std::size_t m = 0; m < cells.size(); ++m) {
      if (m > 0) {
        w.json += ',';
      }
      w.json += '[' + number_text(row(cells[m])) + ',' + number_text(col(cells[m])) + ']';
    }
    w.json += "]}";
    out.push_back(std::move(w));
  }

  const GeometryForms& f_;
  long long player_ = 0;
  std::vector<long long> overlapped_by_, component_;
  long long components_ = 0, project_ = -1;
  const std::int32_t* cards_ = nullptr;
  std::string base_;
};

// The warnings of a game's rotated cards (a list of (player, index in the city), or None)
// whose player activated no rotate effect (neweden.rules.warnings.unallowed_rotations),
// added to `out`; the game's cities start at `first`.
void unallowed_rotations(const GeometryForms* forms, PyObject* rotated, Py_ssize_t first,
                         long long players, std::vector<Rotation>& out) {
  if (rotated == Py_None) {
    return;
  }
  if (forms == nullptr) {
    throw Unwritable{};
  }
  const Py_ssize_t count = length(rotated);
  out.reserve(static_cast<std::size_t>(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* two = item(rotated, i);
    if (length(two) != 2) {
      throw Unwritable{};
    }
    const long long p = exact_int(item(two, 0));
    const long long index = exact_int(item(two, 1));
    if (p < 0 || p >= players || index < 0) {
      throw Unwritable{};
    }
    const auto city = static_cast<std::size_t>(first + p);
    if (city + 1 >= forms->offsets.size() ||
        city >= static_cast<std::size_t>(PyList_GET_SIZE(forms->rotates))) {
      throw Unwritable{};
    }
    if (PyList_GET_ITEM(forms->rotates, static_cast<Py_ssize_t>(city)) == Py_True) {
      continue;  // the player activated a rotate effect
    }
    const std::int64_t start = forms->offsets[city];
    const std::int64_t stop = forms->offsets[city + 1];
    // the card within its city, the city within the table (no sum that wraps)
    if (start < 0 || stop < start || index >= stop - start ||
        static_cast<std::size_t>(stop) > forms->flat_size / kWidth) {
      throw Unwritable{};
    }
    const auto row = static_cast<std::size_t>(start + index);
    const std::int32_t* card = forms->flat + row * kWidth;
    out.push_back(rotation(p, index, card[kRow], card[kCol], players));
  }
}

// The problems of a game's illegal cities (a list of IllegalCity's tuples, or None).
std::vector<Written> illegal_cities(const GeometryForms* forms, PyObject* cities,
                                    long long players) {
  std::vector<Written> out;
  if (cities == Py_None) {
    return out;
  }
  if (forms == nullptr) {
    throw Unwritable{};
  }
  const Py_ssize_t count = length(cities);
  for (Py_ssize_t i = 0; i < count; ++i) {
    const IllegalCity city(*forms, item(cities, i));
    city.tell(out);
  }
  for (const Written& w : out) {
    if (w.player >= players) {
      throw Unwritable{};
    }
  }
  return out;
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
    if (at.written != nullptr) {
      out += at.written->json;
    } else if (at.rotation != nullptr) {
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
// (neweden.runners.results._result: those of the top level, then the players', in document
// order), the first of those errors (the one its stdout line names) or None, and its
// warning codes in the same order.
struct Verdict {
  py::tuple codes;
  py::object first = py::none();
  py::tuple warnings;
};

// The problems in the order a batch counts them: the top level's, then the players', each
// in document order.
std::vector<const Placed*> counted(const Problems& problems) {
  std::vector<const Placed*> out;
  out.reserve(problems.size());
  for (const bool top : {true, false}) {
    for (const Placed& at : problems) {
      if ((at.player < 0) == top) {
        out.push_back(&at);
      }
    }
  }
  return out;
}

// A problem's code (a rotated card's: the rotated form's).
py::object code_of(const Placed& at, const RotatedForm* form) {
  if (at.written != nullptr) {  // (only where forms were given)
    return py::reinterpret_borrow<py::object>(at.written->code);
  }
  if (at.rotation != nullptr) {
    if (form == nullptr) {
      throw Unwritable{};
    }
    return form->name;
  }
  return attribute(at.problem, names().code);
}

py::tuple codes_of(const std::vector<const Placed*>& problems, const RotatedForm* form) {
  py::tuple out(problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) {
    out[i] = code_of(*problems[i], form);
  }
  return out;
}

Verdict verdict(const Problems& errors, const GeometryForms* forms) {
  Verdict out;
  const std::vector<const Placed*> ordered = counted(errors);
  out.codes = codes_of(ordered, nullptr);
  const Placed& at = *ordered.front();
  if (at.written != nullptr) {
    out.first = instance_of(forms->error_at, 2, [&](std::size_t i) {
      return i == 0 ? Py_NewRef(at.written->code)
                    : PyUnicode_FromStringAndSize(at.written->path.data(),
                                                  static_cast<Py_ssize_t>(at.written->path.size()));
    });
  } else {
    out.first = py::reinterpret_borrow<py::object>(at.problem);
  }
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
  const GeometryForms* geometry;  // null: every problem is a Problem
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
    // a game whose players declare what they met is written the usual way: none here
    put(out, "],\"requirements_declared\":[]");
  } else {
    put(out, "null,\"requirements_met\":null,\"requirements_declared\":null");
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
// warnings, rotated cards' warnings not made, illegal cities whose problems were not made or
// None, rotated cards not looked at or None, where its D5 table comes from or None); its
// verdict is set in `said` (when invalid).
void put_game(std::string& out, const std::string& head, const Chunk& c, PyObject* game,
              Verdict& said) {
  if (!PyTuple_CheckExact(game) || PyTuple_GET_SIZE(game) != 12) {
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
  unallowed_rotations(c.geometry, field(10), first, players, rotations);
  const std::vector<Written> geometry = illegal_cities(c.geometry, field(9), players);
  const Problems errors = placed(field(6), players, nullptr, no_rotations, &geometry);
  const Problems warnings = placed(field(7), players, field(8), rotations);
  out += head;
  if (errors.empty()) {
    put(out, "true,\"mode\":");
  } else {
    put(out, "false,\"mode\":");
  }
  put_str(out, field(0));
  put(out, ",\"majority_table\":");
  if (field(11) == Py_None) {
    put(out, "null");
  } else {
    put_str(out, field(11));
  }
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
    said = verdict(errors, c.geometry);
  }
  if (!warnings.empty()) {
    said.warnings = codes_of(counted(warnings), c.rotated);
  }
}

// A Sentence given as (pieces, order), its gaps taking one of `fields` values each.
Sentence sentence(const py::handle& given, int fields) {
  auto parts = given.cast<std::tuple<std::vector<std::string>, std::vector<int>>>();
  Sentence out;
  for (const std::string& piece : std::get<0>(parts)) {
    out.pieces.push_back(escaped(piece));
  }
  out.order = std::get<1>(parts);
  if (out.pieces.size() != out.order.size() + 1) {
    throw py::value_error("a sentence needs one piece more than its gaps");
  }
  for (int k : out.order) {
    if (k < 0 || k >= fields) {
      throw py::value_error("a sentence's gap takes a field it is not given");
    }
  }
  return out;
}

// The rotated sentence given as a RotatedForm (code, pieces, order), or none.
std::optional<RotatedForm> rotated_form(const py::object& given) {
  if (given.is_none()) {
    return std::nullopt;
  }
  const auto parts = given.cast<py::tuple>();
  if (parts.size() != 3) {
    throw py::value_error("a rotated form is (code, pieces, order)");
  }
  RotatedForm form;
  form.code = "\"" + escaped(parts[0].cast<std::string>()) + "\"";
  form.name = parts[0];
  form.sentence = sentence(py::make_tuple(parts[1], parts[2]), 3);  // index, row, column
  return form;
}

// The sides' four texts, escaped.
void sides(const py::handle& given, std::string (&out)[4]) {
  const auto texts = given.cast<std::vector<std::string>>();
  if (texts.size() != 4) {
    throw py::value_error("the sides are four");
  }
  for (std::size_t k = 0; k < 4; ++k) {
    out[k] = escaped(texts[k]);
  }
}

// The geometry's forms given as (GeometryForms, the packed table's int32 cards, ErrorAt),
// or none; `kept` holds the table's buffer through the call.
std::optional<GeometryForms> geometry_forms(const py::object& given,
                                            std::optional<py::buffer_info>& kept) {
  if (given.is_none()) {
    return std::nullopt;
  }
  const auto parts = given.cast<py::tuple>();
  if (parts.size() != 5) {
    throw py::value_error(
        "geometry is (forms, the table's cards, the first error's type, the cities' offsets, "
        "whether each city's player activated a rotate effect)");
  }
  const auto forms = parts[0].cast<py::tuple>();
  if (forms.size() != 10) {
    throw py::value_error("geometry forms have ten fields");
  }
  GeometryForms f;
  f.overlap = sentence(forms[0], 4);
  for (const py::handle one : forms[1].cast<py::tuple>()) {
    f.disconnected.push_back(sentence(one, 4));
  }
  f.plural = forms[2].cast<std::vector<int>>();
  for (int k : f.plural) {
    if (k < 0 || static_cast<std::size_t>(k) >= f.disconnected.size()) {
      throw py::value_error("a plural names a form not given");
    }
  }
  f.apart = escaped(forms[3].cast<std::string>());
  f.contact = sentence(forms[4], 7);
  sides(forms[5], f.its_side);
  sides(forms[6], f.whose_side);
  f.no_share = sentence(forms[7], 1);
  f.their_wall = sentence(forms[8], 2);
  f.no_icons = sentence(forms[9], 1);
  kept = parts[1].cast<py::buffer>().request();
  if (kept->ndim != 1 || kept->itemsize != 4 || kept->format.empty() ||
      kept->format.back() != py::format_descriptor<std::int32_t>::c ||
      kept->strides[0] != kept->itemsize) {
    throw py::value_error("the table's cards must be int32s, one after the other");
  }
  f.flat = static_cast<const std::int32_t*>(kept->ptr);
  f.flat_size = static_cast<std::size_t>(kept->size);
  f.error_at = tuple_type(parts[2]);
  if (f.error_at == nullptr) {
    throw py::value_error("the first error's type must be a tuple type");
  }
  f.offsets = parts[3].cast<std::vector<std::int64_t>>();
  if (!PyList_CheckExact(parts[4].ptr())) {
    throw py::value_error("the rotate effects must be a list");
  }
  f.rotates = parts[4].ptr();  // (the caller's list lives through the call)
  return f;
}

py::tuple report_lines(const std::string& head, const py::list& games,
                       const py::array_t<std::int64_t, py::array::c_style>& numbers,
                       const py::list& names, const py::list& met, const py::object& rotated,
                       const py::object& geometry) {
  if (numbers.ndim() != 2 || numbers.shape(1) != kNumbers) {
    throw py::value_error("numbers must be an array of cities x " + std::to_string(kNumbers));
  }
  const std::optional<RotatedForm> form = rotated_form(rotated);
  std::optional<py::buffer_info> table;
  const std::optional<GeometryForms> forms = geometry_forms(geometry, table);
  const Chunk c{numbers.unchecked<2>(), names.ptr(), met.ptr(), form ? &*form : nullptr,
                forms ? &*forms : nullptr};
  py::list lines(games.size());
  py::list all_codes(games.size());
  py::list firsts(games.size());
  py::list all_warnings(games.size());
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
    all_warnings[g] = said.warnings;
  }
  return py::make_tuple(lines, all_codes, firsts, all_warnings);
}

}  // namespace

void bind_lines(py::module_& m) {
  m.def("report_lines", &report_lines, py::arg("head"), py::arg("games"), py::arg("numbers"),
        py::arg("names"), py::arg("met"), py::arg("rotated") = py::none(),
        py::arg("geometry") = py::none(),
        "The lean report line of each game of a chunk (None: a game to write the usual way), "
        "its error codes, its first error and its warning codes; see "
        "neweden.scoring.report._ChunkReports.lines.");
}

}  // namespace neweden::bindings
