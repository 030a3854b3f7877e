#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace higgins {

/// Immutable, shared, sliceable bytes. A Buffer is a view (data, size) plus an owner that keeps
/// the memory alive, so slicing and sharing never copy. Copying a Buffer copies a shared_ptr.
/// Thread-safety: the bytes are never mutated after construction; concurrent readers are safe.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const uint8_t* data, size_t size, std::shared_ptr<const void> owner)
      : data_(data), size_(size), owner_(std::move(owner)) {}

  /// Copies `bytes` into a new 64-byte aligned allocation.
  static Buffer Copy(std::span<const uint8_t> bytes);
  static Buffer Copy(std::string_view bytes) {
    return Copy({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  }
  /// Takes ownership of a vector without copying its bytes (alignment is that of operator new).
  static Buffer FromVector(std::vector<uint8_t> bytes);
  /// Wraps memory the caller keeps alive for the Buffer's whole lifetime (no owner).
  static Buffer Unowned(const uint8_t* data, size_t size) { return Buffer(data, size, nullptr); }

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<const uint8_t> span() const { return {data_, size_}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), size_}; }
  const std::shared_ptr<const void>& owner() const { return owner_; }

  /// A view of [offset, offset + length) sharing ownership. Caller guarantees the range is valid.
  Buffer Slice(size_t offset, size_t length) const { return Buffer(data_ + offset, length, owner_); }

  bool Equals(const Buffer& other) const {
    return size_ == other.size_ && (size_ == 0 || std::memcmp(data_, other.data_, size_) == 0);
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<const void> owner_;
};

/// A growable, 64-byte aligned byte buffer whose capacity is always a multiple of 64 bytes (Arrow's
/// recommended layout). Memory past size() is never zero-filled on growth (that would double the
/// memory passes of large writes); Finish() zeroes the padding up to the next 64-byte boundary so
/// no stale bytes escape. Reserve() grows to at least what is asked (geometrically, x1.5, when
/// appending piecemeal), so a caller that knows the final size pays one allocation. Finish() hands
/// the bytes over as a Buffer without copying. Not thread-safe; movable, not copyable.
class BufferBuilder {
 public:
  BufferBuilder() = default;
  BufferBuilder(const BufferBuilder&) = delete;
  BufferBuilder& operator=(const BufferBuilder&) = delete;
  BufferBuilder(BufferBuilder&& other) noexcept { *this = std::move(other); }
  BufferBuilder& operator=(BufferBuilder&& other) noexcept;
  ~BufferBuilder();

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  /// Ensures capacity for at least `additional` more bytes past size().
  void Reserve(size_t additional) {
    if (size_ + additional > capacity_) Grow(size_ + additional);
  }
  /// Sets size to `new_size`; bytes added are zeroed.
  void Resize(size_t new_size);
  void Append(const void* bytes, size_t n) {
    Reserve(n);
    if (n != 0) std::memcpy(data_ + size_, bytes, n);
    size_ += n;
  }
  void Append(std::span<const uint8_t> bytes) { Append(bytes.data(), bytes.size()); }
  template <typename T>
  void AppendValue(const T& value) { Append(&value, sizeof(T)); }
  /// Appends without a capacity check. Caller must have reserved.
  template <typename T>
  void UnsafeAppendValue(const T& value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += sizeof(T);
  }
  void AppendZeros(size_t n) { Resize(size_ + n); }
  /// Appends `n` bytes that the caller must overwrite entirely before Finish() (for example a
  /// decompressor's output) and returns where they start.
  uint8_t* AppendUninitialized(size_t n) {
    Reserve(n);
    uint8_t* start = data_ + size_;
    size_ += n;
    return start;
  }
  /// Forgets the contents and keeps the allocation for reuse.
  void Clear() { size_ = 0; }

  /// Returns the bytes as an immutable Buffer and resets the builder to empty.
  Buffer Finish();

 private:
  void Grow(size_t min_capacity);

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace higgins
