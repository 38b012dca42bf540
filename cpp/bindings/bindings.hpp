#pragma once

#include <pybind11/pybind11.h>

namespace neweden::bindings {

void bind_sides(pybind11::module_& m);
void bind_batch(pybind11::module_& m);
void bind_scores(pybind11::module_& m);

}  // namespace neweden::bindings
