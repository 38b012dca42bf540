// The score figures: the kernel's summary of each city plus tallies of its kept cards.
#include "neweden/scores.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernel.hpp"
#include "split.hpp"

namespace neweden {
namespace {

// The largest number of equal values among v[0, n) (sorted in place); 0 when n is 0.
std::int32_t most_equal(std::int32_t* v, std::size_t n) {
  std::sort(v, v + n);
  std::int32_t best = 0;
  std::int32_t run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run = (i > 0 && v[i] == v[i - 1]) ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

// The number of distinct values among v[0, n) (sorted in place).
std::int32_t distinct(std::int32_t* v, std::size_t n) {
  std::sort(v, v + n);
  return static_cast<std::int32_t>(std::unique(v, v + n) - v);
}

void tally(const CityView& city, const CardValues& values, const detail::Workspace& ws,
           ScoreFigures& out) {
  std::array<std::int32_t, detail::kMaxCityCards> rows{};
  std::array<std::int32_t, detail::kMaxCityCards> cols{};
  std::array<std::int32_t, detail::kMaxCityCards> styles{};
  std::size_t kept = 0;
  std::size_t common = 0;
  detail::for_each_card(ws.kept, [&](std::size_t i) {
    const auto stars = static_cast<std::size_t>(values.stars[i]);
    out.cards_by_stars[stars] += 1;
    out.points_by_stars[stars] += values.points[i];
    rows[kept] = city.row[i];
    cols[kept] = city.col[i];
    ++kept;
    if ((city.flags[i] & kWild) == 0) {
      styles[common++] = city.style[i];
    }
  });
  out.row_cards = most_equal(rows.data(), kept);
  out.column_cards = most_equal(cols.data(), kept);
  out.styles = distinct(styles.data(), common);
}

void run(const BatchView& batch, const CardValues& values, ScoreFigures* out, Details details,
         CityAnalysis* listed, std::size_t first, std::size_t last) {
  detail::Workspace ws;
  for (std::size_t k = first; k < last; ++k) {
    const auto lo = static_cast<std::size_t>(batch.offsets[k]);
    const CityView city = batch.cards.slice(lo, static_cast<std::size_t>(batch.offsets[k + 1]));
    const CitySummary s = detail::analyse_into(city, ws);
    ScoreFigures& f = out[k];
    f = ScoreFigures{};
    static_cast<CitySummary&>(f) = s;
    tally(city, CardValues{values.stars + lo, values.points + lo}, ws, f);
    if (details == Details::kAll || (details == Details::kIllegal && !s.legal)) {
      listed[k] = detail::listed(city, ws, s);
    }
  }
}

}  // namespace

void check_values(const BatchView& batch, const CardValues& values) {
  for (std::size_t i = 0; i < batch.cards.n; ++i) {
    if ((batch.cards.flags[i] & kUnresolved) != 0) {
      continue;
    }
    if (values.stars[i] < 0 || values.stars[i] > 3) {
      throw std::invalid_argument("card " + std::to_string(i) + ": stars outside 0-3");
    }
    if (values.points[i] < 0) {
      throw std::invalid_argument("card " + std::to_string(i) + ": negative points");
    }
  }
}

void score_batch(const BatchView& batch, const CardValues& values, ScoreFigures* out,
                 unsigned threads, Details details, CityAnalysis* listed) {
  if (listed == nullptr) {
    details = Details::kNone;
  }
  detail::split_cities(batch, threads, [&](std::size_t first, std::size_t last) {
    run(batch, values, out, details, listed, first, last);
  });
}

std::vector<StyleCount> styles_over(const BatchView& batch, const std::int64_t* groups,
                                    std::size_t group_count, std::int32_t limit) {
  std::vector<StyleCount> out;
  std::vector<std::int32_t> count;
  for (std::size_t g = 0; g + 1 < group_count; ++g) {
    const auto lo = static_cast<std::size_t>(batch.offsets[groups[g]]);
    const auto hi = static_cast<std::size_t>(batch.offsets[groups[g + 1]]);
    std::fill(count.begin(), count.end(), 0);
    for (std::size_t i = lo; i < hi; ++i) {
      if (batch.cards.flags[i] == 0) {  // a common card, resolved
        const auto style = static_cast<std::size_t>(batch.cards.style[i]);
        if (style >= count.size()) {
          count.resize(style + 1, 0);
        }
        ++count[style];
      }
    }
    for (std::size_t style = 0; style < count.size(); ++style) {
      if (count[style] > limit) {
        out.push_back({g, static_cast<std::int32_t>(style), count[style]});
      }
    }
  }
  return out;
}

}  // namespace neweden
