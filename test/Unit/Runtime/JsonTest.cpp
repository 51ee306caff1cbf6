//===- JsonTest.cpp - Tests of the minimal JSON reader --------------------===//

#include "ff/Runtime/Json.h"

#include "gtest/gtest.h"

using namespace ff::rt;

namespace {

TEST(JsonTest, ParsesNestedDocument) {
  JsonValue v;
  std::string error;
  ASSERT_TRUE(parseJson(R"( {"a": [1, -2, 3.5, true, null],
                             "b": {"c": "x\"y\u00e9"}} )",
                        v, error))
      << error;
  ASSERT_TRUE(v.isObject());
  const JsonValue *a = v.get("a");
  ASSERT_TRUE(a && a->isArray());
  ASSERT_EQ(a->array.size(), 5u);
  EXPECT_TRUE(a->array[0].isInteger);
  EXPECT_EQ(a->array[0].integer, 1);
  EXPECT_EQ(a->array[1].integer, -2);
  EXPECT_FALSE(a->array[2].isInteger);
  EXPECT_DOUBLE_EQ(a->array[2].number, 3.5);
  EXPECT_TRUE(a->array[3].isBool() && a->array[3].boolean);
  EXPECT_TRUE(a->array[4].isNull());
  EXPECT_EQ(v.get("b")->get("c")->string, "x\"y\xc3\xa9");
  EXPECT_EQ(v.get("missing"), nullptr);
}

TEST(JsonTest, KeepsLargeIntegersExact) {
  JsonValue v;
  std::string error;
  ASSERT_TRUE(parseJson("[9007199254740993, 1e3]", v, error));
  EXPECT_EQ(v.array[0].integer, 9007199254740993LL);
  EXPECT_FALSE(v.array[1].isInteger);
  EXPECT_DOUBLE_EQ(v.array[1].number, 1000.0);
}

TEST(JsonTest, RecordsSourceRanges) {
  std::string text = R"({"x": 1, "hash": "abc"})";
  JsonValue v;
  std::string error;
  ASSERT_TRUE(parseJson(text, v, error));
  const JsonValue *h = v.get("hash");
  EXPECT_EQ(text.substr(h->begin, h->end - h->begin), "\"abc\"");
}

TEST(JsonTest, SurrogatePairs) {
  JsonValue v;
  std::string error;
  ASSERT_TRUE(parseJson(R"("\ud83d\ude00")", v, error)) << error;
  EXPECT_EQ(v.string, "\xf0\x9f\x98\x80");
}

struct BadCase {
  const char *text;
  const char *message;
};

TEST(JsonTest, RejectsMalformedInputWithPosition) {
  const BadCase cases[] = {
      {"", "line 1, column 1: unexpected end of input"},
      {"{\"a\": 1,}", "expected a string key"},
      {"[1 2]", "expected ',' or ']'"},
      {"{\"a\": 1, \"a\": 2}", "duplicate key \"a\""},
      {"01", "leading zero"},
      {"\"abc", "unterminated string"},
      {"\"\\q\"", "invalid escape"},
      {"tru", "invalid literal"},
      {"{} x", "trailing characters"},
      {"\"\\ud800\"", "unpaired surrogate"},
      {"{\n  \"a\": -}", "line 2, column 9: invalid value"},
  };
  for (const BadCase &c : cases) {
    JsonValue v;
    std::string error;
    EXPECT_FALSE(parseJson(c.text, v, error)) << c.text;
    EXPECT_NE(error.find(c.message), std::string::npos)
        << c.text << " -> " << error;
  }
}

TEST(JsonTest, RejectsDeepNesting) {
  std::string deep(100, '[');
  deep += std::string(100, ']');
  JsonValue v;
  std::string error;
  EXPECT_FALSE(parseJson(deep, v, error));
  EXPECT_NE(error.find("nesting deeper"), std::string::npos);
}

TEST(JsonTest, QuoteEscapes) {
  EXPECT_EQ(jsonQuote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

} // namespace
