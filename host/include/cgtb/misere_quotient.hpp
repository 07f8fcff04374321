// Misère quotients (Plambeck and Siegel, "Misère quotients for impartial
// games", J. Combin. Theory A 115 (2008)): of octal games' heaps
// (`cgtb quotient octal`, cgtb/octal_quotient.hpp), and how many
// misère-distinguishable classes small Cram regions form (`cgtb quotient
// cram`, cgtb/cram_region_classes.hpp); docs/misere.md.
#pragma once

#include "cgtb/cram_region_classes.hpp"
#include "cgtb/octal_quotient.hpp"
