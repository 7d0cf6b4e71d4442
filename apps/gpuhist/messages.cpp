#include "messages.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <new>
#include <stdexcept>
#include <streambuf>
#include <system_error>

#include "exit_codes.hpp"

namespace gpuhist::cli {

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      std::array<char, 5> hex{};
      std::snprintf(hex.data(), hex.size(), "\\x%02X", byte);
      out += hex.data();
    } else {
      out += c;
    }
  }
  return out;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char lead = byte(i);
    // The sequence's length, and the range its second byte may take (no
    // overlong forms, no surrogates, nothing past U+10FFFF).
    std::size_t n = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead < 0x80) {
      n = 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      n = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      n = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      n = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    }
    bool whole = n != 0 && i + n <= text.size();
    for (std::size_t k = 1; whole && k < n; ++k) {
      const unsigned char b = byte(i + k);
      whole = k == 1 ? b >= low && b <= high : b >= 0x80 && b <= 0xBF;
    }
    if (whole) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD for the byte that does not start a whole character
      ++i;
    }
  }
  return out;
}

namespace {

// std::cout's own buffer behind one that keeps the errno of the first write
// that failed: a failed write sets std::cout's badbit, after which a flush
// does nothing and errno says nothing of the cause.
class KeptCause final : public std::streambuf {
 public:
  explicit KeptCause(std::streambuf* inner) : inner_(inner) {}
  [[nodiscard]] int error() const noexcept { return error_; }

 protected:
  // Each leaves errno as it found it unless the write fails: a caller's
  // errno survives the flush that writing to std::cerr makes first.
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const int before = errno;
    errno = 0;
    const int_type put = inner_->sputc(traits_type::to_char_type(c));
    settle(!traits_type::eq_int_type(put, traits_type::eof()), before);
    return put;
  }
  std::streamsize xsputn(const char* data, std::streamsize size) override {
    const int before = errno;
    errno = 0;
    const std::streamsize put = inner_->sputn(data, size);
    settle(put == size, before);
    return put;
  }
  int sync() override {
    const int before = errno;
    errno = 0;
    const int synced = inner_->pubsync();
    settle(synced == 0, before);
    return synced;
  }

 private:
  void settle(bool written, int before) {
    if (written) {
      errno = before;
    } else if (error_ == 0) {
      error_ = errno != 0 ? errno : EIO;
    }
  }
  std::streambuf* inner_;
  int error_ = 0;
};

KeptCause* kept_cause = nullptr;

}  // namespace

void keep_stdout_failures() {
  if (kept_cause != nullptr) return;
  // Never destroyed: std::cout is flushed at exit, after static objects go.
  kept_cause = new KeptCause(std::cout.rdbuf());
  std::cout.rdbuf(kept_cause);
}

bool flush_stdout() {
  std::cout.flush();
  return !std::cout.fail();
}

int stdout_failure() {
  return kept_cause != nullptr && kept_cause->error() != 0 ? kept_cause->error() : EIO;
}

void print_error(std::string_view message) {
  std::cerr << "gpuhist: error: " << one_line(message) << '\n';
}

int usage_error(std::string_view message) {
  print_error(message);
  return kExitUsage;
}

std::string describe(const Error& e) {
  switch (e.remedy()) {
    case Remedy::None:
      break;
    case Remedy::MaxPixels:
      return std::string(e.what()) + " (--max-pixels)";
    case Remedy::AllFormats:
      return std::string(e.what()) + " (--formats all tries every format the image library reads)";
    case Remedy::CountRgb:
      return std::string(e.what()) + " (leave out --space ycbcr to count it as RGB)";
    case Remedy::ReadAsVideo:
      return std::string(e.what()) + " (gpuhist video reads videos)";
  }
  return e.what();
}

std::string describe(const std::exception& e) {
  if (const auto* error = dynamic_cast<const Error*>(&e)) return describe(*error);
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return "not enough memory";
  // std::thread's failure where the process may have no more threads, or no
  // memory for their stacks.
  if (const auto* system = dynamic_cast<const std::system_error*>(&e);
      system != nullptr && system->code() == std::errc::resource_unavailable_try_again) {
    return std::string("cannot start a thread: ") + e.what() +
           " (the limit of threads or of memory this process may have)";
  }
  // A container asked for more than it can hold ("vector::_M_default_append").
  if (dynamic_cast<const std::length_error*>(&e) != nullptr) {
    return "not enough memory (a size too large to allocate)";
  }
  return e.what();
}

}  // namespace gpuhist::cli
