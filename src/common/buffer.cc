#include "higgins/buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace higgins {
namespace {

constexpr size_t kAlignment = 64;

size_t RoundUp64(size_t n) { return (n + kAlignment - 1) & ~(kAlignment - 1); }

/// `size` bytes (rounded up to 64) at a 64-byte boundary. Not std::aligned_alloc: glibc serves
/// that by carving an aligned piece out of a larger chunk and freeing the rest, which fragments
/// the heap; under one-row produces that path took an eighth of the broker's time (perf, see
/// docs/performance.md). Instead a plain malloc of 64 bytes more, aligned by hand, with the
/// distance back to the malloc'd address in the byte before the aligned one (malloc's 16-byte
/// alignment makes it 16, 32, 48 or 64). Freed by AlignedRelease.
uint8_t* AlignedAllocate(size_t size) {
  const size_t capacity = size == 0 ? kAlignment : RoundUp64(size);
  auto* raw = static_cast<uint8_t*>(std::malloc(capacity + kAlignment));
  if (raw == nullptr) throw std::bad_alloc();
  const auto address = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (address + kAlignment) & ~uintptr_t{kAlignment - 1};
  auto* p = raw + (aligned - address);
  p[-1] = static_cast<uint8_t>(aligned - address);
  return p;
}

/// Frees what AlignedAllocate returned (null is ignored).
void AlignedRelease(uint8_t* p) {
  if (p != nullptr) std::free(p - p[-1]);
}

struct AlignedFree {
  void operator()(uint8_t* p) const { AlignedRelease(p); }
};

}  // namespace

Buffer Buffer::Copy(std::span<const uint8_t> bytes) {
  size_t capacity = RoundUp64(bytes.size());
  uint8_t* p = AlignedAllocate(capacity);
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  std::memset(p + bytes.size(), 0, capacity - bytes.size());
  std::shared_ptr<uint8_t> owner(p, AlignedFree());
  return Buffer(p, bytes.size(), std::move(owner));
}

Buffer Buffer::FromVector(std::vector<uint8_t> bytes) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  return Buffer(owner->data(), owner->size(), owner);
}

BufferBuilder& BufferBuilder::operator=(BufferBuilder&& other) noexcept {
  if (this != &other) {
    AlignedRelease(data_);
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  return *this;
}

BufferBuilder::~BufferBuilder() { AlignedRelease(data_); }

void BufferBuilder::Grow(size_t min_capacity) {
  size_t capacity = std::max(min_capacity, capacity_ + capacity_ / 2);
  capacity = RoundUp64(std::max(capacity, kAlignment));
  uint8_t* p = AlignedAllocate(capacity);
  if (size_ != 0) std::memcpy(p, data_, size_);
  AlignedRelease(data_);
  data_ = p;
  capacity_ = capacity;
}

void BufferBuilder::Resize(size_t new_size) {
  if (new_size > capacity_) Grow(new_size);
  if (new_size > size_) std::memset(data_ + size_, 0, new_size - size_);
  size_ = new_size;
}

Buffer BufferBuilder::Finish() {
  if (data_ == nullptr) Grow(kAlignment);
  // Zero the padding up to the 64-byte boundary (capacity is a multiple of 64).
  std::memset(data_ + size_, 0, RoundUp64(size_) - size_);
  std::shared_ptr<uint8_t> owner(data_, AlignedFree());
  Buffer out(data_, size_, std::move(owner));
  data_ = nullptr;
  size_ = capacity_ = 0;
  return out;
}

}  // namespace higgins
