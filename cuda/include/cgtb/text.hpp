// Small text parsers shared by the rulesets' parameter and position syntax.
#pragma once

#include <string>
#include <vector>

namespace cgtb {

/// Parses a signed decimal integer in [lo, hi]; throws input_error naming
/// `what` ("'x' is not an integer", "... is out of range (lo..hi)").
long parse_integer(const std::string& s, const std::string& what, long lo, long hi);

/// Splits s at every `sep`; a trailing separator gives a trailing empty item.
std::vector<std::string> split_text(const std::string& s, char sep);

}  // namespace cgtb
