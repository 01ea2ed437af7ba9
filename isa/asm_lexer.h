// The assembler's lexical layer: ASCII character classes, the tokenizer of one statement, and
// the checks and parsers of names, registers and number literals. Used by isa/assembler.cpp;
// nothing here knows about instructions or reports errors by itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simtlm::isa::detail {

struct Token {
  enum Kind { Ident, Number, Punct, End } kind = End;
  std::string text;
  int col = 0;
};

// ASCII-only character classes: the result must not depend on the host's locale, and
// non-ASCII bytes are always punctuation (reported as an error, escaped).
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline bool identChar(char c) { return isAlnum(c) || c == '_' || c == '.' || c == '%' || c == '$'; }

// The token text as it may appear in a one-line message: other bytes as \xNN.
std::string printable(const std::string& s);

// A token for a message: 'text' (printable), or "end of statement".
std::string describe(const Token& t);

// Splits one statement into tokens; `colBase` is the column of its first byte. Numbers keep
// their sign out: '-' is punctuation. The last token is always End.
std::vector<Token> tokenize(const std::string& s, int colBase);

// A label, kernel, .param or .const name: a letter or '_', then letters, digits or '_'.
bool validName(const std::string& s);

// r0.., p0.., pt, inf and nan cannot name a .param or .const: an operand spelled that way
// would silently mean the register, predicate or float instead.
bool reservedName(const std::string& s);

// An identifier that starts like a register: 'r' and a digit.
bool isGprToken(const Token& t);

enum class IntParse { Ok, Malformed, TooLarge };

// Decimal or 0x-hexadecimal digits only (no sign, no second prefix); at most 32 bits.
IntParse parseInt(const std::string& s, int64_t& v);

bool isHexText(const std::string& s);
// Not hexadecimal, and has a '.' or an exponent: a float literal.
bool looksFloatText(const std::string& s);

// strtof over the whole text; false when something is left over or nothing was read.
bool parseFloat(const std::string& s, float& f);

}  // namespace simtlm::isa::detail
