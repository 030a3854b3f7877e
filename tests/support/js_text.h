#pragma once

#include <string>
#include <string_view>

namespace higgins::testing {

/// The text JavaScript's `String(x)` gives for a finite double (ECMAScript Number::toString,
/// radix 10): the shortest digits that round-trip, fixed notation for exponents in [-7, 21),
/// otherwise "1.5e+21" / "5e-7". NaN, infinities and -0 have no JSON number form; callers handle
/// them before calling (the result for them is "NaN", "Infinity", "-Infinity" and "0", as in JS).
std::string JsNumberToString(double value);

/// The text `JSON.stringify(s)` gives for a string, quotes included: escapes `"`, `\`, and
/// control characters below U+0020 (short forms \b \f \n \r \t, else \u00xx in lower-case hex),
/// and copies every other byte as is. `utf8` must be valid UTF-8 (so there are no lone
/// surrogates, which JS would escape).
std::string JsonQuote(std::string_view utf8);

}  // namespace higgins::testing
