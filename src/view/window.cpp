#include "view/window.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include "gpuhist/error.hpp"
#include "vulkan/check.hpp"

// Last: Xlib's macros (None, Bool, Status) stay out of the headers above.
#include <X11/Xlib.h>
// GLFW's X11 display (glfw3native.h's, which needs the Xrandr headers too).
extern "C" Display* glfwGetX11Display(void);

namespace gpuhist::view {
namespace {

// While a window is open (one at a time), Xlib's handlers are these:
// Xlib's own print several lines and end the process with status 1.
const std::function<void(const std::string&)>* on_lost_display = nullptr;  // the window's
char refused[320] = {};  // the X error met since the last check, said by throwing

// The connection is gone: Xlib ends the process once this returns (status 1).
int on_x_io_error(Display* /*display*/) {
  if (on_lost_display != nullptr && *on_lost_display) {
    (*on_lost_display)(
        "the connection to the X display was lost (the server ended, or the window was killed)");
  }
  return 0;
}
// A request refused (the window destroyed by another program): kept, and
// thrown by the window's next call.
int on_x_error(Display* display, XErrorEvent* event) {
  if (refused[0] == '\0') {
    char text[200] = {};
    XGetErrorText(display, event->error_code, text, sizeof text);
    std::snprintf(refused, sizeof refused,
                  "the X display refused a request for the window (%s): another program closed "
                  "or destroyed it",
                  text);
  }
  return 0;
}

// GLFW 3.3 sets Xlib's default error handler back after each call it guards.
void guard_x_errors() { XSetErrorHandler(on_x_error); }

void throw_refused() {
  if (refused[0] == '\0') return;
  const std::string cause = refused;
  refused[0] = '\0';
  throw Error(ErrorKind::Device, cause);
}

std::string glfw_error() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description != nullptr ? description : "unknown window system error";
}

// GLFW is initialised once for the process; windows come and go.
void init_glfw() {
  static const bool ready = [] {
    if (glfwInit() != GLFW_TRUE) return false;
    std::atexit(glfwTerminate);
    return true;
  }();
  if (!ready) {
    throw Error(ErrorKind::Device, "cannot open a window: " + glfw_error() +
                                       " (is there a display? set DISPLAY, or run under xvfb-run)");
  }
  if (glfwVulkanSupported() != GLFW_TRUE) {
    throw Error(ErrorKind::Device,
                "cannot draw to a window: the Vulkan loader (libvulkan.so.1) was not found");
  }
}

}  // namespace

Window::Window(std::uint32_t width, std::uint32_t height, const std::string& title,
               std::function<void(const std::string&)> on_lost) {
  init_glfw();
  on_lost_ = std::move(on_lost);
  on_lost_display = &on_lost_;
  previous_io_ = reinterpret_cast<void (*)()>(XSetIOErrorHandler(on_x_io_error));
  previous_error_ = reinterpret_cast<void (*)()>(XSetErrorHandler(on_x_error));
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  window_ = glfwCreateWindow(static_cast<int>(width), static_cast<int>(height), title.c_str(),
                             nullptr, nullptr);
  if (window_ == nullptr) throw Error(ErrorKind::Device, "cannot open a window: " + glfw_error());
  // The overlay needs at least 2 x 2 pixels.
  glfwSetWindowSizeLimits(window_, 2, 2, GLFW_DONT_CARE, GLFW_DONT_CARE);
  glfwSetWindowUserPointer(window_, this);
  guard_x_errors();
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
    if (action == GLFW_PRESS)
      static_cast<Window*>(glfwGetWindowUserPointer(w))->keys_.push_back(key);
  });
}

Window::~Window() {
  guard_x_errors();  // a window another program destroyed is refused quietly as it closes
  if (window_ != nullptr) glfwDestroyWindow(window_);
  // The refusals of those requests arrive with the next reply: here, while
  // the window's handler still takes them.
  if (Display* display = glfwGetX11Display(); display != nullptr) XSync(display, False);
  refused[0] = '\0';
  XSetErrorHandler(reinterpret_cast<XErrorHandler>(previous_error_));
  XSetIOErrorHandler(reinterpret_cast<XIOErrorHandler>(previous_io_));
  on_lost_display = nullptr;
}

std::vector<const char*> Window::required_extensions() {
  std::uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  if (names == nullptr) {
    // GLFW names no cause when the instance lacks the surface extensions.
    std::uint32_t available = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &available, nullptr);
    std::vector<VkExtensionProperties> extensions(available);
    vkEnumerateInstanceExtensionProperties(nullptr, &available, extensions.data());
    const bool surface = std::any_of(extensions.begin(), extensions.end(), [](const auto& e) {
      return std::string(e.extensionName) == VK_KHR_SURFACE_EXTENSION_NAME;
    });
    throw Error(ErrorKind::Device,
                surface ? "cannot draw to a window: no Vulkan driver offers the surface extension "
                          "of this window system (" +
                              glfw_error() + ")"
                        : "cannot draw to a window: no Vulkan driver is installed (the Vulkan "
                          "instance offers no VK_KHR_surface; install one, e.g. "
                          "mesa-vulkan-drivers, or check VK_ICD_FILENAMES)");
  }
  return {names, names + count};
}

VkSurfaceKHR Window::create_surface(VkInstance instance) const {
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  vk::check(glfwCreateWindowSurface(instance, window_, nullptr, &surface),
            "creating the window's surface");
  return surface;
}

void Window::poll(double timeout_s) {
  guard_x_errors();
  if (timeout_s > 0) {
    glfwWaitEventsTimeout(timeout_s);
  } else {
    glfwPollEvents();
  }
  throw_refused();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_) == GLFW_TRUE; }

void Window::framebuffer_size(std::uint32_t& width, std::uint32_t& height) const {
  int w = 0, h = 0;
  guard_x_errors();
  glfwGetFramebufferSize(window_, &w, &h);
  throw_refused();
  width = static_cast<std::uint32_t>(w > 0 ? w : 0);
  height = static_cast<std::uint32_t>(h > 0 ? h : 0);
}

std::vector<int> Window::take_keys() { return std::exchange(keys_, {}); }

}  // namespace gpuhist::view
