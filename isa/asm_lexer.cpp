#include "isa/asm_lexer.h"

#include <cstdio>
#include <cstdlib>

namespace simtlm::isa::detail {

std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

std::string describe(const Token& t) {
  return t.kind == Token::End ? std::string("end of statement") : "'" + printable(t.text) + "'";
}

std::vector<Token> tokenize(const std::string& s, int colBase) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (isSpace(c)) { ++i; continue; }
    Token t;
    t.col = colBase + static_cast<int>(i);
    if (isDigit(c)) {
      size_t j = i;
      while (j < s.size() && (isAlnum(s[j]) || s[j] == '.' ||
                              ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                               !(s[i] == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')))))
        ++j;
      t.kind = Token::Number;
      t.text = s.substr(i, j - i);
      i = j;
    } else if (identChar(c)) {
      size_t j = i;
      while (j < s.size() && identChar(s[j])) ++j;
      t.kind = Token::Ident;
      t.text = s.substr(i, j - i);
      i = j;
    } else {
      t.kind = Token::Punct;
      t.text = std::string(1, c);
      ++i;
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.col = colBase + static_cast<int>(s.size());
  out.push_back(end);
  return out;
}

bool validName(const std::string& s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(isAlnum(c) || c == '_')) return false;
  return true;
}

bool reservedName(const std::string& s) {
  if (s == "pt" || s == "inf" || s == "nan") return true;
  if (s.size() >= 2 && (s[0] == 'r' || s[0] == 'p')) {
    for (size_t i = 1; i < s.size(); ++i)
      if (!isDigit(s[i])) return false;
    return true;
  }
  return false;
}

bool isGprToken(const Token& t) {
  return t.kind == Token::Ident && t.text.size() >= 2 && t.text[0] == 'r' && isDigit(t.text[1]);
}

IntParse parseInt(const std::string& s, int64_t& v) {
  size_t i = 0;
  uint64_t base = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; i = 2; }
  if (i >= s.size()) return IntParse::Malformed;
  uint64_t u = 0;
  bool tooLarge = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    uint64_t d;
    if (isDigit(c)) d = static_cast<uint64_t>(c - '0');
    else if (c >= 'a' && c <= 'f') d = static_cast<uint64_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = static_cast<uint64_t>(c - 'A' + 10);
    else return IntParse::Malformed;
    if (d >= base) return IntParse::Malformed;
    u = u * base + d;
    if (u > 0xFFFFFFFFull) { tooLarge = true; u = 0x100000000ull; }
  }
  if (tooLarge) return IntParse::TooLarge;
  v = static_cast<int64_t>(u);
  return IntParse::Ok;
}

bool isHexText(const std::string& s) {
  return s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

bool looksFloatText(const std::string& s) {
  return !isHexText(s) && s.find_first_of(".eE") != std::string::npos;
}

bool parseFloat(const std::string& s, float& f) {
  char* end = nullptr;
  f = std::strtof(s.c_str(), &end);
  return end != s.c_str() && *end == '\0';
}

}  // namespace simtlm::isa::detail
