// The batch: one kernel call per city into a per-thread workspace, cities split between
// threads in contiguous runs of about equal card counts.
#include "neweden/batch.hpp"

#include <algorithm>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kernel.hpp"
#include "split.hpp"

namespace neweden {
namespace {

CityView city_of(const BatchView& batch, std::size_t k) noexcept {
  return batch.cards.slice(static_cast<std::size_t>(batch.offsets[k]),
                           static_cast<std::size_t>(batch.offsets[k + 1]));
}

void run(const BatchView& batch, const BatchFigures& out, std::size_t first, std::size_t last) {
  detail::Workspace ws;
  for (std::size_t k = first; k < last; ++k) {
    const CityView city = city_of(batch, k);
    const CitySummary s = detail::analyse_into(city, ws);
    out.legal[k] = s.legal ? 1 : 0;
    out.cards[k] = s.cards;
    out.open_connections[k] = s.open_connections;
    out.components[k] = s.components;
    out.project[k] = s.project;
    out.labs[k] = s.labs;
    out.shelter_points[k] = s.shelter_points;
    out.medical_points[k] = s.medical_points;
    out.towers[k] = s.tower_span.towers;
    out.tower_points[k] = s.tower_span.points;
    out.bases[k] = s.bases;
    const auto lo = static_cast<std::size_t>(batch.offsets[k]);
    std::copy_n(ws.component.begin(), city.n, out.component + lo);
    std::copy_n(ws.overlapped_by.begin(), city.n, out.overlapped_by + lo);
  }
}

}  // namespace

void check_batch(const BatchView& batch) {
  if (batch.offsets[0] != 0 ||
      static_cast<std::size_t>(batch.offsets[batch.cities]) != batch.cards.n) {
    throw std::invalid_argument("offsets must start at 0 and end at the number of cards");
  }
  for (std::size_t k = 0; k < batch.cities; ++k) {
    const std::int64_t cards = batch.offsets[k + 1] - batch.offsets[k];
    if (cards < 0) {
      throw std::invalid_argument("offsets must not decrease (city " + std::to_string(k) + ")");
    }
    if (static_cast<std::size_t>(cards) > detail::kMaxCityCards) {
      throw std::invalid_argument("city " + std::to_string(k) + " has " +
                                  std::to_string(cards) + " cards; at most " +
                                  std::to_string(detail::kMaxCityCards) + " are analysed");
    }
  }
  try {
    detail::check_cards(batch.cards);  // every card at once
  } catch (const std::invalid_argument&) {
    for (std::size_t k = 0; k < batch.cities; ++k) {  // which city: only on failure
      try {
        detail::check_cards(city_of(batch, k));
      } catch (const std::invalid_argument& err) {
        throw std::invalid_argument("city " + std::to_string(k) + ", " + err.what());
      }
    }
  }
}

namespace detail {

void split_cities(const BatchView& batch, unsigned threads,
                  const std::function<void(std::size_t, std::size_t)>& run) {
  const std::size_t cities = batch.cities;
  const std::size_t workers = std::max<std::size_t>(1, std::min<std::size_t>(threads, cities));
  if (workers == 1) {
    run(0, cities);
    return;
  }
  // Contiguous runs of cities holding about cards / workers cards each.
  std::vector<std::size_t> bounds{0};
  const auto total = static_cast<std::size_t>(batch.offsets[cities]);
  for (std::size_t w = 1; w < workers; ++w) {
    const auto target = static_cast<std::int64_t>(total * w / workers);
    const std::int64_t* at = std::lower_bound(batch.offsets, batch.offsets + cities, target);
    bounds.push_back(std::max(bounds.back(), static_cast<std::size_t>(at - batch.offsets)));
  }
  bounds.push_back(cities);
  // A failure on a worker (only an allocation can fail) is raised on the calling thread.
  std::vector<std::exception_ptr> failures(workers);
  const auto guarded = [&](std::size_t w) {
    try {
      run(bounds[w], bounds[w + 1]);
    } catch (...) {
      failures[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (std::size_t w = 1; w < workers; ++w) {
    pool.emplace_back(guarded, w);
  }
  guarded(0);
  for (std::thread& t : pool) {
    t.join();
  }
  for (const std::exception_ptr& failure : failures) {
    if (failure) {
      std::rethrow_exception(failure);
    }
  }
}

}  // namespace detail

void analyse_batch(const BatchView& batch, const BatchFigures& out, unsigned threads) {
  detail::split_cities(batch, threads,
                       [&](std::size_t first, std::size_t last) { run(batch, out, first, last); });
}

}  // namespace neweden
