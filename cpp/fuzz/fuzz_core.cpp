// libFuzzer target over the core's own entry points: any bytes become a batch of cities
// (8 bytes a card); the batch must be refused cleanly or analysed, and each city of the
// batch must equal the per-city analysis (a differential check: both share the kernel but
// not the batch bookkeeping), and the score figures must agree with it and tally the kept
// cards consistently. And the legal placements of a card (the last one) next to the first
// city must be exactly the candidates after which the per-city analysis finds it legal
// (legal_candidates looks at four cells beside a legal city: a differential check of that
// shortcut). The same bytes read as a game's JSON must be packed or refused, never read
// past.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "neweden/batch.hpp"
#include "neweden/city.hpp"
#include "neweden/json_game.hpp"
#include "neweden/names.hpp"
#include "neweden/placements.hpp"
#include "neweden/scores.hpp"

using namespace neweden;

namespace {

// legal_candidates(city, card) against placing the card at each candidate and analysing.
void check_placements(const CityView& city, const CityView& card) {
  if (card.n != 1 || city.n + 1 > 128) {
    return;
  }
  std::vector<Candidate> found;
  try {
    found = legal_candidates(city, card);
  } catch (const std::invalid_argument&) {
    return;
  }
  std::vector<std::int32_t> row(city.row, city.row + city.n), col(city.col, city.col + city.n),
      style(city.style, city.style + city.n), type(city.type, city.type + city.n);
  std::vector<std::int8_t> facility(city.facility, city.facility + city.n);
  std::vector<SideMask> sides(city.sides, city.sides + city.n);
  std::vector<std::uint8_t> flags(city.flags, city.flags + city.n);
  style.push_back(card.style[0]);
  type.push_back(card.type[0]);
  facility.push_back(card.facility[0]);
  flags.push_back(card.flags[0]);
  row.push_back(0);
  col.push_back(0);
  sides.push_back(0);
  std::size_t next = 0;
  for (const Candidate& c : candidates(city, card.sides[0])) {
    row.back() = c.row;
    col.back() = c.col;
    sides.back() = rotate_sides(card.sides[0], c.rotated);
    const CityView placed{city.n + 1,  row.data(),      col.data(),   style.data(),
                          type.data(), facility.data(), sides.data(), flags.data()};
    const bool legal = analyse_city(placed).legal;
    const bool listed = next < found.size() && found[next].row == c.row &&
                        found[next].col == c.col && found[next].rotated == c.rotated;
    if (legal != listed) {
      __builtin_trap();
    }
    next += listed ? 1 : 0;
  }
  if (next != found.size()) {
    __builtin_trap();
  }
}

}  // namespace

// The facilities and sides by the names the format spells them (Python hands its own tables
// to the module; the fuzzer spells them here).
static const FormatNames& format_names() {
  static const FormatNames names = [] {
    FormatNames made;
    for (const char* name : {"lab", "shelter", "medical", "tower", "base"}) {
      made.facilities.intern(name);
    }
    for (const char* name : {"top", "right", "bottom", "left"}) {
      made.sides.intern(name);
    }
    return made;
  }();
  return names;
}

// The bytes as a game's JSON, added after a game already read: refused leaving the table as
// it was, or read into rows whose offsets and rotated cards stay within the table.
static void check_json(const std::uint8_t* data, std::size_t size) {
  const FormatNames& names = format_names();
  static const char kFirst[] =
      R"({"players": [{"city": [{"row": 0, "col": 0, "card": {"wild": true}}]}]})";
  JsonGamePacker packer(names, CityLimits{});
  if (!packer.add(reinterpret_cast<const std::uint8_t*>(kFirst), sizeof kFirst - 1)) {
    __builtin_trap();
  }
  const bool read = packer.add(data, size);
  const auto& cells = packer.cells();
  const auto& offsets = packer.offsets();
  const auto& first = packer.first_city();
  const auto cards = static_cast<std::int64_t>(cells.size() / 9);
  if (cells.size() % 9 != 0 || offsets.back() != cards || first.size() != (read ? 3U : 2U) ||
      first.back() + 1 != static_cast<std::int64_t>(offsets.size()) ||
      (!read && cells.size() != 9)) {
    __builtin_trap();
  }
  for (const std::int64_t row : packer.rotated()) {
    if (row < 0 || row >= cards) {
      __builtin_trap();
    }
  }
  // The rest of a game read: no longer than the game, and the same where not a city.
  if (read) {
    const std::string head = packer.head(data, size);
    if (head.size() > size || (size > 0 && head.front() != static_cast<char>(data[0]))) {
      __builtin_trap();
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_json(data, size);
  if (size < 1) {
    return 0;
  }
  const std::size_t cities = 1 + data[0] % 4;
  const std::uint8_t* card = data + 1;
  const std::size_t cards = (size - 1) / 8;
  std::vector<std::int32_t> row(cards), col(cards), style(cards), type(cards);
  std::vector<std::int8_t> facility(cards);
  std::vector<SideMask> sides(cards);
  std::vector<std::uint8_t> flags(cards);
  std::vector<std::int64_t> offsets(cities + 1, 0);
  for (std::size_t i = 0; i < cards; ++i, card += 8) {
    // Small coordinates so cards touch and overlap; now and then one far away.
    row[i] = static_cast<std::int8_t>(card[0]) / (card[7] & 0x80U ? 1 : 16);
    col[i] = static_cast<std::int8_t>(card[1]) / (card[7] & 0x40U ? 1 : 16);
    style[i] = static_cast<std::int32_t>(card[2] % 5) - 1;
    type[i] = static_cast<std::int32_t>(card[3] % 5) - 1;
    facility[i] = static_cast<std::int8_t>(static_cast<int>(card[4] % 8) - 2);  // some bad
    sides[i] = static_cast<SideMask>(card[5] % 20);                              // some bad
    flags[i] = static_cast<std::uint8_t>(card[6] % 5);                           // some bad
  }
  // Split the cards between the cities at the positions the input says.
  for (std::size_t k = 1; k < cities; ++k) {
    offsets[k] = std::max<std::int64_t>(
        offsets[k - 1], static_cast<std::int64_t>(cards * (data[0] / 4U % (k + 1)) / (k + 1)));
  }
  offsets[cities] = static_cast<std::int64_t>(cards);
  BatchView batch;
  batch.cities = cities;
  batch.offsets = offsets.data();
  batch.cards = CityView{cards, row.data(), col.data(), style.data(), type.data(),
                         facility.data(), sides.data(), flags.data()};
  try {
    check_batch(batch);
  } catch (const std::invalid_argument&) {
    return 0;  // refused cleanly: what bad input must get
  }
  std::vector<std::uint8_t> legal(cities);
  std::vector<std::int32_t> counts(cities), open(cities), components(cities), project(cities),
      labs(cities), towers(cities), bases(cities), component(cards), overlapped(cards);
  std::vector<std::int64_t> shelters(cities), medical(cities), tower_points(cities);
  const BatchFigures out{legal.data(),    counts.data(),   open.data(),         components.data(),
                         project.data(),  labs.data(),     shelters.data(),     medical.data(),
                         towers.data(),   tower_points.data(), bases.data(),    component.data(),
                         overlapped.data()};
  analyse_batch(batch, out, 1 + (data[0] & 1U));
  // Stars and points from the input too, some out of range: refused, or scored.
  std::vector<std::int32_t> stars(cards), points(cards);
  for (std::size_t i = 0; i < cards; ++i) {
    stars[i] = static_cast<std::int32_t>(data[1 + 8 * i + 7] % 5);
    const std::uint8_t p = data[1 + 8 * i + 2];
    points[i] = p == 255 ? -1 : static_cast<std::int32_t>(p % 64);  // now and then negative
  }
  const CardValues values{stars.data(), points.data()};
  std::vector<ScoreFigures> scores(cities);
  bool scored = true;
  try {
    check_values(batch, values);
  } catch (const std::invalid_argument&) {
    scored = false;
  }
  if (scored) {
    score_batch(batch, values, scores.data(), 1 + (data[0] & 1U));
  }
  for (std::size_t k = 0; k < cities; ++k) {
    const CityView city = batch.cards.slice(static_cast<std::size_t>(offsets[k]),
                                            static_cast<std::size_t>(offsets[k + 1]));
    const CityAnalysis one = analyse_city(city);
    if ((legal[k] != 0) != one.legal || open[k] != one.open_connections ||
        components[k] != one.components || project[k] != one.project ||
        shelters[k] != one.shelter_points || medical[k] != one.medical_points ||
        tower_points[k] != one.tower_span.points || bases[k] != one.bases ||
        labs[k] != one.labs) {
      __builtin_trap();
    }
    if (scored) {
      const ScoreFigures& f = scores[k];
      std::int32_t by_stars = 0;
      for (const std::int32_t n : f.cards_by_stars) {
        by_stars += n;
      }
      if (f.legal != one.legal || f.cards != counts[k] || f.open_connections != open[k] ||
          f.complete_connections != static_cast<std::int32_t>(one.connections.size()) ||
          f.tower_span.points != one.tower_span.points || by_stars != f.cards ||
          f.row_cards > f.cards || f.column_cards > f.cards || f.styles > f.cards ||
          (f.cards > 0 && (f.row_cards < 1 || f.column_cards < 1))) {
        __builtin_trap();
      }
    }
    for (std::size_t i = 0; i < city.n; ++i) {
      const std::size_t at = static_cast<std::size_t>(offsets[k]) + i;
      if (component[at] != one.component[i] || overlapped[at] != one.overlapped_by[i]) {
        __builtin_trap();
      }
    }
  }
  check_placements(batch.cards.slice(0, static_cast<std::size_t>(offsets[1])),
                   batch.cards.slice(cards == 0 ? 0 : cards - 1, cards));
  return 0;
}
