// What the scoring rules read of each city, in one pass: the geometry's counts and the
// Military figures (RULES §2, §3, D1-D4), plus tallies of the cards kept in the geometry
// (by star requirement; the fullest row and column; distinct styles). Every figure is a
// number, so a whole batch comes back as one table and the rules never walk the cards.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "neweden/batch.hpp"

namespace neweden {

// Per card, beside the compact columns: the star requirement (0-3) and the potential
// points (>= 0) of a resolved card; anything for an unresolved one (it is never kept).
struct CardValues {
  const std::int32_t* stars = nullptr;
  const std::int32_t* points = nullptr;
};

// The city's summary and the tallies of its kept cards.
struct ScoreFigures : CitySummary {
  std::array<std::int32_t, 4> cards_by_stars{};   // kept cards needing 0, 1, 2, 3 stars
  std::array<std::int64_t, 4> points_by_stars{};  // their potential points, summed
  std::int32_t row_cards = 0;     // kept cards in the fullest grid row
  std::int32_t column_cards = 0;  // kept cards in the fullest grid column
  std::int32_t styles = 0;        // distinct styles among kept common cards
};

// The one table of a city's figures as Python sees them: the names of the fields of
// neweden.geometry.figures.ScoreFigures, in its order, and score_row, their values in the
// same order (`legal` 0 or 1). The bindings hand figures over through these two alone.
inline constexpr std::array<const char*, 22> kScoreFields{
    "legal",          "cards",          "open_connections", "complete_connections",
    "components",     "labs",           "shelter_points",   "medical_points",
    "towers",         "tower_points",   "bases",            "cards_0_stars",
    "cards_1_star",   "cards_2_stars",  "cards_3_stars",    "points_0_stars",
    "points_1_star",  "points_2_stars", "points_3_stars",   "row_cards",
    "column_cards",   "styles"};

using ScoreRow = std::array<std::int64_t, kScoreFields.size()>;

inline ScoreRow score_row(const ScoreFigures& f) {
  return {f.legal ? 1 : 0,      f.cards,           f.open_connections,
          f.complete_connections, f.components,    f.labs,
          f.shelter_points,     f.medical_points,  f.tower_span.towers,
          f.tower_span.points,  f.bases,           f.cards_by_stars[0],
          f.cards_by_stars[1],  f.cards_by_stars[2], f.cards_by_stars[3],
          f.points_by_stars[0], f.points_by_stars[1], f.points_by_stars[2],
          f.points_by_stars[3], f.row_cards,       f.column_cards,
          f.styles};
}

// Throws std::invalid_argument when a resolved card has stars outside 0-3 or negative
// points (the batch itself is checked by check_batch).
void check_values(const BatchView& batch, const CardValues& values);

// Which cities also get every detail listed (the per-card answer of analyse_city) by the
// same pass that gives their score figures: none, the illegal ones (whose problems are told
// card by card), or all (an audit trail).
enum class Details : std::uint8_t { kNone = 0, kIllegal = 1, kAll = 2 };

// The figures of every city of a checked batch into out[0, batch.cities), on `threads`
// threads; with `details`, listed[k] too for each city asked (listed holds batch.cities
// entries; the others are left as they are). Touches no Python object.
void score_batch(const BatchView& batch, const CardValues& values, ScoreFigures* out,
                 unsigned threads, Details details = Details::kNone,
                 CityAnalysis* listed = nullptr);

// A style that more than a limit of the common cards of a group of cities show.
struct StyleCount {
  std::size_t group = 0;
  std::int32_t style = 0;
  std::int32_t count = 0;
};

// For every group of cities (a game: group g is cities [groups[g], groups[g + 1]) of a checked
// batch), each style more than `limit` of its common cards show, by group then style (RULES §1:
// the box holds 14 common cards of each style). `groups` runs from 0 to batch.cities.
std::vector<StyleCount> styles_over(const BatchView& batch, const std::int64_t* groups,
                                    std::size_t group_count, std::int32_t limit);

}  // namespace neweden
