// PayloadMap (model/mem/payload_map.h): the Interconnect's records of payloads in flight. It must
// find what std::unordered_map would after any mix of inserts and erases (the backward-shift
// erase moves entries), keep a record where it is while others come and go, and reuse records.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

#include "model/mem/payload_map.h"

using simtlm::mem::PayloadMap;

TEST(PayloadMap, AgreesWithAnUnorderedMapUnderChurn) {
  PayloadMap<int> map;
  std::unordered_map<const void*, int> ref;
  std::vector<char> objects(4096);  // keys: addresses of these, 1 apart (many collide in the table)
  std::mt19937 rng(7);
  for (int step = 0; step < 200000; ++step) {
    const void* key = &objects[rng() % (step < 100000 ? 300 : objects.size())];
    if (ref.count(key)) {
      ASSERT_EQ(*map.find(key), ref[key]);
      map.erase(key);
      ref.erase(key);
      EXPECT_EQ(map.find(key), nullptr);
    } else {
      EXPECT_EQ(map.find(key), nullptr);
      map.insert(key) = step;
      ref[key] = step;
    }
    ASSERT_EQ(map.size(), ref.size());
  }
  for (const auto& [key, value] : ref) EXPECT_EQ(*map.find(key), value);
}

TEST(PayloadMap, RecordsStayPutAndAreReused) {
  PayloadMap<int> map;
  std::vector<char> objects(1000);
  int& first = map.insert(&objects[0]);
  first = 42;
  for (int i = 1; i < 1000; ++i) map.insert(&objects[static_cast<size_t>(i)]) = i;  // the table grows
  EXPECT_EQ(map.find(&objects[0]), &first);
  EXPECT_EQ(first, 42);
  map.erase(&objects[0]);
  EXPECT_EQ(map.insert(&objects[0]), 0) << "a reused record starts default-constructed";
  EXPECT_EQ(map.find(&objects[0]), &first) << "the freed record is the one reused";
}
