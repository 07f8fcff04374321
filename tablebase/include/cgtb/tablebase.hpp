// The .cgtb tablebase file: its format (cgtb/tablebase_format.hpp), writer
// (cgtb/tablebase_writer.hpp) and reader (cgtb/tablebase_reader.hpp).
#pragma once

#include "cgtb/tablebase_format.hpp"
#include "cgtb/tablebase_reader.hpp"
#include "cgtb/tablebase_writer.hpp"
