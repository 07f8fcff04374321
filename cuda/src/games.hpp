// Every game and value rule the backends are instantiated for.
#pragma once
#include "cgtb/games/cram.hpp"
#include "cgtb/games/scoring_octal.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/rules/scoring.hpp"
