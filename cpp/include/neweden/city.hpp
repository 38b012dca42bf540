// One city, analysed: legality, connections, components and the Military figures
// (RULES §2, §3 and D1-D4 of §4a). Plain C++17: no Python here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "neweden/sides.hpp"

namespace neweden {

// Facility codes, in the order of neweden.format.model.FACILITIES.
enum Facility : std::int8_t {
  kNoFacility = -1,
  kLab = 0,
  kShelter = 1,
  kMedical = 2,
  kTower = 3,
  kBase = 4,
};

// Card flags of the compact city (neweden.geometry.compact).
inline constexpr std::uint8_t kWild = 1U;
inline constexpr std::uint8_t kUnresolved = 2U;

// The compact arrays of one city (views; nothing is copied). Card i is row i of each array.
struct CityView {
  std::size_t n = 0;
  const std::int32_t* row = nullptr;
  const std::int32_t* col = nullptr;
  const std::int32_t* style = nullptr;  // -1: none (wild or unresolved)
  const std::int32_t* type = nullptr;   // -1: none
  const std::int8_t* facility = nullptr;
  const SideMask* sides = nullptr;  // as placed, after rotation
  const std::uint8_t* flags = nullptr;

  // Cards [lo, hi) of these columns, as a city of their own.
  [[nodiscard]] CityView slice(std::size_t lo, std::size_t hi) const noexcept {
    return CityView{hi - lo,        row + lo,      col + lo,   style + lo,
                    type + lo,      facility + lo, sides + lo, flags + lo};
  }
};

// A complete connection between two cards, a < b (card indices in input order).
struct Connection {
  std::int32_t a;
  std::int32_t b;
};

// Where a component first meets a card of another component, which it is not joined to:
// its first card (in input order) with a card of another component beside it, the side it
// meets on (0 top, 1 right, 2 bottom, 3 left: the first in that order) and that card. All
// -1 when no card of the component touches a card of another component.
struct Contact {
  std::int32_t card = -1;
  std::int32_t side = -1;
  std::int32_t other = -1;
};

// The rectangle the communication towers span (D4), both end cells included.
struct TowerSpan {
  std::int32_t towers = 0;
  std::int32_t min_row = 0;
  std::int32_t min_col = 0;
  std::int32_t max_row = 0;
  std::int32_t max_col = 0;
  std::int64_t points = 0;  // columns x rows; 0 with fewer than two towers
};

// What a city comes to, in numbers: the one summary every answer of the core starts from
// (the rich per-city analysis, the batch arrays and the score figures).
struct CitySummary {
  // --- legality (RULES §3) ---------------------------------------------------------------
  bool legal = true;       // no overlap, no unresolved card, at most one component
  std::int32_t cards = 0;  // cards kept in the geometry
  std::int32_t components = 0;
  std::int32_t project = -1;  // the largest component, on a tie the earliest; -1 if none
  // --- connections (RULES §2) ------------------------------------------------------------
  std::int32_t open_connections = 0;
  std::int32_t complete_connections = 0;
  // --- Military figures (D1-D4; D5 needs every player and lives in Python) ---------------
  std::int32_t labs = 0;
  std::int64_t shelter_points = 0;
  std::int64_t medical_points = 0;
  TowerSpan tower_span;
  std::int32_t bases = 0;
};

// The summary with every detail listed, card by card.
struct CityAnalysis : CitySummary {
  std::vector<std::uint8_t> included;       // 1 when the card is in the geometry
  std::vector<std::int32_t> overlapped_by;  // the earlier card on the same cell, or -1
  std::vector<std::int32_t> component;      // component id (by first card), or -1
  std::vector<Connection> connections;      // sorted by (a, b)
  std::vector<std::vector<std::int32_t>> shelter_groups;  // by first card; cards ascending
  std::vector<std::int32_t> medical_cards;  // distinct cards next to a medical center
  std::vector<Contact> contacts;             // by component: its first contact (disconnected)
};

// Analyses one city. Throws std::invalid_argument for arrays that no decoded city can give
// (an unknown facility code, side bits outside the four sides, a common card without icons).
CityAnalysis analyse_city(const CityView& city);

}  // namespace neweden
