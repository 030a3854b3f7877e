/* The failure message of the current call and the `get_errors` export (docs/udf-abi.md,
 * "Errors"): a pointer to an 8-byte big-endian length then the UTF-8 text, or 0 when none. */
#include <stdarg.h>

#include "error_record.h"
#include "framing.h"

#define HG_ERROR_CAPACITY 4096u
static const char kTruncated[] = "... (truncated)";

/* Static, so that a failure to allocate can still be reported. */
static struct {
  uint8_t length[8]; /* big-endian, filled in by get_errors */
  char text[HG_ERROR_CAPACITY];
} error_frame __attribute__((aligned(8)));
static uint32_t error_len;
static bool error_recorded;
static bool error_truncated;

bool hg__error_begin(void) {
  if (error_recorded) return false;
  error_recorded = true;
  error_len = 0;
  error_truncated = false;
  return true;
}

/* Length of the valid UTF-8 sequence at the start of p[0..n), or 0 if it is not one (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF). */
static uint32_t utf8_sequence(const uint8_t* p, uint32_t n) {
  uint8_t b = p[0];
  if (b < 0x80) return 1;
  uint32_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
  if (len == 0 || b > 0xF4 || len > n) return 0;
  for (uint32_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
  }
  if (b == 0xE0 && p[1] < 0xA0) return 0; /* overlong */
  if (b == 0xED && p[1] >= 0xA0) return 0; /* surrogate */
  if (b == 0xF0 && p[1] < 0x90) return 0; /* overlong */
  if (b == 0xF4 && p[1] >= 0x90) return 0; /* above U+10FFFF */
  return len;
}

/* The text goes in as valid UTF-8 (get_errors promises it, and messages quote input column
 * names): each invalid byte becomes U+FFFD. At the capacity the text is cut between two
 * characters, never inside one. */
void hg__error_append(const char* text, uint32_t len) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  const uint32_t capacity = HG_ERROR_CAPACITY - (uint32_t)(sizeof kTruncated - 1);
  const uint8_t* p = (const uint8_t*)text;
  for (uint32_t i = 0; i < len && !error_truncated;) {
    uint32_t n = utf8_sequence(p + i, len - i);
    const char* bytes = n == 0 ? kReplacement : text + i;
    uint32_t size = n == 0 ? 3 : n;
    if (error_len + size > capacity) {
      error_truncated = true;
      break;
    }
    __builtin_memcpy(error_frame.text + error_len, bytes, size);
    error_len += size;
    i += n == 0 ? 1 : n;
  }
}

void hg__error_append_str(const char* text) {
  uint32_t len = 0;
  while (text[len] != '\0') ++len;
  hg__error_append(text, len);
}

void hg__error_append_int(int64_t v) {
  char buf[HG_INT_TEXT_SIZE];
  hg__error_append_str(hg_int_text(v, buf));
}

void hg__error_prepend(const char* text) {
  if (!error_recorded) return;
  uint32_t len = 0;
  while (text[len] != '\0') ++len;
  uint32_t room = HG_ERROR_CAPACITY - (uint32_t)(sizeof kTruncated - 1);
  if (len > room) return;
  uint32_t kept = error_len + len > room ? room - len : error_len;
  if (kept < error_len) {
    error_truncated = true;
    while (kept > 0 && ((uint8_t)error_frame.text[kept] & 0xC0) == 0x80) --kept;
  }
  __builtin_memmove(error_frame.text + len, error_frame.text, kept);
  __builtin_memcpy(error_frame.text, text, len);
  error_len = kept + len;
}

int hg_fail(const char* message) {
  if (hg__error_begin()) hg__error_append_str(message);
  return HG_ERROR;
}

int hg_failv(const char* part, ...) {
  if (!hg__error_begin()) return HG_ERROR;
  va_list parts;
  va_start(parts, part);
  for (const char* p = part; p != NULL; p = va_arg(parts, const char*)) hg__error_append_str(p);
  va_end(parts);
  return HG_ERROR;
}

bool hg_failed(void) { return error_recorded; }

void hg_clear_error(void) {
  error_recorded = false;
  error_len = 0;
  error_truncated = false;
}

const char* hg_int_text(int64_t v, char* buf) {
  char digits[20];
  int n = 0;
  uint64_t u = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  int at = 0;
  if (v < 0) buf[at++] = '-';
  while (n > 0) buf[at++] = digits[--n];
  buf[at] = '\0';
  return buf;
}

HG_EXPORT("get_errors") const void* get_errors(void) {
  if (!error_recorded) return NULL;
  uint32_t len = error_len;
  if (error_truncated) {
    __builtin_memcpy(error_frame.text + len, kTruncated, sizeof kTruncated - 1);
    len += (uint32_t)(sizeof kTruncated - 1);
  }
  hg__store_be64(error_frame.length, len);
  return &error_frame;
}
