// Every game and value rule the backends are instantiated for.
#pragma once
#include "cgtb/games/blocking_nim.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/games/octal.hpp"
#include "cgtb/games/rit.hpp"
#include "cgtb/rules/blocking.hpp"
#include "cgtb/rules/heap_sum.hpp"
#include "cgtb/rules/impartial.hpp"
