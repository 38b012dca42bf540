// Cities of a batch split between threads in contiguous runs of about equal card counts.
#pragma once

#include <cstddef>
#include <functional>

#include "neweden/batch.hpp"

namespace neweden::detail {

// Calls run(first, last) for each run of cities, on `threads` threads (the calling one
// among them); an exception on any thread is raised on the calling one.
void split_cities(const BatchView& batch, unsigned threads,
                  const std::function<void(std::size_t, std::size_t)>& run);

}  // namespace neweden::detail
