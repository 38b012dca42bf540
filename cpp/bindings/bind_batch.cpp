#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "columns.hpp"
#include "neweden/batch.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

template <typename T>
py::array_t<T> output(py::dict& out, const char* name, std::size_t n, T** data) {
  py::array_t<T> a(static_cast<py::ssize_t>(n));
  *data = a.mutable_data();
  out[name] = a;
  return a;
}

}  // namespace

void bind_batch(py::module_& m) {
  m.def(
      "analyse_batch",
      [](const Column<std::int64_t>& offsets, const Column<std::int32_t>& row,
         const Column<std::int32_t>& col, const Column<std::int32_t>& style,
         const Column<std::int32_t>& type, const Column<std::int8_t>& facility,
         const Column<std::uint8_t>& sides, const Column<std::uint8_t>& flags,
         unsigned threads) {
        // Converted and checked with the GIL held...
        if (offsets.ndim() != 1 || offsets.shape(0) < 1) {
          throw py::value_error("offsets must be one-dimensional with at least one entry");
        }
        BatchView batch;
        batch.cities = static_cast<std::size_t>(offsets.shape(0) - 1);
        batch.offsets = offsets.data();
        batch.cards = cards_of(row, col, style, type, facility, sides, flags);
        const CityView& cards = batch.cards;
        check_batch(batch);  // std::invalid_argument becomes ValueError

        py::dict out;
        BatchFigures f{};
        const std::size_t k = batch.cities;
        output(out, "legal", k, &f.legal);
        output(out, "cards", k, &f.cards);
        output(out, "open_connections", k, &f.open_connections);
        output(out, "components", k, &f.components);
        output(out, "project", k, &f.project);
        output(out, "labs", k, &f.labs);
        output(out, "shelter_points", k, &f.shelter_points);
        output(out, "medical_points", k, &f.medical_points);
        output(out, "towers", k, &f.towers);
        output(out, "tower_points", k, &f.tower_points);
        output(out, "bases", k, &f.bases);
        output(out, "component", cards.n, &f.component);
        output(out, "overlapped_by", cards.n, &f.overlapped_by);
        {
          // ...and computed without it: the kernel touches no Python object, and the input
          // arrays are kept alive by the arguments of this call.
          py::gil_scoped_release released;
          analyse_batch(batch, f, threads == 0 ? 1U : threads);
        }
        return out;
      },
      py::arg("offsets"), py::arg("row"), py::arg("col"), py::arg("style"), py::arg("type"),
      py::arg("facility"), py::arg("sides"), py::arg("flags"), py::arg("threads") = 1,
      "Analyses every city of a compact batch; see neweden.geometry.native.analyse_batch.");
}

}  // namespace neweden::bindings
