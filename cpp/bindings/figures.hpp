// The rich per-city analysis as Python sees it: the fields of neweden.geometry.figures.CityFigures.
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "neweden/city.hpp"

namespace neweden::bindings {

namespace py = pybind11;

// A new reference to a tuple of n items, each made by item(i) (a new reference, or null
// with a Python error set); throws py::error_already_set when Python cannot make one. These
// tuples are made for every card of every city an audit or a picture lists: written with the
// C API (an item costs a pointer store, not a caster's round trip).
template <typename Owned, typename Item>
Owned filled(PyObject* out, std::size_t n, Item item) {
  if (out == nullptr) {
    throw py::error_already_set();
  }
  auto owned = py::reinterpret_steal<Owned>(out);  // (items still null are skipped if freed)
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* value = item(i);
    if (value == nullptr) {
      throw py::error_already_set();
    }
    PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), value);
  }
  return owned;
}

template <typename Item>
py::tuple tuple_of(std::size_t n, Item item) {
  return filled<py::tuple>(PyTuple_New(static_cast<Py_ssize_t>(n)), n, item);
}

// A new reference to an instance of `type` (a subclass of tuple adding no field: the
// caller's named tuple) holding n items, each made by item(i), made as tuple.__new__(type,
// items) makes one: allocated by the type, then filled (no tuple of the items first, no
// Python call). A null `type` gives a plain tuple.
template <typename Item>
py::object instance_of(PyTypeObject* type, std::size_t n, Item item) {
  if (type == nullptr) {
    return tuple_of(n, item);
  }
  return filled<py::object>(type->tp_alloc(type, static_cast<Py_ssize_t>(n)), n, item);
}

// The type a caller asks figures to be made as (None: plain tuples): a subclass of tuple
// laid out as a tuple, as a NamedTuple is; TypeError for anything else.
inline PyTypeObject* tuple_type(const py::object& given) {
  if (given.is_none()) {
    return nullptr;
  }
  if (!PyType_Check(given.ptr())) {
    throw py::type_error("figures must be a tuple type (a NamedTuple) or None");
  }
  auto* type = reinterpret_cast<PyTypeObject*>(given.ptr());
  if (!PyType_IsSubtype(type, &PyTuple_Type) || type->tp_basicsize != PyTuple_Type.tp_basicsize ||
      type->tp_itemsize != PyTuple_Type.tp_itemsize) {
    throw py::type_error("figures must be a tuple type (a NamedTuple) or None");
  }
  return type;
}

inline PyObject* new_int(long long v) { return PyLong_FromLongLong(v); }

inline PyObject* new_bool(bool v) { return Py_NewRef(v ? Py_True : Py_False); }

// Tuples that recur from city to city are made once and kept for the life of the process: a
// legal city's `included` is n Trues, its `overlapped_by` n -1s and its `component` n 0s, and
// a connection is a pair of small card indices. An audit lists every city of a game, and
// these, made afresh, were most of the listing's cost. A tuple is immutable: sharing one is
// invisible to Python. The slots are never freed (no static destructor may run after the
// interpreter is gone); the GIL is held whenever they are read or filled.
constexpr std::size_t kShared = 128;  // indices and lengths below this (the kernel's city limit)

template <typename Make>
py::tuple kept(PyObject*& slot, Make make) {
  if (slot == nullptr) {
    slot = make().release().ptr();
  }
  return py::reinterpret_borrow<py::tuple>(slot);
}

enum class Repeated : std::size_t { kTrue = 0, kMinusOne = 1, kZero = 2 };

// n copies of one value.
inline py::tuple repeated(std::size_t n, Repeated value) {
  auto item = [value](std::size_t) {
    return value == Repeated::kTrue ? new_bool(true)
                                    : new_int(value == Repeated::kMinusOne ? -1 : 0);
  };
  if (n > kShared) {
    return tuple_of(n, item);
  }
  static auto* slots = new std::array<PyObject*, 3 * (kShared + 1)>();
  return kept((*slots)[static_cast<std::size_t>(value) * (kShared + 1) + n],
              [&] { return tuple_of(n, item); });
}

template <typename T>
bool all_equal(const std::vector<T>& v, T value) {
  for (const T& x : v) {
    if (x != value) {
      return false;
    }
  }
  return true;
}

template <typename T>
py::tuple int_tuple(const std::vector<T>& v) {
  if (!v.empty() && all_equal(v, T{-1})) {
    return repeated(v.size(), Repeated::kMinusOne);
  }
  if (!v.empty() && all_equal(v, T{0})) {
    return repeated(v.size(), Repeated::kZero);
  }
  return tuple_of(v.size(), [&](std::size_t i) { return new_int(v[i]); });
}

// (a, b).
inline py::tuple pair(std::int32_t a, std::int32_t b) {
  auto make = [&] { return tuple_of(2, [&](std::size_t i) { return new_int(i == 0 ? a : b); }); };
  const auto small = [](std::int32_t x) { return x >= 0 && static_cast<std::size_t>(x) < kShared; };
  if (!small(a) || !small(b)) {
    return make();
  }
  static auto* slots = new std::array<PyObject*, kShared * kShared>();
  return kept((*slots)[static_cast<std::size_t>(a) * kShared + static_cast<std::size_t>(b)], make);
}

// The names of the fields of neweden.geometry.figures.CityFigures, in the order figures() gives them.
constexpr std::array<const char*, 18> kCityFields{
    "included",       "overlapped_by", "component",      "components",   "project",
    "legal",          "connections",   "open_connections", "labs",       "shelter_groups",
    "shelter_points", "medical_cards", "medical_points", "towers",       "tower_span",
    "tower_points",   "bases",         "contacts"};

template <std::size_t N>
py::tuple names(const std::array<const char*, N>& fields) {
  py::tuple out(N);
  for (std::size_t i = 0; i < N; ++i) {
    out[i] = py::str(fields[i]);
  }
  return out;
}

// A new reference owned (null: the Python error raised).
inline py::object own(PyObject* made) {
  if (made == nullptr) {
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(made);
}

// A city's `included`: a bool a card.
inline py::tuple included_tuple(const std::vector<std::uint8_t>& included) {
  if (!included.empty() && all_equal(included, std::uint8_t{1})) {
    return repeated(included.size(), Repeated::kTrue);
  }
  return tuple_of(included.size(), [&](std::size_t i) { return new_bool(included[i] != 0); });
}

// The fields of neweden.geometry.figures.CityFigures, in their order (as an instance of `type`, or a
// plain tuple: instance_of).
inline py::object figures(const CityAnalysis& a, PyTypeObject* type = nullptr) {
  const TowerSpan& s = a.tower_span;
  const auto connections = [&](std::size_t i) {
    return pair(a.connections[i].a, a.connections[i].b).release().ptr();
  };
  const auto groups = [&](std::size_t i) { return int_tuple(a.shelter_groups[i]).release().ptr(); };
  const auto contacts = [&](std::size_t i) {
    const Contact& c = a.contacts[i];
    const std::int32_t values[] = {c.card, c.side, c.other};
    return tuple_of(3, [&](std::size_t k) { return new_int(values[k]); }).release().ptr();
  };
  const std::int64_t ends[] = {s.min_row, s.min_col, s.max_row, s.max_col};
  py::object fields[] = {
      included_tuple(a.included),
      int_tuple(a.overlapped_by),
      int_tuple(a.component),
      own(new_int(a.components)),
      own(new_int(a.project)),
      own(new_bool(a.legal)),
      tuple_of(a.connections.size(), connections),
      own(new_int(a.open_connections)),
      own(new_int(a.labs)),
      tuple_of(a.shelter_groups.size(), groups),
      own(new_int(a.shelter_points)),
      int_tuple(a.medical_cards),
      own(new_int(a.medical_points)),
      own(new_int(s.towers)),
      s.towers > 0 ? py::object(tuple_of(4, [&](std::size_t i) { return new_int(ends[i]); }))
                   : py::none(),
      own(new_int(s.points)),
      own(new_int(a.bases)),
      tuple_of(a.contacts.size(), contacts),
  };
  static_assert(std::size(fields) == kCityFields.size());
  return instance_of(type, std::size(fields), [&](std::size_t i) {
    return fields[i].release().ptr();
  });
}

}  // namespace neweden::bindings
