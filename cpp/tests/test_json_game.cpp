#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "neweden/city.hpp"
#include "neweden/json_game.hpp"

namespace {

const neweden::FormatNames& names() {
  static const neweden::FormatNames made = [] {
    neweden::FormatNames n;
    for (const char* name : {"lab", "shelter", "medical", "tower", "base"}) {
      n.facilities.intern(name);
    }
    for (const char* name : {"top", "right", "bottom", "left"}) {
      n.sides.intern(name);
    }
    return n;
  }();
  return made;
}

bool add(neweden::JsonGamePacker& packer, const std::string& json) {
  return packer.add(reinterpret_cast<const std::uint8_t*>(json.data()), json.size());
}

// A game of one player whose city is `city` (a JSON array).
std::string game(const std::string& city) {
  return R"({"mode": "military", "players": [{"name": "Ana", "city": )" + city + "}]}";
}

const std::string kCard =
    R"({"row": 0, "col": 1, "card": {"style": "ex_a", "type": "ex_b", "facility": "tower",)"
    R"( "points": 4, "stars": 2, "sides": ["top", "left"]}})";

bool reads(const std::string& city) {
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  return add(packer, game(city));
}

}  // namespace

TEST_CASE("a city's JSON packs as the Python packer packs it") {
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  const std::string wild = R"({"row": -2, "col": 3, "rotated": true, "card": {"wild": true}})";
  const std::string turned =
      R"({"row":1,"col":1,"rotated":true,"card":{"style":"ex_c","type":"ex_b",)"
      R"("facility":"lab","points":0,"stars":0,"sides":["top"]}})";
  REQUIRE(add(packer, game("[" + kCard + ", " + wild + ",\n\t" + turned + "]")));
  REQUIRE(add(packer, game("[]")));
  const std::vector<std::int32_t> expected{
      0, 1, 0, 0, 3, 1 | 8, 0, 2, 4,   // sides top and left
      -2, 3, -1, -1, -1, 15, 1, 0, 0,  // wild: all sides, flag 1, no stars or points
      1, 1, 1, 0, 0, 4, 0, 0, 0,       // top turned is bottom
  };
  CHECK(packer.cells() == expected);
  CHECK(packer.offsets() == std::vector<std::int64_t>{0, 3, 3});
  CHECK(packer.first_city() == std::vector<std::int64_t>{0, 1, 2});
  CHECK(packer.rotated() == std::vector<std::int64_t>{1, 2});
  CHECK(packer.styles().names() == std::vector<std::string>{"ex_a", "ex_c"});
  CHECK(packer.types().names() == std::vector<std::string>{"ex_b"});
}

TEST_CASE("a refused game adds nothing, names included") {
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  REQUIRE(add(packer, game("[" + kCard + "]")));
  const std::string late_bad =
      R"({"row": 5, "col": 5, "card": {"style": "ex_new", "type": "ex_new", "facility": "lab",)"
      R"( "points": 1, "stars": 0, "sides": ["top"]}}, {"row": 6, "col": 5, "card": "EX-1"})";
  CHECK_FALSE(add(packer, game("[" + late_bad + "]")));
  CHECK(packer.cells().size() == 9);
  CHECK(packer.offsets() == std::vector<std::int64_t>{0, 1});
  CHECK(packer.first_city() == std::vector<std::int64_t>{0, 1});
  CHECK(packer.styles().names() == std::vector<std::string>{"ex_a"});
}

TEST_CASE("what the exact decoder alone reads is refused") {
  CHECK(reads("[" + kCard + "]"));
  const std::string card_fields =
      R"("style": "ex_a", "type": "ex_b", "facility": "tower", "points": 4, "stars": 2)";
  const auto with = [&](const std::string& more) {
    return R"([{"row": 0, "col": 0, "card": {)" + card_fields + more + "}}]";
  };
  CHECK(reads(with(R"(, "sides": ["top"])")));
  CHECK_FALSE(reads(with("")));                                      // sides missing
  CHECK_FALSE(reads(with(R"(, "sides": [])")));                      // no side
  CHECK_FALSE(reads(with(R"(, "sides": ["top", "top"])")));          // a side twice
  CHECK_FALSE(reads(with(R"(, "sides": ["top", "up"])")));           // not a side
  CHECK_FALSE(reads(with(R"(, "sides": ["top"], "sides": ["left"])")));  // a key twice
  CHECK_FALSE(reads(with(R"(, "sides": ["top"], "colour": "red")")));    // unknown field
  CHECK_FALSE(reads(with(R"(, "sides": ["top"], "wild": true)")));       // wild and common
  CHECK_FALSE(reads(with(R"(, "sides": ["t\u006fp"])")));                // an escape
  CHECK_FALSE(reads(R"([{"row": 0, "col": 0, "card": {"wild": false}}])"));
  CHECK_FALSE(reads(R"([{"row": 0, "col": 0, "card": "EX-1"}])"));      // a catalog id
  CHECK_FALSE(reads(R"([{"row": 0, "col": 0, "card": {"wild": true, "name": ""}}])"));
  CHECK_FALSE(reads(R"([{"row": 0, "col": 0, "card": {"wild": true, "name": "Jo\u00e3o"}}])"));
  CHECK(reads("[{\"row\": 0, \"col\": 0, \"card\": {\"wild\": true, \"name\": \"Jo\xc3\xa3o\"}}]"));
  CHECK(reads(R"([{"row": 0, "col": 0, "card": {"wild": true, "name": "Joao"}}])"));
}

TEST_CASE("numbers are plain integers within the format's ranges") {
  const auto at = [](const std::string& row) {
    return reads(R"([{"row": )" + row + R"(, "col": 0, "card": {"wild": true}}])");
  };
  CHECK(at("1000"));
  CHECK(at("-1000"));
  CHECK(at("0"));
  CHECK_FALSE(at("1001"));
  CHECK_FALSE(at("-1001"));
  CHECK_FALSE(at("1.0"));
  CHECK_FALSE(at("1e0"));
  CHECK_FALSE(at("01"));
  CHECK_FALSE(at("99999999999999999999"));
  CHECK_FALSE(at("true"));
  CHECK_FALSE(at("\"1\""));
  const auto stars = [](const std::string& n) {
    return reads(R"([{"row": 0, "col": 0, "card": {"wild": true, "stars": )" + n + "}}]");
  };
  CHECK(stars("3"));
  CHECK_FALSE(stars("4"));
  CHECK_FALSE(stars("-1"));
}

TEST_CASE("players and cities given twice, too many cards, and trailing bytes are refused") {
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  const std::string two_cities = R"({"mode": "military", "players": [{"city": [], "city": []}]})";
  const std::string two_players = R"({"players": [{"city": []}], "players": [{"city": []}]})";
  CHECK_FALSE(add(packer, two_cities));
  CHECK_FALSE(add(packer, two_players));
  CHECK_FALSE(add(packer, game("[]") + "x"));
  CHECK(add(packer, game("[]") + " \n"));
  std::string city = "[";
  for (int i = 0; i < 78; ++i) {
    city += (i ? "," : "") + std::string(R"({"row": 0, "col": )") + std::to_string(i) +
            R"(, "card": {"wild": true}})";
  }
  CHECK_FALSE(add(packer, game(city + "]")));
  CHECK(add(packer, game(city.substr(0, city.rfind(",{")) + "]")));  // 77 cards
  // Whatever else the document holds is skipped, escapes and nesting included.
  CHECK(add(packer, R"({"meta": {"a": ["x\"y", {"b": [1.5e3, null, false]}]}, "players": [{"name": "Z\u00e9", "city": []}]})"));
  // A key of the game or of a player spelled with an escape: the exact path reads it.
  CHECK_FALSE(add(packer, R"({"pl\u0061yers": [{"city": []}], "players": [{"city": []}]})"));
  CHECK_FALSE(add(packer, R"({"players": [{"c\u0069ty": [], "city": []}]})"));
}

TEST_CASE("the game added last can be dropped, its names with it") {
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  REQUIRE(add(packer, game("[" + kCard + "]")));
  const std::string other =
      R"([{"row": 0, "col": 0, "rotated": true, "card": {"style": "ex_z", "type": "ex_b",)"
      R"( "facility": "lab", "points": 1, "stars": 0, "sides": ["top"]}}])";
  REQUIRE(add(packer, game(other)));
  CHECK(packer.last_styles() == 1);  // ex_z numbered by the second game
  CHECK(packer.last_types() == 1);   // ex_b was known
  packer.drop_last();
  CHECK(packer.cells().size() == 9);
  CHECK(packer.offsets() == std::vector<std::int64_t>{0, 1});
  CHECK(packer.first_city() == std::vector<std::int64_t>{0, 1});
  CHECK(packer.rotated().empty());
  CHECK(packer.styles().names() == std::vector<std::string>{"ex_a"});
  packer.drop_last();  // a second time: nothing more
  CHECK(packer.cells().size() == 9);
  REQUIRE(add(packer, game(other)));
  CHECK(packer.rotated() == std::vector<std::int64_t>{1});
}

TEST_CASE("a cleared packer is as new: the next game packs as it would alone") {
  neweden::JsonGamePacker alone(names(), neweden::CityLimits{});
  const std::string other =
      R"([{"row": 0, "col": 0, "rotated": true, "card": {"style": "ex_z", "type": "ex_y",)"
      R"( "facility": "lab", "points": 1, "stars": 0, "sides": ["top"]}}])";
  REQUIRE(add(alone, game(other)));
  neweden::JsonGamePacker reused(names(), neweden::CityLimits{});
  REQUIRE(add(reused, game("[" + kCard + "]")));
  REQUIRE(add(reused, game("[]")));
  reused.clear();
  CHECK(reused.cells().empty());
  CHECK(reused.offsets() == std::vector<std::int64_t>{0});
  CHECK(reused.first_city() == std::vector<std::int64_t>{0});
  CHECK(reused.styles().names().empty());
  CHECK(reused.unresolved().empty());
  reused.drop_last();  // nothing to drop after a clear
  CHECK(reused.cells().empty());
  REQUIRE(add(reused, game(other)));
  CHECK(reused.cells() == alone.cells());
  CHECK(reused.offsets() == alone.offsets());
  CHECK(reused.first_city() == alone.first_city());
  CHECK(reused.rotated() == alone.rotated());
  CHECK(reused.styles().names() == alone.styles().names());
  CHECK(reused.types().names() == alone.types().names());
  CHECK(reused.last_styles() == 0);  // every name numbered by this game
}

TEST_CASE("a long table of names is searched through its index, and truncated with it") {
  neweden::NameTable table;
  for (int i = 0; i < 100; ++i) {
    CHECK(table.intern("ex_style_" + std::to_string(i)) == i);
  }
  CHECK(table.find("ex_style_0") == 0);
  CHECK(table.find("ex_style_99") == 99);
  CHECK(table.find("ex_style_100") == -1);
  table.truncate(10);
  CHECK(table.find("ex_style_50") == -1);
  CHECK(table.intern("ex_style_50") == 10);
  CHECK(table.find("ex_style_9") == 9);
}

TEST_CASE("a refused game leaves nothing to drop, and skipped values may hold any key") {
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  REQUIRE(add(packer, game("[" + kCard + "]")));
  CHECK_FALSE(add(packer, game(R"([{"row": 0, "col": 0, "card": "EX-1"}])")));
  packer.drop_last();  // the refused game is the last add(): nothing dropped
  CHECK(packer.cells().size() == 9);
  CHECK(add(packer, "{\"meta\": {\"observa\xc3\xa7\xc3\xa3o\": 1, \"k\\u0065y\": [\"\\\"\"]}, "
                    "\"players\": [{\"city\": []}]}"));
}

TEST_CASE("head() gives the game added last with each city as []") {
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  const std::string two = R"({"mode": "military", "players": [{"name": "Ana", "city":  [)" +
                          kCard + R"(] , "bonuses": []}, {"city":[], "name": "Bia"}],)" +
                          R"( "meta": {"city": [1]}})";
  REQUIRE(add(packer, two));
  const auto* data = reinterpret_cast<const std::uint8_t*>(two.data());
  CHECK(packer.head(data, two.size()) ==
        R"({"mode": "military", "players": [{"name": "Ana", "city":  [] , "bonuses": []},)"
        R"( {"city":[], "name": "Bia"}], "meta": {"city": [1]}})");
  const std::string one = game("[" + kCard + "]");
  REQUIRE(add(packer, one));
  CHECK(packer.head(reinterpret_cast<const std::uint8_t*>(one.data()), one.size()) ==
        game("[]"));
}

TEST_CASE("a name is read whole at any length, and refused for any byte a plain string lacks") {
  // str() reads eight bytes at a time where eight are left: each length, and each place
  // of a byte it refuses, before and after a word's edge.
  const auto card = [](const std::string& style) {
    return R"({"row": 0, "col": 0, "card": {"style": ")" + style +
           R"(", "type": "t", "facility": "lab", "points": 0, "stars": 0, "sides": ["top"]}})";
  };
  for (std::size_t length = 1; length <= 20; ++length) {
    std::string style(length, 'a');
    for (std::size_t i = 0; i < length; ++i) {
      style[i] = static_cast<char>('a' + (i * 7) % 26);  // printable, and none alike
    }
    neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
    REQUIRE(add(packer, game("[" + card(style) + "]")));
    REQUIRE(packer.styles().names() == std::vector<std::string>{style});
    CHECK(packer.styles().find(style) == 0);
    CHECK(packer.styles().find(style + "x") == -1);
    for (std::size_t at = 0; at < length; ++at) {
      for (const char bad : {'\x00', '\x1f', '\x7f', '\x80', '\xff', '\\', '\t'}) {
        std::string odd = style;
        odd[at] = bad;
        CHECK_FALSE(reads("[" + card(odd) + "]"));
      }
      std::string fine = style;
      for (const char good : {' ', '~', '!', '#'}) {  // the edges of what a name may hold
        fine[at] = good;
        CHECK(reads("[" + card(fine) + "]"));
      }
    }
  }
}

TEST_CASE("a name as players write it is read in UTF-8, and only well-formed") {
  // RULES §1: "Praça", "Área Verde" are names; the caller folds them. A byte above 0x7f is
  // taken only as part of a sequence Python's strict decoder (and msgspec) takes.
  const auto card = [](const std::string& style) {
    return R"([{"row": 0, "col": 0, "card": {"style": ")" + style +
           R"(", "type": "t", "facility": "lab", "points": 0, "stars": 0, "sides": ["top"]}}])";
  };
  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  REQUIRE(add(packer, game(card("Pra\xc3\xa7" "a"))));
  REQUIRE(add(packer, game(card("go\xcc\x81tico"))));  // decomposed: o + U+0301
  REQUIRE(add(packer, game(card("\xc3\x81rea Verde"))));
  CHECK(packer.styles().names() ==
        std::vector<std::string>{"Pra\xc3\xa7" "a", "go\xcc\x81tico", "\xc3\x81rea Verde"});
  CHECK(reads(card("\xe2\x82\xac")));          // three bytes (the caller refuses the name)
  CHECK(reads(card("x\xf0\x9f\x98\x80")));     // four bytes
  CHECK(reads(card("\xf4\x8f\xbf\xbf")));      // U+10FFFF
  for (const char* bad : {
           "\x80",              // a continuation byte first
           "\xc3",              // cut short by the closing quote
           "\xc3\x28",          // not a continuation byte
           "\xc0\xaf",          // overlong
           "\xc1\xbf",          // overlong
           "\xe0\x80\x80",      // overlong
           "\xed\xa0\x80",      // a surrogate
           "\xf0\x80\x80\x80",  // overlong
           "\xf4\x90\x80\x80",  // past U+10FFFF
           "\xf5\x80\x80\x80",  // no such first byte
           "\xff",
           "a\xe2\x82",          // cut short
       }) {
    CHECK_FALSE(reads(card(bad)));
  }
  // the length is counted in code points, as msgspec counts it (100 at most)
  std::string hundred;
  for (int i = 0; i < 100; ++i) {
    hundred += "\xc3\xa9";
  }
  CHECK(reads(card(hundred)));
  CHECK_FALSE(reads(card(hundred + "a")));
  // a document cut inside a sequence is refused, nothing read past its end
  const std::string whole = game(card("Pra\xc3\xa7" "a"));
  const std::size_t cut = whole.find("\xc3") + 1;
  neweden::JsonGamePacker short_packer(names(), neweden::CityLimits{});
  CHECK_FALSE(short_packer.add(reinterpret_cast<const std::uint8_t*>(whole.data()), cut));
}

TEST_CASE("a card given by an id of the catalog set packs as its catalog card, its id kept; an unknown id as an unresolved row") {
  neweden::CatalogCards catalog;
  catalog["EX-TOWER"] = neweden::CatalogCard{false, "ex_a", "ex_b", 3, 4, 2, 1 | 8};
  catalog["atomic-waste"] = neweden::CatalogCard{true, "", "", -1, 0, 0, 0};
  neweden::JsonGamePacker inline_packer(names(), neweden::CityLimits{});
  const std::string wild = R"({"row": -2, "col": 3, "rotated": true, "card": {"wild": true}})";
  REQUIRE(add(inline_packer, game("[" + kCard + ", " + wild + "]")));

  neweden::JsonGamePacker packer(names(), neweden::CityLimits{});
  packer.set_catalog(&catalog);
  const std::string by_id = R"([{"row": 0, "col": 1, "card": "EX-TOWER"},)"
                            R"( {"row": -2, "col": 3, "rotated": true, "card": "atomic-waste"}])";
  REQUIRE(add(packer, game(by_id)));
  CHECK(packer.cells() == inline_packer.cells());
  CHECK(packer.styles().names() == inline_packer.styles().names());
  CHECK(packer.ids() == std::vector<std::string>{"EX-TOWER", "atomic-waste"});
  CHECK(packer.first_id() == std::vector<std::int64_t>{0, 2});
  CHECK(packer.id_rows() == std::vector<std::int64_t>{0, 1});  // each its row of the table

  CHECK(packer.unresolved() == std::vector<std::uint8_t>{0});

  // an id the catalog does not hold packs as an unresolved row (no side, turned or not), its
  // id kept and its game marked
  REQUIRE(add(packer, game(R"([{"row": 0, "col": 0, "card": "atomic-waste"},)"
                           R"( {"row": 5, "col": -1, "rotated": true, "card": "EX-NONE"}])")));
  const std::vector<std::int32_t> unresolved{5, -1, -1, -1, -1, 0, neweden::kUnresolved, 0,
                                            0};
  CHECK(std::vector<std::int32_t>(packer.cells().end() - 9, packer.cells().end()) == unresolved);
  CHECK(packer.ids() == std::vector<std::string>{"EX-TOWER", "atomic-waste", "atomic-waste",
                                                  "EX-NONE"});
  CHECK(packer.unresolved() == std::vector<std::uint8_t>{0, 1});
  CHECK(packer.rotated().back() == static_cast<std::int64_t>(packer.cells().size() / 9 - 1));

  // a string that is no id as the format reads one (a space, a leading dash, too long), or a
  // card the catalog withheld, is refused and takes back nothing of the game
  catalog["EX-ODD"] = neweden::CatalogCard{false, "ex_a", "ex_b", 3, 4, 2, 1, true};
  for (const std::string& bad : {std::string("EX NONE"), std::string("-EX"), std::string(101, 'E'),
                                std::string("EX-ODD")}) {
    CHECK_FALSE(add(packer, game(R"([{"row": 0, "col": 0, "card": "atomic-waste"},)"
                                 R"( {"row": 0, "col": 1, "card": ")" + bad + R"("}])")));
    CHECK(packer.ids().size() == 4);
    CHECK(packer.id_rows() == std::vector<std::int64_t>{0, 1, 2, 3});  // none of it kept
    CHECK(packer.first_id() == std::vector<std::int64_t>{0, 2, 4});
    CHECK(packer.unresolved() == std::vector<std::uint8_t>{0, 1});
  }
  // without a catalog, no id is read
  CHECK_FALSE(reads(R"([{"row": 0, "col": 0, "card": "atomic-waste"}])"));
}
