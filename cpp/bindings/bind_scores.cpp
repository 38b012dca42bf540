#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

#include "bindings.hpp"
#include "columns.hpp"
#include "neweden/scores.hpp"

namespace py = pybind11;

namespace neweden::bindings {
namespace {

// The fields of neweden.figures.ScoreFigures, in their order.
py::tuple fields(const ScoreFigures& f) {
  return py::make_tuple(
      f.legal, f.cards, f.open_connections, f.complete_connections, f.components, f.labs,
      f.shelter_points, f.medical_points, f.towers, f.tower_points, f.bases,
      f.cards_by_stars[0], f.cards_by_stars[1], f.cards_by_stars[2], f.cards_by_stars[3],
      f.points_by_stars[0], f.points_by_stars[1], f.points_by_stars[2], f.points_by_stars[3],
      f.row_cards, f.column_cards, f.styles);
}

}  // namespace

void bind_scores(py::module_& m) {
  m.def(
      "score_rows",
      [](const Column<std::int32_t>& table, const Column<std::int64_t>& offsets,
         unsigned threads) {
        // Checked with the GIL held: nine int32 columns (the seven of the compact table,
        // then stars and points)...
        const RowTable rows(table, 9);
        BatchView batch;
        batch.cards = rows.cards();
        batch.offsets = offsets_of(offsets, batch.cards.n, &batch.cities);
        check_batch(batch);  // std::invalid_argument becomes ValueError
        const CardValues values{rows.extra(0), rows.extra(1)};
        check_values(batch, values);
        std::vector<ScoreFigures> out(batch.cities);
        {
          // ...and scored without it.
          py::gil_scoped_release released;
          score_batch(batch, values, out.data(), threads == 0 ? 1U : threads);
        }
        py::list answer(out.size());
        for (std::size_t k = 0; k < out.size(); ++k) {
          answer[k] = fields(out[k]);
        }
        return answer;
      },
      py::arg("table"), py::arg("offsets"), py::arg("threads") = 1,
      "The score figures of every city of a compact table (cards x 9 int32: the seven\n"
      "columns of neweden.compact, then stars and points); a list of ScoreFigures fields\n"
      "tuples, one per city. See neweden.geometry.score_figures.");
}

}  // namespace neweden::bindings
