// The Python module neweden._core: only calls one bind_<area>() per area.
#include <pybind11/pybind11.h>

#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "neweden's native core (private: use the neweden package)";
  m.attr("__version__") = NEWEDEN_VERSION;
  neweden::bindings::bind_sides(m);
  neweden::bindings::bind_batch(m);
  neweden::bindings::bind_scores(m);
}
