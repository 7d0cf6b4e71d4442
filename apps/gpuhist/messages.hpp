// Every error the command prints is one line on stderr, "gpuhist: error: ...".
#pragma once

#include <exception>
#include <string>
#include <string_view>

#include "gpuhist/error.hpp"

namespace gpuhist::cli {

// `text` with line breaks and other control characters (which file names may
// hold) written as escapes, \n, \t or \xHH, so that it stays on one line.
[[nodiscard]] std::string one_line(std::string_view text);

// `text` with every byte that does not start a whole UTF-8 character as U+FFFD,
// as the JSON output writes names (a file's name may hold any bytes).
[[nodiscard]] std::string valid_utf8(std::string_view text);

// Prints "gpuhist: error: MESSAGE" as one line.
void print_error(std::string_view message);

// Puts a buffer in front of std::cout's that keeps the errno of the first
// write to it that failed (once the stream has failed, a flush or a write to
// std::cerr, tied to it, finds errno saying nothing of the cause). Called
// once, first thing.
void keep_stdout_failures();

// Flushes std::cout and says whether everything written to it reached it.
[[nodiscard]] bool flush_stdout();

// errno of the first failed write to std::cout (EIO where its cause was not
// kept).
[[nodiscard]] int stdout_failure();

// Prints the message and returns the usage status (2).
int usage_error(std::string_view message);

// A library error's message with the option that gets past it, where one
// does: "... exceeds the limit of 100 (--max-pixels)".
[[nodiscard]] std::string describe(const Error& e);

// What an exception says of a failure: as above for a gpuhist::Error, "not
// enough memory" for std::bad_alloc, its what() otherwise.
[[nodiscard]] std::string describe(const std::exception& e);

}  // namespace gpuhist::cli
