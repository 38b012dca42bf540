// The project's strict JSON reader (cpp/src/json_game.cpp) against simdjson's On-Demand API
// on the same games: the measurement issue 19 asks for before a JSON library is taken
// ("pick by measurement"). A record, not part of the build: it needs Debian's
// libsimdjson-dev, which the project does not depend on. From the repository's root:
//
//   apt-get install libsimdjson-dev
//   python -c 'import sys; sys.path.insert(0, "."); from bench.conftest import transcribed_games
//   sys.stdout.buffer.write(b"\n".join(transcribed_games(2000, seed=19)) + b"\n")' > /tmp/games.jsonl
//   g++ -O2 -std=c++17 -Icpp/include scripts/reader_vs_simdjson.cpp cpp/src/json_game.cpp
//       cpp/src/names.cpp cpp/src/sides.cpp -lsimdjson -o /tmp/rvs   (one command)
//   /tmp/rvs /tmp/games.jsonl
//
// The simdjson side reads the cities into the same nine ints a card, and nothing more: it
// checks less than the strict reader does (no escape refused, no repeated key, no range,
// no span of a city kept for the head), so its figure is a lower bound of what a strict
// reader built on it would cost.
#include <simdjson.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "neweden/json_game.hpp"

namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::object;

constexpr std::string_view kFacilities[] = {"lab", "shelter", "medical", "tower", "base"};
constexpr std::string_view kSides[] = {"top", "right", "bottom", "left"};

struct Names {
  std::vector<std::string> names;
  std::int32_t intern(std::string_view name) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) {
        return static_cast<std::int32_t>(i);
      }
    }
    names.emplace_back(name);
    return static_cast<std::int32_t>(names.size() - 1);
  }
};

template <class Value, class Out>
bool got(Value&& value, Out& out) {
  return !std::forward<Value>(value).get(out);
}

// A card object's fields into the row's ints.
bool read_card(object card, std::int32_t (&row)[9], Names& styles, Names& types) {
  for (auto field : card) {
    const simdjson::ondemand::raw_json_string key = field.key();
    std::string_view text;
    std::int64_t number = 0;
    if (key == "style") {
      if (!got(field.value().get_string(), text)) return false;
      row[2] = styles.intern(text);
    } else if (key == "type") {
      if (!got(field.value().get_string(), text)) return false;
      row[3] = types.intern(text);
    } else if (key == "facility") {
      if (!got(field.value().get_string(), text)) return false;
      for (int i = 0; i < 5; ++i) {
        if (text == kFacilities[i]) row[4] = i;
      }
    } else if (key == "points" || key == "stars") {
      if (!got(field.value().get_int64(), number)) return false;
      row[key == "points" ? 8 : 7] = static_cast<std::int32_t>(number);
    } else if (key == "wild") {
      bool wild = false;
      if (!got(field.value().get_bool(), wild)) return false;
      row[6] = wild;
    } else if (key == "sides") {
      array sides;
      if (!got(field.value().get_array(), sides)) return false;
      for (auto side : sides) {
        if (!got(side.get_string(), text)) return false;
        for (int i = 0; i < 4; ++i) {
          if (text == kSides[i]) row[5] |= 1 << i;
        }
      }
    } else {
      return false;
    }
  }
  return true;
}

// A game's cities into nine ints a card, the rest skipped.
bool read_game(simdjson::ondemand::parser& parser, simdjson::padded_string_view json,
               std::vector<std::int32_t>& cells, Names& styles, Names& types) {
  simdjson::ondemand::document doc;
  object game;
  if (!got(parser.iterate(json), doc) || !got(doc.get_object(), game)) return false;
  for (auto field : game) {
    if (!(field.key() == "players")) continue;  // skipped (msgspec reads it)
    array players;
    if (!got(field.value().get_array(), players)) return false;
    for (auto one : players) {
      object player;
      if (!got(one.get_object(), player)) return false;
      for (auto entry : player) {
        if (!(entry.key() == "city")) continue;
        array city;
        if (!got(entry.value().get_array(), city)) return false;
        for (auto placed : city) {
          object placement;
          if (!got(placed.get_object(), placement)) return false;
          std::int32_t row[9] = {0, 0, -1, -1, -1, 0, 0, 0, 0};
          for (auto f : placement) {
            const simdjson::ondemand::raw_json_string key = f.key();
            std::int64_t number = 0;
            bool rotated = false;
            object card;
            if (key == "row" || key == "col") {
              if (!got(f.value().get_int64(), number)) return false;
              row[key == "row" ? 0 : 1] = static_cast<std::int32_t>(number);
            } else if (key == "rotated") {
              if (!got(f.value().get_bool(), rotated)) return false;
            } else if (key == "card") {
              if (!got(f.value().get_object(), card) || !read_card(card, row, styles, types)) {
                return false;
              }
            } else {
              return false;
            }
          }
          cells.insert(cells.end(), std::begin(row), std::end(row));
        }
      }
    }
  }
  return true;
}

double per_game(std::chrono::steady_clock::time_point from, std::size_t games) {
  const auto took = std::chrono::steady_clock::now() - from;
  return std::chrono::duration<double, std::micro>(took).count() / static_cast<double>(games);
}

}  // namespace

int main(int argc, char** argv) {
  std::ifstream in(argc > 1 ? argv[1] : "games.jsonl");
  std::vector<std::string> games;
  std::vector<simdjson::padded_string> padded;  // simdjson reads past the end: padded copies
  std::size_t bytes = 0;
  for (std::string line; std::getline(in, line);) {
    bytes += line.size();
    padded.emplace_back(line);
    games.push_back(std::move(line));
  }
  if (games.empty()) {
    std::fprintf(stderr, "no games read\n");
    return 1;
  }
  neweden::FormatNames names;
  for (std::string_view f : kFacilities) names.facilities.intern(f);
  for (std::string_view s : kSides) names.sides.intern(s);
  std::printf("%zu games, %zu bytes a game, simdjson's %s implementation\n", games.size(),
              bytes / games.size(), simdjson::get_active_implementation()->name().data());
  for (int round = 0; round < 5; ++round) {
    auto start = std::chrono::steady_clock::now();
    neweden::JsonGamePacker packer(names, neweden::CityLimits{});
    std::size_t read = 0;
    for (const std::string& g : games) {
      read += packer.add(reinterpret_cast<const std::uint8_t*>(g.data()), g.size());
    }
    const double own = per_game(start, games.size());
    start = std::chrono::steady_clock::now();
    simdjson::ondemand::parser parser;
    std::vector<std::int32_t> cells;
    Names styles, types;
    std::size_t read_too = 0;
    for (const simdjson::padded_string& g : padded) {
      read_too += read_game(parser, g, cells, styles, types);
    }
    const double library = per_game(start, games.size());
    std::printf("strict reader %.2f us a game (%zu read, %zu ints)  simdjson %.2f (%zu, %zu)\n",
                own, read, packer.cells().size(), library, read_too, cells.size());
  }
  return 0;
}
