#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "neweden/sides.hpp"

namespace py = pybind11;

namespace neweden::bindings {

void bind_sides(py::module_& m) {
  m.attr("TOP") = kTop;
  m.attr("RIGHT") = kRight;
  m.attr("BOTTOM") = kBottom;
  m.attr("LEFT") = kLeft;
  m.def("rotate_sides", &rotate_sides, py::arg("sides"), py::arg("rotated"),
        "The side mask of a card after an optional 180 degree turn (RULES 2).");
}

}  // namespace neweden::bindings
