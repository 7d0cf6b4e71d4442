#include "decode_worker.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "gpuhist/error.hpp"
#include "messages.hpp"
#include "quiet_stderr.hpp"

extern char** environ;

namespace gpuhist::cli {
namespace {

// Both ends send whole messages on a stream socket; a short read or write
// means the other end is gone.
bool send_all(int fd, const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Reads `size` bytes, waiting at most until `deadline` (none when unset).
bool receive_all(int fd, void* data, std::size_t size,
                 std::chrono::steady_clock::time_point deadline = {}) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    if (deadline != std::chrono::steady_clock::time_point{}) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd waiting{fd, POLLIN, 0};
      const int ready = ::poll(&waiting, 1, static_cast<int>(std::max<long long>(0, left.count())));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return false;
    }
    const ssize_t n = ::recv(fd, p, size, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

template <typename T>
bool send_value(int fd, const T& value) {
  return send_all(fd, &value, sizeof value);
}
bool send_text(int fd, const std::string& text) {
  const auto size = static_cast<std::uint32_t>(text.size());
  return send_value(fd, size) && send_all(fd, text.data(), text.size());
}
template <typename T>
bool receive_value(int fd, T& value, std::chrono::steady_clock::time_point deadline = {}) {
  return receive_all(fd, &value, sizeof value, deadline);
}
bool receive_text(int fd, std::string& text, std::chrono::steady_clock::time_point deadline = {}) {
  std::uint32_t size = 0;
  if (!receive_value(fd, size, deadline) || size > (1U << 20)) return false;
  text.resize(size);
  return receive_all(fd, text.data(), size, deadline);
}

// The fixed part of a request and of a decoded image's answer.
struct Request {
  std::uint64_t max_pixels;
  std::uint8_t alpha;
  std::uint8_t formats;
};
struct Answer {
  std::uint32_t width, height;
  std::uint8_t layout, sample, alpha, more_pages, orientation;
  std::uint64_t stride;
};

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& cause) {
  throw Error(ErrorKind::Input, path.string() + ": " + cause);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// What a crafted header makes a decoder ask for fails as an allocation in
// the worker: its address space is limited to what the largest image allowed
// and the decoder's own buffers take. Not under AddressSanitizer, whose
// shadow memory takes terabytes of address space.
void limit_memory(std::uint64_t max_pixels) {
  if (kAddressSanitizer) return;
  constexpr std::uint64_t kMost = std::uint64_t{1} << 46;
  constexpr std::uint64_t kDecoder = std::uint64_t{1} << 30;
  const std::uint64_t image = max_pixels > (kMost - kDecoder) / 48 ? kMost : max_pixels * 48;
  const auto limit = static_cast<rlim_t>(std::min(image + kDecoder, kMost));
  const rlimit memory{limit, limit};
  ::setrlimit(RLIMIT_AS, &memory);
}

}  // namespace

DecodeWorker::~DecodeWorker() { stop(); }

void DecodeWorker::start() {
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    throw Error(ErrorKind::Input,
                std::string("cannot start a decoding process: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  char name[] = "gpuhist";
  char verb[] = "__decode-worker";
  char* argv[] = {name, verb, nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(ends[1]);
  if (spawned != 0) {
    ::close(ends[0]);
    throw Error(ErrorKind::Input,
                std::string("cannot start a decoding process: ") + std::strerror(spawned));
  }
  pid_ = pid;
  socket_ = ends[0];
}

void DecodeWorker::stop() {
  if (socket_ >= 0) ::close(socket_);  // the worker sees the end of its input and exits
  socket_ = -1;
  if (pid_ > 0) {
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) ::usleep(10000);
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
  pid_ = -1;
}

Image DecodeWorker::load(const std::filesystem::path& path, const LoadOptions& options) {
  if (pid_ <= 0) start();
  const Request request{options.max_pixels, static_cast<std::uint8_t>(options.alpha ? 1 : 0),
                        static_cast<std::uint8_t>(options.formats)};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kTimeoutSeconds);
  std::uint8_t ok = 0;
  const bool sent = send_text(socket_, path.string()) && send_value(socket_, request);
  if (sent && receive_value(socket_, ok, deadline)) {
    if (ok == 0) {
      std::string message;
      if (receive_text(socket_, message, deadline)) throw Error(ErrorKind::Input, message);
    } else {
      Answer a{};
      std::string codec, warning;
      std::vector<std::string> notes;
      std::uint32_t note_count = 0;
      bool received = receive_value(socket_, a, deadline) &&
                      receive_text(socket_, codec, deadline) &&
                      receive_text(socket_, warning, deadline) &&
                      receive_value(socket_, note_count, deadline) && note_count <= 64;
      for (std::uint32_t i = 0; received && i < note_count; ++i) {
        received = receive_text(socket_, notes.emplace_back(), deadline);
      }
      if (received) {
        Image image;
        try {
          image = Image::allocate(
              a.width, a.height,
              {static_cast<ChannelLayout>(a.layout), static_cast<SampleType>(a.sample)},
              static_cast<std::size_t>(a.stride));
        } catch (...) {
          // The worker is left mid-answer: it cannot take the next file.
          ::kill(pid_, SIGKILL);
          stop();
          throw;
        }
        if (receive_all(socket_, image.storage.data(), image.storage.size(), deadline)) {
          image.codec = codec;
          image.warning = warning;
          image.alpha = a.alpha != 0;
          image.more_pages = a.more_pages != 0;
          image.orientation = a.orientation >= 1 && a.orientation <= 8 ? a.orientation : 1;
          image.notes = std::move(notes);
          return image;
        }
      }
    }
  }
  // The worker died, hung or broke off its answer: say how, and start a new
  // one for the next file. One that is still running is stopped first.
  const bool hung = std::chrono::steady_clock::now() >= deadline;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  stop();
  if (hung) {
    fail(path, "the image decoder did not finish in " + std::to_string(kTimeoutSeconds) +
                   " s; the file is skipped");
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    fail(path, "the image decoder crashed on it (signal " + std::to_string(signal) + ", " +
                   ::strsignal(signal) + "); the file is skipped");
  }
  // A sanitizer that caught the decoder ends the process with its own status.
  fail(path, "the image decoder crashed on it (its process ended with status " +
                 std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                 " and no answer); the file is skipped");
}

int run_decode_worker() {
  const int fd = STDIN_FILENO;
  // Decoders' own messages are not the worker's to print.
  const QuietStderr quiet;
  for (;;) {
    std::string path;
    Request request{};
    if (!receive_text(fd, path) || !receive_value(fd, request)) return 0;
    LoadOptions options;
    options.max_pixels = request.max_pixels;
    options.alpha = request.alpha != 0;
    options.formats = static_cast<FormatSet>(request.formats);
    limit_memory(options.max_pixels);
    try {
      const Image image = load_image(path, options);
      const Answer a{image.width,
                     image.height,
                     static_cast<std::uint8_t>(image.format.layout),
                     static_cast<std::uint8_t>(image.format.sample),
                     static_cast<std::uint8_t>(image.alpha ? 1 : 0),
                     static_cast<std::uint8_t>(image.more_pages ? 1 : 0),
                     image.orientation,
                     image.stride};
      const auto note_count = static_cast<std::uint32_t>(image.notes.size());
      bool sent = true;
      const std::uint8_t ok = 1;
      if (!send_value(fd, ok) || !send_value(fd, a) || !send_text(fd, image.codec) ||
          !send_text(fd, image.warning) || !send_value(fd, note_count)) {
        return 1;
      }
      for (const std::string& note : image.notes) sent = sent && send_text(fd, note);
      if (!sent || !send_all(fd, image.storage.data(), image.storage.size())) {
        return 1;
      }
    } catch (const std::exception& e) {
      const std::uint8_t ok = 0;
      const std::string message = dynamic_cast<const Error*>(&e) != nullptr
                                      ? describe(e)
                                      : path + ": " +
                                            (dynamic_cast<const std::bad_alloc*>(&e) != nullptr
                                                 ? std::string("not enough memory to decode it")
                                                 : std::string(e.what()));
      if (!send_value(fd, ok) || !send_text(fd, message)) return 1;
    }
  }
}

}  // namespace gpuhist::cli
