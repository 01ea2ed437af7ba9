// model/ reads no files (issue 15): the command line (cli/) reads inputs and hands the model
// their text, so the model can be embedded in a platform that keeps its files elsewhere (or has
// none). This test scans every source of model/ for file-reading calls, comments left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// `text` with // and /* */ comments and the insides of string and character literals blanked
// (newlines kept, so line numbers stay right). A quote after a letter or digit is a digit
// separator (1'000), not a character literal.
std::string codeOnly(const std::string& text) {
  std::string out = text;
  enum { Code, Line, Block, String, Char } state = Code;
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = out[i], next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case Code:
        if (c == '/' && next == '/') state = Line, out[i] = ' ';
        else if (c == '/' && next == '*') state = Block, out[i] = ' ', out[++i] = ' ';
        else if (c == '"') state = String;
        else if (c == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(out[i - 1])))) state = Char;
        break;
      case Line:
        if (c == '\n') state = Code;
        else out[i] = ' ';
        break;
      case Block:
        if (c == '*' && next == '/') state = Code, out[i] = ' ', out[++i] = ' ';
        else if (c != '\n') out[i] = ' ';
        break;
      case String:
      case Char:
        if (c == (state == String ? '"' : '\'') || c == '\n') {  // a literal ends at its line's end
          state = Code;
        } else {
          out[i] = ' ';
          if (c == '\\' && next != '\0' && next != '\n') out[++i] = ' ';
        }
        break;
    }
  }
  return out;
}

// The lines (from 1) of a source text that read a file: open a stream or a C FILE, call the
// project's readInputFile, or ask the file system about a path.
std::vector<int> readingLines(const std::string& text) {
  static const std::regex reads(
      R"(\b(i?fstream|fopen|freopen|fread|readInputFile)\b)"
      R"(|std::filesystem::(exists|is_directory|is_regular_file|file_size|directory_iterator|)"
      R"(recursive_directory_iterator|status|symlink_status|read_symlink|last_write_time|canonical)\b)");
  std::istringstream lines(codeOnly(text));
  std::string line;
  std::vector<int> found;
  for (int n = 1; std::getline(lines, line); ++n)
    if (std::regex_search(line, reads)) found.push_back(n);
  return found;
}

// "model/FILE:LINE" for every line of model/'s sources that reads a file, by file name.
std::vector<std::string> fileReadsIn(const std::filesystem::path& model) {
  std::vector<std::filesystem::path> files;
  for (const auto& f : std::filesystem::recursive_directory_iterator(model)) {
    const std::string ext = f.path().extension().string();
    if (f.is_regular_file() && (ext == ".cpp" || ext == ".h" || ext == ".def")) files.push_back(f.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> found;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    for (int n : readingLines(text.str()))
      found.push_back(std::filesystem::relative(f, model.parent_path()).string() + ":" + std::to_string(n));
  }
  return found;
}

TEST(ModelReadsNoFiles, NoSourceOfModelOpensOrInspectsAFile) {
  const std::filesystem::path model = SIMTLM_SOURCE_DIR "/model";
  ASSERT_TRUE(std::filesystem::is_directory(model));
  std::string report;
  for (const auto& f : fileReadsIn(model)) report += "\n  " + f;
  EXPECT_TRUE(report.empty()) << "model/ must not read files (cli/ reads them and passes the text):" << report;
}

// The scan finds each kind of call, and none in comments or strings.
TEST(ModelReadsNoFiles, TheScanSeesCallsButNotCommentsOrStrings) {
  const std::string src =
      "// std::ifstream in a comment\n"
      "/* readInputFile(\"x\")\n fopen */ const char* s = \"fopen(\\\" ifstream\";\n"
      "std::ifstream in(path);\n"
      "bool e = std::filesystem::exists(p);\n"
      "FILE* f = fopen(name, \"r\");  // char q = '\"'; readInputFile\n"
      "std::string t = readInputFile(p, \"x\");\n"
      "auto st = std::filesystem::path(p).stem();  // a path, not a read\n"
      "#include <fstream>\n"
      "constexpr long n = 10'000; std::ifstream x;\n";
  EXPECT_EQ(readingLines(src), (std::vector<int>{4, 5, 6, 7, 9, 10}));
}

}  // namespace
