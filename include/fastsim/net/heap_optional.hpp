// An optional value kept on the heap: a pointer's size when absent, for the rarely set
// parts of a configuration held by many objects (LinkConfig's RED, marking and AQM
// parameters: at 10 000 flows 40 002 links carry them, nearly all absent). Copies are
// deep; the interface is std::optional's (has_value, bool, *, ->, emplace, reset, and
// assignment from a value, an std::optional or std::nullopt).
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

namespace fastsim::net {

template <class T>
class HeapOptional {
 public:
  HeapOptional() = default;
  HeapOptional(std::nullopt_t) {}                           // NOLINT(google-explicit-constructor): as std::optional
  HeapOptional(const T& v) : p_(std::make_unique<T>(v)) {}  // NOLINT(google-explicit-constructor)
  HeapOptional(const std::optional<T>& v) {                 // NOLINT(google-explicit-constructor)
    if (v)
      p_ = std::make_unique<T>(*v);
  }
  HeapOptional(const HeapOptional& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  HeapOptional(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(const HeapOptional& o) {
    if (this != &o)
      p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  HeapOptional& operator=(HeapOptional&&) noexcept = default;
  ~HeapOptional() = default;

  [[nodiscard]] bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return p_ != nullptr; }
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }
  [[nodiscard]] const T& value() const {
    if (!p_)
      throw std::bad_optional_access();
    return *p_;
  }
  template <class... Args>
  T& emplace(Args&&... args) {
    p_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *p_;
  }
  void reset() { p_.reset(); }

 private:
  std::unique_ptr<T> p_;
};

}  // namespace fastsim::net
