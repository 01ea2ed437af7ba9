// Assembler errors: the malformed-input collection in tests/asm_errors (every file fails at the
// line and column its first line names), and the positions and wording of messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "tests/isa/test_support.h"

using namespace simtlm;
using simtlm::test::filesWithExtension;
using simtlm::test::readFile;
namespace fs = std::filesystem;

namespace {

fs::path errorDir() { return fs::path(SIMTLM_TEST_DIR) / "asm_errors"; }

// Assembles `text`, expecting an InputError; returns it (or fails the test).
InputError assembleError(const std::string& text) {
  try {
    isa::assemble(text, "t.s");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for:\n" << text;
  return InputError("t.s", -1, -1, "no error");
}

// ---------------------------------------------------------------------------------------------
// The malformed-input collection: every file's first line is
// "// expect: <name>.s:LINE:COL: error: <message>".

struct Expectation {
  bool ok = false;
  std::string text;  // the substring the message must contain
  int line = 0, col = 0;
};

Expectation parseExpectation(const fs::path& p) {
  Expectation e;
  std::string content = readFile(p);
  std::string first = content.substr(0, content.find('\n'));
  const std::string prefix = "// expect: ";
  if (first.compare(0, prefix.size(), prefix) != 0) return e;
  e.text = first.substr(prefix.size());
  std::smatch m;
  static const std::regex pos(R"(\.s:([0-9]+):([0-9]+): error: .+)");
  if (!std::regex_search(e.text, m, pos)) return e;
  e.line = std::stoi(m[1]);
  e.col = std::stoi(m[2]);
  e.ok = true;
  return e;
}

std::vector<std::string> errorCaseNames() {
  std::vector<std::string> names;
  for (const auto& p : filesWithExtension(errorDir(), ".s")) names.push_back(p.stem().string());
  return names;
}

class AssemblerErrorCase : public ::testing::TestWithParam<std::string> {};

TEST_P(AssemblerErrorCase, ThrowsAtExpectedPosition) {
  fs::path p = errorDir() / (GetParam() + ".s");
  Expectation e = parseExpectation(p);
  ASSERT_TRUE(e.ok) << p << ": first line must be '// expect: NAME.s:LINE:COL: error: MESSAGE'";
  try {
    isa::assembleFile(p.string());
    FAIL() << p << " assembled without error";
  } catch (const InputError& err) {
    std::string what = err.what();
    EXPECT_EQ(err.file(), p.string());
    EXPECT_EQ(err.line(), e.line) << what;
    EXPECT_EQ(err.col(), e.col) << what;
    EXPECT_NE(what.find(e.text), std::string::npos) << "expected: " << e.text << "\ngot: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message must be one line: " << what;
  }
}

INSTANTIATE_TEST_SUITE_P(AssemblerFiles, AssemblerErrorCase, ::testing::ValuesIn(errorCaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(AssemblerErrors, CollectionIsComplete) {
  auto names = errorCaseNames();
  EXPECT_GE(names.size(), 25u);
  for (const auto& n : names) {
    Expectation e = parseExpectation(errorDir() / (n + ".s"));
    EXPECT_TRUE(e.ok) << n;
    // The expectation names this very file.
    EXPECT_EQ(e.text.rfind(n + ".s:", 0), 0u) << n << ": " << e.text;
  }
}

TEST(AssemblerErrors, MissingFileIsLineZero) {
  try {
    isa::assembleFile("/nonexistent/dir/kernel.s");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/kernel.s"), std::string::npos);
  }
}

TEST(AssemblerErrors, ColumnsInLaterStatementsAndTabs) {
  // Columns count bytes from 1, including statements after ';'.
  InputError e = assembleError(".kernel k\nnop; nop ;  frob r1\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.col(), 13);
  e = assembleError(".kernel k\n\tadd.u32 r0, r1, r99\n");
  EXPECT_EQ(e.col(), 18);
  EXPECT_EQ(e.message(), "register 'r99' out of range (r0..r63)");
}

TEST(AssemblerErrors, MessagesSayWhatWasExpected) {
  EXPECT_EQ(assembleError(".kernel k\n mov.b32 r0, 1 {darsie=dr\n").message(),
            "expected '}' to close the hints, found end of statement");
  EXPECT_EQ(assembleError(".kernel k\n mov.b32 r0, 1 {}\n").message(),
            "expected a hint name (darsie or bow), found '}'");
  EXPECT_EQ(assembleError(".kernel k\n mov.b32 r0, 1 {color=red}\n").message(),
            "unknown hint 'color' (expected darsie or bow)");
  EXPECT_EQ(assembleError(".kernel k\n st.global.b32 [8], r1\n").message(),
            "st.global needs a base register");
  EXPECT_EQ(assembleError(".kernel k\n atom.global.add.u32 r0, [8], r1\n").message(),
            "global atomics need a base register");
  EXPECT_EQ(assembleError(".kernel k\n mov.b32 r0x10, 1\n").message(),
            "malformed register 'r0x10' (expected r0..r63)");
  EXPECT_EQ(assembleError(".kernel k\n add.u32 r0, r0, 0x0x5\n").message(), "malformed integer '0x0x5'");
  EXPECT_EQ(assembleError(".kernel k\n add.f32 r0, r0, 1e39\n").message(),
            "float literal '1e39' is out of range for f32");
  EXPECT_EQ(assembleError(".kernel k\n add.f32 r0, r0, 1.5.2\n").message(),
            "malformed float literal '1.5.2'");
  EXPECT_EQ(assembleError(".kernel k\n.const C 12abc\n exit\n").message(), "malformed integer '12abc'");
  EXPECT_EQ(assembleError(".kernel k\n.const pt 1\n exit\n").message(),
            "'pt' is reserved and cannot name a constant");
  EXPECT_EQ(assembleError(".kernel k\n.param A\n.const A 1\n exit\n").message(), "'A' is already defined");
  EXPECT_EQ(assembleError(".kernel k\n add.u32 r0, r0, -2147483649\n").message(),
            "integer -2147483649 does not fit in 32 bits");
  EXPECT_EQ(assembleError(".kernel k\n ld.shared.b32 r0, [r1-524289]\n").message(),
            "memory offset -524289 out of range [-524288, 524287]");
  EXPECT_EQ(assembleError(".kernel k\n ld.shared.b32 r0, [524288]\n").message(),
            "absolute address 524288 out of range [0, 524287]");
  EXPECT_EQ(assembleError(".kernel k\n ld.shared.b32 r0, [r1+2.5]\n").message(),
            "float literal '2.5' where an integer is expected");
  EXPECT_EQ(assembleError(".kernel k\n bra 12\n").message(), "expected a label after bra, found '12'");
  EXPECT_EQ(assembleError(".kernel k\n bra end\nend:\n").message(), "label 'end' is past the last instruction");
  EXPECT_EQ(assembleError(".kernel k\n mov.b32 r0, \x01\n").message(),
            "expected a register or an immediate for source a, found '\\x01'");
  EXPECT_EQ(assembleError(".kernel k\n.shared 6\n exit\n").message(), ".shared size must be a multiple of 4 bytes");
  EXPECT_EQ(assembleError(".kernel k\n.regs 2.0\n exit\n").message(),
            "float literal '2.0' where an integer is expected");
}

}  // namespace
