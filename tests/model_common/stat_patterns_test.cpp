// Statistics listed by pattern (cli/stat_patterns.h, `simtlm stats`): index segments collapse,
// other numbered segments stay, and an instance whose unit or description differs from its
// pattern's is reported.
#include <gtest/gtest.h>

#include "cli/stat_patterns.h"
#include "cli/stats_command.h"

using namespace simtlm;
using cli::collapse;
using cli::patternOf;

TEST(StatPatterns, IndexSegmentsGetPlaceholders) {
  EXPECT_EQ(patternOf("sm0.regfile.bank7.reads"), "sm<N>.regfile.bank<B>.reads");
  EXPECT_EQ(patternOf("sm27.issue.stall.barrier"), "sm<N>.issue.stall.barrier");
  EXPECT_EQ(patternOf("l2.slice11.hits"), "l2.slice<S>.hits");
  EXPECT_EQ(patternOf("gpu.cycles"), "gpu.cycles");
}

TEST(StatPatterns, OtherNumberedSegmentsStay) {
  EXPECT_EQ(patternOf("l2.hits"), "l2.hits");
  EXPECT_EQ(patternOf("sm3.l1.misses"), "sm<N>.l1.misses");
  EXPECT_EQ(patternOf("bow.iw3.read_bypassed"), "bow.iw3.read_bypassed");
  EXPECT_EQ(patternOf("sm"), "sm");          // no number: not an index
  EXPECT_EQ(patternOf("x.12"), "x.12");      // no prefix: not an index segment
  EXPECT_EQ(patternOf("smx1.a"), "smx1.a");  // another prefix
}

TEST(StatPatterns, OneRowPerPatternInRegistrationOrder) {
  stats::Registry r;
  uint64_t c[6] = {};
  r.add("sm0.regfile.bank0.reads", c[0], "accesses", "bank reads");
  r.add("sm0.regfile.bank1.reads", c[1], "accesses", "bank reads");
  r.add("gpu.cycles", c[2], "cycles", "core cycles");
  r.add("sm1.regfile.bank0.reads", c[3], "accesses", "bank reads");
  r.add("sm1.regfile.bank1.reads", c[4], "accesses", "bank reads");
  r.addRatio("gpu.rate", "sm0.regfile.bank0.reads", "gpu.cycles", "accesses/cycle", "a rate");
  const auto rows = collapse(r.entries());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "sm<N>.regfile.bank<B>.reads");
  EXPECT_EQ(rows[0].instances, 4u);
  EXPECT_EQ(rows[0].unit, "accesses");
  EXPECT_FALSE(rows[0].derived);
  EXPECT_TRUE(rows[0].mismatches.empty());
  EXPECT_EQ(rows[1].name, "gpu.cycles");
  EXPECT_EQ(rows[2].name, "gpu.rate");
  EXPECT_TRUE(rows[2].derived);
}

TEST(StatPatterns, AnInstanceThatDiffersIsReported) {
  stats::Registry r;
  uint64_t c[3] = {};
  r.add("sm0.issue.stall.barrier", c[0], "cycles", "waits at bar.sync");
  r.add("sm1.issue.stall.barrier", c[1], "events", "waits at bar.sync");
  r.add("sm2.issue.stall.barrier", c[2], "cycles", "waits at a barrier of SM 2");
  const auto rows = collapse(r.entries());
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].mismatches.size(), 2u);
  EXPECT_EQ(rows[0].mismatches[0], "sm1.issue.stall.barrier: unit 'events' (pattern's first: 'cycles')");
  EXPECT_EQ(rows[0].mismatches[1],
            "sm2.issue.stall.barrier: description 'waits at a barrier of SM 2' (pattern's first: 'waits at bar.sync')");
}

namespace {

cli::StatPattern row(const std::string& name, const std::string& description = "d") {
  return {name, "events", description, false, 1, {}};
}

// The text of the section headed `heading` up to the next heading.
std::string section(const std::string& doc, const std::string& heading) {
  const size_t at = doc.find(heading);
  if (at == std::string::npos) return "";
  return doc.substr(at, doc.find("\n### ", at + 1) - at);
}

}  // namespace

TEST(StatisticsDoc, AMechanismListsOnlyWhatTheBaselineLacks) {
  const std::string doc = cli::statisticsDoc(
      {{"baseline", "no mechanism", {row("gpu.cycles"), row("sm<N>.x")}},
       {"m1", "the first", {row("gpu.cycles"), row("sm<N>.x"), row("sm<N>.m1.hits", "hits | of m1")}},
       {"m1-variant", "its variant", {row("gpu.cycles"), row("sm<N>.x"), row("sm<N>.m1.hits", "hits | of m1")}},
       {"m2", "observes", {row("gpu.cycles"), row("sm<N>.x")}}},
      {row("interp.blocks")}, "the test configuration");
  EXPECT_EQ(doc.rfind("<!-- BEGIN GENERATED: simtlm stats --markdown-doc", 0), 0u);
  EXPECT_NE(doc.find("\n<!-- END GENERATED -->\n"), std::string::npos);
  const std::string base = section(doc, "### The timing model: baseline");
  EXPECT_NE(base.find("| `sm<N>.x` | events | d |"), std::string::npos) << base;
  EXPECT_EQ(base.find("m1.hits"), std::string::npos) << base;
  const std::string m1 = section(doc, "### Mechanism `m1`");
  EXPECT_NE(m1.find("| `sm<N>.m1.hits` | events | hits \\| of m1 |"), std::string::npos) << m1;
  EXPECT_EQ(m1.find("gpu.cycles"), std::string::npos) << m1;
  EXPECT_NE(section(doc, "### Mechanism `m1-variant`").find("The same statistics as `m1`."), std::string::npos);
  EXPECT_NE(section(doc, "### Mechanism `m2`").find("It registers no statistic beyond the baseline's."),
            std::string::npos);
  EXPECT_NE(section(doc, "### The functional interpreter").find("| `interp.blocks` | events | d |"), std::string::npos);
  EXPECT_NE(doc.find("for the test configuration"), std::string::npos);
}
