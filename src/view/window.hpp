// A GLFW window without a client API, for a Vulkan swapchain: its surface,
// its size in pixels, and the keys pressed since the last poll.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

struct GLFWwindow;

namespace gpuhist::view {

class Window {
 public:
  // Opens a window of width x height pixels. Throws Error(Device) when no
  // window system is available (no display) or it lacks Vulkan support.
  // While it is open, the display refusing a request for it (another
  // program destroyed it) is thrown by poll() and framebuffer_size() as
  // Error(Device); where the connection is lost, Xlib ends the process, and
  // `on_lost` hears why first (Xlib's own handlers print several lines).
  // Xlib's handlers are given back as the window closes.
  Window(std::uint32_t width, std::uint32_t height, const std::string& title,
         std::function<void(const std::string&)> on_lost = {});
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  Window(Window&&) = delete;
  Window& operator=(Window&&) = delete;
  ~Window();

  // The instance extensions a surface of this window needs.
  [[nodiscard]] static std::vector<const char*> required_extensions();
  // A surface for `instance`; the caller destroys it before the instance.
  [[nodiscard]] VkSurfaceKHR create_surface(VkInstance instance) const;

  // Handles pending events, waiting at most `timeout_s` seconds for one.
  void poll(double timeout_s);
  [[nodiscard]] bool should_close() const;
  // The size of the drawable area in pixels (0 x 0 while minimised).
  void framebuffer_size(std::uint32_t& width, std::uint32_t& height) const;
  // Keys pressed (GLFW_KEY_* codes) since the last call, in order.
  [[nodiscard]] std::vector<int> take_keys();

 private:
  GLFWwindow* window_ = nullptr;
  std::vector<int> keys_;
  std::function<void(const std::string&)> on_lost_;
  // Xlib's handlers before the window's (XIOErrorHandler, XErrorHandler).
  void (*previous_io_)() = nullptr;
  void (*previous_error_)() = nullptr;
};

}  // namespace gpuhist::view
