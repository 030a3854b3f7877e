/* Building the recorded failure message piece by piece (errors.c). Not part of the public API
 * (higgins/udf.h). */
#ifndef HIGGINS_SDK_ERROR_RECORD_H
#define HIGGINS_SDK_ERROR_RECORD_H

#include <higgins/udf.h>

/* Appends to the message being recorded (hg_failv builds on these). hg__error_begin returns
 * false when a failure is already recorded: the first one wins. */
bool hg__error_begin(void);
void hg__error_append(const char* text, uint32_t len);
void hg__error_append_str(const char* text);
void hg__error_append_int(int64_t v);
/* Puts `text` in front of the recorded message (to say which input it is about). */
void hg__error_prepend(const char* text);

#endif /* HIGGINS_SDK_ERROR_RECORD_H */
